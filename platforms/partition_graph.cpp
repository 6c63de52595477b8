// A platform's routers or switches as the partitioner's graph
// (platforms/partition_graph.h). The switched shapes follow
// SwitchNetlist::plan (platforms/switch_netlist.cpp) switch for switch and
// cable for cable, names included, so that links.ports latencies apply; a
// test compares the cable counts with the netlist's.
#include "platforms/partition_graph.h"

#include <fmt/format.h>

#include "hw/common/topology.h"

namespace kairo::platforms::detail {

RouterGraph torus_graph(const Platform& p) {
  const router::Topology topo(p.dims);
  RouterGraph g;
  for (const auto& d : p.dims) g.classes.push_back(d.name);
  const std::size_t n = std::size_t(topo.num_nodes());
  g.weight.assign(n, std::uint64_t(p.router.network_interfaces));
  g.hosts.assign(n, 1);
  g.edges.reserve(n * std::size_t(topo.num_link_ports()) / 2);
  for (router::NodeId a = 0; a < n; ++a)
    for (int port = 0; port < topo.num_link_ports(); ++port) {
      const auto b = topo.neighbor_via_port(a, port);
      if (!b) continue;
      ++g.weight[a];
      if (a < *b) {
        const int d = topo.port_dim(port);
        g.edges.push_back({std::uint32_t(a), std::uint32_t(*b), d, p.router.cable_ps[std::size_t(d)]});
      }
    }
  return g;
}

RouterGraph switch_graph(const Platform& p) {
  const SwitchedFabric& f = p.fabric;
  RouterGraph g;
  g.classes = {"links.up", "links.wan"};
  g.hosts_per_router = std::uint64_t(f.hosts_per_edge);
  std::vector<std::string> names;  // per switch, as SwitchNetlist names them
  auto add_switch = [&](std::string name) {
    names.push_back(std::move(name));
    g.weight.push_back(0);
    g.hosts.push_back(0);
  };
  // One cable; a links.ports entry naming either end sets its latency.
  auto add_cable = [&](std::size_t a, const std::string& pa, std::size_t b, const std::string& pb, int cls) {
    sim::Time latency = cls == 0 ? f.up.latency_ps : f.wan.latency_ps;
    for (const auto& o : f.ports)
      if (o.latency && ((o.sw == names[a] && o.port == pa) || (o.sw == names[b] && o.port == pb)))
        latency = o.values.latency_ps;
    g.edges.push_back({std::uint32_t(a), std::uint32_t(b), cls, latency});
    ++g.weight[a];
    ++g.weight[b];
  };
  const int E = f.edges;
  if (p.kind == FabricKind::kFatTree && f.levels > 0) {
    const int k = f.k(), n = f.levels;
    for (int l = 0; l < n; ++l)
      for (int w = 0; w < E; ++w) add_switch(fmt::format("l{}s{}", l, w));
    int power = 1;
    for (int l = 0; l + 1 < n; ++l, power *= k)
      for (int w = 0; w < E; ++w) {
        const int digit = (w / power) % k;
        for (int j = 0; j < k; ++j)
          add_cable(std::size_t(l * E + w), fmt::format("up{}", j),
                    std::size_t((l + 1) * E + w + (j - digit) * power), fmt::format("down{}", digit), 0);
      }
  } else if (p.kind == FabricKind::kFatTree) {
    const int U = f.uplinks_per_edge, S = f.spines;
    for (int e = 0; e < E; ++e) add_switch(fmt::format("edge{}", e));
    for (int s = 0; s < S; ++s) add_switch(fmt::format("spine{}", s));
    for (int e = 0; e < E; ++e)
      for (int u = 0; u < U; ++u)
        add_cable(std::size_t(e), fmt::format("up{}", u), std::size_t(E + u % S),
                  fmt::format("edge{}.{}", e, u / S), 0);
  } else {
    for (int c = 0; c < E; ++c) add_switch(fmt::format("cluster{}", c));
    for (int c = 0; c < E; ++c) add_switch(fmt::format("gateway{}", c));
    for (int c = 0; c < E; ++c)
      add_cable(std::size_t(c), "up", std::size_t(E + c), fmt::format("cluster{}", c), 0);
    for (int c = 0; c < E; ++c)
      for (int d = c + 1; d < E; ++d)
        add_cable(std::size_t(E + c), fmt::format("wan{}", d), std::size_t(E + d), fmt::format("wan{}", c),
                  1);
  }
  for (int e = 0; e < E; ++e) {
    g.hosts[std::size_t(e)] = std::uint64_t(f.hosts_per_edge);
    g.weight[std::size_t(e)] += std::uint64_t(f.hosts_per_edge) * std::uint64_t(p.router.network_interfaces);
  }
  return g;
}

}  // namespace kairo::platforms::detail
