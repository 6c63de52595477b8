// The platform's name and `topology:` keys, declared once (sim/params.h),
// and the checks across them (and the router's ports and VCs they need).
#include "platforms/topology_params.h"

#include <fmt/format.h>

#include <cmath>

#include "platforms/platform.h"

namespace kairo::platforms {

namespace {

// Ports of the largest switch or router the model builds (hw/router/router.h).
constexpr int kMaxSwitchPorts = 76;

}  // namespace

const char* network_form(const Platform& p) {
  switch (p.kind) {
    case FabricKind::kTorus:
      return router::kMeshTorus;
    case FabricKind::kDragonfly:
      return router::kDragonfly;
    case FabricKind::kFatTree:
      return "fat_tree";
    case FabricKind::kClusters:
      return "clusters";
  }
  return "";
}

const char* fat_tree_form(const Platform& p) { return p.fabric.levels > 0 ? "k-ary" : "two-level"; }

const std::vector<sim::ParamDecl>& topology_param_decls() {
  using K = sim::ParamKind;
  using F = SwitchedFabric;
  using D = hw::DimSpec;
  static const std::vector<sim::ParamDecl> decls = [] {
    // The platform's own shapes (name, topology.dims, topology.fat_tree ...), read by hand.
    sim::ParamBlock<Platform> top(""), topo("topology");
    top.shape("name", "name", "(required)", "platform name, as `kairo platforms` lists it");
    top.shape("description", "text", "\"\"", "what the platform models and where its numbers come from");
    topo.shape("dims", "list", "(required)",
               "1 to 6 dimensions {name, size, wrap}; node ids count dimension 0 fastest");
    std::vector<sim::ParamDecl> out = top.decls();
    out.push_back(topo.decls().front());
    sim::ParamBlock<D> dim("topology.dims.<DIM>");
    dim.shape("name", "name", "(required)", "dimension name, letters only (X, Y, Z, A, B, C)");
    dim.integer("size", &D::size, K::kCount, 1, INT_MAX, "routers along this dimension",
                "routers along the dimension; size 2 has one link per node, size 1 none")
        .deflt = "(required)";
    dim.flag("wrap", &D::wrap, "true for a torus, false for a mesh",
             "true: torus (wrap-around link; size >= 3 makes a ring with a dateline); false: mesh");
    out.insert(out.end(), dim.decls().begin(), dim.decls().end());

    topo.shape("fat_tree", "map", "-",
               "{edges, hosts_per_edge, uplinks_per_edge, spines}: a two-level fat tree; or {levels, radix, "
               "hosts_per_edge}: a k-ary n-tree (k = radix / 2) (instead of dims)");
    topo.shape("clusters", "map", "-",
               "{count, hosts}: clusters of one switch each, joined by wide-area links between their "
               "gateways (instead of dims)");
    topo.shape(
        "dragonfly", "map", "-",
        "{p, a, h, groups}: a dragonfly (instead of dims): groups of a routers joined all to all by local "
        "links, each router with p hosts and h global links; BookSim's dragonflynew wiring "
        "(hw/router/dragonfly_routing.h)");
    out.insert(out.end(), topo.decls().begin() + 1, topo.decls().end());

    sim::ParamBlock<F> df("topology.dragonfly");
    df.integer("p", &F::hosts_per_edge, K::kCount, 1, 1 << 16, "hosts per router", "hosts per router").deflt =
        "(required)";
    df.integer("a", &F::group_routers, K::kCount, 1, 1 << 16, "routers per group", "routers per group")
        .deflt = "(required)";
    df.integer("h", &F::global_ports, K::kCount, 0, 1 << 16, "global ports per router",
               "global links per router")
        .deflt = "(required)";
    df.integer(
          "groups", &F::groups, K::kCount, 1, 1 << 16, "groups, at most a x h + 1",
          "groups, at most a x h + 1 (then one global link joins every two groups); with fewer, the last "
          "routers of a group have fewer global ports")
        .deflt = "a x h + 1";
    out.insert(out.end(), df.decls().begin(), df.decls().end());
    return out;
  }();
  return decls;
}

const std::vector<sim::ParamDecl>& topology_field_decls() {
  using K = sim::ParamKind;
  using F = SwitchedFabric;
  static const std::vector<sim::ParamDecl> decls = [] {
    constexpr long long kMost = 1 << 20;
    sim::ParamBlock<F> ft("topology.fat_tree");
    // Two forms: the two-level keys, or a k-ary n-tree's (hosts_per_edge is both's).
    const std::vector<std::string> two = {"two-level"}, kary = {"k-ary"};
    ft.integer("edges", &F::edges, K::kCount, 1, kMost, "edge switches", "two-level: edge switches").only =
        two;
    ft.integer("hosts_per_edge", &F::hosts_per_edge, K::kCount, 1, kMost, "hosts under each edge switch",
               "hosts under each edge switch (a k-ary n-tree: k unless given)");
    ft.integer("uplinks_per_edge", &F::uplinks_per_edge, K::kCount, 0, kMost,
               "links from each edge switch up to the spines",
               "two-level: links from each edge switch up to the spines, a multiple of spines")
        .only = two;
    ft.integer("spines", &F::spines, K::kCount, 0, kMost, "spine switches", "two-level: spine switches")
        .only = two;
    ft.integer("levels", &F::levels, K::kCount, 1, kMost, "levels of switches", "k-ary n-tree: n, the levels")
        .only = kary;
    ft.integer("radix", &F::radix, K::kCount, 2, kMost, "ports per switch, k down and k up",
               "k-ary n-tree: 2k, the ports of a switch (k down, k up)")
        .only = kary;
    sim::ParamBlock<F> cl("topology.clusters");
    cl.integer("count", &F::edges, K::kCount, 1, kMost, "clusters", "clusters (one switch each)");
    cl.integer("hosts", &F::hosts_per_edge, K::kCount, 1, kMost, "hosts in each cluster",
               "hosts in each cluster");
    std::vector<sim::ParamDecl> out = ft.decls();
    out.insert(out.end(), cl.decls().begin(), cl.decls().end());
    return out;
  }();
  return decls;
}

std::optional<sim::ParamProblem> kary_problem(const SwitchedFabric& f) {
  const std::string t = "topology.fat_tree";
  if (f.radix % 2)
    return sim::ParamProblem{t + ".radix",
                             fmt::format("expected an even number (k down and k up ports), got {}", f.radix)};
  if (std::pow(double(f.k()), double(f.levels - 1)) > double(1 << 20))
    return sim::ParamProblem{t + ".levels", fmt::format("expected at most 2^20 switches per level, got {}^{}",
                                                        f.k(), f.levels - 1)};
  return std::nullopt;
}

std::optional<sim::ParamProblem> dragonfly_problem(const SwitchedFabric& f) {
  const std::string t = "topology.dragonfly";
  const long long most = (long long)f.group_routers * f.global_ports + 1;
  if (f.groups > most)
    return sim::ParamProblem{
        t + ".groups",
        fmt::format("expected at most a x h + 1 = {} groups (each pair of groups needs a global link and a "
                    "group has a x h = {} of them), got {}",
                    most, most - 1, f.groups)};
  if ((long long)f.group_routers * f.groups * f.hosts_per_edge > (1 << 24))
    return sim::ParamProblem{t, fmt::format("expected at most 2^24 hosts, got a x groups x p = {} x {} x {}",
                                            f.group_routers, f.groups, f.hosts_per_edge)};
  return std::nullopt;
}

namespace {

// More ports than a switch has: `from` and `fallback` locate the message as
// sim::ParamProblem says.
std::optional<sim::ParamProblem> ports(std::vector<std::string> from, const std::string& fallback,
                                       const std::string& key, long long n, const std::string& what) {
  if (n <= kMaxSwitchPorts) return std::nullopt;
  return sim::ParamProblem{
      key, fmt::format("expected at most {} ports per switch, but {} gives {}", kMaxSwitchPorts, what, n),
      std::move(from), fallback};
}

std::optional<sim::ParamProblem> fat_tree_problem(const SwitchedFabric& f, int nis) {
  const std::string t = "topology.fat_tree";
  const std::string edge = fmt::format("an edge switch with {} hosts x {} network interfaces + {} uplinks",
                                       f.hosts_per_edge, nis, f.uplinks_per_edge);
  const long long edge_ports = (long long)f.hosts_per_edge * nis + f.uplinks_per_edge;
  if (f.levels > 0) {
    if (auto p = ports({t + ".hosts_per_edge", t + ".radix", "router.network_interfaces"}, t,
                       t + ".hosts_per_edge", edge_ports, edge))
      return p;
    return ports({}, t, t + ".radix", f.radix, fmt::format("radix {}", f.radix));
  }
  if (f.edges > 1 && f.spines < 1)
    return sim::ParamProblem{
        t + ".spines",
        fmt::format("expected an integer >= 1: {} edge switches need spines to reach each other", f.edges)};
  if (f.spines > 0 && f.uplinks_per_edge < f.spines)
    return sim::ParamProblem{
        t + ".uplinks_per_edge",
        fmt::format(
            "expected at least spines ({}) uplinks per edge switch, so that every spine reaches every "
            "edge, got {}",
            f.spines, f.uplinks_per_edge)};
  if (f.spines > 0 && f.uplinks_per_edge % f.spines != 0)
    return sim::ParamProblem{
        t + ".uplinks_per_edge",
        fmt::format("expected a multiple of spines ({}) so that every edge has as many links to every spine, "
                    "got {}",
                    f.spines, f.uplinks_per_edge)};
  if (f.spines == 0 && f.uplinks_per_edge > 0)
    return sim::ParamProblem{
        t + ".uplinks_per_edge",
        fmt::format("expected 0 without spines (nothing to link up to), got {}", f.uplinks_per_edge)};
  if (auto p = ports({t + ".hosts_per_edge", "router.network_interfaces"}, t, t + ".hosts_per_edge",
                     edge_ports, edge))
    return p;
  if (f.spines > 0)
    return ports(
        {t + ".edges"}, t, t + ".edges", (long long)f.edges * (f.uplinks_per_edge / f.spines),
        fmt::format("a spine with {} edges x {} links each", f.edges, f.uplinks_per_edge / f.spines));
  return std::nullopt;
}

std::optional<sim::ParamProblem> dragonfly_ports_problem(const SwitchedFabric& f, const RouterParams& r) {
  const std::string t = "topology.dragonfly";
  const int nis = r.network_interfaces;
  if (auto p =
          ports({t + ".p", t + ".a", t + ".h", "router.network_interfaces"}, t, t + ".p",
                (long long)f.hosts_per_edge * nis + f.group_routers - 1 + f.global_ports,
                fmt::format("a router with {} hosts x {} network interfaces + {} local + {} global ports",
                            f.hosts_per_edge, nis, f.group_routers - 1, f.global_ports)))
    return p;
  const router::RoutingKind& k = router::routing_kind(r.routing);
  if (r.vcs >= k.phases) return std::nullopt;
  return sim::ParamProblem{
      "router.vcs",
      fmt::format("expected an integer >= {} on a dragonfly: routing {} takes one VC class per phase of a "
                  "packet's way ({}), got {}",
                  k.phases, router::routing_names([&k](const router::RoutingKind& o) {
                    return router::own_dragonfly_routing(o) && o.phases == k.phases;
                  }),
                  k.phase_ways, r.vcs),
      {"router.vcs", "router.routing"},
      "router"};
}

}  // namespace

std::optional<sim::ParamProblem> switched_problem(const Platform& p) {
  const SwitchedFabric& f = p.fabric;
  const int nis = p.router.network_interfaces;
  if (p.kind == FabricKind::kFatTree) return fat_tree_problem(f, nis);
  if (p.kind == FabricKind::kDragonfly) return dragonfly_ports_problem(f, p.router);
  if (p.kind != FabricKind::kClusters) return std::nullopt;
  const std::string t = "topology.clusters";
  if (auto q = ports({t + ".hosts", "router.network_interfaces"}, t, t + ".hosts",
                     (long long)f.hosts_per_edge * nis + 1,
                     fmt::format("a cluster switch with {} hosts x {} network interfaces + 1 uplink",
                                 f.hosts_per_edge, nis)))
    return q;
  return ports({t + ".count"}, t, t + ".count", f.edges,
               fmt::format("a gateway with 1 uplink + {} wide-area links", f.edges - 1));
}

}  // namespace kairo::platforms
