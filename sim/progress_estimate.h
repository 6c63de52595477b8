// The wall time a run still needs, for its progress lines: from how much of
// a known amount of work (simulated cycles asked for, bytes a workload will
// move) is done and how fast it went lately. The speed is taken over the
// last `window_s` of wall time (at least the last two samples), not since
// the start: elaboration and a warm-up's empty network would otherwise bias
// it. Pure arithmetic on what it is told; nothing here touches the model.
#pragma once
#include <deque>
#include <optional>
#include <string>
#include <utility>

namespace kairo::sim {

class ProgressEstimate {
 public:
  // `total`: the work the run will do, in any unit (> 0).
  explicit ProgressEstimate(double total, double window_s = 30) : total_(total), window_s_(window_s) {}
  // At `wall_s` since the start, `done` of the total is done. Returns the
  // wall seconds still needed at the recent speed, or nothing while there is
  // no speed to go by (fewer than two samples, or no work done between them).
  std::optional<double> update(double wall_s, double done) {
    samples_.emplace_back(wall_s, done);
    while (samples_.size() > 2 && wall_s - samples_[1].first >= window_s_) samples_.pop_front();
    if (samples_.size() < 2) return std::nullopt;
    const auto& [w0, d0] = samples_.front();
    if (done <= d0 || wall_s <= w0) return std::nullopt;
    const double rate = (done - d0) / (wall_s - w0);
    return done >= total_ ? 0.0 : (total_ - done) / rate;
  }
  // True once, the first time an estimate above `limit_s` is seen within the
  // run's first `within_s` of wall time: the moment to warn that the run is long.
  bool warn_long(double wall_s, double remaining_s, double limit_s = 3600, double within_s = 60) {
    if (warned_ || wall_s > within_s || remaining_s <= limit_s) return false;
    return warned_ = true;
  }

 private:
  double total_, window_s_;
  std::deque<std::pair<double, double>> samples_;
  bool warned_ = false;
};

// "12 s", "4 min 05 s", "2 h 13 min", "3.4 days": a wall time for people.
std::string format_wall(double seconds);

}  // namespace kairo::sim
