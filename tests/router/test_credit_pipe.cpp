// Credits in flight back to a port (hw::CreditPipe) come out in order of
// their return times, whatever order they were sent in; and an endpoint
// whose client frees its ejection slots ahead of time
// (Endpoint::consumed(p, at)) returns the credit that a call at `at` would
// have returned, behind credits sent in between with earlier times.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>
#include <vector>

#include "hw/common/endpoint.h"
#include "hw/common/link.h"
#include "hw/common/network_activity.h"
#include "sim/event_queue.h"

namespace kairo::hw {
namespace {

TEST(CreditPipe, PopsInTimeOrderAndKeepsSendingOrderOnEqualTimes) {
  CreditPipe pipe;
  std::vector<PendingCredit> sent;
  std::mt19937_64 rng(11);
  sim::Time t = 0;
  for (int i = 0; i < 5000; ++i) {
    // Mostly in order; one in five sent with a time before the latest.
    t += rng() % 4;
    const sim::Time at = rng() % 5 == 0 && t > 10 ? t - 1 - rng() % 10 : t;
    sent.push_back(PendingCredit{at, std::uint16_t(i % 7), std::uint16_t(i)});
    pipe.push(sent.back());
  }
  // The reference: a stable sort by time of what was sent.
  std::vector<PendingCredit> want = sent;
  std::stable_sort(want.begin(), want.end(),
                   [](const PendingCredit& a, const PendingCredit& b) { return a.at < b.at; });
  for (const PendingCredit& w : want) {
    ASSERT_FALSE(pipe.empty());
    EXPECT_EQ(pipe.front().at, w.at);
    EXPECT_EQ(pipe.front().flits, w.flits) << "equal times keep the order they were sent in";
    pipe.pop();
  }
  EXPECT_TRUE(pipe.empty());
}

// A router's ejection port, as the endpoint sees it: what came back, in the
// pipe's order.
struct Upstream : CreditSink {
  CreditPipe pipe;
  void return_credits(int, int vc, int flits, sim::Time at) override {
    pipe.push(PendingCredit{at, std::uint16_t(vc), std::uint16_t(flits)});
  }
};

// Calls f at time t from inside the queue.
struct At : sim::EventTarget {
  std::vector<std::function<void()>> calls;
  void on_event(std::uint32_t kind, std::uint32_t, void*) override { calls[kind](); }
};

TEST(EndpointCredits, ACreditFreedAheadComesBackAsIfSentThenBehindEarlierOnes) {
  constexpr sim::Time kPeriod = 1000, kDelay = 3000;
  sim::EventQueue q;
  NetworkActivity act;
  Endpoint::Setup s;
  s.queue = &q;
  s.activity = &act;
  s.clock = sim::Clock(kPeriod);
  s.vcs = 2;
  s.buffer_flits = 8;
  Endpoint ep;
  ep.init(s, nullptr, 0);
  Upstream up;
  ep.connect_from_router(&up, 0, kDelay);

  Packet data{}, ack{}, last{};
  data.flits = 4, data.eject_vc = 0, data.tail_ps = 2000;  // written by a DMA from 2,000 to 9,500 ps
  ack.flits = 1, ack.eject_vc = 1, ack.tail_ps = 4000;     // header-only: taken as its tail is in
  last.flits = 4, last.eject_vc = 0, last.tail_ps = 6000;  // taken after data's write, at 12,000 ps
  act.held = 3;
  At at;
  at.calls = {[&] { ep.consumed(&data, 9500); }, [&] { ep.consumed(&ack); }, [&] { ep.consumed(&last); }};
  q.at(2000, sim::kPrioState, &at, 0);
  q.at(4000, sim::kPrioState, &at, 1);
  q.at(12000, sim::kPrioState, &at, 2);
  q.run_direct();

  // The clock rounds up: 9,500 + 3,000 -> 13,000; 4,000 + 3,000 = 7,000;
  // 12,000 + 3,000 = 15,000.
  const std::vector<std::pair<int, sim::Time>> want = {{1, 7000}, {0, 13000}, {0, 15000}};
  for (const auto& [vc, t] : want) {
    ASSERT_FALSE(up.pipe.empty());
    EXPECT_EQ(up.pipe.front().vc, vc);
    EXPECT_EQ(up.pipe.front().at, t);
    up.pipe.pop();
  }
  EXPECT_TRUE(up.pipe.empty());
  EXPECT_EQ(act.held, 0u);
  EXPECT_EQ(act.progress_ps(), 12000) << "the latest move, the last packet's, at 12,000 ps";
}

TEST(EndpointCredits, ACreditSentLaterNeverOvertakesOneFreedAheadThatIsDueFirst) {
  // The same as sending each at its time: a packet whose tail was in at
  // 9,200 ps, taken at 10,000 ps after data's write ended (9,800 ps), has a
  // credit time of its own of ceil(9,200 + 3,300) = 13,000 ps, but credits
  // leave in order: it comes back with data's, ceil(9,800 + 3,300) = 14,000.
  constexpr sim::Time kPeriod = 1000, kDelay = 3300;
  sim::EventQueue q;
  NetworkActivity act;
  Endpoint::Setup s;
  s.queue = &q;
  s.activity = &act;
  s.clock = sim::Clock(kPeriod);
  Endpoint ep;
  ep.init(s, nullptr, 0);
  Upstream up;
  ep.connect_from_router(&up, 0, kDelay);
  Packet data{}, next{};
  data.flits = 4, data.eject_vc = 0, data.tail_ps = 2000;
  next.flits = 1, next.eject_vc = 0, next.tail_ps = 9200;
  act.held = 2;
  At at;
  at.calls = {[&] { ep.consumed(&data, 9800); }, [&] { ep.consumed(&next); }};
  q.at(2000, sim::kPrioState, &at, 0);
  q.at(10000, sim::kPrioState, &at, 1);
  q.run_direct();
  ASSERT_FALSE(up.pipe.empty());
  EXPECT_EQ(up.pipe.front().flits, 4);
  EXPECT_EQ(up.pipe.front().at, 14000);
  up.pipe.pop();
  ASSERT_FALSE(up.pipe.empty());
  EXPECT_EQ(up.pipe.front().flits, 1);
  EXPECT_EQ(up.pipe.front().at, 14000);
}

}  // namespace
}  // namespace kairo::hw
