// Dimension-order routing with dateline VC classes. Every route is walked hop
// by hop over the real cables and checked against rules written out here
// (order, shorter way round, tie-break, dateline classes); deadlock freedom is
// checked on the channel dependency graph the routes induce.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <map>
#include <new>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "hw/router/routing.h"

// Counts heap allocations so a test can show route() never allocates. Kept
// out of line so GCC does not pair the inlined malloc/free with new/delete
// and warn (-Wmismatched-new-delete).
namespace {
std::atomic<long> g_allocations{0};
}
[[gnu::noinline]] void* operator new(std::size_t n) {
  ++g_allocations;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
[[gnu::noinline]] void operator delete(void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace kairo::router {
namespace {

struct Hop {
  hw::NodeId from;
  hw::NodeId to;
  RouteDecision decision;
};

std::string name_of(const hw::Topology& topo, hw::NodeId n) { return topo.coord_string(topo.coord_of(n)); }

// Follow the routing function from src until it ejects, carrying the arrival
// dimension and class as a router would. Gives up after num_nodes hops.
std::vector<Hop> walk(const hw::Topology& topo, const DimensionOrderRouting& routing, hw::NodeId src,
                      hw::NodeId dst) {
  std::vector<Hop> hops;
  const hw::Coord target = topo.coord_of(dst);
  hw::NodeId here = src;
  int in_dim = -1;
  hw::VcClass in_class = hw::VcClass::kAny;
  for (std::uint64_t step = 0; step <= topo.num_nodes(); ++step) {
    const RouteDecision r = routing.route(topo.coord_of(here), target, in_dim, in_class);
    if (r.port < 0) return hops;
    const auto next = topo.neighbor_via_port(here, r.port);
    if (!next) {
      ADD_FAILURE() << "route leaves " << name_of(topo, here) << " through unconnected port "
                    << topo.port_name(r.port);
      return hops;
    }
    hops.push_back({here, *next, r});
    here = *next;
    in_dim = r.dim;
    in_class = r.vc_class;
  }
  ADD_FAILURE() << "packet " << name_of(topo, src) << " -> " << name_of(topo, dst) << " never ejected";
  return hops;
}

// The direction a correct router must take first in dimension d.
int expected_dir(const hw::DimSpec& spec, int from, int to, TieBreak tie) {
  if (spec.size == 2) return +1;
  if (!spec.wrap) return to > from ? +1 : -1;
  const int plus = ((to - from) % spec.size + spec.size) % spec.size;
  const int minus = spec.size - plus;
  if (plus == minus) {
    if (tie == TieBreak::kBalanced) return from % 2 == 0 ? +1 : -1;
    return tie == TieBreak::kPlus ? +1 : -1;
  }
  return plus < minus ? +1 : -1;
}

// Checks one walked route against the routing rules; returns "" when it obeys
// them, otherwise what went wrong.
std::string check_route(const hw::Topology& topo, const std::vector<int>& order, TieBreak tie, hw::NodeId src,
                        hw::NodeId dst, const std::vector<Hop>& hops) {
  if (int(hops.size()) != topo.hops(src, dst)) return "route is not minimal";
  if (!hops.empty() && hops.back().to != dst) return "route ends at the wrong node";
  const hw::Coord s = topo.coord_of(src);
  const hw::Coord t = topo.coord_of(dst);
  std::size_t order_pos = 0;
  int dim = -1;
  bool wrapped = false;
  for (const Hop& h : hops) {
    const RouteDecision& r = h.decision;
    if (r.dim != topo.port_dim(r.port)) return "decision dim does not match its port";
    if (r.dim != dim) {  // entering a new dimension
      while (order_pos < order.size() && order[order_pos] != r.dim) ++order_pos;
      if (order_pos == order.size()) return "dimension order violated at " + topo.dim(r.dim).name;
      dim = r.dim;
      wrapped = false;
    }
    const hw::DimSpec& spec = topo.dim(dim);
    if (r.dir != expected_dir(spec, s[dim], t[dim], tie)) return "wrong direction in " + spec.name;
    if (r.port != topo.port_of(dim, r.dir)) return "port does not match direction in " + spec.name;
    const int c = topo.coord_of(h.from)[dim];
    const int n = topo.coord_of(h.to)[dim];
    wrapped = wrapped || (spec.size >= 3 && std::abs(n - c) != 1);
    const hw::VcClass want = !topo.is_ring(dim) ? hw::VcClass::kAny
                             : wrapped          ? hw::VcClass::kHigh
                                                : hw::VcClass::kLow;
    if (r.vc_class != want) return "wrong VC class on a hop in " + spec.name;
  }
  return "";
}

struct Shape {
  const char* label;
  std::vector<hw::DimSpec> dims;
};

std::vector<Shape> shapes() {
  return {
      {"4x4 mesh", {{"X", 4, false}, {"Y", 4, false}}},
      {"5x4 torus", {{"X", 5, true}, {"Y", 4, true}}},
      {"6x6 torus", {{"X", 6, true}, {"Y", 6, true}}},
      {"3x3x3 torus", {{"X", 3, true}, {"Y", 3, true}, {"Z", 3, true}}},
      {"2x3x3 mixed", {{"X", 2, true}, {"Y", 3, true}, {"Z", 3, false}}},
      {"Tofu-like 2x2x2x2x3x2",
       {{"X", 2, true}, {"Y", 2, true}, {"Z", 2, true}, {"A", 2, false}, {"B", 3, true}, {"C", 2, false}}},
      {"Tofu-like 4x3x3x2x3x2",
       {{"X", 4, true}, {"Y", 3, true}, {"Z", 3, false}, {"A", 2, false}, {"B", 3, true}, {"C", 2, false}}},
  };
}

std::vector<int> identity_order(int n) {
  std::vector<int> order(std::size_t(n), 0);
  for (int d = 0; d < n; ++d) order[std::size_t(d)] = d;
  return order;
}

// Dateline classes of the hops of a route, in order.
std::vector<hw::VcClass> classes_of(const std::vector<Hop>& hops) {
  std::vector<hw::VcClass> out;
  for (const Hop& h : hops) out.push_back(h.decision.vc_class);
  return out;
}

std::vector<int> dims_of(const std::vector<Hop>& hops) {
  std::vector<int> out;
  for (const Hop& h : hops) out.push_back(h.decision.dim);
  return out;
}

TEST(Routing, PacketAtItsDestinationEjects) {
  const hw::Topology topo({{"X", 4, true}, {"Y", 3, false}});
  const DimensionOrderRouting routing(topo, {0, 1});
  for (hw::NodeId n = 0; n < topo.num_nodes(); ++n) {
    const hw::Coord c = topo.coord_of(n);
    const RouteDecision r = routing.route(c, c, 0, hw::VcClass::kHigh);
    EXPECT_EQ(r.port, -1);
    EXPECT_EQ(r.dim, -1);
  }
}

TEST(Routing, EveryRouteIsMinimalDimensionOrderedAndFollowsTheDatelineRule) {
  for (const Shape& s : shapes()) {
    const hw::Topology topo(s.dims);
    std::vector<int> forward = identity_order(topo.num_dims());
    std::vector<int> backward(forward.rbegin(), forward.rend());
    for (const std::vector<int>& order : {forward, backward}) {
      for (TieBreak tie : {TieBreak::kPlus, TieBreak::kMinus, TieBreak::kBalanced}) {
        const DimensionOrderRouting routing(topo, order, tie);
        for (hw::NodeId a = 0; a < topo.num_nodes(); ++a) {
          for (hw::NodeId b = 0; b < topo.num_nodes(); ++b) {
            const std::string err = check_route(topo, order, tie, a, b, walk(topo, routing, a, b));
            ASSERT_EQ(err, "") << s.label << ": " << name_of(topo, a) << " -> " << name_of(topo, b);
          }
        }
      }
    }
  }
}

TEST(Routing, TofuOrderXYZACB) {
  const hw::Topology topo(
      {{"X", 4, true}, {"Y", 3, true}, {"Z", 3, true}, {"A", 2, false}, {"B", 3, true}, {"C", 2, false}});
  const DimensionOrderRouting routing(topo, {0, 1, 2, 3, 5, 4});
  const auto hops = walk(topo, routing, topo.id_of({0, 0, 0, 0, 0, 0}), topo.id_of({2, 1, 2, 1, 1, 1}));
  // X: 2 hops (tie on a 4-ring goes plus), Y: 1, Z: 1 (over the wrap), A, C, then B.
  EXPECT_EQ(dims_of(hops), (std::vector<int>{0, 0, 1, 2, 3, 5, 4}));
  ASSERT_EQ(hops.size(), 7u);
  EXPECT_EQ(hops[3].decision.dir, -1) << "Z 0 -> 2 on a 3-ring is one hop minus";
  EXPECT_EQ(topo.port_name(hops[4].decision.port), "a");
  EXPECT_EQ(topo.port_name(hops[5].decision.port), "c");
  EXPECT_EQ(topo.port_name(hops[6].decision.port), "bp");
}

TEST(Routing, DatelineCrossingSwitchesVcClass) {
  const hw::Topology topo({{"X", 6, true}});
  const DimensionOrderRouting routing(topo, {0});
  // 4 -> 1 on a 6-ring: 3 hops either way, tie goes plus: 4->5, 5->0 (the
  // wrap link), 0->1.
  const auto hops = walk(topo, routing, 4, 1);
  EXPECT_EQ(classes_of(hops),
            (std::vector<hw::VcClass>{hw::VcClass::kLow, hw::VcClass::kHigh, hw::VcClass::kHigh}))
      << "the wrap hop and every later hop in the ring use the high VC class";
  EXPECT_EQ(routing.route({0}, {1}, 0, hw::VcClass::kHigh).vc_class, hw::VcClass::kHigh)
      << "staying in the ring keeps the class the packet arrived with";
  EXPECT_EQ(routing.route({0}, {1}, 0, hw::VcClass::kLow).vc_class, hw::VcClass::kLow);
}

TEST(Routing, EnteringANewRingStartsInTheLowClass) {
  const hw::Topology topo({{"X", 4, true}, {"Y", 4, true}});
  const DimensionOrderRouting routing(topo, {0, 1});
  // X 3 -> 0 over the wrap (high), then Y 1 -> 2 without crossing (low).
  const auto hops = walk(topo, routing, topo.id_of({3, 1}), topo.id_of({0, 2}));
  EXPECT_EQ(dims_of(hops), (std::vector<int>{0, 1}));
  EXPECT_EQ(classes_of(hops), (std::vector<hw::VcClass>{hw::VcClass::kHigh, hw::VcClass::kLow}));
}

TEST(Routing, RingTakesTheShorterWayRound) {
  const hw::Topology topo({{"X", 8, true}});
  const DimensionOrderRouting routing(topo, {0});
  const auto hops = walk(topo, routing, 1, 7);  // 1 -> 0 -> 7 beats 6 hops plus
  ASSERT_EQ(hops.size(), 2u);
  EXPECT_EQ(hops[0].decision.dir, -1);
  EXPECT_EQ(hops[0].to, 0u);
  EXPECT_EQ(classes_of(hops), (std::vector<hw::VcClass>{hw::VcClass::kLow, hw::VcClass::kHigh}));
}

TEST(Routing, HalfWayRoundFollowsTheTieBreak) {
  const hw::Topology topo({{"X", 6, true}});
  const DimensionOrderRouting plus(topo, {0}, TieBreak::kPlus);
  const DimensionOrderRouting minus(topo, {0}, TieBreak::kMinus);
  const auto p = walk(topo, plus, 0, 3);
  const auto m = walk(topo, minus, 0, 3);
  ASSERT_EQ(p.size(), 3u);
  ASSERT_EQ(m.size(), 3u);
  for (const Hop& h : p) EXPECT_EQ(h.decision.dir, +1);
  for (const Hop& h : m) EXPECT_EQ(h.decision.dir, -1);
  EXPECT_EQ(classes_of(p),
            (std::vector<hw::VcClass>{hw::VcClass::kLow, hw::VcClass::kLow, hw::VcClass::kLow}));
  EXPECT_EQ(classes_of(m),
            (std::vector<hw::VcClass>{hw::VcClass::kHigh, hw::VcClass::kHigh, hw::VcClass::kHigh}))
      << "going minus from 0 starts on the wrap link";
}

// Every node of a k-ring sends one flow to every other node. A flow d hops
// away loads d links of its direction; the k/2-hop flows are the ties. With
// them split evenly each directional link carries (1 + ... + (k/2 - 1)) +
// (k/2) / 2 = k^2 / 8 flows; with every tie sent plus, + links carry
// k^2/8 + k/4 and - links k^2/8 - k/4.
std::map<std::pair<hw::NodeId, int>, int> ring_loads(const hw::Topology& topo,
                                                     const DimensionOrderRouting& routing) {
  std::map<std::pair<hw::NodeId, int>, int> load;  // (node, port) -> flows through that link
  for (hw::NodeId a = 0; a < topo.num_nodes(); ++a)
    for (hw::NodeId b = 0; b < topo.num_nodes(); ++b)
      for (const Hop& h : walk(topo, routing, a, b)) ++load[{h.from, h.decision.port}];
  return load;
}

TEST(Routing, BalancedTieBreakLoadsBothDirectionsOfAnEvenRingEqually) {
  for (int k : {4, 8, 12}) {
    const hw::Topology topo({{"X", k, true}});
    const int even = k * k / 8;
    for (const auto& [link, flows] : ring_loads(topo, DimensionOrderRouting(topo, {0}, TieBreak::kBalanced)))
      EXPECT_EQ(flows, even) << k << "-ring, node " << link.first << " port " << topo.port_name(link.second);
    for (const auto& [link, flows] : ring_loads(topo, DimensionOrderRouting(topo, {0}, TieBreak::kPlus))) {
      const bool plus = link.second == topo.port_of(0, +1);
      EXPECT_EQ(flows, plus ? even + k / 4 : even - k / 4) << k << "-ring, plus tie-break";
    }
  }
}

TEST(Routing, RandomTieBreakFollowsThePacketsCoin) {
  const hw::Topology topo({{"X", 8, true}});
  const DimensionOrderRouting routing(topo, {0}, TieBreak::kRandom);
  EXPECT_TRUE(routing.random_ties());
  EXPECT_EQ(routing.route({1}, {5}, -1, hw::VcClass::kAny, 1).dir, +1);
  EXPECT_EQ(routing.route({1}, {5}, -1, hw::VcClass::kAny, 2).dir, -1);
  EXPECT_EQ(routing.route({1}, {4}, -1, hw::VcClass::kAny, 2).dir, +1) << "not a tie: the shorter way";
  EXPECT_FALSE(DimensionOrderRouting(topo, {0}).random_ties()) << "the default is balanced";
}

TEST(Routing, MeshMovesTowardTheDestinationWithoutWrapping) {
  const hw::Topology topo({{"X", 5, false}});
  const DimensionOrderRouting routing(topo, {0});
  const auto hops = walk(topo, routing, 0, 4);
  ASSERT_EQ(hops.size(), 4u);
  for (const Hop& h : hops) {
    EXPECT_EQ(h.decision.dir, +1);
    EXPECT_EQ(h.decision.vc_class, hw::VcClass::kAny) << "a mesh has no cyclic dependency to break";
  }
}

TEST(Routing, SizeTwoDimensionUsesItsSingleLinkWithAnyVc) {
  for (bool wrap : {false, true}) {
    const hw::Topology topo({{"A", 2, wrap}, {"B", 3, true}});
    const DimensionOrderRouting routing(topo, {0, 1});
    for (int from : {0, 1}) {
      const RouteDecision r = routing.route({from, 0}, {1 - from, 0}, -1, hw::VcClass::kAny);
      EXPECT_EQ(r.port, topo.port_of(0, +1));
      EXPECT_EQ(r.dim, 0);
      EXPECT_EQ(r.dir, +1);
      EXPECT_EQ(r.vc_class, hw::VcClass::kAny);
    }
  }
}

TEST(Routing, OrderMustBeAPermutationOfTheDimensions) {
  const hw::Topology topo({{"X", 3, true}, {"Y", 3, true}, {"Z", 3, true}});
  EXPECT_THROW(DimensionOrderRouting(topo, {0, 0, 1}), std::invalid_argument);
  EXPECT_THROW(DimensionOrderRouting(topo, {0, 1}), std::invalid_argument);
  EXPECT_THROW(DimensionOrderRouting(topo, {0, 1, 3}), std::invalid_argument);
  EXPECT_THROW(DimensionOrderRouting(topo, {0, 1, -1}), std::invalid_argument);
  EXPECT_NO_THROW(DimensionOrderRouting(topo, {2, 0, 1}));
}

TEST(Routing, RouteComputationDoesNotAllocate) {
  const hw::Topology topo({{"X", 5, true}, {"Y", 4, true}, {"Z", 2, false}});
  const DimensionOrderRouting routing(topo, {0, 1, 2});
  std::vector<hw::Coord> coords;
  for (hw::NodeId n = 0; n < topo.num_nodes(); ++n) coords.push_back(topo.coord_of(n));
  const long before = g_allocations.load();
  int ports = 0;
  for (const hw::Coord& a : coords) {
    for (const hw::Coord& b : coords) ports += routing.route(a, b, 0, hw::VcClass::kLow).port;
  }
  EXPECT_EQ(g_allocations.load(), before) << "route() allocated on the per-hop path";
  EXPECT_NE(ports, 0);
}

// --- Deadlock freedom -------------------------------------------------------

// A channel is one VC class of one directed link (node, output port). A packet
// holding channel u while waiting for channel v adds the dependency u -> v.
// Routing is deadlock-free when this graph is acyclic (Dally & Seitz). A kAny
// hop may hold either class, so it stands for both.
struct ChannelGraph {
  int ports;
  std::set<std::pair<int, int>> edges;
  int channel(hw::NodeId n, int port, int cls) const { return (int(n) * ports + port) * 2 + cls; }
};

std::vector<int> classes_for(hw::VcClass c, bool merge_classes) {
  if (merge_classes || c == hw::VcClass::kLow) return {0};
  if (c == hw::VcClass::kHigh) return {1};
  return {0, 1};
}

// merge_classes = true ignores the dateline (every hop on one class), which
// must leave cycles on rings: the control showing the check can fail.
ChannelGraph dependency_graph(const hw::Topology& topo, const DimensionOrderRouting& routing,
                              bool merge_classes) {
  ChannelGraph g{topo.num_link_ports(), {}};
  for (hw::NodeId a = 0; a < topo.num_nodes(); ++a) {
    for (hw::NodeId b = 0; b < topo.num_nodes(); ++b) {
      const auto hops = walk(topo, routing, a, b);
      for (std::size_t i = 1; i < hops.size(); ++i) {
        const Hop& u = hops[i - 1];
        const Hop& v = hops[i];
        for (int cu : classes_for(u.decision.vc_class, merge_classes)) {
          for (int cv : classes_for(v.decision.vc_class, merge_classes)) {
            g.edges.insert({g.channel(u.from, u.decision.port, cu), g.channel(v.from, v.decision.port, cv)});
          }
        }
      }
    }
  }
  return g;
}

// Kahn's algorithm: the graph is acyclic iff every channel can be removed.
bool acyclic(const ChannelGraph& g, std::uint64_t num_nodes) {
  const std::size_t n = std::size_t(num_nodes) * std::size_t(g.ports) * 2;
  std::vector<std::vector<int>> out(n);
  std::vector<int> in_degree(n, 0);
  for (const auto& [u, v] : g.edges) {
    out[std::size_t(u)].push_back(v);
    ++in_degree[std::size_t(v)];
  }
  std::vector<int> ready;
  for (std::size_t c = 0; c < n; ++c) {
    if (in_degree[c] == 0) ready.push_back(int(c));
  }
  std::size_t removed = 0;
  while (!ready.empty()) {
    const int c = ready.back();
    ready.pop_back();
    ++removed;
    for (int v : out[std::size_t(c)]) {
      if (--in_degree[std::size_t(v)] == 0) ready.push_back(v);
    }
  }
  return removed == n;
}

TEST(Routing, DatelineClassesMakeDimensionOrderRoutingDeadlockFree) {
  const std::vector<Shape> tori = {
      {"5x4 torus", {{"X", 5, true}, {"Y", 4, true}}},
      {"6x6 torus", {{"X", 6, true}, {"Y", 6, true}}},
      {"3x3x3 torus", {{"X", 3, true}, {"Y", 3, true}, {"Z", 3, true}}},
      {"2x3x3 mixed", {{"X", 2, true}, {"Y", 3, true}, {"Z", 3, false}}},
      {"Tofu-like 4x3x3x2x3x2",
       {{"X", 4, true}, {"Y", 3, true}, {"Z", 3, false}, {"A", 2, false}, {"B", 3, true}, {"C", 2, false}}},
  };
  for (const Shape& s : tori) {
    const hw::Topology topo(s.dims);
    std::vector<int> order = identity_order(topo.num_dims());
    std::reverse(order.begin(), order.end());
    for (TieBreak tie : {TieBreak::kPlus, TieBreak::kMinus, TieBreak::kBalanced}) {
      for (DatelineRule rule : {DatelineRule::kOnCrossing, DatelineRule::kAtEntry}) {
        const DimensionOrderRouting routing(topo, order, tie, rule);
        EXPECT_TRUE(acyclic(dependency_graph(topo, routing, false), topo.num_nodes()))
            << s.label << ": cyclic channel dependency despite the dateline"
            << (rule == DatelineRule::kAtEntry ? " (classes fixed at entry)" : "");
      }
    }
  }
}

// BookSim's rule (router.dateline: at_entry): on a ring of 8, a packet from 6
// to 1 (+3, over the wrap-around link) rides the high class from its first
// hop, one from 1 to 4 (+3, no wrap) the low class throughout; going the -
// way the labels swap, as BookSim's: 5 -> 2 (no wrap) high, 1 -> 6 (over the
// wrap) low.
TEST(Routing, DatelineClassFixedAtEntryKeepsItsClassAlongTheRing) {
  const hw::Topology topo({{"X", 8, true}});
  const DimensionOrderRouting routing(topo, {0}, TieBreak::kBalanced, DatelineRule::kAtEntry);
  auto classes = [&](int from, int to) {
    std::vector<hw::VcClass> c;
    hw::Coord here{}, dst{};
    here[0] = from, dst[0] = to;
    int in_dim = -1;
    hw::VcClass in_class = hw::VcClass::kAny;
    for (RouteDecision r; (r = routing.route(here, dst, in_dim, in_class)).port >= 0;) {
      c.push_back(r.vc_class);
      here[0] = (here[0] + r.dir + 8) % 8;
      in_dim = r.dim, in_class = r.vc_class;
    }
    return c;
  };
  EXPECT_EQ(classes(6, 1), std::vector<hw::VcClass>(3, hw::VcClass::kHigh));
  EXPECT_EQ(classes(1, 4), std::vector<hw::VcClass>(3, hw::VcClass::kLow));
  EXPECT_EQ(classes(5, 2), std::vector<hw::VcClass>(3, hw::VcClass::kHigh))
      << "- way, no wrap: the swapped label";
  EXPECT_EQ(classes(1, 6), std::vector<hw::VcClass>(3, hw::VcClass::kLow))
      << "- way over the wrap: the swapped label";
}

TEST(Routing, RingWithoutDatelineClassesWouldDeadlock) {
  const hw::Topology topo({{"X", 5, true}, {"Y", 4, true}});
  const DimensionOrderRouting routing(topo, {0, 1});
  EXPECT_FALSE(acyclic(dependency_graph(topo, routing, true), topo.num_nodes()))
      << "control: a 5-ring with one VC class must show a cyclic dependency";
}

}  // namespace
}  // namespace kairo::router
