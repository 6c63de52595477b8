// Dragonfly traffic end to end on dragonfly-342 (19 groups of 6 routers with
// 3 hosts each): every packet arrives under minimal, Valiant and UGAL
// routing; the average links of minimal and Valiant routing under
// uniform_self are those of the wiring, enumerated here; on bad_dragon
// minimal routing stays under the bound of the one global link between two
// groups while UGAL carries well above it; far past saturation with small
// buffers nothing deadlocks or is lost; the same seed gives the same run.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "platforms/platform.h"
#include "platforms/switch_plan.h"
#include "tests/traffic_harness.h"
#include "traffic/traffic_run.h"

namespace kairo {
namespace {

using test::with;

// `platform` under `pattern` at `rate` in 4-flit packets (8 with `flits`),
// `warmup` then `measure` cycles.
nlohmann::json run(const std::string& platform, const std::string& pattern, double rate,
                   const std::vector<std::string>& sets, std::uint64_t warmup, std::uint64_t measure,
                   std::uint64_t seed = 5, int flits = 4) {
  return test::traffic_json_after(platform, pattern, rate, sets, warmup, measure, seed, flits);
}

void expect_all_delivered(const nlohmann::json& j, const std::string& what) {
  EXPECT_EQ(j["deadlock"], false) << what;
  EXPECT_EQ(j["packets_lost"], 0) << what;
  EXPECT_EQ(j["packets_duplicated"], 0) << what;
  EXPECT_EQ(j["packets_created"], j["packets_delivered"]) << what;
  EXPECT_GT(j["measured_packets"].get<std::uint64_t>(), 0u) << what;
}

const std::vector<std::string> kRoutings = {"minimal", "valiant", "ugal"};

TEST(Dragonfly, EveryPacketArrivesUnderEachRoutingAndPatternAtLowLoad) {
  for (const std::string pattern : {"uniform_self", "bad_dragon"})
    for (const auto& routing : kRoutings) {
      const auto j = run("dragonfly-342", pattern, 0.05, {"router.routing=" + routing}, 1000, 3000);
      expect_all_delivered(j, pattern + " " + routing);
    }
}

// Link counts of the ways between routers, from the plan's cables: the
// cable joining two groups (its router in each), and from it the minimal
// way (a local link to that router of the source group unless the packet
// starts there, the cable, a local link from where it lands unless that is
// the destination's router) and Valiant's way through group I.
struct Ways {
  int a = 0, groups = 0, routers = 0;
  std::map<std::pair<int, int>, std::pair<int, int>> cable;

  explicit Ways(const platforms::Platform& p) {
    const auto plan = platforms::plan_switches(p, 1);
    a = p.fabric.group_routers, groups = p.fabric.groups, routers = a * groups;
    for (const auto& l : plan.links)
      if (l.cls == &p.fabric.global) {
        const int x = int(l.a), y = int(l.b);
        cable[{x / a, y / a}] = {x, y};
        cable[{y / a, x / a}] = {y, x};
      }
  }
  int minimal(int x, int y) const {
    if (x / a == y / a) return x != y;
    const auto [out, in] = cable.at({x / a, y / a});
    return (x != out) + 1 + (in != y);
  }
  // Minimal when I is the source group or the destination is in it.
  int valiant(int x, int y, int I) const {
    if (x / a == y / a || I == x / a) return minimal(x, y);
    const auto [out, in] = cable.at({x / a, I});
    return (x != out) + 1 + (I == y / a ? (in != y) : minimal(in, y));
  }
};

// uniform_self: source and destination nodes uniform and independent, so
// (p hosts on every router) source and destination routers are too, and
// Valiant's intermediate group (the group of a uniformly random node) is
// uniform over the groups. The measured average is over M independent
// packets: five standard errors, sigma / sqrt(M) each, from the mean.
TEST(Dragonfly, AverageLinksUnderUniformSelfAreTheWiringsMinimalAndValiantWays) {
  const auto p = platforms::load_platform("dragonfly-342");
  const Ways w(p);
  ASSERT_EQ(w.routers, 114);
  double m1 = 0, m2 = 0, v1 = 0, v2 = 0;
  for (int x = 0; x < w.routers; ++x)
    for (int y = 0; y < w.routers; ++y) {
      const double l = w.minimal(x, y);
      m1 += l, m2 += l * l;
      for (int I = 0; I < w.groups; ++I) {
        const double v = w.valiant(x, y, I);
        v1 += v, v2 += v * v;
      }
    }
  const double pairs = double(w.routers) * w.routers;
  const double min_mean = m1 / pairs, min_sd = std::sqrt(m2 / pairs - min_mean * min_mean);
  const double val_mean = v1 / (pairs * w.groups),
               val_sd = std::sqrt(v2 / (pairs * w.groups) - val_mean * val_mean);
  // With one cable between every two groups, a source router holds it with
  // probability 1/a and lands on the destination's router with 1/a.
  EXPECT_NEAR(min_mean, (5.0 + 108.0 * (1 + 2 * 5.0 / 6)) / 114, 1e-12);
  for (const auto& [routing, mean, sd] :
       {std::tuple{"minimal", min_mean, min_sd}, std::tuple{"valiant", val_mean, val_sd}}) {
    const auto j =
        run("dragonfly-342", "uniform_self", 0.1, {std::string("router.routing=") + routing}, 1000, 6000);
    const double M = double(j["measured_packets"].get<std::uint64_t>());
    ASSERT_GT(M, 10000) << routing;
    EXPECT_NEAR(j["avg_hops"].get<double>(), mean, 5 * sd / std::sqrt(M)) << routing;
  }
  EXPECT_GT(val_mean, min_mean + 1) << "the two averages must be told apart";
}

// bad_dragon sends all of a group's traffic to the next group. Minimal
// routing puts it on the one global cable between the two, so the a*p nodes
// of a group can deliver at most its bandwidth in flits per cycle, B: per
// node B / (a p). Flits past the cable when the window opens (at most what
// its receiving buffers hold, vcs x vc_buffer_flits) may add to the flits
// delivered in the window: the margin. UGAL spreads the load over Valiant's
// ways and carries well above the bound.
TEST(Dragonfly, MinimalStaysUnderOneGlobalLinkPerGroupPairOnBadDragonAndUgalCarriesMore) {
  const auto p = platforms::load_platform("dragonfly-342");
  const auto& f = p.fabric;
  const double link = f.global.bytes_per_s / double(p.router.flit_bytes) / p.router.clock_hz;
  ASSERT_NEAR(link, 1.0, 1e-9) << "32GB/s of 32B flits at 1GHz";
  const double nodes_per_group = double(f.group_routers) * double(f.hosts_per_edge);
  const std::uint64_t measure = 10000;
  const double bound = link / nodes_per_group;  // 1/18
  const double margin =
      double(p.router.vcs) * double(p.router.vc_buffer_flits) / double(measure) / nodes_per_group;
  const double offered = 0.12;
  ASSERT_GT(offered, 2 * bound);
  const auto m = run("dragonfly-342", "bad_dragon", offered, {"router.routing=minimal"}, 2000, measure);
  const auto u = run("dragonfly-342", "bad_dragon", offered, {"router.routing=ugal"}, 2000, measure);
  EXPECT_NEAR(m["offered_flits_per_node_cycle"].get<double>(), offered, 0.1 * offered);
  EXPECT_LE(m["accepted_flits_per_node_cycle"].get<double>(), bound + margin);
  EXPECT_GT(u["accepted_flits_per_node_cycle"].get<double>(), 1.5 * bound);
  expect_all_delivered(m, "minimal");
  expect_all_delivered(u, "ugal");
}

// Offered 0.9 flits per node-cycle in 8-flit packets with 8-flit VC buffers
// (a global cable's credits come back after 200 cycles, so each VC carries
// a few percent of its bandwidth): far past saturation, every packet still
// arrives and the watchdog stays quiet. 3 VCs x 8 flits are 24 used credits
// at most, never above UGAL's default threshold of 30, so UGAL with it goes
// minimally; with threshold 0 it mixes minimal and Valiant ways.
TEST(Dragonfly, NoDeadlockAndNothingLostFarPastSaturation) {
  const std::vector<std::string> small = {"router.vc_buffer_flits=8", "router.max_packet_flits=8"};
  for (const std::string pattern : {"uniform_self", "bad_dragon"}) {
    std::map<std::string, nlohmann::json> runs;
    for (const std::vector<std::string>& routing :
         std::vector<std::vector<std::string>>{{"router.routing=minimal"},
                                               {"router.routing=valiant"},
                                               {"router.routing=ugal"},
                                               {"router.routing=ugal", "router.ugal_threshold=0"}}) {
      const std::string what = pattern + " " + routing.back();
      const auto j = run("dragonfly-342", pattern, 0.9, with(small, routing), 500, 1000, 5, 8);
      expect_all_delivered(j, what);
      runs[routing.back()] = j;
    }
    EXPECT_GT(runs["router.ugal_threshold=0"]["avg_hops"].get<double>(),
              runs["router.routing=minimal"]["avg_hops"].get<double>() + 0.05)
        << pattern << ": UGAL took Valiant's ways too";
  }
}

// The same seed gives the same JSON but for the run's own cost; another
// seed another run. dimension_order means minimal on a dragonfly: the same run.
TEST(Dragonfly, SameSeedGivesTheSameRunAndDimensionOrderIsMinimal) {
  auto strip = [](nlohmann::json j) {
    for (const auto& f : traffic::cost_fields()) j.erase(f);
    j.erase("resolved");  // the configuration, which differs by router.routing below
    return j;
  };
  const auto a = strip(run("dragonfly-342", "bad_dragon", 0.1, {}, 1000, 2000, 5));
  const auto b = strip(run("dragonfly-342", "bad_dragon", 0.1, {}, 1000, 2000, 5));
  const auto c = strip(run("dragonfly-342", "bad_dragon", 0.1, {}, 1000, 2000, 6));
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c) << "the seed must matter";
  const auto m = strip(run("dragonfly-342", "uniform_self", 0.1, {"router.routing=minimal"}, 1000, 2000));
  const auto d =
      strip(run("dragonfly-342", "uniform_self", 0.1, {"router.routing=dimension_order"}, 1000, 2000));
  EXPECT_EQ(m, d);
}

}  // namespace
}  // namespace kairo
