// Firmware ranks as coroutines on the event queue: compute delays land at the
// right simulated time, sub-programs nest, signals wake every waiter, and
// many ranks cost little.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "firmware/task.h"

namespace kairo::fw {
namespace {

using sim::Time;

Task compute_then_record(sim::EventQueue& q, Resumer& r, Time dt, std::vector<Time>& log) {
  co_await Delay{q, r, dt};
  log.push_back(q.now());
  co_await Delay{q, r, dt};
  log.push_back(q.now());
}

TEST(FwTask, ComputeDelaysResumeAtTheirSimulatedTimes) {
  sim::EventQueue q(1000);
  Resumer r;
  std::vector<Time> log;
  Task a = compute_then_record(q, r, 1500, log);
  Task b = compute_then_record(q, r, 1000, log);
  a.start(q, r);
  b.start(q, r);
  q.run_direct();
  EXPECT_TRUE(a.done());
  EXPECT_TRUE(b.done());
  EXPECT_EQ(log, (std::vector<Time>{1000, 1500, 2000, 3000}));
}

Task inner(sim::EventQueue& q, Resumer& r, int& depth_done) {
  co_await Delay{q, r, 700};
  ++depth_done;
}

Task outer(sim::EventQueue& q, Resumer& r, int& depth_done, Time& finished) {
  co_await inner(q, r, depth_done);
  co_await inner(q, r, depth_done);
  finished = q.now();
}

TEST(FwTask, SubProgramsRunInlineAndContinueTheCaller) {
  sim::EventQueue q(1000);
  Resumer r;
  int done = 0;
  Time finished = 0;
  Task t = outer(q, r, done, finished);
  t.start(q, r);
  q.run_direct();
  EXPECT_EQ(done, 2);
  EXPECT_EQ(finished, 1400u);
  EXPECT_TRUE(t.done());
}

Task waiter(Signal& s, sim::EventQueue& q, std::vector<Time>& woke) {
  co_await s.wait();
  woke.push_back(q.now());
}

struct Raiser : sim::EventTarget {
  Signal* s = nullptr;
  void on_event(std::uint32_t, std::uint32_t, void*) override { s->raise(); }
};

TEST(FwTask, ASignalWakesEveryWaiterAtTheInstantItIsRaised) {
  sim::EventQueue q(1000);
  Resumer r;
  Signal s(q, r);
  std::vector<Time> woke;
  std::vector<Task> tasks;
  for (int i = 0; i < 3; ++i) {
    tasks.push_back(waiter(s, q, woke));
    tasks.back().start(q, r);
  }
  Raiser raiser;
  raiser.s = &s;
  q.at(5000, sim::kPrioState, &raiser, 0);
  q.run_direct();
  EXPECT_EQ(woke, (std::vector<Time>{5000, 5000, 5000}));
  EXPECT_EQ(s.waiting(), 0u);
}

Task failing(sim::EventQueue& q, Resumer& r) {
  co_await Delay{q, r, 10};
  throw std::runtime_error("rank program failed");
}

TEST(FwTask, AnExceptionInAProgramIsKeptForTheRuntimeToReport) {
  sim::EventQueue q(1000);
  Resumer r;
  Task t = failing(q, r);
  t.start(q, r);
  q.run_direct();
  EXPECT_TRUE(t.done());
  EXPECT_THROW(t.rethrow_if_failed(), std::runtime_error);
}

}  // namespace
}  // namespace kairo::fw
