// A traffic run's progress lines (kairo traffic without --quiet), each with
// the wall time still needed: to the end of the measurement window (then
// the drain, whose length depends on the backlog), or, in batch mode, to the
// last packet of the batch at the recent delivery speed. A run whose
// estimate passes an hour in its first minute says so once, also under
// --quiet (TrafficOptions::warn).
#pragma once
#include <cstdint>
#include <string>

#include "sim/progress_estimate.h"
#include "traffic/traffic_run.h"

namespace kairo::traffic {

// What a progress line reports, summed over a partitioned run's processes.
struct ProgressFigures {
  const char* phase = "";  // "warm-up", "measure", "drain", "batch"
  double cycles = 0;       // simulated
  std::uint64_t delivered = 0, measured_delivered = 0, measured_created = 0;
  double events_per_s = 0;
  int processes = 1;
};

class TrafficProgress {
 public:
  TrafficProgress(const TrafficOptions& o, std::uint64_t nodes);
  // Called every few wall seconds: prints the line through o.progress (if
  // set) and the long-run warning through o.warn (if set).
  void report(double wall_s, const ProgressFigures& f);

 private:
  const TrafficOptions& o_;
  bool batch_;
  double total_;  // cycles to the end of the measurement, or packets of the batch
  sim::ProgressEstimate estimate_;
};

}  // namespace kairo::traffic
