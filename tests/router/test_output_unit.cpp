// The output unit on its own (hw/router/output_unit.h), without a router or
// a SystemC kernel: which downstream VC a head is offered, what a packet is
// charged under bubble flow control, and when a head that found no VC wakes.
#include <gtest/gtest.h>

#include "hw/router/output_unit.h"
#include "sim/event_queue.h"

namespace kairo::router {
namespace {

using hw::VcClass;
constexpr sim::Time kPeriod = 1000;

// Two link ports and one network interface, four VCs: VCs 0-1 are class
// kLow, 2-3 kHigh, all four kAny.
struct Bench {
  sim::EventQueue queue;
  RouterConfig cfg;
  explicit Bench(int bubble_flits = 0, bool wormhole = false) {
    cfg.queue = &queue;
    cfg.clock = sim::Clock(kPeriod);
    cfg.vcs = 4;
    cfg.link_ports = 2;
    cfg.network_interfaces = 1;
    cfg.bubble_flits = bubble_flits;
    cfg.wormhole = wormhole;
    cfg.traversal_ps = kPeriod;
    auto set = [&](VcClass c, int first, int last) {
      cfg.vc_first[std::size_t(c)] = std::uint8_t(first);
      cfg.vc_last[std::size_t(c)] = std::uint8_t(last);
    };
    set(VcClass::kLow, 0, 2);
    set(VcClass::kHigh, 2, 4);
    set(VcClass::kAny, 0, 4);
  }
};

void set_credits(OutputUnit& o, int port, std::initializer_list<int> credits) {
  int v = 0;
  for (int c : credits) o[port].credits()[v++] = c;
}

TEST(OutputUnit, OffersTheVcOfItsClassWithTheMostCreditsLowestIndexOnATie) {
  Bench b;
  OutputUnit o(b.cfg);
  set_credits(o, 0, {3, 5, 8, 8});
  EXPECT_EQ(o.choose_vc(o[0], 4, VcClass::kLow), 1);   // VC 0 has too few
  EXPECT_EQ(o.choose_vc(o[0], 4, VcClass::kHigh), 2);  // a tie: the lower
  EXPECT_EQ(o.choose_vc(o[0], 6, VcClass::kLow), -1);  // none of its class has 6
  EXPECT_EQ(o.choose_vc(o[0], 1, VcClass::kAny, /*held=*/0b1100), 1);
}

TEST(OutputUnit, AVcHeldByAWormIsNotOfferedToAnotherHead) {
  Bench b(0, /*wormhole=*/true);
  OutputUnit o(b.cfg);
  set_credits(o, 1, {4, 4, 4, 4});
  o.hold(1, 2);
  Head h{0, 1, 2, VcClass::kHigh, -1, false, -1};
  EXPECT_EQ(o.head_vc(h, o[1]), 3);
  o.release(1, 2);
  EXPECT_EQ(o.head_vc(h, o[1]), 2);
  h.held_vc = 3;  // a body flit follows its head's VC, with credits or not
  o[1].credits()[3] = 1;
  EXPECT_EQ(o.head_vc(h, o[1]), -1);
}

TEST(OutputUnit, BubbleFlowControlChargesASlotBetweenRoutersAndTwoToEnterARing) {
  Bench b(/*bubble_flits=*/6);
  OutputUnit o(b.cfg);
  hw::Packet p{};
  p.flits = 2;
  p.out_port = 0;
  p.out_class = VcClass::kLow;
  EXPECT_EQ(o.credit_charge(0, p), 6);  // a link port
  EXPECT_EQ(o.credit_charge(2, p), 2);  // the network interface
  EXPECT_EQ(o.credit_need(0, p, VcClass::kRingEntry), 12);
  EXPECT_EQ(o.credit_need(p), 6);
}

// A downstream VC's zero-credit time is kept only from the first time one
// runs out: until then there is none (every VC's time is zero), then it
// runs from the take that left the VC empty to the credit's return.
TEST(OutputUnit, ZeroCreditTimeIsKeptFromTheFirstTimeAVcRunsOut) {
  Bench b;
  OutputUnit o(b.cfg);
  set_credits(o, 0, {2, 8, 8, 8});
  hw::Packet p{};
  p.out_port = 0;
  p.flits = 1;
  EXPECT_EQ(o.vc_times(0), nullptr);
  o.send(1, p, 0, 1, 1 * kPeriod);  // one credit left
  EXPECT_EQ(o.vc_times(0), nullptr);
  o.send(1, p, 0, 1, 5 * kPeriod);  // none left
  ASSERT_NE(o.vc_times(0), nullptr);
  EXPECT_EQ(o.vc_times(0)[0].zero_since, 5 * kPeriod);
  for (int v = 1; v < 4; ++v) EXPECT_EQ(o.vc_times(0)[v].zero_since, sim::kNever) << v;
  ASSERT_NE(o.vc_times(2), nullptr);  // the router's other ports: none running
  EXPECT_EQ(o.vc_times(2)[0].zero_since, sim::kNever);
  EXPECT_EQ(o.vc_times(2)[0].zero_ps, 0);
  o[0].returning.push(hw::PendingCredit{8 * kPeriod, 0, 1});
  o.apply_credits(o[0], 0, 8 * kPeriod);
  EXPECT_EQ(o[0].credits()[0], 1);
  EXPECT_EQ(o.vc_times(0)[0].zero_ps, 3 * kPeriod);  // from 5 to 8
  EXPECT_EQ(o.vc_times(0)[0].zero_since, sim::kNever);
}

TEST(OutputUnit, AHeadWithoutAVcWakesAtTheNextCreditOrMarksTheOutput) {
  Bench b;
  OutputUnit o(b.cfg);
  set_credits(o, 0, {1, 1, 8, 8});
  const sim::Time t = 10 * kPeriod;
  // A free VC with credits: it lost allocation, so next cycle.
  EXPECT_EQ(o.vc_wake(0, 4, VcClass::kHigh, t, nullptr), t + kPeriod);
  // No credits on the way: never, and the output waits for a credit.
  EXPECT_FALSE(o.waits_for_credits(0));
  EXPECT_EQ(o.vc_wake(0, 4, VcClass::kLow, t, nullptr), sim::kNever);
  EXPECT_TRUE(o.waits_for_credits(0));
  o.clear_credit_waiters();
  // A credit on its way: when it arrives (applied only once due).
  o[0].returning.push(hw::PendingCredit{t + 3 * kPeriod, 1, 3});
  EXPECT_EQ(o.vc_wake(0, 4, VcClass::kLow, t, nullptr), t + 3 * kPeriod);
  EXPECT_FALSE(o.waits_for_credits(0));
  o.apply_credits(o[0], 0, t + 3 * kPeriod);
  EXPECT_EQ(o[0].credits()[1], 4);
}

TEST(OutputUnit, AHeadWhoseVcsAreAllHeldWakesWhenTheFirstIsReleased) {
  Bench b;
  b.cfg.vc_allocator = "islip";  // held VCs are tracked with a VC allocation stage
  OutputUnit o(b.cfg);
  set_credits(o, 0, {8, 8, 8, 8});
  o.hold(0, 0);
  o.hold(0, 1);
  std::vector<sim::Time> release(std::size_t(3 * 4), sim::kNever);
  release[1] = 7 * kPeriod;
  release[0] = 9 * kPeriod;
  EXPECT_EQ(o.vc_wake(0, 2, VcClass::kLow, kPeriod, release.data()), 7 * kPeriod);
  EXPECT_EQ(o.vc_wake(0, 2, VcClass::kLow, kPeriod, nullptr), sim::kNever);  // held by packets still here
}

}  // namespace
}  // namespace kairo::router
