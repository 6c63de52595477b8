// Synthetic traffic: saturation against the bisection bound, nothing lost or
// duplicated above saturation, determinism, idle time, batch mode.
#include <gtest/gtest.h>

#include "platforms/platform.h"
#include "tests/net_harness.h"
#include "traffic/pattern.h"
#include "traffic/traffic_run.h"

namespace kairo {
namespace {

nlohmann::json run(const std::string& platform, traffic::TrafficOptions o, std::vector<std::string> sets = {}) {
  o.use_systemc = false;
  auto r = traffic::run_traffic(platforms::load_platform(platform, sets), o);
  EXPECT_FALSE(r.deadlock) << platform << ": " << (r.blocked.empty() ? "" : r.blocked.front());
  return r.json;
}

traffic::TrafficOptions opts(const std::string& pattern, double rate, std::uint64_t warmup, std::uint64_t measure) {
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
  EXPECT_NEAR(low["accepted_flits_per_node_cycle"].get<double>(), low["offered_flits_per_node_cycle"].get<double>(),
              0.02 * 0.2);
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
      EXPECT_LT(j["accepted_flits_per_node_cycle"].get<double>(), 0.95 * j["offered_flits_per_node_cycle"].get<double>())
          << platform << " " << pattern << ": the load must be above saturation";
    }
  }
}

TEST(Traffic, EveryPatternDeliversEverythingOnEveryTopologyKind) {
  for (std::string platform : {"mesh-8x8", "torus-8x8", "tofu-small"}) {
    for (const auto& pattern : traffic::pattern_names()) {
      if (pattern == "transpose" && platform == "tofu-small") continue;  // needs a symmetric shape
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
  const double expected = j["accepted_flits_per_node_cycle"].get<double>() * 64 * 5000 * j["avg_hops"].get<double>();
  EXPECT_NEAR(j["window_link_flits"].get<double>() / expected, 1.0, 0.02);
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
  EXPECT_NEAR(j["ports"]["ni0"]["avg_utilization"].get<double>(), lambda, 0.03 * lambda) << "ejection = accepted load";
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

}  // namespace
}  // namespace kairo
