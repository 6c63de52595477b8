// The `topology:` section: a mesh/torus's dimensions, or a switched fabric's
// counts (a two-level fat tree, a k-ary n-tree, or clusters), and the checks
// of the switch ports they make.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

#include "platforms/yaml/reader.h"

namespace kairo::platforms::yaml {

namespace {
// Ports of the largest switch or router the model builds (hw/router/router.h).
constexpr int kMaxSwitchPorts = 76;
}  // namespace

void Reader::read_topology(const YAML::Node& root, Platform& pl) {
  const char* kExpect =
      "topology: {dims: [...]} (mesh/torus), {fat_tree: {...}}, {clusters: {...}} or {dragonfly: {...}}";
  auto topo = child(root, "topology");
  if (!topo) fail("topology", fmt::format("required key missing; expected {}", kExpect));
  note("topology", *topo);
  if (!topo->IsMap())
    fail("topology", fmt::format("expected a mapping: {}, got {}", kExpect, describe(*topo)));
  check_keys(*topo, "topology", {"dims", "fat_tree", "clusters", "dragonfly"});
  if (topo->size() != 1)
    fail("topology", fmt::format("expected exactly one of dims, fat_tree, clusters or dragonfly, got {} keys",
                                 topo->size()));
  if (auto t = child(*topo, "dragonfly")) {
    pl.kind = FabricKind::kDragonfly;
    return read_dragonfly(*t, pl);
  }
  if (auto t = child(*topo, "fat_tree")) {
    pl.kind = FabricKind::kFatTree;
    return read_switched(*t, "topology.fat_tree", pl);
  }
  if (auto t = child(*topo, "clusters")) {
    pl.kind = FabricKind::kClusters;
    return read_switched(*t, "topology.clusters", pl);
  }
  auto list = child(*topo, "dims");
  const char* kDimsExpect = "a list of 1 to 6 dimensions such as {name: X, size: 8, wrap: false}";
  note("topology.dims", *list);
  if (!list->IsSequence() || list->size() < 1 || list->size() > std::size_t(router::kMaxDims))
    fail("topology.dims",
         fmt::format("expected {}, got {}", kDimsExpect,
                     list->IsSequence() ? fmt::format("{} dimensions", list->size()) : describe(*list)));

  std::vector<router::DimSpec> dims;
  std::uint64_t nodes = 1;
  for (std::size_t i = 0; i < list->size(); ++i) {
    router::DimSpec d = read_dim((*list)[i], i, dims);
    nodes *= std::uint64_t(d.size);
    if (nodes > std::numeric_limits<router::NodeId>::max())
      fail("topology.dims." + d.name + ".size",
           fmt::format("expected a machine of at most {} nodes; the dimensions so far give {}",
                       std::numeric_limits<router::NodeId>::max(), nodes));
    dims.push_back(d);
  }
  pl.dims = dims;
}

// topology.fat_tree or topology.clusters: the counts, checked one by one here
// and together (with the ports they make) in check_switched.
void Reader::read_switched(const YAML::Node& n, const std::string& path, Platform& pl) {
  const bool tree = pl.kind == FabricKind::kFatTree;
  const std::vector<std::string>& keys = tree ? kFatTreeKeys : kClusterKeys;
  note(path, n);
  if (!n.IsMap()) fail(path, fmt::format("expected a mapping {{{}}}, got {}", join(keys), describe(n)));
  check_keys(n, path, keys);
  auto count = [&](const char* key, long long min, const char* what, int& out) {
    auto v = child(n, key);
    if (!v)
      fail_at(path, path + "." + key,
              fmt::format("required key missing; expected an integer >= {} ({})", min, what));
    out = int(read_int(*v, path + "." + key, min, what, 1 << 20));
  };
  SwitchedFabric& f = pl.fabric;
  if (tree && (child(n, "levels") || child(n, "radix"))) {  // a k-ary n-tree
    for (const char* k : {"edges", "uplinks_per_edge", "spines"})
      if (child(n, k))
        fail(path + "." + k,
             "not with levels and radix: a k-ary n-tree has k^(n-1) switches per level and k "
             "uplinks each");
    count("levels", 1, "levels of switches", f.levels);
    count("radix", 2, "ports per switch, k down and k up", f.radix);
    if (f.radix % 2)
      fail(path + ".radix", fmt::format("expected an even number (k down and k up ports), got {}", f.radix));
    const int k = f.k();
    double w = std::pow(double(k), double(f.levels - 1));
    if (w > double(1 << 20))
      fail(path + ".levels",
           fmt::format("expected at most 2^20 switches per level, got {}^{}", k, f.levels - 1));
    f.edges = int(w);
    f.spines = (f.levels - 1) * f.edges;
    f.uplinks_per_edge = f.levels > 1 ? k : 0;
    f.hosts_per_edge = k;
    if (child(n, "hosts_per_edge"))
      count("hosts_per_edge", 1, "hosts under each edge switch", f.hosts_per_edge);
    return;
  }
  if (tree) {
    count("edges", 1, "edge switches", f.edges);
    count("hosts_per_edge", 1, "hosts under each edge switch", f.hosts_per_edge);
    count("uplinks_per_edge", 0, "links from each edge switch up to the spines", f.uplinks_per_edge);
    count("spines", 0, "spine switches", f.spines);
  } else {
    count("count", 1, "clusters", f.edges);
    count("hosts", 1, "hosts in each cluster", f.hosts_per_edge);
  }
}

// topology.dragonfly {p, a, h, groups}: hosts per router, routers per
// group, global ports per router, and groups (a*h + 1 unless given: one
// global link between every two groups).
void Reader::read_dragonfly(const YAML::Node& n, Platform& pl) {
  const std::string path = "topology.dragonfly";
  note(path, n);
  if (!n.IsMap())
    fail(path, fmt::format("expected a mapping {{{}}}, got {}", join(kDragonflyKeys), describe(n)));
  check_keys(n, path, kDragonflyKeys);
  SwitchedFabric& f = pl.fabric;
  auto count = [&](const char* key, long long min, const char* what, int& out, bool required) {
    auto v = child(n, key);
    if (!v) {
      if (required)
        fail_at(path, path + "." + key,
                fmt::format("required key missing; expected an integer >= {} ({})", min, what));
      return;
    }
    out = int(read_int(*v, path + "." + key, min, what, 1 << 16));
  };
  count("p", 1, "hosts per router", f.hosts_per_edge, true);
  count("a", 1, "routers per group", f.group_routers, true);
  count("h", 0, "global ports per router", f.global_ports, true);
  const long long most = (long long)f.group_routers * f.global_ports + 1;
  f.groups = int(std::min<long long>(most, 1 << 20));
  count("groups", 1, "groups, at most a x h + 1", f.groups, false);
  if (f.groups > most)
    fail(path + ".groups",
         fmt::format("expected at most a x h + 1 = {} groups (each pair of groups needs a global link and a "
                     "group has a x h = {} of them), got {}",
                     most, most - 1, f.groups));
  if ((long long)f.group_routers * f.groups * f.hosts_per_edge > (1 << 24))
    fail(path, fmt::format("expected at most 2^24 hosts, got a x groups x p = {} x {} x {}", f.group_routers,
                           f.groups, f.hosts_per_edge));
  f.edges = f.group_routers * f.groups;
}

router::DimSpec Reader::read_dim(const YAML::Node& e, std::size_t i,
                                 const std::vector<router::DimSpec>& before) {
  const std::string at = fmt::format("topology.dims[{}]", i);
  note(at, e);
  if (!e.IsMap())
    fail(at,
         fmt::format("expected a dimension such as {{name: X, size: 8, wrap: false}}, got {}", describe(e)));
  check_keys(e, at, kDimKeys);
  router::DimSpec d;
  auto n = child(e, "name");
  if (!n) fail_at(at, at + ".name", "required key missing; expected a dimension name such as X");
  d.name = read_text(*n, at + ".name", "a dimension name such as X");
  auto letter = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; };
  if (d.name.empty() || !std::all_of(d.name.begin(), d.name.end(), letter))
    fail(at + ".name",
         fmt::format("expected a dimension name made of letters, such as X, got {}", describe(*n)));
  for (const auto& b : before)
    if (lower(b.name) == lower(d.name))
      fail(at + ".name", fmt::format("expected a name not used by another dimension, got {} again", d.name));
  const std::string path = "topology.dims." + d.name;
  auto size = child(e, "size");
  if (!size)
    fail_at(at, path + ".size",
            "required key missing; expected an integer >= 1 (routers along this dimension)");
  d.size = int(read_int(*size, path + ".size", 1, "routers along this dimension"));
  if (auto wrap = child(e, "wrap"))
    d.wrap = read_bool(*wrap, path + ".wrap", "true for a torus, false for a mesh");
  return d;
}

void Reader::check_switched(const Platform& pl) {
  const SwitchedFabric& f = pl.fabric;
  const RouterParams& r = pl.router;
  const int nis = r.network_interfaces;
  auto ports = [&](const std::string& at, const std::string& key, long long n, const std::string& what) {
    if (n > kMaxSwitchPorts)
      fail_at(at, key,
              fmt::format("expected at most {} ports per switch, but {} gives {}", kMaxSwitchPorts, what, n));
  };
  if (pl.kind == FabricKind::kFatTree && f.levels > 0) {
    const std::string t = "topology.fat_tree";
    ports(
        pick({"topology.fat_tree.hosts_per_edge", "topology.fat_tree.radix", "router.network_interfaces"}, t),
        t + ".hosts_per_edge", (long long)f.hosts_per_edge * nis + f.uplinks_per_edge,
        fmt::format("an edge switch with {} hosts x {} network interfaces + {} uplinks", f.hosts_per_edge,
                    nis, f.uplinks_per_edge));
    ports(t, t + ".radix", f.radix, fmt::format("radix {}", f.radix));
  } else if (pl.kind == FabricKind::kFatTree) {
    const std::string t = "topology.fat_tree";
    if (f.edges > 1 && f.spines < 1)
      fail(
          t + ".spines",
          fmt::format("expected an integer >= 1: {} edge switches need spines to reach each other", f.edges));
    if (f.spines > 0 && f.uplinks_per_edge < f.spines)
      fail(t + ".uplinks_per_edge",
           fmt::format(
               "expected at least spines ({}) uplinks per edge switch, so that every spine reaches every "
               "edge, got {}",
               f.spines, f.uplinks_per_edge));
    if (f.spines > 0 && f.uplinks_per_edge % f.spines != 0)
      fail(t + ".uplinks_per_edge",
           fmt::format(
               "expected a multiple of spines ({}) so that every edge has as many links to every spine, "
               "got {}",
               f.spines, f.uplinks_per_edge));
    if (f.spines == 0 && f.uplinks_per_edge > 0)
      fail(t + ".uplinks_per_edge",
           fmt::format("expected 0 without spines (nothing to link up to), got {}", f.uplinks_per_edge));
    ports(pick({"topology.fat_tree.hosts_per_edge", "router.network_interfaces"}, t), t + ".hosts_per_edge",
          (long long)f.hosts_per_edge * nis + f.uplinks_per_edge,
          fmt::format("an edge switch with {} hosts x {} network interfaces + {} uplinks", f.hosts_per_edge,
                      nis, f.uplinks_per_edge));
    if (f.spines > 0)
      ports(pick({"topology.fat_tree.edges"}, t), t + ".edges",
            (long long)f.edges * (f.uplinks_per_edge / f.spines),
            fmt::format("a spine with {} edges x {} links each", f.edges, f.uplinks_per_edge / f.spines));
  } else if (pl.kind == FabricKind::kDragonfly) {
    const std::string t = "topology.dragonfly";
    ports(pick({"topology.dragonfly.p", "topology.dragonfly.a", "topology.dragonfly.h",
                "router.network_interfaces"},
               t),
          t + ".p", (long long)f.hosts_per_edge * nis + f.group_routers - 1 + f.global_ports,
          fmt::format("a router with {} hosts x {} network interfaces + {} local + {} global ports",
                      f.hosts_per_edge, nis, f.group_routers - 1, f.global_ports));
    const int phases =
        r.routing == router::RoutingAlgorithm::kValiant || r.routing == router::RoutingAlgorithm::kUgal ? 3
                                                                                                        : 2;
    if (r.vcs < phases)
      fail_at(pick({"router.vcs", "router.routing"}, "router"), "router.vcs",
              fmt::format("expected an integer >= {} on a dragonfly: routing {} takes one VC class per phase "
                          "of a packet's way ({}), got {}",
                          phases, phases == 3 ? "valiant or ugal" : "minimal",
                          phases == 3 ? "to the intermediate group, to the last global link, after it"
                                      : "before the global link, from it on",
                          r.vcs));
  } else {
    const std::string t = "topology.clusters";
    ports(pick({"topology.clusters.hosts", "router.network_interfaces"}, t), t + ".hosts",
          (long long)f.hosts_per_edge * nis + 1,
          fmt::format("a cluster switch with {} hosts x {} network interfaces + 1 uplink", f.hosts_per_edge,
                      nis));
    ports(pick({"topology.clusters.count"}, t), t + ".count", f.edges,
          fmt::format("a gateway with 1 uplink + {} wide-area links", f.edges - 1));
  }
  // Virtual cut-through: every receive buffer holds the largest packet.
  const std::uint64_t packet = std::uint64_t(r.max_packet_flits) * std::uint64_t(r.flit_bytes);
  for (const auto& [name, c] : {std::pair<const char*, const LinkClass&>{"host", f.host},
                                {"up", f.up},
                                {"wan", f.wan},
                                {"local", f.local},
                                {"global", f.global}})
    if (c.buffer_bytes > 0 && c.buffer_bytes < packet)
      fail(std::string("links.") + name + ".buffer",
           fmt::format(
               "expected at least router.max_packet_flits x router.flit_size ({}B): a VC must hold the "
               "largest packet, got {}B",
               packet, c.buffer_bytes));
  const auto representable = [&](double bw) {
    double ps = r.flit_bytes * 1e12 / bw;
    return ps >= 0.5 && ps < 1e18;
  };
  for (const auto& [name, c] : {std::pair<const char*, const LinkClass&>{"host", f.host},
                                {"up", f.up},
                                {"wan", f.wan},
                                {"local", f.local},
                                {"global", f.global}})
    if (c.bytes_per_s > 0 && !representable(c.bytes_per_s))
      fail(std::string("links.") + name + ".bandwidth",
           fmt::format("expected a bandwidth at which one {}B flit takes between 1ps and 1e18ps, got {}",
                       r.flit_bytes, units::format_bandwidth(c.bytes_per_s)));
}

}  // namespace kairo::platforms::yaml
