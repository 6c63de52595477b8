// kairo's event queue: total (time, priority, context, sequence) order
// whatever the mix of on-grid, off-grid and far-future events, and idle gaps
// skipped.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "sim/event_queue.h"

namespace kairo::sim {
namespace {

struct Recorder : EventTarget {
  EventQueue* q = nullptr;
  std::vector<std::tuple<Time, std::uint32_t, std::uint32_t>> seen;  // time, priority, id
  std::mt19937_64* rng = nullptr;
  int spawn = 0;
  void on_event(std::uint32_t kind, std::uint32_t arg, void*) override {
    seen.emplace_back(q->now(), kind, arg);
    // Some events schedule more, at now or later, as hardware blocks do.
    if (spawn > 0 && (*rng)() % 3 == 0) {
      --spawn;
      // At the current time only with the same or a later priority: an event
      // cannot be scheduled into the part of the instant already processed.
      const bool same_time = (*rng)() % 4 == 0;
      Time t = q->now() + (same_time ? 0 : 1 + (*rng)() % 50000);
      auto prio = Priority(same_time ? kind + (*rng)() % (3 - kind) : (*rng)() % 3);
      q->at(t, prio, this, prio, 1000000 + std::uint32_t(spawn));
    }
  }
};

TEST(EventQueue, DeliversInTimePriorityInsertionOrderAcrossWheelAndHeap) {
  // Fetching the next event's target ahead (a large machine's queue) keeps
  // the order: both ways are checked.
  for (bool prefetch : {false, true})
    for (Time grain : {Time(1000), Time(3200), Time(7)}) {
      std::mt19937_64 rng(5);
      EventQueue q(grain);
      q.prefetch_targets(prefetch);
      Recorder r;
      r.q = &q;
      r.rng = &rng;
      r.spawn = 3000;
      struct Item {
        Time t;
        std::uint32_t prio, id;
      };
      std::vector<Item> items;
      for (std::uint32_t i = 0; i < 20000; ++i) {
        // Mostly on the grid, some off it, some far beyond the wheel's horizon.
        Time t = (rng() % 5 == 0) ? rng() % 100000000
                                  : (rng() % 8000) * grain + (rng() % 7 == 0 ? rng() % grain : 0);
        std::uint32_t prio = std::uint32_t(rng() % 3);
        items.push_back({t, prio, i});
        q.at(t, Priority(prio), &r, prio, i);
      }
      q.run_direct();
      EXPECT_EQ(r.seen.size(), items.size() + 3000);
      // Every event at its time, and the whole trace in (time, priority) order.
      for (std::size_t k = 1; k < r.seen.size(); ++k) {
        auto [t0, p0, i0] = r.seen[k - 1];
        auto [t1, p1, i1] = r.seen[k];
        ASSERT_TRUE(t0 < t1 || (t0 == t1 && p0 <= p1))
            << "grain " << grain << " at " << k << " prefetch " << prefetch;
      }
      // Among the initial events, equal (time, priority) keep insertion order.
      std::vector<std::tuple<Time, std::uint32_t, std::uint32_t>> initial;
      for (auto& e : r.seen)
        if (std::get<2>(e) < 1000000) initial.push_back(e);
      std::vector<std::tuple<Time, std::uint32_t, std::uint32_t>> expected;
      for (auto& it : items) expected.emplace_back(it.t, it.prio, it.id);
      std::stable_sort(expected.begin(), expected.end(), [](auto& a, auto& b) {
        return std::tie(std::get<0>(a), std::get<1>(a)) < std::tie(std::get<0>(b), std::get<1>(b));
      });
      EXPECT_EQ(initial, expected) << "grain " << grain << " prefetch " << prefetch;
    }
}

TEST(EventQueue, IdleGapsCostNothing) {
  EventQueue q(1000);
  Recorder r;
  r.q = &q;
  q.at(0, kPrioState, &r, 0, 1);
  q.at(Time(1000000000) * 1000, kPrioState, &r, 0, 2);  // 10^9 cycles later
  q.run_direct();
  EXPECT_EQ(q.events_processed(), 2u);
  EXPECT_EQ(q.now(), Time(1000000000) * 1000);
}

TEST(EventQueue, RunUntilStopsAtTheLimitAndResumes) {
  EventQueue q(1000);
  Recorder r;
  r.q = &q;
  for (Time t : {Time(1000), Time(2000), Time(5000)}) q.at(t, kPrioState, &r, 0, std::uint32_t(t));
  q.run_until(2000);
  EXPECT_EQ(r.seen.size(), 2u);
  q.set_now(3000);
  q.at(3000, kPrioState, &r, 0, 3000);  // scheduled between two bridge steps
  q.run_until(kNever);
  ASSERT_EQ(r.seen.size(), 4u);
  EXPECT_EQ(std::get<0>(r.seen[2]), 3000u);
  EXPECT_EQ(std::get<0>(r.seen[3]), 5000u);
}

// Events scheduled in port contexts (Router::accept and return_credits) take
// their place among same-time events from their context and their number in
// it, not from when they were scheduled: two queues fed the same per-context
// sequences in different interleavings run them in one order, the queue's own
// context first, then the port contexts in the order they were made.
TEST(EventQueue, PortContextsOrderSameTimeEventsWhateverTheInterleaving) {
  struct Sched {
    Time t;
    std::uint32_t prio, context, id;  // context 0: the queue's own
  };
  std::mt19937_64 rng(11);
  constexpr std::uint32_t kContexts = 4;
  // Per context, a sequence of events at few distinct times (many ties),
  // some off the grid and some beyond the wheel's horizon.
  std::vector<std::vector<Sched>> per(kContexts);
  std::uint32_t id = 0;
  for (std::uint32_t c = 0; c < kContexts; ++c)
    for (int i = 0; i < 3000; ++i) {
      Time t = (rng() % 6) * 1000 + (rng() % 9 == 0 ? 500 : 0) + (rng() % 11 == 0 ? 9000000 : 0);
      per[c].push_back({t, std::uint32_t(rng() % 3), c, id++});
    }
  std::vector<Sched> expected;
  for (auto& v : per) expected.insert(expected.end(), v.begin(), v.end());
  // (time, priority, context, place in the context): ids grow within a context.
  std::sort(expected.begin(), expected.end(), [](const Sched& a, const Sched& b) {
    return std::tie(a.t, a.prio, a.context, a.id) < std::tie(b.t, b.prio, b.context, b.id);
  });
  for (std::uint64_t interleaving_seed : {1, 2, 3}) {
    EventQueue q(1000);
    std::vector<EventContext> ports;
    for (std::uint32_t c = 1; c < kContexts; ++c) ports.push_back(q.make_context());
    Recorder r;
    r.q = &q;
    std::vector<std::size_t> next(kContexts, 0);
    std::mt19937_64 mix(interleaving_seed);
    for (std::size_t left = std::size_t(kContexts) * 3000; left > 0; --left) {
      std::uint32_t c;
      do c = std::uint32_t(mix() % kContexts);
      while (next[c] == per[c].size());
      const Sched& s = per[c][next[c]++];
      if (c == 0) {
        q.at(s.t, Priority(s.prio), &r, s.prio, s.id);
      } else {
        EventQueue::Scope in(q, ports[c - 1]);
        q.at(s.t, Priority(s.prio), &r, s.prio, s.id);
      }
    }
    q.run_direct();
    ASSERT_EQ(r.seen.size(), expected.size());
    for (std::size_t k = 0; k < expected.size(); ++k)
      ASSERT_EQ(std::get<2>(r.seen[k]), expected[k].id)
          << "interleaving " << interleaving_seed << " event " << k;
  }
}

// Ports that schedule while the queue runs (as routers' ports do: into
// later instants in whatever order the routers act, and into the current
// one) never change the order: every event taken is the least of those
// pending by (time, priority, context, place in its context), checked
// against an ordered set the test keeps itself.
TEST(EventQueue, EachEventTakenIsTheLeastPendingWhilePortsScheduleDuringTheRun) {
  using Key = std::tuple<Time, std::uint32_t, std::uint32_t, std::uint64_t,
                         std::uint32_t>;  // t, prio, context, seq, id
  struct Model : EventTarget {
    EventQueue* q = nullptr;
    std::vector<EventContext>* ports = nullptr;
    std::set<Key> pending;
    std::vector<std::uint64_t> seq;  // per context (0: the queue's own)
    std::mt19937_64 rng{17};
    std::uint32_t next_id = 0;
    int spawn = 0;
    std::size_t taken = 0;
    bool in_order = true;
    void schedule(std::uint32_t context, Time t, std::uint32_t prio) {
      const std::uint32_t id = next_id++;
      pending.emplace(t, prio, context, seq[context]++, id);
      if (context == 0) {
        q->at(t, Priority(prio), this, prio, id);
      } else {
        EventQueue::Scope in(*q, (*ports)[context - 1]);
        q->at(t, Priority(prio), this, prio, id);
      }
    }
    Time some_time() {
      const std::uint64_t r = rng() % 10;
      return q->now() / 1000 * 1000 + (r < 6 ? 1000 * (1 + rng() % 5) : r < 8 ? 1000 + 500 : 9000000);
    }
    void on_event(std::uint32_t prio, std::uint32_t id, void*) override {
      ++taken;
      if (!pending.empty() && std::get<4>(*pending.begin()) == id) {
        pending.erase(pending.begin());
      } else {
        in_order = false;
        pending.erase(std::find_if(pending.begin(), pending.end(),
                                   [id](const Key& k) { return std::get<4>(k) == id; }));
      }
      for (int k = int(rng() % 4); k > 0 && spawn > 0; --k, --spawn) {
        const std::uint32_t context = std::uint32_t(rng() % seq.size());
        if (rng() % 3 == 0)  // now, at this priority or a later one
          schedule(context, q->now(), prio + std::uint32_t(rng() % (3 - prio)));
        else
          schedule(context, some_time(), std::uint32_t(rng() % 3));
      }
    }
  };
  for (Time grain : {Time(1000), Time(250)}) {
    EventQueue q(grain);
    std::vector<EventContext> ports;
    for (int c = 0; c < 6; ++c) ports.push_back(q.make_context());
    Model m;
    m.q = &q;
    m.ports = &ports;
    m.seq.assign(ports.size() + 1, 0);
    m.spawn = 20000;
    for (int i = 0; i < 3000; ++i)
      m.schedule(std::uint32_t(m.rng() % m.seq.size()), m.some_time(), std::uint32_t(m.rng() % 3));
    q.run_direct();
    EXPECT_TRUE(m.in_order) << "grain " << grain;
    EXPECT_TRUE(m.pending.empty());
    EXPECT_EQ(m.taken, std::size_t(m.next_id));
    EXPECT_GT(m.taken, std::size_t(15000));
  }
}

}  // namespace
}  // namespace kairo::sim

namespace kairo::sim {
namespace {

TEST(Clock, RoundsToEdgesExactlyLikeDivision) {
  std::mt19937_64 rng(9);
  for (Time period : {Time(1), Time(7), Time(1000), Time(3200), Time(2353), Time(999999937)}) {
    Clock c(period);
    for (int i = 0; i < 200000; ++i) {
      Time t = (i % 3 == 0) ? rng() >> (rng() % 64) : (rng() % 100000) * period + (rng() % 3) - 1;
      if (t > (~Time{0}) - period) continue;
      ASSERT_EQ(c.floor(t), t / period * period) << "period " << period << " t " << t;
      ASSERT_EQ(c.ceil(t), (t + period - 1) / period * period) << "period " << period << " t " << t;
    }
  }
}

}  // namespace
}  // namespace kairo::sim
