// kairo run's progress lines (app/run_progress.h).
#include "app/run_progress.h"

#include <fmt/format.h>

#include <iostream>

#include "sim/units.h"

namespace kairo::app {

std::uint64_t dma_bytes_read(platforms::RdmaMachine& m) {
  std::uint64_t b = 0;
  for (hw::NodeId n = 0; n < m.nodes(); ++n)
    if (m.has_node(n))  // a split run's partial build: this process's nodes
      for (int t = 0; t < m.tnis_per_node(); ++t) b += m.tni(n, t).counters().dma_bytes_read;
  return b;
}

void RunProgress::report(double wall_s, const RunFigures& f) {
  std::optional<double> left;
  if (f.ranks > 0 && f.planned_ranks == f.ranks && f.work_total > 0) {
    if (!estimate_) {
      estimate_.emplace(double(f.work_total));
      estimate_->update(0, 0);
    }
    left = estimate_->update(wall_s, double(f.work_done));
  }
  if (!quiet_) {
    const std::string over = f.processes > 1 ? fmt::format(" over {} processes", f.processes) : "";
    const std::string eta = left ? fmt::format(", about {} left", sim::format_wall(*left)) : "";
    std::cerr << fmt::format("kairo run: {} simulated, {}/{} ranks done, {:.2f} M events/s{}{}\n",
                             units::format_duration(f.now), f.finished, f.ranks,
                             double(f.events) / wall_s / 1e6, over, eta);
  }
  if (left && estimate_->warn_long(wall_s, *left))
    std::cerr << fmt::format(
        "kairo run: warning: at its present speed this run needs about {} more wall time ({:.1f}% of "
        "its put bytes sent in {}); a smaller --param size or platform runs faster\n",
        sim::format_wall(*left), 100.0 * double(f.work_done) / double(f.work_total),
        sim::format_wall(wall_s));
}

}  // namespace kairo::app
