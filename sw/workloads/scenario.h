// `kairo run PLATFORM --scenario FILE.yaml` (docs/rdma.md, "Scenarios"): a
// scenario file (sw/workloads/scenario_file.h) run as a workload. Every rank
// of a rank entry registers its regions at time 0 (in order, each at the
// next 256 B of its node memory, under one memid per region name), the data
// mode fills them, and from kStart on the rank runs its steps through the
// firmware API; at their end it waits for every operation it posted and
// has not yet seen complete. outcome() checks `expect:` in file order and
// reports the first expectation that failed, with the file, line and column.
//
// Barriers are a dissemination barrier over puts with notices among the
// ranks that have an entry (ceil(log2 n) rounds; round k puts 8 B to the
// participant 2^k places on and waits for the one 2^k places back), on TNI
// 0, with tags from 2^31 on (a scenario's own tags are below).
#pragma once
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "sw/workloads/scenario_file.h"
#include "sw/workloads/workload.h"

namespace kairo::sw {

// The workload `--scenario FILE` selects (not among workloads(): it takes
// its file, not --param), with its one parameter `file`.
const WorkloadInfo& scenario_workload();
// The file's `set:` section as --set key=value (applied before the command
// line's own --set); throws scenario::ScenarioError.
std::vector<std::string> scenario_sets(const std::string& path);

namespace scenario {

class ScenarioWorkload final : public Workload {
 public:
  ScenarioWorkload(Scenario s, const MachineInfo& m);
  nlohmann::json params() const override { return {{"file", s_.file}, {"scenario", s_.name}}; }
  Footprint footprint() const override;
  void setup(HostMemory& m) override;
  void attach_nics(platforms::RdmaMachine& m) override { machine_ = &m; }
  bool reads_blocks_at_end() const override { return true; }
  fw::Task program(fw::Rank& r) override;
  void results(Results& v) override;
  Outcome outcome(HostMemory* memory) override;  // scenario_outcome.cpp

 private:
  struct Posted {
    int tni = 0;
    std::uint64_t handle = 0;
    int op = -1;  // Op::index
  };
  struct Run;  // one rank's state while its steps run
  fw::Task steps(Run& run, const std::vector<Step>& list);
  fw::Task post(Run& run, const Step& st);
  fw::Task wait(Run& run, const Step& st);
  fw::Task barrier(Run& run);
  void took(Run& run, const nic::Completion& c);
  int memid(const std::string& region) const;
  std::uint64_t address(int program, int region) const {
    return layout_[std::size_t(program)][std::size_t(region)];
  }
  // Expectations (scenario_outcome.cpp): empty when it held, else why not.
  std::string check(const Expectation& e, HostMemory* m) const;  // on each of its ranks
  std::string check_memory(const Expectation& e, int rank, HostMemory& m) const;
  std::string check_completion(const Expectation& e, int rank) const;
  std::string check_counter(const Expectation& e, int rank) const;
  std::string unexpected_error() const;

  Scenario s_;
  MachineInfo m_;
  std::vector<int> program_of_;                     // per rank
  std::vector<std::vector<std::uint64_t>> layout_;  // per program: its regions' addresses, then the barrier's
  std::vector<std::string> region_names_;           // memid = index + 1
  std::vector<std::vector<int>> members_;           // per program: its ranks, in order (relative peers)
  std::vector<int> participants_;                   // the ranks with an entry, in order (the barrier's)
  bool barriers_ = false;
  platforms::RdmaMachine* machine_ = nullptr;
  // Recorded by the programs, per (rank, operation step): a bit per status
  // its completions had, and how many completions it had.
  std::vector<std::uint64_t> statuses_, completions_;
  std::uint64_t end_ = 0;  // when the last rank finished its steps
};

}  // namespace scenario
}  // namespace kairo::sw
