// Locality-aware routing on the hybrid EPS+OCS network of Takizawa et al. 2008, as pure
// data: forwarding tables pick a direct pathway when one exists, relay through
// a third switch (with the EO-OE relay nodes in the hop list) when not, and
// fall back to one EPS hop when the optical graph cannot reach; small or
// switch-local messages stay on the EPS; parallel circuits share flows evenly.
// Switch and Communication Partitioning reproduce Takizawa et al. 2008 §4.2 on its
// 8 x 16 Neighbor grid (48 pathways for SP, 24 for CP, three pathways chain
// the four switches and empty the top switch). CSV patterns parse, and bad
// ones name the file and line.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <queue>
#include <random>
#include <set>

#include "sw/hybrid/forwarding.h"
#include "sw/hybrid/partitioning.h"
#include "sw/hybrid/pattern.h"
#include "tests/test_support.h"

namespace kairo::hybrid {
namespace {

constexpr std::uint64_t kMB = 1'000'000;

// Table 1 rates.
EpsShape shape(int edges, int hosts) { return EpsShape{.edges = edges, .hosts_per_edge = hosts}; }

std::vector<bool> all_optical(const EpsShape& s) { return std::vector<bool>(std::size_t(s.nodes()), true); }

ForwardingTables tables(const EpsShape& s, std::vector<Pathway> p) {
  return ForwardingTables(s, std::move(p), all_optical(s));
}

void expect_every_switch_pair_reachable(const ForwardingTables& t, int edges) {
  for (int a = 0; a < edges; ++a)
    for (int b = 0; b < edges; ++b)
      EXPECT_TRUE(a == b || t.reachable(a, b)) << "no OCS route S" << a << " -> S" << b;
}

// --- forwarding tables and routes on small switch graphs (3 switches x 4 hosts) ---

TEST(HybridRouting, DirectPathwayIsTakenWhenPresent) {
  const auto t = tables(shape(3, 4), {{2, 7}, {1, 9}, {10, 5}});  // S0-S1, S0-S2, S2-S1
  EXPECT_EQ(t.next_switch(0, 1), 1);
  EXPECT_DOUBLE_EQ(t.cost(0, 1), t.hop_cost());
  const std::vector<Hop> want = {{0, 2, false}, {2, 7, true}, {7, 6, false}};
  EXPECT_EQ(t.route(0, 6, 1 * kMB, 0), want) << "node 0 (S0) to node 6 (S1) must use the S0-S1 circuit 2-7";
}

TEST(HybridRouting, MissingDirectPathwayRelaysThroughThirdSwitchWithEoOeNodes) {
  const auto t = tables(shape(3, 4), {{1, 9}, {10, 5}});  // A=S0 - C=S2 - B=S1, no A-B
  EXPECT_EQ(t.next_switch(0, 1), 2);
  EXPECT_EQ(t.next_switch(2, 1), 1);
  EXPECT_DOUBLE_EQ(t.cost(0, 1), 2 * t.hop_cost());
  // 0 -> relay 1 (EO) -> circuit -> 9 (OE) -> EPS -> 10 (EO) -> circuit -> 5 (OE) -> 6
  const std::vector<Hop> there = {{0, 1, false}, {1, 9, true}, {9, 10, false}, {10, 5, true}, {5, 6, false}};
  EXPECT_EQ(t.route(0, 6, 1 * kMB, 0), there);
  const std::vector<Hop> back = {{6, 5, false}, {5, 10, true}, {10, 9, false}, {9, 1, true}, {1, 0, false}};
  EXPECT_EQ(t.route(6, 0, 1 * kMB, 0), back);
  // The pathway owners send with no EPS leg of their own.
  const std::vector<Hop> owners = {{1, 9, true}, {9, 10, false}, {10, 5, true}};
  EXPECT_EQ(t.route(1, 5, 1 * kMB, 0), owners);
}

TEST(HybridRouting, NoOpticalRouteFallsBackToOneEpsHop) {
  const auto t = tables(shape(3, 4), {{1, 5}});  // S2 has no pathway
  EXPECT_FALSE(t.reachable(0, 2));
  EXPECT_EQ(t.next_switch(0, 2), -1) << "the table entry must be nullified";
  EXPECT_TRUE(std::isinf(t.cost(0, 2)));
  EXPECT_EQ(t.route(0, 9, 1 * kMB, 0), (std::vector<Hop>{{0, 9, false}}));
  const auto none = tables(shape(3, 4), {});
  EXPECT_EQ(none.route(0, 6, 1 * kMB, 0), (std::vector<Hop>{{0, 6, false}}));
  EXPECT_EQ(none.dv_rounds(), 1) << "nothing to learn: one quiet round";
}

TEST(HybridRouting, SmallOrSwitchLocalMessagesStayOnEps) {
  const auto t = tables(shape(3, 4), {{2, 7}});
  EXPECT_EQ(t.route(0, 6, kDefaultThresholdBytes, 0), (std::vector<Hop>{{0, 6, false}}))
      << "8192 B is not above the threshold";
  EXPECT_EQ(t.route(0, 6, kDefaultThresholdBytes + 1, 0).size(), 3u)
      << "8193 B crosses switches on the circuit";
  EXPECT_EQ(t.route(0, 3, 100 * kMB, 0), (std::vector<Hop>{{0, 3, false}})) << "same edge switch: EPS only";
  EXPECT_TRUE(t.route(5, 5, 100 * kMB, 0).empty());
}

TEST(HybridRouting, DistanceVectorOnAChainConvergesInLongestRoutePlusOneRounds) {
  const auto t = tables(shape(4, 4), {{1, 4}, {5, 8}, {9, 12}});  // S0-S1-S2-S3
  EXPECT_EQ(t.dv_rounds(), 3 + 1);
  for (int s = 0; s < 4; ++s)
    for (int d = 0; d < 4; ++d) {
      if (s == d) continue;
      EXPECT_EQ(t.next_switch(s, d), s + (d > s ? 1 : -1)) << s << " -> " << d;
      EXPECT_DOUBLE_EQ(t.cost(s, d), std::abs(d - s) * t.hop_cost());
    }
  EXPECT_DOUBLE_EQ(t.hop_cost(), 8.0 / 32e9 + 2 * 8.0 / 10e9) << "1/ocs + 2/host, seconds per byte";
}

TEST(HybridRouting, EqualCostRoutesGoThroughTheLowestSwitchId) {
  // A square S0-S1-S3-S2-S0: S0 reaches S3 in two hops via S1 or via S2.
  const auto t = tables(shape(4, 4), {{1, 4}, {2, 8}, {5, 12}, {9, 13}});
  EXPECT_EQ(t.next_switch(0, 3), 1);
  EXPECT_EQ(t.next_switch(3, 0), 1);
  EXPECT_EQ(t.next_switch(1, 2), 0);
  EXPECT_DOUBLE_EQ(t.cost(0, 3), 2 * t.hop_cost());
}

// An independent model: breadth-first hop counts over the switch graph.
std::vector<int> bfs_hops(const EpsShape& s, const std::vector<Pathway>& ps, int from) {
  std::vector<int> dist(std::size_t(s.edges), -1);
  std::queue<int> q;
  dist[std::size_t(from)] = 0;
  for (q.push(from); !q.empty(); q.pop())
    for (const Pathway& p : ps)
      for (auto [u, v] :
           {std::pair{s.edge_of(p.a), s.edge_of(p.b)}, std::pair{s.edge_of(p.b), s.edge_of(p.a)}})
        if (u == q.front() && dist[std::size_t(v)] < 0)
          dist[std::size_t(v)] = dist[std::size_t(u)] + 1, q.push(v);
  return dist;
}

TEST(HybridRouting, RoutesAreLoopFreeShortestChainsOnRandomPathwaySets) {
  const EpsShape s = shape(6, 4);
  std::mt19937 rng(2008);
  for (int trial = 0; trial < 40; ++trial) {
    std::vector<std::uint32_t> nodes(std::size_t(s.nodes()));
    std::iota(nodes.begin(), nodes.end(), 0u);
    std::shuffle(nodes.begin(), nodes.end(), rng);
    std::vector<Pathway> ps;  // disjoint node pairs across switches, up to trial % 9 of them
    for (std::size_t i = 0; i + 1 < nodes.size() && int(ps.size()) < trial % 9; i += 2)
      if (s.edge_of(nodes[i]) != s.edge_of(nodes[i + 1])) ps.push_back({nodes[i], nodes[i + 1]});
    const auto t = tables(s, ps);
    for (std::uint32_t src = 0; src < std::uint32_t(s.nodes()); ++src) {
      const auto hops_from = bfs_hops(s, ps, s.edge_of(src));
      for (std::uint32_t dst = 0; dst < std::uint32_t(s.nodes()); ++dst) {
        if (src == dst) continue;
        const auto r = t.route(src, dst, 1 * kMB, src + dst);
        const int want = s.edge_of(src) == s.edge_of(dst) ? 0 : hops_from[std::size_t(s.edge_of(dst))];
        ASSERT_FALSE(r.empty());
        EXPECT_EQ(r.back().to, dst);
        std::set<int> seen = {s.edge_of(src)};
        int optical = 0;
        for (std::size_t i = 0; i < r.size(); ++i) {
          EXPECT_EQ(r[i].from, i ? r[i - 1].to : src) << "hops must chain from src";
          if (!r[i].optical) continue;
          ++optical;
          EXPECT_TRUE(seen.insert(s.edge_of(r[i].to)).second)
              << "route revisits switch " << s.edge_of(r[i].to);
        }
        EXPECT_EQ(optical, std::max(want, 0)) << "trial " << trial << ": " << src << " -> " << dst;
      }
    }
  }
}

TEST(HybridRouting, FlowIdSpreadsFlowsOverParallelCircuitsWithinOne) {
  const EpsShape s = shape(2, 8);
  const auto t = tables(s, {{0, 8}, {1, 9}, {2, 10}});  // three parallel S0-S1 circuits
  ASSERT_EQ(t.circuits(0, 1).size(), 3u);
  std::vector<int> flows_on(3, 0);
  for (std::uint32_t id = 0; id < 100; ++id) {
    const std::uint32_t src = 3 + id % 5, dst = 11 + id % 5;
    const auto r = t.route(src, dst, 1 * kMB, id);
    ASSERT_EQ(r.size(), 3u);
    const std::uint32_t x = r[1].from;
    EXPECT_EQ(r[0], (Hop{src, x, false}));
    EXPECT_EQ(r[1], (Hop{x, x + 8, true}));
    EXPECT_EQ(r[2], (Hop{x + 8, dst, false}));
    ++flows_on[x];
  }
  const auto [lo, hi] = std::minmax_element(flows_on.begin(), flows_on.end());
  EXPECT_LE(*hi - *lo, 1) << "100 flows over 3 circuits: 34, 33, 33";
}

TEST(HybridRouting, PlanKeepsCircuitLoadsWithinTheLargestFlow) {
  const EpsShape s = shape(2, 8);
  const std::vector<Pathway> ps = {{0, 8}, {1, 9}, {2, 10}};
  const auto t = tables(s, ps);
  Pattern p = Pattern::zeros(16);
  std::uint64_t largest = 0, total = 0;
  for (int a = 3; a < 8; ++a)
    for (int b = 11; b < 16; ++b) {
      p.at(a, b) = std::uint64_t((a * 7 + b * 13) % 50 + 1) * kMB;  // 25 flows of 1..50 MB, S0 -> S1
      p.at(b, a) = 4 * kMB;                                         // 25 equal flows back
      largest = std::max(largest, p.at(a, b));
      total += p.at(a, b);
    }
  const auto flows = t.plan(p, sequential_placement(16));
  const Tally tl = tally(s, ps, flows);
  std::vector<std::uint64_t> there, back;
  for (const auto& c : tl.circuits) there.push_back(c.a_to_b), back.push_back(c.b_to_a);
  EXPECT_EQ(std::accumulate(there.begin(), there.end(), std::uint64_t(0)), total);
  const auto [lo, hi] = std::minmax_element(there.begin(), there.end());
  EXPECT_LE(*hi - *lo, largest) << "greedy least-loaded placement bound";
  const auto [blo, bhi] = std::minmax_element(back.begin(), back.end());
  EXPECT_LE(*bhi - *blo, 4 * kMB) << "25 equal flows over 3 circuits: 9, 8, 8";
  EXPECT_EQ(tl.top_switch_bytes, 0u);
}

// --- Takizawa et al. 2008's Neighbor benchmark: 8 x 16 grid, 4 switches x 32 nodes ---

// Grid neighbour pairs whose ranks land under different switches, counted
// from coordinates (independent of the pattern and partitioning code).
int crossing_pairs(const NeighborGrid& g, const std::vector<int>& switch_of_rank) {
  int n = 0;
  for (int r = 0; r < g.rows; ++r)
    for (int c = 0; c < g.cols; ++c)
      for (auto [nr, nc] : {std::pair{r + 1, c}, std::pair{r, c + 1}}) {
        if (!g.periodic && (nr == g.rows || nc == g.cols)) continue;
        n += switch_of_rank[std::size_t(r * g.cols + c)] !=
             switch_of_rank[std::size_t(nr % g.rows * g.cols + nc % g.cols)];
      }
  return n;
}

std::vector<int> sequential_switches(const EpsShape& s) {
  std::vector<int> sw;
  for (int r = 0; r < s.nodes(); ++r) sw.push_back(r / s.hosts_per_edge);
  return sw;
}

TEST(SwitchPartitioning, NeighborGridGetsOnePathwayPerInterSwitchPair) {
  const EpsShape s = shape(4, 32);
  const NeighborGrid g;  // 8 x 16, 40 MB, open border
  const Pattern p = neighbor_pattern(g);
  const auto map = sequential_placement(128);
  const int want = crossing_pairs(g, sequential_switches(s));
  EXPECT_EQ(want, 3 * 16) << "2 x 16 rows per switch: three boundaries of 16 columns (seed: 48)";
  const auto table = switch_pair_table(s, p, map, kDefaultThresholdBytes);
  EXPECT_EQ(inter_switch_pairs(s, table), want);
  EXPECT_EQ(table[0 * 4 + 1], 16);
  EXPECT_EQ(table[0 * 4 + 2], 0);
  EXPECT_EQ(table[1 * 4 + 1], 2 * 15 + 16) << "pairs inside one 2 x 16 block";
  const auto ps = assign_sp(s, p, map, 1000, kDefaultThresholdBytes, all_optical(s));
  ASSERT_EQ(int(ps.size()), want);
  for (const Pathway& w : ps) EXPECT_EQ(w.b, w.a + 16) << "each pathway joins a vertical neighbour pair";
  const auto t = ForwardingTables(s, ps, all_optical(s));
  EXPECT_EQ(tally(s, ps, t.plan(p, map)).pathways_used(), want);
}

TEST(SwitchPartitioning, RoundRobinOverSwitchPairsThenASecondRound) {
  const EpsShape s = shape(4, 32);
  const Pattern p = neighbor_pattern({});
  // Only (0,1), (1,2), (2,3) talk; all pairs exchange 80 MB, so the edge
  // process (smaller rank) decides: the column-0 pair first, then column 1.
  const std::vector<Pathway> want = {{16, 32}, {48, 64}, {80, 96}, {17, 33}, {49, 65}, {81, 97}};
  EXPECT_EQ(assign_sp(s, p, sequential_placement(128), 6, kDefaultThresholdBytes, all_optical(s)), want);
  auto optical = all_optical(s);
  optical[16] = false;
  EXPECT_EQ(assign_sp(s, p, sequential_placement(128), 1, kDefaultThresholdBytes, optical).front(),
            (Pathway{17, 33}))
      << "a node without an optical NIC never ends a pathway";
}

TEST(SwitchPartitioning, ThreePathwaysChainTheSwitchesAndEmptyTheTopSwitch) {
  const EpsShape s = shape(4, 32);
  const Pattern p = neighbor_pattern({});
  const auto map = sequential_placement(128);
  const auto ps = assign_sp(s, p, map, 3, kDefaultThresholdBytes, all_optical(s));
  const ForwardingTables t(s, ps, all_optical(s));
  expect_every_switch_pair_reachable(t, 4);
  const Tally tl = tally(s, ps, t.plan(p, map));
  EXPECT_EQ(tl.top_switch_bytes, 0u) << "Takizawa et al. 2008 Figure 6: no S0 load with three pathways";
  // Relay node 16 (S0 end of the S0-S1 circuit): the 15 other row-1 ranks'
  // messages to row 2 come in on its EPS link and row 2's 15 replies go out
  // (30 x 40 MB), plus its own exchange with ranks 0 and 17 (4 x 40 MB).
  EXPECT_EQ(tl.node_eps_bytes[16], 34 * 40 * kMB);
  EXPECT_EQ(tl.max_node_eps_bytes(), 34 * 40 * kMB);
  const ForwardingTables eps_only(s, {}, all_optical(s));
  EXPECT_EQ(tally(s, {}, eps_only.plan(p, map)).top_switch_bytes, 48 * 2 * 40 * kMB);
}

TEST(SwitchPartitioning, HeavierPairWinsThenSmallerEdgeProcess) {
  const EpsShape s = shape(2, 2);
  Pattern p = Pattern::zeros(4);  // ranks 0, 1 under S0 and 2, 3 under S1 (sequential)
  p.at(0, 2) = 10'000;
  p.at(1, 3) = 20'000;
  const auto opt = all_optical(s);
  EXPECT_EQ(assign_sp(s, p, sequential_placement(4), 1, kDefaultThresholdBytes, opt),
            (std::vector<Pathway>{{1, 3}}));
  p.at(0, 2) = 20'000;
  const std::vector<std::uint32_t> shuffled = {1, 0, 3, 2};  // rank r on node shuffled[r]
  EXPECT_EQ(assign_sp(s, p, shuffled, 1, kDefaultThresholdBytes, opt), (std::vector<Pathway>{{1, 3}}))
      << "tie: the pair of rank 0 (on node 1) wins";
  p.at(0, 2) = kDefaultThresholdBytes;  // not above the threshold: not a candidate
  EXPECT_EQ(assign_sp(s, p, sequential_placement(4), 2, kDefaultThresholdBytes, opt).size(), 1u);
}

TEST(CommunicationPartitioning, NeighborGridSplitsIntoEightByFourBlocks) {
  const EpsShape s = shape(4, 32);
  const NeighborGrid g;
  const Pattern p = neighbor_pattern(g);
  const std::vector<int> sw = cp_switch_of_rank(s, p);
  EXPECT_EQ(crossing_pairs(g, sw), (16 / 4 - 1) * 8) << "four 8 x 4 blocks cut 3 x 8 pairs (seed: 24)";
  for (int k = 0; k < 4; ++k) {
    std::set<int> cols;
    for (int r = 0; r < 128; ++r)
      if (sw[std::size_t(r)] == k) cols.insert(r % 16);
    EXPECT_EQ(cols.size(), 4u) << "switch " << k << " must hold 4 whole columns";
  }
  const Placement pl = assign_cp(s, p, 1000, kDefaultThresholdBytes, all_optical(s));
  EXPECT_EQ(inter_switch_pairs(s, switch_pair_table(s, p, pl.node_of_rank, kDefaultThresholdBytes)), 24);
  EXPECT_EQ(pl.pathways.size(), 24u) << "every crossing pair gets its circuit";
  const Placement three = assign_cp(s, p, 3, kDefaultThresholdBytes, all_optical(s));
  const ForwardingTables t(s, three.pathways, all_optical(s));
  expect_every_switch_pair_reachable(t, 4);
  EXPECT_EQ(cp_switch_of_rank(s, p), sw) << "CP must be deterministic";
}

TEST(CommunicationPartitioning, TorusGridCutsFourColumnBoundaries) {
  const EpsShape s = shape(4, 32);
  const NeighborGrid g{8, 16, 40 * kMB, true};
  const Pattern p = neighbor_pattern(g);
  EXPECT_EQ(crossing_pairs(g, sequential_switches(s)), 4 * 16) << "SP: the wrap adds S3-S0";
  EXPECT_EQ(crossing_pairs(g, cp_switch_of_rank(s, p)), 4 * 8) << "8 x 4 blocks on a ring of columns";
}

TEST(CommunicationPartitioning, EverySwitchGetsExactlyItsHostsWhenGroupsDoNotFit) {
  const EpsShape s = shape(2, 3);
  Pattern p = Pattern::zeros(6);
  for (int a = 0; a < 4; ++a)  // ranks 0-3 all talk; 4 and 5 talk; 3 hosts per switch
    for (int b = 0; b < 4; ++b)
      if (a != b) p.at(a, b) = 100'000;
  p.at(4, 5) = p.at(5, 4) = 100'000;
  const auto sw = cp_switch_of_rank(s, p);
  EXPECT_EQ(std::count(sw.begin(), sw.end(), 0), 3);
  EXPECT_EQ(sw[4], sw[5]);
  int cut = 0;
  for (int a = 0; a < 6; ++a)
    for (int b = a + 1; b < 6; ++b) cut += p.at(a, b) > 0 && sw[std::size_t(a)] != sw[std::size_t(b)];
  EXPECT_EQ(cut, 3) << "one of ranks 0-3 joins 4 and 5, cutting its 3 links";
}

TEST(CommunicationPartitioning, RandomPatternsFillEverySwitchExactly) {
  // METIS balances only within its tolerance (on some of these graphs it
  // leaves a part one rank over); CP must still fill every switch exactly.
  std::mt19937 rng(2008);
  for (int trial = 0; trial < 60; ++trial) {
    const EpsShape s = shape(2 + trial % 7, 1 + trial / 7 % 7);
    Pattern p = Pattern::zeros(s.nodes());
    for (int a = 0; a < p.ranks; ++a)
      for (int b = 0; b < p.ranks; ++b)
        if (a != b && rng() % (2 + trial % 5) == 0) p.at(a, b) = 1000 + rng() % 100'000;
    const auto sw = cp_switch_of_rank(s, p);
    for (int k = 0; k < s.edges; ++k)
      EXPECT_EQ(std::count(sw.begin(), sw.end(), k), s.hosts_per_edge)
          << "trial " << trial << ", switch " << k;
  }
}

// --- communication patterns ---

TEST(CommPattern, NeighborGridOpenBorderHasFewerPartnersTorusHasFour) {
  const Pattern open = neighbor_pattern({});
  auto partners = [](const Pattern& p, int r) {
    int n = 0;
    for (int d = 0; d < p.ranks; ++d) n += p.at(r, d) > 0;
    return n;
  };
  EXPECT_EQ(partners(open, 0), 2);
  EXPECT_EQ(partners(open, 5), 3);
  EXPECT_EQ(partners(open, 16 + 5), 4);
  int messages = 0;
  for (std::uint64_t b : open.bytes) messages += b == 40 * kMB;
  EXPECT_EQ(messages, 2 * (8 * 15 + 16 * 7));
  const Pattern torus = neighbor_pattern({8, 16, 40 * kMB, true});
  for (int r = 0; r < 128; ++r) EXPECT_EQ(partners(torus, r), 4) << "rank " << r;
  EXPECT_EQ(torus.at(0, 15), 40 * kMB);
  EXPECT_EQ(torus.at(0, 112), 40 * kMB);
}

TEST(CommPattern, CsvMatrixWithCommentsAndUnitsParses) {
  const std::string dir = test::temp_dir();
  const Pattern p = load_pattern_csv(test::write_file(
      dir, "good.csv", "# bytes per iteration\n0, 40MB, 0\r\n4KiB,0,100\n\n  # done\n0,0,0\n"));
  ASSERT_EQ(p.ranks, 3);
  EXPECT_EQ(p.at(0, 1), 40 * kMB);
  EXPECT_EQ(p.at(1, 0), 4096u);
  EXPECT_EQ(p.at(1, 2), 100u);
  EXPECT_EQ(p.at(2, 2), 0u);
}

TEST(CommPattern, BadCsvNamesFileLineAndWhatWasExpected) {
  const std::string dir = test::temp_dir();
  struct Case {
    const char* name;
    const char* text;
    std::vector<std::string> says;
  };
  const Case cases[] = {
      {"nonsquare.csv", "# 2 x 3\n1,2,3\n4,5,6\n", {"nonsquare.csv:3:", "square"}},
      {"ragged.csv", "1,2\n3\n", {"ragged.csv:2:", "1 columns", "first row (line 1) has 2"}},
      {"negative.csv", "0,1\n-5,0\n", {"negative.csv:2:", "column 1", "negative"}},
      {"word.csv", "0,1\n2,lots\n", {"word.csv:2:", "column 2", "'lots'", "not a byte count"}},
      {"empty.csv", "0,,1\n", {"empty.csv:1:", "column 2 is empty"}},
      {"blank.csv", "# nothing\n", {"blank.csv", "no rows"}},
  };
  for (const Case& c : cases) {
    try {
      load_pattern_csv(test::write_file(dir, c.name, c.text));
      ADD_FAILURE() << c.name << " was accepted";
    } catch (const PatternError& e) {
      for (const std::string& part : c.says)
        EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what() << "\nlacks: " << part;
    }
  }
  EXPECT_THROW(load_pattern_csv(dir + "/missing.csv"), PatternError);
}

}  // namespace
}  // namespace kairo::hybrid
