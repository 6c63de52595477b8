// Router timing at zero load and at full link rate, checked against formulas
// computed here from the platform's parameters.
#include <gtest/gtest.h>

#include <algorithm>

#include "platforms/platform.h"
#include "tests/net_harness.h"
#include "tests/pipeline_formula.h"

namespace kairo {
namespace {

using hw::NodeId;
using sim::Time;

// Injection channel, then per router routing + VC allocation + switch
// allocation + traversal, the head one flit time plus the cable to the next
// router (on the clock), the tail a packet's serialization behind (never
// ahead of its own arrival), and the ejection channel: delivered on the clock.
Time zero_load_latency(const platforms::Platform& p, NodeId src, NodeId dst, int flits) {
  return test::ceil_to(test::network(p, 0, flits, src, dst), p.router.clock_period_ps());
}

Time simulated_latency(const platforms::Platform& p, NodeId src, NodeId dst, int flits) {
  test::NetBench bench(p);
  bench.send(src, dst, flits, 0);
  bench.run();
  EXPECT_EQ(bench.deliveries().size(), 1u);
  return bench.deliveries().empty() ? 0 : bench.deliveries()[0].delivered_ps;
}

TEST(Router, ZeroLoadLatencyMatchesPipelineFormulaOnAMesh) {
  auto p = platforms::load_platform("mesh-8x8");
  hw::Topology topo(p.dims);
  // Closed form for this platform (every delay a whole number of 1ns cycles,
  // one flit per cycle): per router 4 cycles of pipeline, per link 1 flit + 1
  // cable cycle, plus injection (1 flit + 1) and the packet's serialization
  // into the ejection channel (flits + 1).
  for (int flits : {1, 4, 8}) {
    for (NodeId dst : {NodeId(1), NodeId(3), NodeId(7), topo.id_of({7, 7}), topo.id_of({2, 5})}) {
      const int hops = topo.hops(0, dst);
      const Time closed = Time(2 + (hops + 1) * 4 + hops * 2 + flits + 1) * 1000;
      EXPECT_EQ(zero_load_latency(p, 0, dst, flits), closed) << "formula self-check, hops " << hops;
      EXPECT_EQ(simulated_latency(p, 0, dst, flits), closed) << hops << " hops, " << flits << " flits";
    }
  }
}

TEST(Router, ZeroLoadLatencyMatchesPipelineFormulaOnATorus) {
  auto p = platforms::load_platform("torus-8x8");
  hw::Topology topo(p.dims);
  for (int flits : {1, 5}) {
    for (NodeId dst : {topo.id_of({7, 0}), topo.id_of({5, 0}), topo.id_of({4, 4}), topo.id_of({6, 3})}) {
      EXPECT_EQ(simulated_latency(p, 0, dst, flits), zero_load_latency(p, 0, dst, flits))
          << "to " << topo.coord_string(topo.coord_of(dst)) << ", " << flits << " flits";
    }
  }
}

TEST(Router, ZeroLoadLatencyMatchesPipelineFormulaOnTofuSizeTwoDimensions) {
  auto p = platforms::load_platform("tofu-small");
  hw::Topology topo(p.dims);
  const hw::Coord origin{};
  std::vector<hw::Coord> dsts;
  for (int d = 0; d < topo.num_dims(); ++d) {
    hw::Coord c = origin;
    c[d] = topo.dim(d).size - 1;  // one hop in each dimension, A and C included
    dsts.push_back(c);
  }
  dsts.push_back({1, 1, 1, 1, 2, 1});  // the farthest node: every dimension once
  for (int flits : {1, 16, 64}) {
    for (const auto& c : dsts) {
      NodeId dst = topo.id_of(c);
      EXPECT_EQ(simulated_latency(p, 0, dst, flits), zero_load_latency(p, 0, dst, flits))
          << "to " << topo.coord_string(c) << ", " << flits << " flits";
    }
  }
}

TEST(Router, ZeroLoadLatencyHoldsWhenAFlitIsNotAWholeNumberOfCycles) {
  // 3GB/s links with 32B flits: 10.667ns per flit at a 1GHz clock; a faster
  // host channel, so the tail of a long packet is paced by the network link.
  auto p = platforms::load_platform("mesh-8x8", {"router.link_bandwidth=3GB/s", "router.host_bandwidth=7GB/s",
                                                 "router.cable_latency=2.5ns"});
  hw::Topology topo(p.dims);
  for (int flits : {1, 3, 8})
    for (NodeId dst : {NodeId(1), topo.id_of({4, 6})})
      EXPECT_EQ(simulated_latency(p, 0, dst, flits), zero_load_latency(p, 0, dst, flits))
          << flits << " flits";
}

// A long stream between two neighbours: after the first packet, deliveries
// follow each other at the link's serialization rate.
double stream_bandwidth(const platforms::Platform& p, int flits, int packets) {
  test::NetBench bench(p);
  for (int i = 0; i < packets; ++i) bench.send(0, 1, flits, 0);
  bench.run();
  const auto& d = bench.deliveries();
  EXPECT_EQ(d.size(), std::size_t(packets));
  if (d.size() < 2) return 0;
  const double bytes = double(packets - 1) * flits * p.router.flit_bytes;
  return bytes / (double(d.back().delivered_ps - d.front().delivered_ps) * 1e-12);
}

TEST(Router, SingleStreamIsDeliveredAtLinkBandwidth) {
  struct Case {
    const char* platform;
    std::vector<std::string> sets;
    int flits;
  };
  const std::vector<Case> cases = {
      {"mesh-8x8", {"router.host_bandwidth=64GB/s"}, 4},
      {"mesh-8x8", {"router.host_bandwidth=64GB/s", "router.vcs=2"}, 8},
      {"tofu-small", {"router.host_bandwidth=10GB/s"}, 16},
      {"mesh-8x8", {"router.link_bandwidth=3GB/s", "router.host_bandwidth=7GB/s"}, 3},
  };
  for (const auto& c : cases) {
    auto p = platforms::load_platform(c.platform, c.sets);
    const double bw = stream_bandwidth(p, c.flits, 2000);
    EXPECT_NEAR(bw / p.router.link_bytes_per_s, 1.0, 0.01)
        << c.platform << " " << c.flits << "-flit packets: " << bw / 1e9 << " GB/s vs link "
        << p.router.link_bytes_per_s / 1e9 << " GB/s";
  }
}

TEST(Router, StreamThroughSeveralHopsKeepsLinkBandwidthAndOrder) {
  auto p = platforms::load_platform("mesh-8x8");
  test::NetBench bench(p);
  for (int i = 0; i < 500; ++i) bench.send(0, 7, 4, 0);
  bench.run();
  const auto& d = bench.deliveries();
  ASSERT_EQ(d.size(), 500u);
  for (std::size_t i = 1; i < d.size(); ++i)
    EXPECT_LT(d[i - 1].id, d[i].id) << "dimension-order path reorders";
  const double bw = 499.0 * 4 * 32 / (double(d.back().delivered_ps - d.front().delivered_ps) * 1e-12);
  EXPECT_NEAR(bw / p.router.link_bytes_per_s, 1.0, 0.01);
}

TEST(Router, CountersRecordEveryFlitOnTheLinksItCrossed) {
  auto p = platforms::load_platform("mesh-8x8");
  test::NetBench bench(p);
  const int packets = 10, flits = 4;
  for (int i = 0; i < packets; ++i) bench.send(0, 2, flits, 0);  // x0 -> x1 -> x2
  bench.run();
  auto& net = bench.net();
  const int xp = net.topology().port_of(0, +1), xm = net.topology().port_of(0, -1);
  const Time now = bench.queue().now();
  for (NodeId n : {NodeId(0), NodeId(1)}) {
    auto c = net.router(n).counters(xp, now);
    EXPECT_EQ(c.packets_sent, std::uint64_t(packets)) << "router " << n;
    EXPECT_EQ(c.flits_sent, std::uint64_t(packets * flits));
    EXPECT_EQ(c.bytes_sent, std::uint64_t(packets * flits * 32));
    EXPECT_EQ(c.busy_ps, Time(packets * flits) * p.router.flit_ps()) << "busy = serialization time";
    auto r = net.router(n + 1).counters(xm, now);
    EXPECT_EQ(r.packets_received, std::uint64_t(packets)) << "arrivals on the peer port";
    EXPECT_EQ(r.flits_received, std::uint64_t(packets * flits));
  }
  EXPECT_EQ(net.router(2).counters(xp, now).packets_sent, 0u);
}

}  // namespace
}  // namespace kairo
