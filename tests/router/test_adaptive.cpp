// Minimal adaptive routing in the routers, end to end: deadlock-free far past
// saturation (the watchdog stays quiet and every packet arrives), carrying
// transpose on a mesh beyond the bound dimension order's hottest link sets,
// and tornado on a torus past BookSim's dimension-order saturation; its
// choices counted; a platform without VCs for it refused.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "hw/router/routing.h"
#include "platforms/platform.h"
#include "tests/net_harness.h"
#include "tests/traffic_harness.h"

namespace kairo {
namespace {

nlohmann::json run(const std::string& platform, const std::string& pattern, double rate,
                   std::vector<std::string> sets, std::uint64_t measure = 6000) {
  return test::traffic_json(platform, pattern, rate, sets, measure, 3);
}

const std::vector<std::string> kAdaptive = {"router.routing=minimal_adaptive"};

using test::with;

TEST(AdaptiveRouting, NoDeadlockAndNothingLostFarPastSaturation) {
  // Offered 0.95 flits per node-cycle, two to six times saturation: the
  // escape network has to carry whatever the adaptive VCs cannot. Fewest
  // VCs too: one adaptive VC beside the escape ones.
  const std::vector<std::tuple<std::string, std::string, std::vector<std::string>>> cases = {
      {"mesh-8x8", "transpose", {}},
      {"mesh-8x8", "uniform", {"router.vcs=2"}},
      {"torus-8x8", "tornado", {}},
      {"torus-8x8", "uniform", {"router.vcs=3"}},
      {"torus-8x8", "bitcomp", {"router.tie_break=random"}}};
  for (const auto& [platform, pattern, sets] : cases) {
    const auto j = run(platform, pattern, 0.95, with(kAdaptive, sets));
    EXPECT_EQ(j["deadlock"], false) << platform << " " << pattern;
    EXPECT_EQ(j["packets_lost"], 0) << platform << " " << pattern;
    EXPECT_EQ(j["packets_created"], j["packets_delivered"]) << platform << " " << pattern;
    EXPECT_EQ(j["adaptive_hops"].get<std::uint64_t>() + j["escape_hops"].get<std::uint64_t>(),
              j["packet_hops"].get<std::uint64_t>())
        << "every hop is on an adaptive or an escape VC";
    EXPECT_GT(j["escape_hops"].get<std::uint64_t>(), 0u) << "past saturation some packets must escape";
  }
}

// Transpose (x, y) -> (y, x) on an 8x8 mesh under XY routing: the eastward
// link from column c to c+1 in row y carries the flows of sources (x <= c, y)
// whose destination column y is beyond c: c + 1 of them when c < y, so the
// hottest link (row 7, column 6 to 7) carries F = 7 flows. At a rate r with
// F r > b (b: link flits per cycle), that link alone loses F r - b flits per
// cycle, so the accepted rate per node is at most r - (F r - b) / 64.
// Minimal adaptive routing spreads the flows over both orders.
TEST(AdaptiveRouting, CarriesTransposeBeyondTheBoundOfDimensionOrdersHottestLink) {
  const auto p = platforms::load_platform("mesh-8x8");
  const double b = p.router.link_flits_per_cycle();
  const std::vector<std::string> booksim = {"router.cable_latency=0ns", "router.host_latency=0ns"};
  // F counted from the routing function itself, independently of the run.
  const hw::Topology topo(p.dims);
  const router::DimensionOrderRouting dor(topo, {0, 1});
  std::map<std::pair<hw::NodeId, int>, int> flows;
  for (hw::NodeId s = 0; s < topo.num_nodes(); ++s) {
    const hw::Coord src = topo.coord_of(s);
    hw::Coord here = src, dst = {src[1], src[0]};
    for (router::RouteDecision r; (r = dor.route(here, dst, -1, hw::VcClass::kAny)).port >= 0;) {
      ++flows[{topo.id_of(here), r.port}];
      here = topo.coord_of(*topo.neighbor_via_port(topo.id_of(here), r.port));
    }
  }
  int hottest = 0;
  for (const auto& f : flows) hottest = std::max(hottest, f.second);
  ASSERT_EQ(hottest, 7);
  const double rate = 1.75 * b / hottest;  // 0.25 on mesh-8x8's 1-flit-per-cycle links
  const auto d = run("mesh-8x8", "transpose", rate, booksim);
  const auto a = run("mesh-8x8", "transpose", rate, with(kAdaptive, booksim));
  const double offered = a["offered_flits_per_node_cycle"];
  EXPECT_LE(d["accepted_flits_per_node_cycle"].get<double>(),
            d["offered_flits_per_node_cycle"].get<double>() - (hottest * rate - b) / 64 + 1e-3);
  EXPECT_GT(a["accepted_flits_per_node_cycle"].get<double>(), 0.97 * offered);
  EXPECT_LT(a["avg_packet_latency_cycles"].get<double>(), 3 * 36.0)
      << "stable: latency within 3x the zero-load 36 cycles";
}

// Tornado on torus-8x8 (+3 in x and in y): BookSim 2's dimension order
// saturates at 0.2007 flits per node-cycle (reference summary.csv,
// c_torus8_dor_tornado). At 0.25 dimension order is past it in both
// simulators; minimal adaptive routing still carries the load.
TEST(AdaptiveRouting, CarriesTornadoOnATorusPastDimensionOrdersSaturation) {
  const std::vector<std::string> booksim = {"router.host_latency=0ns", "router.tie_break=random"};
  const auto d = run("torus-8x8", "tornado", 0.25, booksim);
  const auto a = run("torus-8x8", "tornado", 0.25, with(kAdaptive, booksim));
  EXPECT_LT(d["accepted_flits_per_node_cycle"].get<double>(),
            0.95 * d["offered_flits_per_node_cycle"].get<double>());
  EXPECT_GT(a["accepted_flits_per_node_cycle"].get<double>(),
            0.97 * a["offered_flits_per_node_cycle"].get<double>());
}

TEST(AdaptiveRouting, AtLowLoadAlmostNoPacketEscapes) {
  const auto j = run("torus-8x8", "uniform", 0.05, kAdaptive);
  const double adaptive = j["adaptive_hops"], escape = j["escape_hops"];
  EXPECT_GT(adaptive, 0.99 * (adaptive + escape));
}

TEST(AdaptiveRouting, TooFewVcsForTheEscapeNetworkAreRefusedNamingTheKey) {
  try {
    platforms::load_platform("torus-8x8", {"router.routing=minimal_adaptive", "router.vcs=2"});
    ADD_FAILURE() << "2 VCs on a torus leave none adaptive: must be refused";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("router.vcs"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(">= 3"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(platforms::load_platform("mesh-8x8", {"router.routing=minimal_adaptive", "router.vcs=2"}));
  // A switched fabric routes by destination tables: the key is refused there.
  try {
    platforms::load_platform("ib-qdr-16", {"router.routing=minimal_adaptive"});
    ADD_FAILURE() << "router.routing on a fat tree must be refused";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("router.routing"), std::string::npos) << e.what();
  }
}

// BookSim's settings for min_adapt_torus (traffic/booksim_config.cpp): VC 0
// and VC 1 escape, VC 2 adaptive, an iSLIP VC allocation stage.
const std::vector<std::string> kBookSimAdaptive = {
    "router.routing=minimal_adaptive", "router.vcs=3",
    "router.vc_buffer_flits=8",        "router.vc_allocator=islip",
    "router.allocator=islip",          "router.islip_iterations=1",
    "router.dateline=at_entry",        "router.adaptive_half_way=minus"};

struct LoneHops {
  std::uint64_t adaptive, escape, minus_packets;  // minus_packets: sent on node 0's X- link
};

// One packet alone on torus-8x8 from node 0 (0,0) to `dst`.
LoneHops lone_packet(hw::NodeId dst, const std::string& selection) {
  const auto p = platforms::load_platform("torus-8x8",
                                          with(kBookSimAdaptive, {"router.adaptive_selection=" + selection}));
  test::NetBench bench(p);
  bench.send(0, dst, 4, 0);
  bench.run();
  EXPECT_EQ(bench.deliveries().size(), 1u);
  const auto& act = bench.net().activity();
  const int minus = bench.net().topology().port_of(0, -1);
  return {act.adaptive_hops, act.escape_hops, bench.net().router(0).link_counters(minus).packets_sent};
}

// Half-way round the X ring (0 -> 4 of 8): BookSim's min_adapt_torus offers
// the - way only, so a packet alone takes it adaptively under most_credits.
// Under vc_allocator (BookSim's iq router) the head asks for every free VC
// of every way, whatever its credits, and iSLIP's accept pointer, starting
// at output VC 0 (port x vcs + vc), takes the lowest-numbered one: the
// escape VCs (0-1) are numbered below the adaptive VC (2) on every port, so
// a lone packet takes its escape way (dimension order, its half-way coin
// either way) and stays in the escape network: all 4 hops escape.
TEST(AdaptiveRouting, BookSimsSelectionTakesTheLowestNumberedFreeVcAndHalfWayGoesMinus) {
  const LoneHops credits = lone_packet(4, "most_credits");
  EXPECT_EQ(credits.adaptive, 4u);
  EXPECT_EQ(credits.escape, 0u);
  EXPECT_EQ(credits.minus_packets, 1u) << "half-way round: BookSim's adaptive way is -";
  const LoneHops alloc = lone_packet(4, "vc_allocator");
  EXPECT_EQ(alloc.adaptive, 0u);
  EXPECT_EQ(alloc.escape, 4u);
  // Two hops + (0 -> 2): the escape VC 0 on X+ (output VC 0) before the adaptive VC 2 on X+.
  const LoneHops near = lone_packet(2, "vc_allocator");
  EXPECT_EQ(near.escape, 2u);
  EXPECT_EQ(near.minus_packets, 0u);
  EXPECT_EQ(lone_packet(2, "most_credits").adaptive, 2u);
}

// Node 0 (0,0) sends A to node 1 (1,0), then B to node 18 (2,2), both at
// once: B follows A through the injection port, 4 cycles behind. When B is
// allocated at router 0, A has just taken a VC on X+ and holds it (or has
// left 4 flits in it: 4 credits against 8 in every other VC). B's ways: X+
// and Y+ adaptive, X+ escape (dimension order).
//   most_credits: A takes the adaptive VC on X+ (adaptive first); for B the
//   adaptive VC on X+ is held or has fewer credits than Y+'s: B leaves by Y+.
//   vc_allocator (BookSim): A takes the lowest-numbered VC, the escape VC 0
//   on X+; B asks for every free VC of its ways and accepts the lowest-
//   numbered that grants (iSLIP's accept pointer, from 0 on B's fresh input
//   VC): X+'s VCs are numbered 0-2, Y+'s 6-8, so B leaves by X+ whatever
//   its VCs' credits.
std::pair<std::uint64_t, std::uint64_t> two_packets(const std::string& selection) {
  const auto p = platforms::load_platform("torus-8x8",
                                          with(kBookSimAdaptive, {"router.adaptive_selection=" + selection}));
  test::NetBench bench(p);
  bench.send(0, 1, 4, 0);
  bench.send(0, 18, 4, 0);
  bench.run();
  EXPECT_EQ(bench.deliveries().size(), 2u);
  const auto& topo = bench.net().topology();
  const auto& r0 = bench.net().router(0);
  return {r0.link_counters(topo.port_of(0, +1)).packets_sent,
          r0.link_counters(topo.port_of(1, +1)).packets_sent};
}

TEST(AdaptiveRouting, BookSimsSelectionIgnoresCreditCountsWhereMostCreditsDoesNot) {
  const auto [credits_x, credits_y] = two_packets("most_credits");
  EXPECT_EQ(credits_x, 1u) << "A alone by X+";
  EXPECT_EQ(credits_y, 1u) << "B by Y+, the adaptive way with the most free credits";
  const auto [alloc_x, alloc_y] = two_packets("vc_allocator");
  EXPECT_EQ(alloc_x, 2u) << "A and B by X+: its VCs are numbered first";
  EXPECT_EQ(alloc_y, 0u);
}

// BookSim's selection keeps Duato's conditions: every head still asks for its
// escape VC each round (beside the adaptive ones), so far past saturation
// nothing deadlocks and every packet arrives, also under wormhole flow
// control (BookSim's).
TEST(AdaptiveRouting, BookSimsSelectionNoDeadlockFarPastSaturation) {
  const std::vector<std::tuple<std::string, std::string, std::vector<std::string>>> cases = {
      {"torus-8x8", "tornado", kBookSimAdaptive},
      {"torus-8x8", "uniform", with(kBookSimAdaptive, {"router.tie_break=random"})},
      {"torus-8x8", "bitcomp", with(kBookSimAdaptive, {"router.flow_control=wormhole"})},
      {"mesh-8x8", "transpose", {"router.routing=minimal_adaptive", "router.vc_allocator=islip"}}};
  for (const auto& [platform, pattern, sets] : cases) {
    const auto j = run(platform, pattern, 0.95, with(sets, {"router.adaptive_selection=vc_allocator"}));
    EXPECT_EQ(j["deadlock"], false) << platform << " " << pattern;
    EXPECT_EQ(j["packets_lost"], 0) << platform << " " << pattern;
    EXPECT_EQ(j["packets_created"], j["packets_delivered"]) << platform << " " << pattern;
    EXPECT_GT(j["adaptive_hops"].get<std::uint64_t>(), 0u) << platform << " " << pattern;
    EXPECT_GT(j["escape_hops"].get<std::uint64_t>(), 0u) << platform << " " << pattern;
  }
}

TEST(AdaptiveRouting, SelectionByTheVcAllocatorWithoutOneIsRefusedNamingTheKey) {
  try {
    platforms::load_platform("torus-8x8",
                             {"router.routing=minimal_adaptive", "router.adaptive_selection=vc_allocator"});
    ADD_FAILURE() << "vc_allocator selection needs a VC allocation stage";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("router.adaptive_selection"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace kairo
