// Synthetic traffic: saturation against the bisection bound, nothing lost or
// duplicated above saturation, determinism, idle time, batch mode; and the
// same runner on switched fabrics (fat tree, clusters, the hybrid network's
// packet switches): exactly-once delivery, the Bernoulli load, and the
// zero-load latency from the switch pipeline formula.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "hw/router/allocator.h"
#include "platforms/platform.h"
#include "tests/net_harness.h"
#include "tests/test_support.h"
#include "traffic/pattern.h"
#include "traffic/traffic_run.h"

namespace kairo {
namespace {

using sim::Time;

nlohmann::json run(const std::string& platform, traffic::TrafficOptions o,
                   std::vector<std::string> sets = {}) {
  o.use_systemc = false;
  auto r = traffic::run_traffic(platforms::load_platform(platform, sets), o);
  EXPECT_FALSE(r.deadlock) << platform << ": " << (r.blocked.empty() ? "" : r.blocked.front());
  return r.json;
}

traffic::TrafficOptions opts(const std::string& pattern, double rate, std::uint64_t warmup,
                             std::uint64_t measure) {
  traffic::TrafficOptions o;
  o.pattern = pattern;
  o.rate = rate;
  o.packet_flits = 4;
  o.warmup_cycles = warmup;
  o.measure_cycles = measure;
  o.seed = 7;
  return o;
}

// Uniform traffic (destinations: every other node equally) on a k x k mesh:
// cutting X in half, each node of the left half sends the fraction
// (N/2)/(N-1) of its flits across the cut, which k channels per direction
// carry, each at `b` flits per cycle. Throughput per node is bounded by
//   lambda_max = k * b * (N - 1) / (N/2)^2,
// and by the injection channel's b_host.
TEST(Traffic, UniformMeshSaturatesBelowTheBisectionBoundAndAboveSixtyPercentOfIt) {
  auto p = platforms::load_platform("mesh-8x8");
  const double k = 8, n = 64;
  const double b = p.router.link_flits_per_cycle();
  const double bound = std::min(k * b * (n - 1) / ((n / 2) * (n / 2)), b);
  ASSERT_NEAR(bound, 0.4921875, 1e-9);
  // Offered far above saturation: the accepted throughput is the saturation throughput.
  auto j = run("mesh-8x8", opts("uniform", 0.9, 2000, 6000));
  const double accepted = j["accepted_flits_per_node_cycle"];
  EXPECT_LT(accepted, bound);
  EXPECT_GT(accepted, 0.6 * bound);
  EXPECT_EQ(j["packets_created"], j["packets_delivered"]);
  // Below saturation, everything offered is accepted.
  auto low = run("mesh-8x8", opts("uniform", 0.2, 2000, 6000));
  EXPECT_NEAR(low["accepted_flits_per_node_cycle"].get<double>(),
              low["offered_flits_per_node_cycle"].get<double>(), 0.02 * 0.2);
}

// BookSim 2's 8x8 torus (dim_order_torus, 4 VCs x 8 flits, 4-flit packets,
// uniform) saturates at 0.538 flits per node and cycle
// (tests/validation/booksim_reference/summary.csv, c_torus8_dor_uniform); it breaks
// the half-way ties of its even rings with a coin per packet. Configured
// alike (no cable or host latency) and offered 0.6, the first rate of
// BookSim's sweep past saturation, kairo's balanced and random tie-breaks
// accept within 5% of it; sending every tie plus loads the + links 1.7 times
// the - links and saturates well below.
TEST(Traffic, Torus8x8SaturatesWithinFivePercentOfBookSimWhenHalfWayTrafficIsSplit) {
  const double booksim = 0.538473;
  auto accepted = [](const std::string& tie) {
    auto j = run("torus-8x8", opts("uniform", 0.6, 1000, 6000),
                 {"router.tie_break=" + tie, "router.cable_latency=0ns", "router.host_latency=0ns"});
    return j["accepted_flits_per_node_cycle"].get<double>();
  };
  for (std::string tie : {"balanced", "random"}) EXPECT_NEAR(accepted(tie), booksim, 0.05 * booksim) << tie;
  EXPECT_LT(accepted("plus"), 0.90 * booksim);
}

// Above saturation, then drained: every packet created arrives exactly once.
TEST(Traffic, NoDeadlockAndNothingLostAboveSaturation) {
  for (std::string platform : {"torus-8x8", "tofu-small"}) {
    for (std::string pattern : {"uniform", "tornado"}) {
      auto o = opts(pattern, 1.0, 1000, 3000);
      auto j = run(platform, o);
      EXPECT_FALSE(j["deadlock"].get<bool>()) << platform << " " << pattern;
      EXPECT_GT(j["packets_created"].get<std::uint64_t>(), 1000u);
      EXPECT_EQ(j["packets_created"], j["packets_delivered"]) << platform << " " << pattern;
      EXPECT_EQ(j["packets_lost"], 0) << platform << " " << pattern;
      EXPECT_EQ(j["packets_duplicated"], 0) << platform << " " << pattern;
      EXPECT_LT(j["accepted_flits_per_node_cycle"].get<double>(),
                0.95 * j["offered_flits_per_node_cycle"].get<double>())
          << platform << " " << pattern << ": the load must be above saturation";
    }
  }
}

// Every switch allocator, past saturation on the mesh and on Tofu's 6-D
// torus (14-port routers, dateline VC classes): nothing lost, duplicated or
// stuck, and each accepts at least half of what round_robin does.
TEST(Traffic, EveryAllocatorDeliversEverythingAboveSaturation) {
  for (std::string platform : {"mesh-8x8", "tofu-small"}) {
    double round_robin = 0;
    for (const std::string& name : router::allocator_names()) {
      auto j = run(platform, opts("uniform", 1.0, 500, 1500), {"router.allocator=" + name});
      EXPECT_EQ(j["packets_created"], j["packets_delivered"]) << platform << " " << name;
      EXPECT_EQ(j["packets_lost"], 0) << platform << " " << name;
      EXPECT_EQ(j["packets_duplicated"], 0) << platform << " " << name;
      const double accepted = j["accepted_flits_per_node_cycle"];
      if (name == "round_robin") round_robin = accepted;
      EXPECT_GT(accepted, 0.5 * round_robin) << platform << " " << name;
    }
  }
}

// router.islip_iterations reaches the routers' allocators: past saturation,
// one iteration and four leave different matchings, so different traffic.
TEST(Traffic, IslipIterationsReachTheRouters) {
  auto one = run("mesh-8x8", opts("uniform", 1.0, 500, 1500),
                 {"router.allocator=islip", "router.islip_iterations=1"});
  auto four = run("mesh-8x8", opts("uniform", 1.0, 500, 1500),
                  {"router.allocator=islip", "router.islip_iterations=4"});
  EXPECT_NE(one["accepted_flits_per_node_cycle"], four["accepted_flits_per_node_cycle"]);
}

// tofu-small has 96 nodes and dragonfly-342 342: the bit patterns (a power
// of two) and taper64 (exactly 64) are refused there before anything runs;
// bad_dragon needs a dragonfly's groups and transpose a mesh/torus shape.
TEST(Traffic, EveryPatternDeliversEverythingOnEveryTopologyKind) {
  for (std::string platform : {"mesh-8x8", "torus-8x8", "tofu-small", "dragonfly-342"}) {
    const bool dragonfly = platform == "dragonfly-342";
    for (const auto& pattern : traffic::pattern_names()) {
      if (pattern == "transpose" && platform == "tofu-small") continue;  // needs a symmetric shape
      const bool not_64 = platform == "tofu-small" || dragonfly;
      if ((not_64 && (pattern == "bitrev" || pattern == "shuffle" || pattern == "taper64")) ||
          (dragonfly && pattern == "transpose") || (!dragonfly && pattern == "bad_dragon")) {
        EXPECT_THROW(run(platform, opts(pattern, 0.3, 300, 1000)), std::invalid_argument) << pattern;
        continue;
      }
      auto j = run(platform, opts(pattern, 0.3, 300, 1000));
      EXPECT_EQ(j["packets_created"], j["packets_delivered"]) << platform << " " << pattern;
      EXPECT_EQ(j["packets_lost"], 0);
    }
  }
}

TEST(Traffic, SameSeedGivesTheSameResults) {
  auto strip = [](nlohmann::json j) {
    for (const auto& f : traffic::cost_fields()) j.erase(f);
    return j;
  };
  auto a = strip(run("tofu-small", opts("uniform", 0.3, 500, 2000)));
  auto b = strip(run("tofu-small", opts("uniform", 0.3, 500, 2000)));
  EXPECT_EQ(a, b);
  auto o = opts("uniform", 0.3, 500, 2000);
  o.seed = 8;
  auto c = strip(run("tofu-small", o));
  EXPECT_NE(a["avg_packet_latency_cycles"], c["avg_packet_latency_cycles"]) << "the seed must matter";
}

TEST(Traffic, OfferedLoadFollowsTheBernoulliRate) {
  auto j = run("mesh-16x16", opts("uniform", 0.05, 200, 20000));
  // 256 nodes x 20000 cycles x 0.05 flits: ~256,000 flits; Bernoulli per
  // packet (p = 0.0125), so the relative standard deviation is ~0.4%.
  EXPECT_NEAR(j["offered_flits_per_node_cycle"].get<double>(), 0.05, 0.05 * 0.03);
}

TEST(Traffic, AverageHopsMatchTheMeshFormulaForUniformTraffic) {
  // Mean |x - x'| over ordered pairs of distinct nodes in a k x k mesh:
  // 2 * (k^2 - 1) / (3k) * N / (N - 1), summed over both dimensions.
  auto j = run("mesh-8x8", opts("uniform", 0.05, 200, 20000));
  const double k = 8, n = 64;
  const double expected = 2 * (k * k - 1) / (3 * k) * n / (n - 1);
  EXPECT_NEAR(j["avg_hops"].get<double>(), expected, 0.05);
}

// Flow conservation between two independent sides of the model: the flits the
// routers' link counters sent during the window, against the flits the
// endpoints accepted times the hops each crossed.
TEST(Traffic, LinkCountersAgreeWithDeliveredTraffic) {
  auto j = run("mesh-8x8", opts("uniform", 0.3, 1000, 5000));
  const double expected =
      j["accepted_flits_per_node_cycle"].get<double>() * 64 * 5000 * j["avg_hops"].get<double>();
  EXPECT_NEAR(j["window_link_flits"].get<double>() / expected, 1.0, 0.02);
}

// A VC's zero-credit ("VC full") time is part of the measurement window, so
// its fraction lies in [0, 1] on every port. Past saturation on a torus the
// window opens while credits are on their way back: a credit that arrived
// before the window's start, applied later, must not close a stretch that
// began at the start (it once made the fraction about 1e11).
TEST(Traffic, ZeroCreditFractionIsAFractionOfTheWindow) {
  for (const auto& [pattern, rate] : {std::pair{"uniform", 0.6}, std::pair{"tornado", 0.3}}) {
    auto j = run("torus-8x8", opts(pattern, rate, 300, 1000));
    for (const auto& [port, g] : j["ports"].items()) {
      const double f = g["avg_zero_credit_fraction"].get<double>();
      EXPECT_GE(f, 0.0) << pattern << " " << port;
      EXPECT_LE(f, 1.0) << pattern << " " << port;
    }
  }
}

// Dimension-order routing of uniform traffic on a k x k mesh loads the X link
// between columns c and c+1 with lambda (c+1)(k-1-c) k / (N-1) flits per
// cycle; averaged over all k(k-1) X+ links that is lambda k^2 (k+1) / (6 (N-1)).
TEST(Traffic, AverageLinkUtilizationMatchesTheChannelLoadFormula) {
  const double k = 8, n = 64, lambda = 0.3;
  auto j = run("mesh-8x8", opts("uniform", lambda, 1000, 10000));
  const double expected = lambda * k * k * (k + 1) / (6 * (n - 1));
  for (const char* port : {"xp", "xm", "yp", "ym"}) {
    EXPECT_EQ(j["ports"][port]["links"].get<int>(), 56);
    EXPECT_NEAR(j["ports"][port]["avg_utilization"].get<double>(), expected, 0.03 * expected) << port;
  }
  EXPECT_NEAR(j["ports"]["ni0"]["avg_utilization"].get<double>(), lambda, 0.03 * lambda)
      << "ejection = accepted load";
}

TEST(Traffic, BatchModeDrainsEveryPacketAndTakesAtLeastTheInjectionTime) {
  traffic::TrafficOptions o = opts("uniform", 0.1, 0, 1);
  o.batch_packets = 100;
  auto j = run("mesh-8x8", o);
  EXPECT_EQ(j["packets_delivered"].get<std::uint64_t>(), 64u * 100);
  // Each node pushes 100 x 4 flits through a 1 flit/cycle injection channel.
  EXPECT_GE(j["batch_cycles"].get<std::uint64_t>(), 400u);
  EXPECT_EQ(j["packets_lost"], 0);
}

// Two packets 10^9 cycles apart: the network sleeps in between; the cost is
// a handful of events, not a billion cycles.
TEST(Traffic, IdleTimeCostsNoEvents) {
  auto p = platforms::load_platform("mesh-8x8");
  test::NetBench bench(p);
  const sim::Time gap = sim::Time(1000000000) * p.router.clock_period_ps();
  bench.send(0, 63, 4, 0);
  bench.send(63, 0, 4, gap);
  bench.run();
  ASSERT_EQ(bench.deliveries().size(), 2u);
  EXPECT_GT(bench.deliveries()[1].delivered_ps, gap);
  EXPECT_EQ(bench.deliveries()[1].delivered_ps - gap, bench.deliveries()[0].delivered_ps)
      << "the second packet sees the same idle network";
  EXPECT_LT(bench.queue().events_processed(), 200u);
}

// ---- Switched fabrics -------------------------------------------------------

void expect_exactly_once(const nlohmann::json& j, const std::string& what, std::uint64_t at_least = 100) {
  EXPECT_FALSE(j["deadlock"].get<bool>()) << what;
  EXPECT_GE(j["packets_created"].get<std::uint64_t>(), at_least) << what;
  EXPECT_EQ(j["packets_created"], j["packets_delivered"]) << what;
  EXPECT_EQ(j["packets_lost"], 0) << what;
  EXPECT_EQ(j["packets_duplicated"], 0) << what;
}

// Every pattern that needs no coordinates, on a small fat tree, a set of
// clusters and the hybrid network (over its packet switches): every packet
// created arrives exactly once (by id). Rates are flits per node per switch
// cycle, so about half of each platform's host link: ib-qdr-16 0.0625
// (4GB/s, 64B flits, 1GHz), grid-2x32 0.002 (1Gbps), hybrid-eps-ocs-128
// 0.0195 (10Gbps, its edges' single 64Gbps uplink saturating first).
TEST(TrafficOnSwitches, EveryPacketArrivesExactlyOnceOnFatTreesClustersAndTheHybridNetwork) {
  struct Case {
    std::string platform;
    double rate;
    std::uint64_t measure_cycles;
  };
  for (const Case& c : {Case{"ib-qdr-16", 0.03, 1500}, Case{"grid-2x32", 0.001, 10000},
                        Case{"hybrid-eps-ocs-128", 0.004, 1500}}) {
    for (std::string pattern : {"uniform", "bitcomp", "tornado", "neighbor", "hotspot", "randperm"}) {
      auto j = run(c.platform, opts(pattern, c.rate, 300, c.measure_cycles));
      expect_exactly_once(j, c.platform + " " + pattern);
      EXPECT_GT(j["avg_packet_latency_cycles"].get<double>(), 0) << c.platform << " " << pattern;
    }
  }
  // Above saturation, then drained: still nothing lost (hotspot piles onto one host).
  auto hot = opts("hotspot", 0.8, 300, 1500);
  hot.hotspot_fraction = 0.5;
  expect_exactly_once(run("ib-qdr-16", hot), "ib-qdr-16 hotspot above saturation");
}

// A pattern defined on coordinates is refused on a platform without them,
// naming the option and what the pattern needs.
TEST(TrafficOnSwitches, TransposeNeedsAMeshOrTorus) {
  auto p = platforms::load_platform("ib-qdr-16");
  try {
    traffic::validate(opts("transpose", 0.1, 10, 10), p);
    FAIL() << "transpose accepted on a fat tree";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("--pattern transpose"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("mesh/torus"), std::string::npos) << e.what();
  }
}

// At a low rate nothing queues, so what the sources offer the network
// accepts. The offered load is itself a sample: each of the N x M
// node-cycles creates a packet with probability q = rate / F, so the packets
// created in the window are Binomial(N M, q), with standard deviation
// sigma = sqrt(N M q (1 - q)). Accepted differs from offered only by the
// packets in flight across the window's two edges, each about Poisson with
// mean N q L for a latency of L cycles (L << M here), a smaller spread than
// sigma. Both must hold within 4 sigma (in flits per node per cycle: 4 sigma F / (N M)).
TEST(TrafficOnSwitches, AcceptedEqualsOfferedAtALowRateWithinTheBinomialBound) {
  // About 16% and 20% of the first link to saturate (host link; the hybrid
  // network's edge uplink).
  for (auto [platform, rate] : {std::pair{"ib-qdr-16", 0.01}, std::pair{"hybrid-eps-ocs-128", 0.001}}) {
    const double flits = 4, cycles = 50000;
    auto j = run(platform, opts("uniform", rate, 2000, std::uint64_t(cycles)));
    expect_exactly_once(j, platform);
    const double nodes = j["nodes"].get<double>(), q = rate / flits;
    const double sigma = std::sqrt(nodes * cycles * q * (1 - q));
    const double tolerance = 4 * sigma * flits / (nodes * cycles);
    const double offered = j["offered_flits_per_node_cycle"], accepted = j["accepted_flits_per_node_cycle"];
    EXPECT_NEAR(offered, rate, tolerance) << platform;
    EXPECT_NEAR(accepted, offered, tolerance) << platform;
    EXPECT_FALSE(j["drain_limited"].get<bool>()) << platform;
  }
}

// Tail arrival at the destination host of a packet of `flits` whose head
// starts onto the source's host link at s and crosses `switches` switches
// (1: both hosts on one edge switch; 3: edge, spine, edge): the switch
// pipeline formula (docs/traffic.md, docs/fabrics.md) hop by hop from the
// platform's link classes and switching delay. A cut-through switch starts
// the routing and allocation delay when the head is in, a store-and-forward
// one when the tail is.
Time fat_tree_tail(const platforms::Platform& p, Time s, int flits, int switches) {
  const Time period = p.router.clock_period_ps();
  auto ceil_to = [period](Time t) { return (t + period - 1) / period * period; };
  auto flit_time = [&p](const platforms::LinkClass& c) {
    return Time(std::llround(double(p.router.flit_bytes) * 1e12 / c.bytes_per_s));
  };
  const Time pipe = ceil_to(p.router.switching_delay_ps);  // routing and both allocations; no traversal term
  const Time hf = flit_time(p.fabric.host), hl = p.fabric.host.latency_ps;
  const Time f = flit_time(p.fabric.up), c = p.fabric.up.latency_ps;
  const bool sf = p.router.store_and_forward;
  Time head = ceil_to(s + hf + hl), tail = s + Time(flits) * hf + hl;
  for (int k = 1; k < switches; ++k) {
    const Time start = (sf ? ceil_to(tail) : head) + pipe;
    const Time tail_leaves = std::max(start + Time(flits) * f, tail + f);
    head = ceil_to(start + f + c);
    tail = tail_leaves + c;
  }
  const Time start = (sf ? ceil_to(tail) : head) + pipe;
  return std::max(start + Time(flits) * hf, tail + hf) + hl;
}

// One packet per host to the next host (neighbor on a fat tree: host i to
// i + 1), all at time 0: no two share a link or a switch port, so every
// packet sees an empty network. On ib-qdr-16 (cut-through) 14 of 16 stay on
// their edge switch and hosts 7 and 15 cross a spine; on eps-tree-128
// (store-and-forward) 124 of 128 stay, and hosts 31, 63, 95, 127 cross.
TEST(TrafficOnSwitches, ZeroLoadLatencyOnAFatTreeFollowsTheSwitchPipelineFormula) {
  struct Case {
    std::string platform;
    int hosts, crossing;
  };
  for (const Case& c : {Case{"ib-qdr-16", 16, 2}, Case{"eps-tree-128", 128, 4}}) {
    auto p = platforms::load_platform(c.platform);
    ASSERT_GT(p.router.switching_delay_ps, 0);
    traffic::TrafficOptions o = opts("neighbor", 0.1, 0, 1);
    o.batch_packets = 1;
    auto j = run(c.platform, o);
    expect_exactly_once(j, c.platform + " neighbor batch", std::uint64_t(c.hosts));
    const Time period = p.router.clock_period_ps();
    auto cycles = [period](Time t) { return std::uint64_t((t + period - 1) / period); };
    const std::uint64_t local = cycles(fat_tree_tail(p, 0, 4, 1)), across = cycles(fat_tree_tail(p, 0, 4, 3));
    if (c.platform == "ib-qdr-16")
      EXPECT_EQ(local, 210u) << "17 (host link) + 128 (switch) + 64 (4 flits) + 1 (cable, on the clock)";
    EXPECT_EQ(j["latency_percentiles_cycles"]["p50"].get<std::uint64_t>(), local) << c.platform;
    EXPECT_EQ(j["latency_percentiles_cycles"]["max"].get<std::uint64_t>(), across) << c.platform;
    EXPECT_DOUBLE_EQ(
        j["avg_packet_latency_cycles"].get<double>(),
        (double(c.hosts - c.crossing) * double(local) + double(c.crossing) * double(across)) / c.hosts)
        << c.platform;
    EXPECT_DOUBLE_EQ(j["avg_hops"].get<double>(), 2.0 * c.crossing / c.hosts) << c.platform;
    EXPECT_EQ(j["batch_cycles"].get<std::uint64_t>(), across) << c.platform;
  }
}

// The port summary on a switched fabric groups ports by name without their
// number; the host ports are ni0, like the mesh/torus ejection ports.
TEST(TrafficOnSwitches, PortSummaryGroupsSwitchPortsByKind) {
  auto j = run("ib-qdr-16", opts("uniform", 0.03, 300, 1500));
  EXPECT_EQ(j["ports"]["ni0"]["links"].get<int>(), 16);
  EXPECT_EQ(j["ports"]["up"]["links"].get<int>(), 16) << "2 edges x 8 uplinks";
  EXPECT_EQ(j["ports"]["edge"]["links"].get<int>(), 16) << "the spines' links down to the edges";
  EXPECT_GT(j["window_link_flits"].get<std::uint64_t>(), 0u);
}

// `kairo traffic` as a user runs it, on the fat trees and the hybrid network:
// exit 0 and the JSON fields of a mesh/torus run; a pattern that needs
// coordinates is bad input (exit 2) naming the option.
TEST(TrafficOnSwitches, CommandLineRunsOnFatTreesAndTheHybridNetworkWithTheMeshFields) {
  auto keys = [](const nlohmann::json& j) {
    std::vector<std::string> k;
    for (auto it = j.begin(); it != j.end(); ++it) k.push_back(it.key());
    return k;
  };
  const std::vector<std::string> common = {"--warmup-cycles", "200", "--measure-cycles", "2000", "--quiet"};
  auto args = [&common](std::vector<std::string> a) {
    a.insert(a.end(), common.begin(), common.end());
    return a;
  };
  auto mesh = test::run_kairo(args({"traffic", "mesh-8x8", "--rate", "0.1"}));
  ASSERT_EQ(mesh.exit_code, 0) << mesh.err;
  const auto mesh_keys = keys(nlohmann::json::parse(mesh.out));
  for (std::string platform : {"ib-qdr-256", "eps-tree-128", "hybrid-eps-ocs-128"}) {
    auto r = test::run_kairo(args({"traffic", platform, "--rate", "0.002"}));
    ASSERT_EQ(r.exit_code, 0) << platform << ": " << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["platform"], platform);
    EXPECT_EQ(j["packets_lost"], 0) << platform;
    EXPECT_EQ(j["packets_created"], j["packets_delivered"]) << platform;
    EXPECT_EQ(keys(j), mesh_keys) << platform;
  }
  auto bad = test::run_kairo({"traffic", "ib-qdr-16", "--pattern", "transpose", "--rate", "0.01"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--pattern transpose"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("fat tree"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace kairo
