// Wall times for people (sim/progress_estimate.h).
#include "sim/progress_estimate.h"

#include <fmt/format.h>

#include <cmath>

namespace kairo::sim {

std::string format_wall(double seconds) {
  const double s = std::max(0.0, seconds);
  if (s < 60) return fmt::format("{:.0f} s", s);
  if (s < 3600) {
    const long m = long(s / 60);
    return fmt::format("{} min {:02d} s", m, int(s - 60.0 * double(m)));
  }
  if (s < 86400) {
    const long h = long(s / 3600);
    return fmt::format("{} h {:02d} min", h, int((s - 3600.0 * double(h)) / 60));
  }
  return fmt::format("{:.1f} days", s / 86400);
}

}  // namespace kairo::sim
