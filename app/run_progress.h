// kairo run's progress lines (without --quiet), with the wall time still
// needed once every rank has announced the bytes its puts will send
// (fw::Rank::plan_work: the collectives' schedules, random-ring and put-bw
// do; pingpong does not, and its lines carry no estimate), at the recent
// speed of the engines' DMA reading them. A run whose estimate passes an hour in its first minute says so
// once on stderr, also under --quiet.
#pragma once
#include <cstdint>
#include <optional>

#include "platforms/rdma_machine.h"
#include "sim/progress_estimate.h"
#include "sim/time.h"

namespace kairo::app {

// What a line reports, summed over a split run's processes.
struct RunFigures {
  sim::Time now = 0;
  std::uint64_t finished = 0, ranks = 0, events = 0;
  std::uint64_t planned_ranks = 0, work_total = 0;  // put bytes announced
  std::uint64_t work_done = 0;                      // bytes the engines' DMA has read
  int processes = 1;
};

// Bytes every engine of `m` has read from node memory (dma_bytes_read).
std::uint64_t dma_bytes_read(platforms::RdmaMachine& m);

class RunProgress {
 public:
  explicit RunProgress(bool quiet) : quiet_(quiet) {}
  void report(double wall_s, const RunFigures& f);

 private:
  bool quiet_;
  std::optional<sim::ProgressEstimate> estimate_;  // once the total is known
};

}  // namespace kairo::app
