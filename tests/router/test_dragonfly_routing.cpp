// Dragonfly wiring and routing (platforms/switch_plan.cpp,
// hw/router/dragonfly_routing.h), checked without a simulation: the cables of
// the plan join every two groups once and every two routers of a group once,
// and their port names say where they go; packets are walked hop by hop
// along the plan's cables as the routers move them (in_dim and vc_class set
// from each hop, as Router::depart does): minimal routing takes the links of
// a formula worked out here from the cables, Valiant routing goes through
// the intermediate group in at most five links with rising VC classes, the
// channel dependency graphs of minimal, Valiant and UGAL routing are acyclic
// (and BookSim's Valiant leg, two local hops of one class in a group, is
// not: the check can fail); the VC classes split the VCs evenly among the
// phases; UGAL's source decision is BookSim's inequality, read at the
// source router only.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "hw/common/packet.h"
#include "hw/router/dragonfly_routing.h"
#include "platforms/platform.h"
#include "platforms/switch_plan.h"
#include "tests/test_support.h"

namespace kairo::router {
namespace {

struct Shape {
  int p, a, h, groups;  // groups 0: left out of the file (a*h + 1)
};

// Full shapes (a*h + 1 groups), fewer groups than that, one group, and
// routers without local or without global links.
const std::vector<Shape> kShapes = {{2, 4, 2, 0}, {3, 6, 3, 0}, {2, 4, 2, 5},
                                    {1, 3, 2, 2}, {2, 1, 3, 4}, {2, 3, 1, 1}};

std::string platform_yaml(const Shape& s) {
  const std::string groups = s.groups > 0 ? ", groups: " + std::to_string(s.groups) : "";
  return "name: dfly-test\ntopology:\n  dragonfly: {p: " + std::to_string(s.p) +
         ", a: " + std::to_string(s.a) + ", h: " + std::to_string(s.h) + groups +
         "}\nrouter:\n  clock: 1GHz\n  flit_size: 32B\n  vcs: 3\n  vc_buffer_flits: 8\n"
         "  max_packet_flits: 8\n  routing: ugal\n"
         "links:\n  host: {bandwidth: 32GB/s}\n  local: {bandwidth: 32GB/s, latency: 9ns}\n"
         "  global: {bandwidth: 32GB/s, latency: 99ns}\n";
}

// A parsed platform, its plan, and where each link port's cable leads.
struct Net {
  platforms::Platform platform;
  platforms::SwitchPlan plan;
  int p = 0, a = 0, h = 0, groups = 0, routers = 0;
  struct End {
    int router = -1, port = -1;
    bool global = false;
    int channel = -1;  // the directed cable: 2 * cable index + direction
  };
  std::vector<std::vector<End>> far;  // per router, per link port
  // The cable between two groups: its router in the first and in the second.
  std::map<std::pair<int, int>, std::pair<int, int>> exit;

  int group(int r) const { return r / a; }
  hw::NodeId nodes() const { return hw::NodeId(routers) * hw::NodeId(p); }
  DragonflyShape shape() const { return DragonflyShape{p, a, h, groups, 1}; }
  // The port of router r whose cable reaches router `to`.
  int port_to(int r, int to) const {
    for (std::size_t k = 0; k < far[std::size_t(r)].size(); ++k)
      if (far[std::size_t(r)][k].router == to) return int(k);
    return -1;
  }
};

std::unique_ptr<Net> make_net(const Shape& s) {
  auto n = std::make_unique<Net>();
  n->platform = platforms::parse_platform(platform_yaml(s), "dfly-test.yaml");
  n->plan = platforms::plan_switches(n->platform, 1);
  const auto& f = n->platform.fabric;
  n->p = f.hosts_per_edge, n->a = f.group_routers, n->h = f.global_ports, n->groups = f.groups;
  n->routers = n->a * n->groups;
  n->far.resize(std::size_t(n->routers));
  for (int r = 0; r < n->routers; ++r)
    n->far[std::size_t(r)].resize(std::size_t(n->plan.link_ports[std::size_t(r)]));
  for (std::size_t c = 0; c < n->plan.links.size(); ++c) {
    const auto& l = n->plan.links[c];
    const bool global = l.cls == &f.global;
    auto is_link_port = [&](std::size_t r, int port) {
      const bool ok = r < n->far.size() && port >= 0 && std::size_t(port) < n->far[r].size();
      EXPECT_TRUE(ok) << "cable " << c << " ends on router " << r << " port " << port << ", not a link port";
      return ok;
    };
    if (!is_link_port(l.a, l.port_a) || !is_link_port(l.b, l.port_b)) continue;
    n->far[l.a][std::size_t(l.port_a)] = Net::End{int(l.b), l.port_b, global, int(2 * c)};
    n->far[l.b][std::size_t(l.port_b)] = Net::End{int(l.a), l.port_a, global, int(2 * c + 1)};
    if (global) {
      n->exit[{n->group(int(l.a)), n->group(int(l.b))}] = {int(l.a), int(l.b)};
      n->exit[{n->group(int(l.b)), n->group(int(l.a))}] = {int(l.b), int(l.a)};
    }
  }
  return n;
}

TEST(DragonflyRouting, CablesJoinEveryTwoGroupsOnceAndEveryTwoRoutersOfAGroupOnce) {
  for (const Shape& s : kShapes) {
    const auto n = make_net(s);
    const int a = n->a, g = n->groups;
    EXPECT_EQ(g, s.groups > 0 ? s.groups : s.a * s.h + 1);
    ASSERT_EQ(n->plan.link_ports.size(), std::size_t(n->routers));
    std::map<std::pair<int, int>, int> global, local;  // unordered pairs of groups / routers
    for (const auto& l : n->plan.links) {
      const int x = int(l.a), y = int(l.b);
      ASSERT_LT(x, n->routers);
      ASSERT_LT(y, n->routers);
      EXPECT_NE(x, y) << "a cable from router " << x << " to itself";
      const bool is_global = l.cls == &n->platform.fabric.global;
      EXPECT_TRUE(is_global || l.cls == &n->platform.fabric.local) << "cables are local or global";
      if (is_global) {
        EXPECT_NE(n->group(x), n->group(y)) << "a global cable inside group " << n->group(x);
        ++global[std::minmax(n->group(x), n->group(y))];
      } else {
        EXPECT_EQ(n->group(x), n->group(y)) << "a local cable between groups";
        ++local[std::minmax(x, y)];
      }
    }
    // Every pair exactly once: as many cables as pairs, each pair counted once.
    EXPECT_EQ(global.size(), std::size_t(g * (g - 1) / 2)) << "p=" << s.p << " a=" << a << " g=" << g;
    EXPECT_EQ(local.size(), std::size_t(g * a * (a - 1) / 2)) << "p=" << s.p << " a=" << a << " g=" << g;
    for (const auto& [pair, count] : global)
      EXPECT_EQ(count, 1) << "groups " << pair.first << ", " << pair.second;
    for (const auto& [pair, count] : local)
      EXPECT_EQ(count, 1) << "routers " << pair.first << ", " << pair.second;
    EXPECT_EQ(n->plan.links.size(), global.size() + local.size());
  }
}

// Each link port carries exactly one cable end and is named for where it
// leads (local<j>: router j of the group, global<D>: group D); a router has
// a-1 local ports and global ports filled in router order, h to a router,
// g-1 to a group; its hosts' ports (h<n>) follow; switches are g<G>r<i>.
TEST(DragonflyRouting, EveryLinkPortHasOneCableNamedForWhereItGoes) {
  for (const Shape& s : kShapes) {
    const auto n = make_net(s);
    const int a = n->a, h = n->h, g = n->groups;
    std::map<std::pair<int, int>, int> ends;
    auto end_of = [](int r, int port) { return std::make_pair(r, port); };
    for (const auto& l : n->plan.links)
      ++ends[end_of(int(l.a), l.port_a)], ++ends[end_of(int(l.b), l.port_b)];
    for (int r = 0; r < n->routers; ++r) {
      const int G = r / a, i = r % a;
      const auto& names = n->plan.names[std::size_t(r)];
      const int links = n->plan.link_ports[std::size_t(r)];
      int want_global = 0;  // links j = 0 .. g-2 of the group, h per router in order
      for (int j = 0; j + 1 < g; ++j) want_global += j / h == i;
      EXPECT_LE(want_global, h);
      EXPECT_EQ(links, a - 1 + want_global) << "router " << r;
      ASSERT_EQ(names.size(), std::size_t(links + n->p)) << "router " << r;
      EXPECT_EQ(n->plan.switch_names[std::size_t(r)], "g" + std::to_string(G) + "r" + std::to_string(i));
      int locals = 0, globals = 0;
      for (int port = 0; port < links; ++port) {
        EXPECT_EQ(ends[end_of(r, port)], 1) << "router " << r << " port " << port;
        const Net::End& e = n->far[std::size_t(r)][std::size_t(port)];
        ASSERT_GE(e.router, 0) << "router " << r << " port " << port << " has no cable";
        if (e.global) {
          ++globals;
          EXPECT_EQ(names[std::size_t(port)], "global" + std::to_string(e.router / a));
        } else {
          ++locals;
          EXPECT_EQ(e.router / a, G);
          EXPECT_EQ(names[std::size_t(port)], "local" + std::to_string(e.router % a));
        }
        // The far end's port leads back here.
        EXPECT_EQ(n->far[std::size_t(e.router)][std::size_t(e.port)].router, r);
      }
      EXPECT_EQ(locals, a - 1);
      EXPECT_EQ(globals, want_global);
      for (int k = 0; k < n->p; ++k)
        EXPECT_EQ(names[std::size_t(links + k)], "h" + std::to_string(r * n->p + k)) << "router " << r;
    }
    for (int G = 0; G < g; ++G) {
      int in_group = 0;
      for (int i = 0; i < a; ++i) in_group += n->plan.link_ports[std::size_t(G * a + i)] - (a - 1);
      EXPECT_EQ(in_group, g - 1) << "group " << G;
    }
  }
}

// A packet walked hop by hop along the plan's cables.
struct Link {
  int from, to, channel;
  bool global;
  hw::VcClass cls;
};
struct Walk {
  std::vector<Link> links;
  bool ejected = false;
  int end = -1;  // the router it ejects at
  std::string eject_port;
  hw::VcClass eject_cls = hw::VcClass::kAny;
  std::int32_t via = -1;
};

template <class Used>
Walk walk(const Net& n, const DragonflyRouting& rt, int src, hw::NodeId dst, std::uint64_t coin,
          Used&& used) {
  Walk w;
  hw::Packet pk;
  pk.dst = dst;
  pk.dst_ni = 0;
  pk.in_dim = -1;
  int r = src;
  for (int step = 0; step < 12; ++step) {
    const DragonflyRouting::Hop hop = rt.route(r, pk, coin, used);
    if (hop.link < 0) {
      w.ejected = true;
      w.end = r;
      w.eject_cls = hop.cls;
      const auto& names = n.plan.names[std::size_t(r)];
      w.eject_port =
          hop.port >= 0 && std::size_t(hop.port) < names.size() ? names[std::size_t(hop.port)] : "?";
      break;
    }
    if (hop.port < 0 || std::size_t(hop.port) >= n.far[std::size_t(r)].size()) {
      ADD_FAILURE() << "router " << r << ": hop on port " << hop.port << ", not a link port";
      break;
    }
    const Net::End& e = n.far[std::size_t(r)][std::size_t(hop.port)];
    if (e.router < 0) {
      ADD_FAILURE() << "router " << r << ": hop on port " << hop.port << ", which has no cable";
      break;
    }
    EXPECT_EQ(hop.link, e.global ? 1 : 0) << "router " << r << " port " << hop.port;
    w.links.push_back(Link{r, e.router, e.channel, e.global, hop.cls});
    pk.in_dim = std::int8_t(hop.link);  // as Router::depart
    pk.vc_class = hop.cls;
    ++pk.hops;
    r = e.router;
  }
  w.via = pk.via;
  return w;
}

int count_global(const Walk& w) {
  int k = 0;
  for (const Link& l : w.links) k += l.global;
  return k;
}

// A node on router r (its hosts in turn, so every host port is met).
hw::NodeId node_on(const Net& n, int r) { return hw::NodeId(r) * hw::NodeId(n.p) + hw::NodeId(r % n.p); }

// Links of the minimal way from router x to router y: a local link to the
// router of x's group holding the cable to y's group unless x is it, that
// cable, and a local link from where it lands unless that is y.
int minimal_links(const Net& n, int x, int y) {
  const int G = n.group(x), D = n.group(y);
  if (G == D) return x != y;
  const auto [out, in] = n.exit.at({G, D});
  return (x != out) + 1 + (in != y);
}

const auto no_credits = [](int) { return 0; };

// The channel to the host: any VC by default; with router.ejection_vc: phase
// (BookSim's dragonfly routing functions: out_vc = the packet's phase) the
// VC class of the phase the packet is in at its destination's router: that
// of its last link, phase 1 for a Valiant packet whose last link (phase 0)
// brought it into its intermediate group, and with no link phase 0 under
// minimal routing and phase 2 (minimal inside a group) under the others.
TEST(DragonflyRouting, EjectionTakesAnyVcOrTheVcOfThePacketsPhase) {
  const auto inc = [](hw::VcClass c, int k) { return hw::VcClass(int(c) + k); };
  for (const Shape& s : kShapes) {
    const auto n = make_net(s);
    for (const DragonflyMode m : {DragonflyMode::kMinimal, DragonflyMode::kValiant, DragonflyMode::kUgal}) {
      const DragonflyRouting any(n->shape(), m), by_phase(n->shape(), m, 30, true);
      for (int x = 0; x < n->routers; ++x) {
        for (int y = 0; y < n->routers; ++y) {
          const std::uint64_t coin = std::uint64_t(x * 7 + y * 13);
          const Walk a = walk(*n, any, x, node_on(*n, y), coin, no_credits);
          const Walk w = walk(*n, by_phase, x, node_on(*n, y), coin, no_credits);
          ASSERT_TRUE(a.ejected && w.ejected);
          EXPECT_EQ(a.eject_cls, hw::VcClass::kAny);
          ASSERT_EQ(w.links.size(), a.links.size()) << "the VC at the host does not change the way";
          hw::VcClass want = m == DragonflyMode::kMinimal ? hw::VcClass::kPhase0 : hw::VcClass::kPhase2;
          if (!w.links.empty()) {
            want = w.links.back().cls;
            if (m != DragonflyMode::kMinimal && want == hw::VcClass::kPhase0) want = inc(want, 1);
          }
          EXPECT_EQ(int(w.eject_cls), int(want)) << "router " << x << " to " << y << ", mode " << int(m);
        }
      }
    }
  }
}

TEST(DragonflyRouting, MinimalWayTakesTheLinksOfTheFormulaLocalGlobalLocal) {
  for (const Shape& s : kShapes) {
    const auto n = make_net(s);
    const DragonflyRouting rt(n->shape(), DragonflyMode::kMinimal);
    for (int src = 0; src < n->routers; ++src)
      for (hw::NodeId dst = 0; dst < n->nodes(); ++dst) {
        const int t = int(dst / hw::NodeId(n->p));
        const Walk w = walk(*n, rt, src, dst, 0, no_credits);
        ASSERT_TRUE(w.ejected) << src << " -> " << dst;
        EXPECT_EQ(w.end, t);
        EXPECT_EQ(w.eject_port, "h" + std::to_string(dst));
        EXPECT_LE(w.links.size(), 3u);
        EXPECT_EQ(count_global(w), n->group(src) != n->group(t) ? 1 : 0) << src << " -> " << dst;
        EXPECT_EQ(int(w.links.size()), minimal_links(*n, src, t)) << src << " -> " << dst;
        // Phase 0 up to the global link, phase 1 from it on.
        bool crossed = false;
        for (const Link& l : w.links) {
          crossed = crossed || l.global;
          EXPECT_EQ(l.cls, crossed ? hw::VcClass::kPhase1 : hw::VcClass::kPhase0) << src << " -> " << dst;
        }
        EXPECT_EQ(w.via, -1);
      }
  }
}

// Valiant's way with intermediate group I: minimal to I, then minimal to the
// destination, unless I is the source group or the destination is in it.
// The coin picks the group of node coin mod N.
TEST(DragonflyRouting, ValiantWayPassesTheIntermediateGroupInAtMostFiveLinksWithRisingClasses) {
  for (const Shape& s : kShapes) {
    const auto n = make_net(s);
    const DragonflyRouting rt(n->shape(), DragonflyMode::kValiant);
    const hw::NodeId N = n->nodes(), per_group = hw::NodeId(n->a * n->p);
    for (int src = 0; src < n->routers; ++src)
      for (int t = 0; t < n->routers; ++t)
        for (int I = 0; I < n->groups; ++I) {
          // Node c of group I, a different one for each pair; a multiple of
          // N added must not matter.
          const hw::NodeId c = hw::NodeId(I) * per_group + hw::NodeId(src + t) % per_group;
          const std::uint64_t coin = std::uint64_t(c) + 977 * std::uint64_t(N);
          const int G = n->group(src), D = n->group(t);
          const Walk w = walk(*n, rt, src, node_on(*n, t), coin, no_credits);
          const std::string what =
              std::to_string(src) + " -> " + std::to_string(t) + " via " + std::to_string(I);
          ASSERT_TRUE(w.ejected) << what;
          EXPECT_EQ(w.end, t) << what;
          EXPECT_EQ(w.eject_port, "h" + std::to_string(node_on(*n, t))) << what;
          EXPECT_LE(w.links.size(), 5u) << what;
          EXPECT_LE(count_global(w), 2) << what;
          for (std::size_t k = 1; k < w.links.size(); ++k)
            EXPECT_LE(int(w.links[k - 1].cls), int(w.links[k].cls)) << what << ": classes fall at link " << k;
          for (const Link& l : w.links)
            EXPECT_TRUE(l.cls == hw::VcClass::kPhase0 || l.cls == hw::VcClass::kPhase1 ||
                        l.cls == hw::VcClass::kPhase2);
          if (G == D || I == G) {
            EXPECT_EQ(w.via, -1) << what;
            EXPECT_EQ(int(w.links.size()), minimal_links(*n, src, t)) << what;
            EXPECT_EQ(count_global(w), G != D ? 1 : 0) << what;
            for (const Link& l : w.links)
              EXPECT_NE(l.cls, hw::VcClass::kPhase0) << what << ": no Valiant leg";
            continue;
          }
          EXPECT_EQ(w.via, I) << what;
          bool visited = false;
          for (const Link& l : w.links) visited = visited || n->group(l.to) == I;
          EXPECT_TRUE(visited) << what;
          const auto [out, in] = n->exit.at({G, I});
          const int want = (src != out) + 1 + (I == D ? (in != t) : minimal_links(*n, in, t));
          EXPECT_EQ(int(w.links.size()), want) << what;
          EXPECT_EQ(count_global(w), I == D ? 1 : 2) << what;
          // Phase 0 up to and across the global link into I, phase 1 from
          // there to the next global link, phase 2 from it on.
          int globals = 0;
          for (const Link& l : w.links) {
            globals += l.global;
            const hw::VcClass want_cls = globals == 0 || (globals == 1 && l.global) ? hw::VcClass::kPhase0
                                         : globals == 1                             ? hw::VcClass::kPhase1
                                                                                    : hw::VcClass::kPhase2;
            EXPECT_EQ(l.cls, want_cls) << what;
          }
        }
  }
}

// The channel dependency graph over (directed cable, VC class): an edge
// from each link of a way to the next one.
class DependencyGraph {
 public:
  explicit DependencyGraph(const Net& n) : out_(n.plan.links.size() * 2 * 3) {}
  void add(const std::vector<std::pair<int, hw::VcClass>>& way) {
    for (std::size_t k = 1; k < way.size(); ++k) out_[std::size_t(node(way[k - 1]))].insert(node(way[k]));
  }
  void add(const Walk& w) {
    std::vector<std::pair<int, hw::VcClass>> way;
    for (const Link& l : w.links) way.emplace_back(l.channel, l.cls);
    add(way);
  }
  // Kahn's topological sort removes every channel iff there is no cycle.
  bool acyclic() const { return test::acyclic(out_); }
  std::size_t edges() const {
    std::size_t e = 0;
    for (const auto& s : out_) e += s.size();
    return e;
  }

 private:
  static int node(const std::pair<int, hw::VcClass>& c) {
    return c.first * 3 + (int(c.second) - int(hw::VcClass::kPhase0));
  }
  std::vector<std::set<int>> out_;
};

// BookSim's Valiant leg: to a router v of the intermediate group first (all
// phase 0: the local hop inside the intermediate group too), then from v the
// minimal way, phase 1 up to the global link and phase 2 from it on. Built
// from the cables here, not by kairo's routing.
std::vector<std::pair<int, hw::VcClass>> booksim_way(const Net& n, int src, int v, int t) {
  std::vector<std::pair<int, hw::VcClass>> way;
  auto hop = [&](int from, int to, hw::VcClass cls) {
    const int port = n.port_to(from, to);
    EXPECT_GE(port, 0) << from << " -> " << to;
    if (port >= 0) way.emplace_back(n.far[std::size_t(from)][std::size_t(port)].channel, cls);
  };
  // The minimal way from x to y: `before` up to the global link, `after` from it on.
  auto leg = [&](int x, int y, hw::VcClass before, hw::VcClass after) {
    if (n.group(x) == n.group(y)) {
      if (x != y) hop(x, y, before);
      return;
    }
    const auto [out, in] = n.exit.at({n.group(x), n.group(y)});
    if (x != out) hop(x, out, before);
    hop(out, in, after);
    if (in != y) hop(in, y, after);
  };
  leg(src, v, hw::VcClass::kPhase0, hw::VcClass::kPhase0);
  leg(v, t, hw::VcClass::kPhase1, hw::VcClass::kPhase2);
  return way;
}

TEST(DragonflyRouting, ChannelDependencyGraphsOfMinimalValiantAndUgalAreAcyclic) {
  for (const Shape& s : kShapes) {
    const auto n = make_net(s);
    const hw::NodeId per_group = hw::NodeId(n->a * n->p);
    DependencyGraph minimal(*n), valiant(*n), ugal(*n);
    const DragonflyRouting min_rt(n->shape(), DragonflyMode::kMinimal),
        val_rt(n->shape(), DragonflyMode::kValiant), ugal_rt(n->shape(), DragonflyMode::kUgal);
    for (int src = 0; src < n->routers; ++src)
      for (int t = 0; t < n->routers; ++t) {
        const Walk min_way = walk(*n, min_rt, src, node_on(*n, t), 0, no_credits);
        minimal.add(min_way);
        // UGAL under two loads: no queues (minimal), and the minimal output
        // full with every other one empty (Valiant where it may).
        const int min_port = min_way.links.empty() ? -1 : n->port_to(src, min_way.links[0].to);
        auto min_full = [&](int port) { return port == min_port ? 1000 : 0; };
        for (int I = 0; I < n->groups; ++I) {
          const std::uint64_t coin = std::uint64_t(I) * per_group;
          valiant.add(walk(*n, val_rt, src, node_on(*n, t), coin, no_credits));
          ugal.add(walk(*n, ugal_rt, src, node_on(*n, t), coin, no_credits));
          ugal.add(walk(*n, ugal_rt, src, node_on(*n, t), coin, min_full));
        }
      }
    const std::string what =
        "p=" + std::to_string(s.p) + " a=" + std::to_string(s.a) + " h=" + std::to_string(s.h);
    EXPECT_TRUE(minimal.acyclic()) << what;
    EXPECT_TRUE(valiant.acyclic()) << what;
    EXPECT_TRUE(ugal.acyclic()) << what;
  }
  // Control: BookSim's Valiant leg on the 9-group shape closes a cycle.
  const auto n = make_net(kShapes[0]);
  DependencyGraph booksim(*n);
  for (int src = 0; src < n->routers; ++src)
    for (int t = 0; t < n->routers; ++t)
      for (int v = 0; v < n->routers; ++v)
        if (n->group(v) != n->group(src) && n->group(t) != n->group(src))
          booksim.add(booksim_way(*n, src, v, t));
  EXPECT_GT(booksim.edges(), 0u);
  EXPECT_FALSE(booksim.acyclic()) << "two local hops of phase 0 in a group must close a cycle";
}

// Phase k gets VCs [k v, (k+1) v), v = floor(vcs / phases): 2 phases for
// minimal routing, 3 for Valiant and UGAL.
TEST(DragonflyRouting, VcClassesGiveEachPhaseAnEqualShareOfTheVcs) {
  const DragonflyShape shape{3, 6, 3, 19, 1};
  auto classes = [&](DragonflyMode m, int vcs) {
    std::uint8_t f[hw::kNumVcClasses] = {}, l[hw::kNumVcClasses] = {};
    DragonflyRouting(shape, m).vc_classes(vcs, f, l);
    std::vector<std::pair<int, int>> out;
    for (hw::VcClass c : {hw::VcClass::kPhase0, hw::VcClass::kPhase1, hw::VcClass::kPhase2})
      out.emplace_back(f[int(c)], l[int(c)]);
    return out;
  };
  using V = std::vector<std::pair<int, int>>;
  EXPECT_EQ(classes(DragonflyMode::kMinimal, 3)[0], std::make_pair(0, 1));
  EXPECT_EQ(classes(DragonflyMode::kMinimal, 3)[1], std::make_pair(1, 2));
  EXPECT_EQ(classes(DragonflyMode::kUgal, 3), (V{{0, 1}, {1, 2}, {2, 3}}));
  EXPECT_EQ(classes(DragonflyMode::kUgal, 6), (V{{0, 2}, {2, 4}, {4, 6}}));
  EXPECT_EQ(classes(DragonflyMode::kValiant, 3), (V{{0, 1}, {1, 2}, {2, 3}}));
  for (DragonflyMode m : {DragonflyMode::kMinimal, DragonflyMode::kValiant, DragonflyMode::kUgal}) {
    const int phases = m == DragonflyMode::kMinimal ? 2 : 3;
    EXPECT_EQ(DragonflyRouting(shape, m).phases(), phases);
    for (int vcs = phases; vcs <= 16; ++vcs) {
      const V got = classes(m, vcs);
      const int per = vcs / phases;
      for (int k = 0; k < phases; ++k)
        EXPECT_EQ(got[std::size_t(k)], std::make_pair(k * per, (k + 1) * per))
            << "phase " << k << ", " << vcs << " VCs";
    }
  }
}

// UGAL at the source router: minimal when q_min <= 2 q_nonmin + threshold,
// each q the used credits of the output that way's first link leaves on
// (found here from the cables), Valiant otherwise; minimal whatever the
// credits when the destination is in the source group or the coin draws the
// source group. The credits are read there only.
TEST(DragonflyRouting, UgalGoesMinimalUpToTwiceTheValiantQueuePlusTheThreshold) {
  const auto n = make_net(kShapes[0]);  // p=2, a=4, h=2: 9 groups
  const hw::NodeId per_group = hw::NodeId(n->a * n->p);
  // The port of router r toward router t the minimal way, and toward group I.
  auto first_port = [&](int r, int t) {
    const int G = n->group(r), D = n->group(t);
    if (G == D) return n->port_to(r, t);
    const auto [out, in] = n->exit.at({G, D});
    return r == out ? n->port_to(r, in) : n->port_to(r, out);
  };
  auto toward_group = [&](int r, int I) {
    const auto [out, in] = n->exit.at({n->group(r), I});
    return r == out ? n->port_to(r, in) : n->port_to(r, out);
  };
  int cases = 0;
  for (int T : {30, 0, 7, -5}) {
    const DragonflyRouting rt(n->shape(), DragonflyMode::kUgal, T);
    for (int src = 0; src < n->routers; ++src)
      for (int t = 0; t < n->routers; ++t) {
        const int G = n->group(src), D = n->group(t);
        for (int I = 0; I < n->groups; ++I) {
          const std::uint64_t coin = std::uint64_t(I) * per_group + 1;
          const int min_port = first_port(src, t);
          if (G == D || I == G) {
            // Minimal however full its output is.
            hw::Packet pk;
            pk.dst = node_on(*n, t);
            auto full = [&](int port) { return port == min_port ? 1 << 20 : 0; };
            const auto hop = rt.route(src, pk, coin, full);
            EXPECT_EQ(pk.via, -1);
            if (src == t) {
              EXPECT_EQ(hop.link, -1);
            } else {
              EXPECT_EQ(hop.port, min_port) << src << " -> " << t << " via " << I;
              EXPECT_NE(hop.cls, hw::VcClass::kPhase0);
            }
            continue;
          }
          const int non_port = toward_group(src, I);
          if (non_port == min_port) continue;  // one output: nothing to compare
          for (int qn : {0, 3, 40}) {
            const int edge = 2 * qn + T;
            for (int qm : {edge, edge + 1}) {
              if (qm < 0) continue;
              bool other = false;
              auto used = [&](int port) {
                if (port != min_port && port != non_port) other = true;
                return port == min_port ? qm : port == non_port ? qn : 0;
              };
              hw::Packet pk;
              pk.dst = node_on(*n, t);
              const auto hop = rt.route(src, pk, coin, used);
              EXPECT_FALSE(other) << "credits read of a port on neither way";
              const bool valiant = qm > edge;
              const std::string what = std::to_string(src) + " -> " + std::to_string(t) + " via " +
                                       std::to_string(I) + ": q_min " + std::to_string(qm) + ", q_nonmin " +
                                       std::to_string(qn) + ", threshold " + std::to_string(T);
              EXPECT_EQ(hop.port, valiant ? non_port : min_port) << what;
              EXPECT_EQ(pk.via, valiant ? I : -1) << what;
              EXPECT_EQ(hop.cls == hw::VcClass::kPhase0, valiant) << what;
              ++cases;
            }
          }
        }
      }
  }
  EXPECT_GT(cases, 1000);
  // Along a whole way the credits are read at the source router only.
  const DragonflyRouting rt(n->shape(), DragonflyMode::kUgal, 0);
  int reads_at_source = 0, reads_after_source = 0, hops = 0;
  for (int src = 0; src < n->routers; ++src)
    for (int t = 0; t < n->routers; ++t) {
      hw::Packet pk;
      pk.dst = node_on(*n, t);
      int r = src;
      for (int step = 0; step < 8; ++step) {
        int reads = 0;
        const auto hop = rt.route(r, pk, 5 * per_group, [&](int) { return ++reads, 1000 * (step == 0); });
        (step == 0 ? reads_at_source : reads_after_source) += reads;
        if (hop.link < 0) break;
        pk.in_dim = std::int8_t(hop.link), pk.vc_class = hop.cls;
        r = n->far[std::size_t(r)][std::size_t(hop.port)].router;
        ASSERT_GE(r, 0) << "a hop on a port without a cable";
        ++hops;
      }
    }
  EXPECT_GT(hops, 0);
  EXPECT_GT(reads_at_source, 0);
  EXPECT_EQ(reads_after_source, 0);
}

}  // namespace
}  // namespace kairo::router
