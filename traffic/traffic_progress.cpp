// A traffic run's progress lines (traffic/traffic_progress.h).
#include "traffic/traffic_progress.h"

#include <fmt/format.h>

namespace kairo::traffic {

TrafficProgress::TrafficProgress(const TrafficOptions& o, std::uint64_t nodes)
    : o_(o),
      batch_(o.batch_packets > 0),
      total_(batch_ ? double(o.batch_packets) * double(nodes) : double(o.warmup_cycles + o.measure_cycles)),
      estimate_(total_) {
  estimate_.update(0, 0);
}

void TrafficProgress::report(double wall_s, const ProgressFigures& f) {
  const double done = batch_ ? double(f.delivered) : f.cycles;
  const auto left = estimate_.update(wall_s, done);
  std::string eta;
  if (left && batch_)
    eta = fmt::format(", about {} left", sim::format_wall(*left));
  else if (left && done < total_)
    eta = fmt::format(", about {} left to the end of measurement, then the drain", sim::format_wall(*left));
  if (o_.progress) {
    const std::string over = f.processes > 1 ? fmt::format(" over {} processes", f.processes) : "";
    if (batch_)
      o_.progress(
          fmt::format("kairo traffic: batch, {:.0f} cycles simulated, {}/{:.0f} packets delivered, "
                      "{:.2f} M events/s{}{}",
                      f.cycles, f.delivered, total_, f.events_per_s / 1e6, over, eta));
    else
      o_.progress(fmt::format(
          "kairo traffic: {} phase, {:.0f} cycles simulated, measured packets {}/{} "
          "delivered, {:.2f} M events/s{}{}",
          f.phase, f.cycles, f.measured_delivered, f.measured_created, f.events_per_s / 1e6, over, eta));
  }
  if (o_.warn && left && estimate_.warn_long(wall_s, *left))
    o_.warn(
        fmt::format("kairo traffic: warning: at its present speed this run needs about {} more wall time "
                    "{} ({:.0f} of {:.0f} {} done in {}); {} sets its length",
                    sim::format_wall(*left), batch_ ? "to deliver the batch" : "to the end of measurement",
                    done, total_, batch_ ? "packets" : "cycles", sim::format_wall(wall_s),
                    batch_ ? "--batch" : "--warmup-cycles + --measure-cycles"));
}

}  // namespace kairo::traffic
