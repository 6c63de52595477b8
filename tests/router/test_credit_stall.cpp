// The waveform's credit_stall (docs/waveforms.md): a packet that finds its
// output free but no downstream VC with credits for it raises its output's
// credit_stall from the instant the output is free, and the signal falls
// when the packet leaves, which is when the credits it needed came back.
// The times are read from the other signals of the same recording (the
// link's busy, the sender's credits), so the test checks the definition,
// not a copy of the simulator's arithmetic.
#include <gtest/gtest.h>

#include <vector>

#include "hw/router/router_observe.h"
#include "observe/registry.h"
#include "platforms/platform.h"
#include "sim/trace.h"
#include "tests/net_harness.h"
#include "tests/pipeline_formula.h"

namespace kairo {
namespace {

using sim::Time;

struct Edge {
  Time t;
  std::uint64_t v;
};

std::vector<Edge> edges(const sim::Trace& trace, const std::string& name) {
  std::vector<Edge> out;
  for (const auto& e : trace.emitted())
    if (trace.name(e.s) == name) out.push_back({e.t, e.v});
  return out;
}

// Two 4-flit packets for node 2 meet at node 1's router, ready at the same
// instant: one from node 0 (through node 1) and one from node 1's own
// interface, injected so that it arrives together with the first (the
// pipeline formula of hw/router/router.h, hop by hop). One VC whose buffer
// holds one packet and a long cable: the loser finds the link free after the
// winner but must wait for the winner's credits to come back from node 2.
TEST(CreditStall, RisesWhenTheOutputIsFreeAndFallsWhenTheCreditsComeBack) {
  const auto p = platforms::load_platform(
      "mesh-8x8",
      {"router.vcs=1", "router.vc_buffer_flits=4", "router.max_packet_flits=4", "router.cable_latency=40ns"});
  const auto& rp = p.router;
  const Time period = rp.clock_period_ps(), st = period * Time(rp.switch_traversal_cycles);
  const Time pipe = period * Time(rp.routing_cycles + rp.vc_alloc_cycles + rp.sw_alloc_cycles);
  const Time hf = rp.host_flit_ps(), hl = rp.host_latency_ps;
  // Node 0's head: into its router on the clock, through it, over the cable.
  const Time head0 = test::ceil_to(hf + hl, period);
  const Time head1 = test::ceil_to(head0 + pipe + st + rp.flit_ps() + rp.cable_ps[0], period);
  const Time inject1 = head1 - hf - hl;  // node 1's head then reaches its router at head1
  ASSERT_EQ(test::ceil_to(inject1 + hf + hl, period), head1);

  test::NetBench bench(p);
  sim::Trace trace;
  observe::TraceFilter f;
  f.classes = {"link", "credit"};
  router::Router& r1 = bench.net().router(1);
  auto rec = router::record(r1, nullptr, f, trace, nullptr);
  ASSERT_NE(rec, nullptr);
  bench.send(0, 2, 4, 0);
  bench.send(1, 2, 4, inject1);
  bench.run();
  ASSERT_EQ(bench.deliveries().size(), 2u);

  const std::string port = std::string(r1.name()) + "." + r1.port_name(0) + ".";  // X+, toward node 2
  const auto busy = edges(trace, port + "busy"), stall = edges(trace, port + "credit_stall");
  // busy: 0 at 0, then each packet's start and end on the link.
  ASSERT_EQ(busy.size(), 5u);
  const Time first_ends = busy[2].t, second_starts = busy[3].t;
  EXPECT_EQ(busy[1].t, head1 + pipe + st);  // the winner went as soon as both were ready

  // credit_stall: 0 at 0, up once, down once.
  ASSERT_EQ(stall.size(), 3u);
  EXPECT_EQ(stall[1].v, 1u);
  EXPECT_EQ(stall[2].v, 0u);
  // Up when the output is free: a packet allocated then would reach the
  // link as the winner's tail leaves it (on the clock).
  EXPECT_EQ(stall[1].t, (first_ends - st) / period * period);
  // Down when the loser is allocated, a switch traversal before it starts
  // onto the link ...
  EXPECT_EQ(stall[2].t + st, second_starts);
  EXPECT_GT(stall[2].t, stall[1].t);  // a real wait: the cable's round trip is longer than a packet
  // ... which is when the winner's 4 credits came back (the raw changes of
  // vc0_credits: +4 returned and -4 taken by the loser at that instant).
  bool returned = false;
  for (const auto& c : trace.changes())
    if (trace.name(c.s) == port + "vc0_credits" && c.t == stall[2].t && std::int64_t(c.v) == 4)
      returned = true;
  EXPECT_TRUE(returned);
}

}  // namespace
}  // namespace kairo
