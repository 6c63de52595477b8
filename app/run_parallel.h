// `kairo run` under mpirun (docs/parallel.md): one machine split
// over the processes. Each process runs the ranks of the nodes its routers
// carry, and their engines, memories and programs; the stand-ins on the cut
// links carry packets (with their RDMA headers and payloads) and credits,
// and the runtime's registrations travel once, after time 0. On the hybrid
// network the optical stand-ins carry what crosses a pathway between
// processes (platforms/ocs_boundary.h).
//
// A process builds only its own part of a mesh/torus (platforms::OwnedPart)
// unless process 0 must hold every block at the end: waveforms, counter
// logs, data mode (its verification reads every memory), or a workload that
// reads the blocks (Workload::reads_blocks_at_end). Then,
// and on switched fabrics, every process builds the whole machine. When the
// run has ended, process 0 gets what the report reads: the totals, the
// workload's recorded results, the engines' counters (summed over the
// processes and the --tni-counters lines, or with a whole machine every
// engine's, with every router port's and optical port's records) and, in
// data mode, every node memory's written pages, so that its report and
// verification are one process's.
#pragma once
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/run_assembly.h"
#include "app/run_machine.h"
#include "platforms/boundary.h"
#include "platforms/ocs_boundary.h"
#include "platforms/partition.h"
#include "sim/mpi_world.h"
#include "sim/window_runner.h"

namespace kairo::app {

class SplitRun {
 public:
  // The partition (--partition) of the plan's platform over the processes;
  // throws std::invalid_argument for a platform that does not split that way
  // (naming mpirun -np or --partition). Whether every process builds the
  // whole machine follows from what `a` asks for (see the file comment).
  SplitRun(RunPlan& plan, const RunArgs& a);
  ~SplitRun();
  // What this process builds.
  platforms::OwnedPart owned_part() const;

  // Once the machine is built, before launch: the global deadlock watch,
  // and the ranks this process runs (the runtime launches only those; the
  // host fills only their memories).
  void prepare(RunMachine& m);
  // After the observers are attached (their probes name the peers), before
  // the run: the stand-ins on the cut links.
  void install_boundary();
  // The windows, to the end of the run; unless `quiet`, process 0 prints
  // progress lines with every process's figures.
  void run(bool quiet);
  // After the run and the observers' files, on every process: process 0's
  // totals become the run's, and its machine and workload take the others'
  // results (see the file comment).
  void gather(RunTotals& t);
  const platforms::Partition& partition() const { return part_; }
  // The JSON's "parallel" object: the split's cost (not a simulated result).
  nlohmann::json report() const;

 private:
  void mirror_memory();
  void mirror_blocks();
  nlohmann::json nic_counters() const;
  std::string tni_table() const;

  RunPlan& plan_;
  RunMachine* m_ = nullptr;
  bool whole_;
  bool tni_table_;  // --tni-counters
  const sim::MpiWorld& world_;
  platforms::Partition part_;
  std::vector<bool> owned_ranks_;
  sim::StillnessWatch watch_;
  std::unique_ptr<platforms::RouterBoundary> boundary_;
  std::unique_ptr<platforms::OcsBoundary> optical_;  // the hybrid's optical pathways
  std::unique_ptr<sim::Boundary> both_;
  sim::WindowStats windows_;
};

}  // namespace kairo::app
