// A platform's routers or switches as the partitioner's graph
// (platforms/partition_graph.h). Switched fabrics are wired by the plan
// SwitchNetlist builds from (platforms/switch_plan.h), names included, so
// that links.ports latencies apply.
#include "platforms/partition_graph.h"

#include "hw/common/topology.h"
#include "platforms/switch_plan.h"

namespace kairo::platforms::detail {

RouterGraph torus_graph(const Platform& p) {
  const hw::Topology topo(p.dims);
  RouterGraph g;
  for (const auto& d : p.dims) g.classes.push_back(d.name);
  const std::size_t n = std::size_t(topo.num_nodes());
  g.weight.assign(n, std::uint64_t(p.router.network_interfaces));
  g.hosts.assign(n, 1);
  g.edges.reserve(n * std::size_t(topo.num_link_ports()) / 2);
  for (hw::NodeId a = 0; a < n; ++a)
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
  const SwitchPlan plan = plan_switches(p, p.router.network_interfaces);
  RouterGraph g;
  const bool dragonfly = p.kind == FabricKind::kDragonfly;
  g.classes = dragonfly ? std::vector<std::string>{"links.local", "links.global"}
                        : std::vector<std::string>{"links.up", "links.wan"};
  g.hosts_per_router = std::uint64_t(f.hosts_per_edge);
  g.weight.assign(plan.switch_names.size(), 0);
  g.hosts.assign(plan.switch_names.size(), 0);
  for (const SwitchPlan::Link& l : plan.links) {
    // A links.ports entry naming either end of the cable sets its latency.
    sim::Time latency = l.cls->latency_ps;
    const std::string &pa = plan.names[l.a][std::size_t(l.port_a)],
                      &pb = plan.names[l.b][std::size_t(l.port_b)];
    for (const auto& o : f.ports)
      if (o.latency && ((o.sw == plan.switch_names[l.a] && o.port == pa) ||
                        (o.sw == plan.switch_names[l.b] && o.port == pb)))
        latency = o.values.latency_ps;
    g.edges.push_back(
        {std::uint32_t(l.a), std::uint32_t(l.b), l.cls == &f.wan || l.cls == &f.global ? 1 : 0, latency});
    ++g.weight[l.a];
    ++g.weight[l.b];
  }
  for (int e = 0; e < f.edges; ++e) {
    g.hosts[std::size_t(e)] = std::uint64_t(f.hosts_per_edge);
    g.weight[std::size_t(e)] += std::uint64_t(f.hosts_per_edge) * std::uint64_t(p.router.network_interfaces);
  }
  return g;
}

}  // namespace kairo::platforms::detail
