// The one program of the collective workloads (collective.h), and what a
// collective adds to it: a Spec, which says where the collective's data
// starts and must end up, its parameters beside the algorithm's and how its
// ranks are timed. The algorithm itself (builder, rank-count rule, knobs,
// buffers, figures) comes from its entry in sw/collectives/algorithms.cpp.
// Most Specs are in collective.cpp; the barrier's, the all-to-all's and the
// neighbor exchange's, which have more of their own, are in barrier.cpp,
// alltoall.cpp and neighbor.cpp.
#pragma once
#include <vector>

#include "sw/collectives/algorithms.h"
#include "sw/collectives/neighbor.h"
#include "sw/collectives/torus_ranks.h"
#include "sw/workloads/workload.h"

namespace kairo::sw {

class CollectiveRun;

// How the ranks run their schedule and how the run is timed.
enum class Timing : std::uint8_t {
  // One schedule from kStart: latency = the slowest rank's end;
  // details.phases (Spec::phases) = when each phase's last step ended.
  kOnce,
  // `--param iterations` schedules back to back, each with its own tags:
  // latency = the last rank's exit minus the last rank's entry, averaged
  // over the iterations (held(): no rank left one before every rank entered it).
  kIterations,
  // One schedule cut where its steps' phase changes, each stretch timed on
  // its own: details.phases = each stretch's end (a "round" where a phase recurs).
  kPhaseRuns,
};

struct Spec {
  coll::Collective collective;
  const char* summary;  // what it does, for workloads()
  // --param size's default and least value; a default of 0: no size (barrier).
  std::uint64_t size_default = 0, size_min = 1;
  std::uint64_t size_max = 0;  // 0: the NIC's largest descriptor (a message is one put)
  bool root = false;           // takes --param root
  bool reduction = false;      // doubles summed: reduce_rate_mbps, receive regions from the schedule's slots
  const char* too_few = nullptr;  // refused below 2 ranks with this message (null: the algorithm's rule says)
  // The bytes that reach each rank, for bandwidth_gbps (null: size).
  double (*bytes)(const coll::Call& c) = nullptr;
  // The name in details of the length of rank 0's (or the root's) schedule, or null.
  const char* steps_detail = nullptr;
  bool phases = false;  // details.phases (kOnce)
  Timing timing = Timing::kOnce;
  bool skew = false;         // --param skew_ns: staggered starts (staggered_start)
  bool ranks_detail = true;  // details.ranks
  // Where its data starts (filled before a data-mode run) and must end up.
  struct Data {
    void (*setup)(const CollectiveRun& w, HostMemory& m) = nullptr;
    bool (*verify)(const CollectiveRun& w, HostMemory& m) = nullptr;
    const char* failure = nullptr;  // when verify fails
  } data = {};
  // The collective's own parameters, beyond its algorithms' knobs, and its
  // own figures.
  struct Own {
    const char* names = nullptr;  // its parameters, for the summary ("grid, nics")
    // Reads them, after the algorithm's knobs.
    void (*read)(CollectiveRun& w, Params& prm, const MachineInfo& m) = nullptr;
    void (*echo)(const CollectiveRun& w, nlohmann::json& params) = nullptr;  // into params()
    void (*details)(const CollectiveRun& w, Outcome& o) = nullptr;           // into the outcome
  } own = {};
};

class CollectiveRun final : public Workload {
 public:
  CollectiveRun(const Spec& spec, Params& prm, const MachineInfo& m);

  // What the Specs' hooks read.
  const coll::Algorithm& algorithm() const { return *algo_; }
  const coll::Call& call() const { return c_; }
  const MachineInfo& machine() const { return m_; }
  int ranks() const { return c_.p; }
  int root() const { return c_.root; }
  std::uint64_t size() const { return c_.size; }
  std::uint64_t recv_base() const { return recv_base_; }
  const coll::Grid& grid() const { return grid_; }
  int nics() const { return c_.nics; }
  sim::Time skew() const { return skew_; }
  const std::vector<sim::Time>& ends() const { return end_; }
  bool held() const;  // kIterations
  // The neighbor exchange's grid and NICs (its Spec::Own::read).
  void set_grid(coll::Grid g, int nics, std::uint64_t max_descriptor);
  // The ranks' mesh/torus places (an algorithm that needs_torus), for a
  // Spec::Own::read to reorder.
  coll::TorusRanks& torus() { return torus_; }
  const coll::TorusRanks& torus() const { return torus_; }

  nlohmann::json params() const override;
  Footprint footprint() const override { return collective_footprint(*algo_, c_); }
  void setup(HostMemory& m) override {
    if (spec_.data.setup) spec_.data.setup(*this, m);
  }
  fw::Task program(fw::Rank& r) override;
  void results(Results& v) override;
  Outcome outcome(HostMemory* m) override;

 private:
  coll::Schedule schedule(int rank, std::uint32_t tag_base = 1) const;
  // program's three timings, each a coroutine of its own: every rank holds
  // its frame for the whole run (82,944 at once on tofu-k), and one
  // coroutine for all three would hold the locals of all three.
  fw::Task run_once(fw::Rank& r);
  fw::Task run_iterations(fw::Rank& r);
  fw::Task run_phases(fw::Rank& r);
  Outcome iterations_outcome() const;
  nlohmann::json run_phase_times() const;

  const Spec& spec_;
  MachineInfo m_;
  const coll::Algorithm* algo_ = nullptr;
  coll::Call c_;
  coll::Grid grid_;
  coll::TorusRanks torus_;
  coll::Memory memory_;
  std::uint64_t recv_base_ = 0;
  std::size_t root_steps_ = 0;
  double rate_ = 1e10;
  int iterations_ = 1;
  sim::Time skew_ = 0;  // --param skew_ns, in ps
  bool ok_ = true;
  // kOnce and kPhaseRuns: each rank's end; kOnce: its phases.
  std::vector<sim::Time> end_;
  coll::PhaseLog phases_;
  // kIterations, per iteration over the ranks (not per rank and iteration:
  // that would be terabytes for a million barriers on tofu-k).
  std::vector<sim::Time> last_in_, first_out_, last_out_;
  // kPhaseRuns: each stretch's phase name in schedule order, and when its ranks left it.
  std::vector<const char*> run_names_;
  std::vector<coll::PhaseLog> logs_;
};

}  // namespace kairo::sw
