// kairo run's run and diagnosis: the programs launched on their ranks, the
// kernel run to the end with progress, and why a run that ended failed.
#pragma once
#include <chrono>
#include <nlohmann/json.hpp>

#include "app/run_assembly.h"
#include "platforms/energy.h"
#include "platforms/partition.h"
#include "sim/kernel.h"

namespace kairo::app {

// The run's cost in wall time, from the start of the machine's assembly.
struct RunCost {
  double elaborate_s = 0;  // assembly and launch
  double wall_s = 0;       // all of it, the run included
};

// Data mode's send buffers filled, the workload attached to the network, and
// every rank's program launched.
void launch(RunPlan& plan, RunMachine& m);

// Runs the kernel until nothing is left to do; progress on stderr unless
// quiet. `started` is when the machine's assembly began.
RunCost simulate(sim::Kernel& kernel, RunMachine& m, bool quiet,
                 std::chrono::steady_clock::time_point started);

// What the diagnosis and the report read of the run as a whole: this
// process's, from its machine; in a run split over processes, process 0
// gets every process's combined (app/run_parallel.h).
struct RunTotals {
  int ranks = 0, finished = 0;
  sim::Time finished_at = 0;     // the last program's end
  std::vector<int> unfinished;   // the first kUnfinishedShown ranks that did not finish
  int failed_rank = -1;          // the first rank whose program threw (-1: none),
  std::string failure;           // and why
  std::uint64_t in_network = 0;  // packets
  std::uint64_t packet_hops = 0, flit_hops = 0, events = 0;
  std::array<std::uint64_t, sim::kEventBlocks> events_by_block = {};  // indexed by sim::EventBlock
  platforms::EnergyTally energy;        // the routers', links' and NICs' (the OCS's: run_summary)
  nlohmann::json nic_counters;          // a split run's partial build: the engines' summed (null: read them)
  std::string tni_table;                // and its --tni-counters CSV, gathered (empty: read the engines)
  std::uint64_t dma_bytes_written = 0;  // the NICs' into node memory: the bytes the run delivered
  static constexpr std::size_t kUnfinishedShown = 8;
};
// With `part`, the energy counts only the routers and NICs process `rank`
// owns (a split run's; SplitRun::gather adds them up).
RunTotals run_totals(RunMachine& m, const platforms::Partition* part = nullptr, int rank = 0);

// Why the run failed, said on stderr: a deadlock (the blocked ports and
// VCs), a rank's program that threw, or ranks that never finished.
// kExitSimFailure then, else kExitOk.
int diagnose(const RunPlan& plan, RunMachine& m, const RunTotals& t);

}  // namespace kairo::app
