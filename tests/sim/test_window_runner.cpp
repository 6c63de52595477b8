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

// Peers given (none here): after an agreement that finds no idle time
// ahead, the next windows run without one, 1, 2, 4 ... in a row; idle time
// found by an agreement starts the count again.
TEST(WindowRunner, BusyStretchesRunWindowsWithoutAgreeing) {
  const MpiWorld& world = MpiWorld::get();
  const std::vector<int> peers;
  Nothing b;
  {  // events at 0 and 1 us, lookahead 10 ns
    EventQueue q;
    Tick tick;
    tick.q = &q;
    q.at(0, kPrioState, &tick, 0);
    q.at(1000000, kPrioState, &tick, 0);
    WindowOptions opt;
    opt.peers = &peers;
    const WindowStats st = run_windows(q, world, b, 10000, opt);
    // agreement at 0 (no idle time: one window without agreeing follows, [10, 20) ns),
    // agreement at 20 ns (idle until 1 us: back to agreeing), window at 1 us, agreement: nothing left
    EXPECT_EQ(tick.seen, (std::vector<Time>{0, 1000000}));
    EXPECT_EQ(st.windows, 3u);
    EXPECT_EQ(st.agreements, 3u);
  }
  {  // an event every 4 ns for 400 ns, and a sync event at 123 ns that a window must start at
    EventQueue q;
    Tick tick, sync;
    tick.q = sync.q = &q;
    std::vector<Time> at;
    for (Time t = 0; t < 400000; t += 4000) at.push_back(t), q.at(t, kPrioState, &tick, 0);
    q.at(123000, kPrioSync, &sync, 0);
    WindowOptions opt;
    opt.peers = &peers;
    opt.max_unagreed = 4;
    const WindowStats st = run_windows(q, world, b, 10000, opt);
    EXPECT_EQ(tick.seen, at);
    EXPECT_EQ(sync.seen, (std::vector<Time>{123000}));
    // Agreed windows start at the next event, the others at the last end:
    //   A [0,10) U [10,20) | A [20,30) U U -> 50 | A [52,62) U x4 -> 102 |
    //   A [104,114) U [114,123) (cut by the sync event) [123,133) [133,143) [143,153) |
    //   A at 156, 208, 260, 312, 364, each followed by 4 U | A: nothing left.
    EXPECT_EQ(st.windows, 2u + 3u + 5u * 7u);
    EXPECT_EQ(st.agreements, 10u);
  }
}

}  // namespace
}  // namespace kairo::sim
