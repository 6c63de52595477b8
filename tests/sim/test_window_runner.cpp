// sim::run_windows in a world of one process (no mpirun): windows follow the
// events, skipping idle time, and a progress line reports the window's start
// and the summed figures (in one process, this process's own).
#include <gtest/gtest.h>

#include <vector>

#include "sim/window_runner.h"

namespace kairo::sim {
namespace {

struct Nothing : Boundary {
  void take_outgoing(std::vector<std::vector<char>>&) override {}
  void deliver(int, const std::vector<char>&, Time) override {}
};

struct Tick : EventTarget {
  std::vector<Time> seen;
  EventQueue* q = nullptr;
  void on_event(std::uint32_t, std::uint32_t, void*) override { seen.push_back(q->now()); }
};

TEST(WindowRunner, WindowsSkipIdleTimeAndProgressReportsEachWindowsStart) {
  const MpiWorld& world = MpiWorld::get();
  ASSERT_FALSE(world.parallel()) << "run without mpirun";
  EventQueue q;
  Tick tick;
  tick.q = &q;
  // Events at 0, 5, 100 and 1000 ns; a lookahead of 10 ns: the windows start
  // at 0 (taking 0 and 5), 100 and 1000, never in the idle time between.
  const std::vector<Time> at = {0, 5000, 100000, 1000000};
  for (Time t : at) q.at(t, kPrioState, &tick, 0);
  WindowProgress progress;
  progress.every_s = 0;  // a line every window
  std::vector<Time> lines;
  progress.figures = [&] { return std::vector<std::uint64_t>{tick.seen.size(), 7}; };
  progress.print = [&](Time now, const std::vector<std::uint64_t>& sums, double wall) {
    lines.push_back(now);
    EXPECT_EQ(sums.size(), 2u);
    EXPECT_EQ(sums[1], 7u);  // one process: the sum is its own figure
    // events handled before the window at `now`: those earlier than it
    std::uint64_t before = 0;
    for (Time t : at) before += t < now;
    EXPECT_EQ(sums[0], before);
    EXPECT_GE(wall, 0.0);
  };
  Nothing b;
  WindowOptions opt;
  opt.progress = &progress;
  const WindowStats st = run_windows(q, world, b, 10000, opt);
  EXPECT_EQ(tick.seen, at);
  EXPECT_EQ(st.windows, 3u);
  EXPECT_EQ(lines, (std::vector<Time>{0, 100000, 1000000}));
}

}  // namespace
}  // namespace kairo::sim
