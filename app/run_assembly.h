// kairo run's assembly: the options checked, the workload made for the
// platform (RunPlan), and the machine built for it (RunMachine): the
// platform with its NICs, the ranks' runtime and the OCS's circuit control.
#pragma once
#include <memory>
#include <optional>

#include "app/run_args.h"
#include "firmware/rank.h"
#include "hw/ocs/circuit_controller.h"
#include "hw/ocs/ocs_fabric.h"
#include "platforms/network.h"
#include "platforms/rdma_machine.h"
#include "sw/workloads/workload.h"

namespace kairo::app {

// Options that exclude each other, and every output path, checked before
// anything runs (a long run must not end in "cannot write"). Throws
// std::invalid_argument saying what is wrong.
void check_run_options(const RunArgs& a);

// The workload on the platform, from the options alone: checked before the
// machine is built and before any rank allocates. Throws
// platforms::ConfigError or std::invalid_argument naming the option.
struct RunPlan {
  explicit RunPlan(const RunArgs& a);
  RunPlan(const RunPlan&) = delete;
  RunPlan& operator=(const RunPlan&) = delete;

  const sw::WorkloadInfo* info;
  platforms::Platform plat;
  bool data;                         // --mode data: real bytes, verified
  std::optional<hw::Topology> topo;  // mesh/torus platforms
  sw::MachineInfo mi;
  sw::Params prm;
  std::unique_ptr<sw::Workload> work;
};

// Ranks' node memories through their debug transport (no simulated time).
class MachineMemory final : public sw::HostMemory {
 public:
  MachineMemory(platforms::RdmaMachine& m, const platforms::Platform& p) : m_(m), p_(p) {}
  void write(int node, std::uint64_t address, const unsigned char* bytes, std::size_t n) override;
  void read(int node, std::uint64_t address, unsigned char* bytes, std::size_t n) override;
  // A run split over processes: writes reach only the ranks owned[r] says
  // (the others' memories are filled by their processes).
  void only(std::vector<bool> owned) { owned_ = std::move(owned); }

 private:
  void transport(int rank, std::uint64_t address, unsigned char* bytes, std::size_t n, tlm::tlm_command cmd);
  platforms::RdmaMachine& m_;
  const platforms::Platform& p_;
  std::vector<bool> owned_;  // empty: every rank
};

// The machine of a plan: rank r on node plat.node_of_rank(r) (the
// platform's ranks.map) with its TNIs, registry and memory.
struct RunMachine {
  // part: what this process builds (a split run's own part, or everything).
  explicit RunMachine(RunPlan& plan, const platforms::OwnedPart& part = {});
  RunMachine(const RunMachine&) = delete;
  RunMachine& operator=(const RunMachine&) = delete;

  sim::EventQueue queue;
  platforms::RdmaMachine machine;
  std::unique_ptr<fw::Runtime> rt;
  platforms::OpticalNetwork* hybrid = nullptr;  // the OCS, if any
  MachineMemory memory;
};

}  // namespace kairo::app
