// Minimal adaptive routing (hw/router/adaptive_routing.h), checked without a
// router: the adaptive options are exactly the productive hops (worked out
// here from ring and mesh distances), any sequence of them reaches the
// destination in the minimal number of hops, the escape hop is dimension
// order's, an escaped packet stays escaped, the VC classes partition the VCs,
// and the escape network's channel dependency graph, entered from anywhere
// an adaptive path can reach, is acyclic (Duato's condition).
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "hw/router/adaptive_routing.h"
#include "sim/random.h"
#include "tests/test_support.h"

namespace kairo::router {
namespace {

std::vector<hw::Topology> shapes() {
  return {hw::Topology({{"X", 8, false}, {"Y", 8, false}}), hw::Topology({{"X", 8, true}, {"Y", 8, true}}),
          hw::Topology({{"X", 5, true}, {"Y", 4, false}, {"Z", 6, true}}),
          hw::Topology({{"X", 4, true}, {"Y", 3, true}, {"Z", 2, false}, {"A", 2, true}, {"B", 3, true}})};
}

std::vector<int> identity(int n) {
  std::vector<int> o;
  for (int d = 0; d < n; ++d) o.push_back(d);
  return o;
}

// Hops from a to b along dimension d: the shorter way round a ring, else |b - a|.
int distance(const hw::DimSpec& s, int a, int b) {
  const int straight = b > a ? b - a : a - b;
  return s.wrap && s.size >= 3 ? std::min(straight, s.size - straight) : straight;
}

int total_distance(const hw::Topology& t, const hw::Coord& a, const hw::Coord& b) {
  int h = 0;
  for (int d = 0; d < t.num_dims(); ++d) h += distance(t.dim(d), a[d], b[d]);
  return h;
}

// Where a port leads, on coordinates.
hw::Coord step(const hw::Topology& t, hw::Coord c, int port) {
  const hw::NodeId n = *t.neighbor_via_port(t.id_of(c), port);
  return t.coord_of(n);
}

TEST(AdaptiveRouting, OptionsAreExactlyTheProductiveHopsThenDimensionOrdersEscape) {
  for (const hw::Topology& t : shapes()) {
    const MinimalAdaptiveRouting ad(t, identity(t.num_dims()), TieBreak::kBalanced);
    const DimensionOrderRouting dor(t, identity(t.num_dims()), TieBreak::kBalanced);
    for (hw::NodeId a = 0; a < t.num_nodes(); ++a) {
      for (hw::NodeId b = 0; b < t.num_nodes(); ++b) {
        const hw::Coord ca = t.coord_of(a), cb = t.coord_of(b);
        RouteDecision opt[kMaxRouteOptions];
        const int n = ad.options(ca, cb, -1, hw::VcClass::kAny, 0, opt);
        if (a == b) {
          ASSERT_EQ(n, 1);
          EXPECT_EQ(opt[0].port, -1) << "arrived: eject";
          continue;
        }
        // Every port whose neighbour is one hop closer, and only those.
        std::set<int> want, got;
        for (int p = 0; p < t.num_link_ports(); ++p) {
          if (!t.neighbor_via_port(a, p)) continue;
          if (total_distance(t, step(t, ca, p), cb) == total_distance(t, ca, cb) - 1) want.insert(p);
        }
        for (int i = 0; i + 1 < n; ++i) {
          EXPECT_EQ(opt[i].vc_class, hw::VcClass::kAdaptive);
          got.insert(opt[i].port);
        }
        EXPECT_EQ(got, want) << t.coord_string(ca) << " -> " << t.coord_string(cb);
        // The last option is dimension order's hop on the escape classes.
        const RouteDecision d = dor.route(ca, cb, -1, hw::VcClass::kAny);
        EXPECT_EQ(opt[n - 1].port, d.port);
        EXPECT_EQ(opt[n - 1].vc_class,
                  d.vc_class == hw::VcClass::kHigh ? hw::VcClass::kEscHigh : hw::VcClass::kEscLow);
        EXPECT_TRUE(opt[n - 1].adaptive) << "a packet not yet escaped may still choose";
        // Once escaped: the escape hop only, and no more choice.
        const int m = ad.options(ca, cb, -1, hw::VcClass::kEscLow, 0, opt);
        EXPECT_EQ(m, 1);
        EXPECT_FALSE(opt[0].adaptive);
      }
    }
  }
}

TEST(AdaptiveRouting, AnySequenceOfAdaptiveHopsArrivesInTheMinimalNumberOfHops) {
  sim::Rng rng(11, 1);
  for (const hw::Topology& t : shapes()) {
    const MinimalAdaptiveRouting ad(t, identity(t.num_dims()), TieBreak::kBalanced);
    for (int trial = 0; trial < 2000; ++trial) {
      const hw::NodeId a = hw::NodeId(rng.below(t.num_nodes())), b = hw::NodeId(rng.below(t.num_nodes()));
      hw::Coord here = t.coord_of(a);
      const hw::Coord dst = t.coord_of(b);
      int hops = 0, in_dim = -1;
      hw::VcClass cls = hw::VcClass::kAny;
      for (;;) {
        RouteDecision opt[kMaxRouteOptions];
        const int n = ad.options(here, dst, in_dim, cls, 0, opt);
        const RouteDecision& o = opt[rng.below(std::uint64_t(n))];  // adaptive or escape, at random
        if (o.port < 0) break;
        here = step(t, here, o.port);
        in_dim = o.dim;
        cls = o.vc_class;
        ASSERT_LE(++hops, 64) << "did not arrive";
      }
      EXPECT_EQ(here, dst);
      EXPECT_EQ(hops, total_distance(t, t.coord_of(a), dst));
    }
  }
}

TEST(AdaptiveRouting, VcClassesGiveTheEscapeNetworkItsVcsAndTheRestToAdaptiveHops) {
  const hw::Topology mesh({{"X", 4, false}, {"Y", 4, false}}), torus({{"X", 4, true}, {"Y", 4, false}});
  std::uint8_t f[hw::kNumVcClasses], l[hw::kNumVcClasses];
  MinimalAdaptiveRouting(mesh, {0, 1}, TieBreak::kBalanced).vc_classes(4, f, l);
  EXPECT_EQ(f[int(hw::VcClass::kEscLow)], 0);
  EXPECT_EQ(l[int(hw::VcClass::kEscLow)], 1);
  EXPECT_EQ(f[int(hw::VcClass::kAdaptive)], 1) << "a mesh's escape network needs VC 0 only";
  EXPECT_EQ(l[int(hw::VcClass::kAdaptive)], 4);
  EXPECT_EQ(l[int(hw::VcClass::kAny)], 4) << "ejection may use every VC";
  MinimalAdaptiveRouting(torus, {0, 1}, TieBreak::kBalanced).vc_classes(4, f, l);
  EXPECT_EQ(f[int(hw::VcClass::kEscHigh)], 1)
      << "a ring's escape network: VC 0 before the dateline, VC 1 after";
  EXPECT_EQ(l[int(hw::VcClass::kEscHigh)], 2);
  EXPECT_EQ(f[int(hw::VcClass::kAdaptive)], 2);
  EXPECT_EQ(MinimalAdaptiveRouting(torus, {0, 1}, TieBreak::kBalanced).escape_vcs(), 2);
  EXPECT_EQ(MinimalAdaptiveRouting(mesh, {0, 1}, TieBreak::kBalanced).escape_vcs(), 1);
}

// The escape network's channels: (node, port, escape class). A packet can
// enter it at any node with any destination, coming off an adaptive VC on
// any dimension (or injected), and then follows escape hops only. Each pair
// of consecutive escape hops is a dependency; the graph must be acyclic.
bool escape_graph_acyclic(const hw::Topology& t, TieBreak tie, bool ignore_dateline,
                          DatelineRule rule = DatelineRule::kOnCrossing) {
  const MinimalAdaptiveRouting ad(t, identity(t.num_dims()), tie, rule);
  const int ports = t.num_link_ports();
  auto channel = [&](hw::NodeId n, int port, hw::VcClass c) {
    const int cls = ignore_dateline ? 0 : (c == hw::VcClass::kEscHigh ? 1 : 0);
    return (int(n) * ports + port) * 2 + cls;
  };
  const std::size_t channels = std::size_t(t.num_nodes()) * std::size_t(ports) * 2;
  std::vector<std::set<int>> out(channels);
  for (hw::NodeId entry = 0; entry < t.num_nodes(); ++entry) {
    for (hw::NodeId dst = 0; dst < t.num_nodes(); ++dst) {
      for (int in_dim = -1; in_dim < t.num_dims(); ++in_dim) {
        hw::Coord here = t.coord_of(entry);
        int dim = in_dim, prev = -1;
        hw::VcClass cls = hw::VcClass::kAdaptive;
        for (int hop = 0; hop < 64; ++hop) {
          const RouteDecision r = ad.route(here, t.coord_of(dst), dim, cls);
          if (r.port < 0) break;
          const int c = channel(t.id_of(here), r.port, r.vc_class);
          if (prev >= 0) out[std::size_t(prev)].insert(c);
          prev = c;
          here = step(t, here, r.port);
          dim = r.dim;
          cls = r.vc_class;
        }
      }
    }
  }
  return test::acyclic(out);
}

TEST(AdaptiveRouting, EscapeNetworkEnteredAnywhereHasAnAcyclicChannelDependencyGraph) {
  for (const hw::Topology& t : shapes())
    for (TieBreak tie : {TieBreak::kBalanced, TieBreak::kPlus, TieBreak::kMinus})
      for (DatelineRule rule : {DatelineRule::kOnCrossing, DatelineRule::kAtEntry})
        EXPECT_TRUE(escape_graph_acyclic(t, tie, false, rule));
  // Control: without the escape network's dateline classes a ring's escape
  // channels form a cycle, so the check can fail.
  EXPECT_FALSE(
      escape_graph_acyclic(hw::Topology({{"X", 5, true}, {"Y", 4, true}}), TieBreak::kBalanced, true));
}

// BookSim's min_adapt_torus offers, in each unfinished dimension of a k-ring,
// the + way when dist2 = k - 2 ((dst - cur) mod k) > 0 and the - way
// otherwise: half-way round an even ring (dist2 = 0) it goes -.
// HalfWay::kMinus gives that; kBoth gives both ways at dist2 = 0.
TEST(AdaptiveRouting, HalfWayRoundAnEvenRingTakesTheMinusWayUnderBookSimsRule) {
  for (int k : {4, 5, 6, 8}) {
    const hw::Topology t({{"X", k, true}});
    const MinimalAdaptiveRouting booksim(t, {0}, TieBreak::kRandom, DatelineRule::kAtEntry, false,
                                         HalfWay::kMinus);
    const MinimalAdaptiveRouting both(t, {0}, TieBreak::kRandom, DatelineRule::kAtEntry, false,
                                      HalfWay::kBoth);
    for (int cur = 0; cur < k; ++cur) {
      for (int dst = 0; dst < k; ++dst) {
        if (cur == dst) continue;
        const int dist2 = k - 2 * ((dst - cur + k) % k);
        const int want = t.port_of(0, dist2 > 0 ? +1 : -1);
        RouteDecision opt[kMaxRouteOptions];
        const int n = booksim.options({cur}, {dst}, -1, hw::VcClass::kAny, 0, opt);
        ASSERT_EQ(n, 2) << "one adaptive way and the escape way, " << cur << " -> " << dst << " on " << k;
        EXPECT_EQ(opt[0].port, want) << cur << " -> " << dst << " on a " << k << "-ring";
        EXPECT_EQ(opt[0].vc_class, hw::VcClass::kAdaptive);
        EXPECT_EQ(both.options({cur}, {dst}, -1, hw::VcClass::kAny, 0, opt), dist2 == 0 ? 3 : 2)
            << "both ways half-way round only";
      }
    }
  }
}

}  // namespace
}  // namespace kairo::router
