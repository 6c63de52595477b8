// The wiring of a switched fabric (platforms/switch_plan.h).
#include "platforms/switch_plan.h"

#include <fmt/format.h>

#include "hw/router/dragonfly_routing.h"

namespace kairo::platforms {

SwitchPlan plan_switches(const Platform& platform, int nis) {
  SwitchPlan sp;
  const SwitchedFabric& f = platform.fabric;
  auto add_switch = [&](int link_ports) {
    sp.link_ports.push_back(link_ports);
    sp.names.emplace_back();
  };
  if (platform.kind == FabricKind::kDragonfly) {
    // BookSim's dragonflynew wiring (hw/router/dragonfly_routing.h): router
    // i of group G has local ports to the group's other routers, then global
    // ports j = i*h .. i*h + h-1 (those below g-1), link j toward group
    // link_group(G, j); each cable is added once, from its lower router.
    const int a = f.group_routers, h = f.global_ports, g = f.groups;
    const router::DragonflyShape shape{f.hosts_per_edge, a, h, g, nis};
    for (int G = 0; G < g; ++G)
      for (int i = 0; i < a; ++i) {
        add_switch(shape.link_ports(i));
        auto& names = sp.names.back();
        for (int k = 0; k + 1 < a; ++k) names.push_back(fmt::format("local{}", shape.local_neighbor(i, k)));
        for (int s = 0; s < shape.global_ports(i); ++s)
          names.push_back(fmt::format("global{}", shape.link_group(G, i * h + s)));
      }
    for (int G = 0; G < g; ++G)
      for (int i = 0; i < a; ++i) {
        const std::size_t r = std::size_t(G * a + i);
        for (int j = i + 1; j < a; ++j)
          sp.links.push_back(SwitchPlan::Link{r, std::size_t(G * a + j),
                                              router::DragonflyShape::local_port(i, j),
                                              router::DragonflyShape::local_port(j, i), &f.local});
        for (int s = 0; s < shape.global_ports(i); ++s) {
          const int D = shape.link_group(G, i * h + s);
          if (D < G) continue;
          const int back = router::DragonflyShape::global_link(D, G);
          sp.links.push_back(
              SwitchPlan::Link{r, std::size_t(D * a + back / h), a - 1 + s, a - 1 + back % h, &f.global});
        }
      }
  } else if (platform.kind == FabricKind::kFatTree && f.levels > 0) {
    // k-ary n-tree: switch (level l, word w) is l * W + w; w's base-k digit
    // l picks, among the k switches above that differ from w only in that
    // digit, the one its up port j reaches (digit l = j), whose down port is
    // w's digit l. Up ports follow down ports; edges have no down ports.
    const int k = f.k(), n = f.levels, W = f.edges;
    for (int l = 0; l < n; ++l)
      for (int w = 0; w < W; ++w) add_switch((l > 0 ? k : 0) + (l + 1 < n ? k : 0));
    std::vector<int> power(std::size_t(n), 1);
    for (int l = 1; l < n; ++l) power[std::size_t(l)] = power[std::size_t(l - 1)] * k;
    for (int l = 0; l < n; ++l)
      for (int w = 0; w < W; ++w) {
        auto& names = sp.names[std::size_t(l * W + w)];
        if (l > 0)
          for (int d = 0; d < k; ++d) names.push_back(fmt::format("down{}", d));
        if (l + 1 < n)
          for (int j = 0; j < k; ++j) names.push_back(fmt::format("up{}", j));
      }
    for (int l = 0; l + 1 < n; ++l)
      for (int w = 0; w < W; ++w) {
        const int digit = (w / power[std::size_t(l)]) % k;
        for (int j = 0; j < k; ++j) {
          const int above = w + (j - digit) * power[std::size_t(l)];
          sp.links.push_back(SwitchPlan::Link{std::size_t(l * W + w), std::size_t((l + 1) * W + above),
                                              (l > 0 ? k : 0) + j, digit, &f.up});
        }
      }
    for (int l = 0; l < n; ++l)
      for (int w = 0; w < W; ++w) sp.stride.push_back(power[std::size_t(l)]);
  } else if (platform.kind == FabricKind::kFatTree) {
    const int U = f.uplinks_per_edge, S = f.spines, per = S ? U / S : 0;
    for (int e = 0; e < f.edges; ++e) add_switch(U);
    for (int s = 0; s < S; ++s) add_switch(f.edges * per);
    for (int e = 0; e < f.edges; ++e)
      for (int u = 0; u < U; ++u) {
        const int s = u % S, k = u / S;
        sp.links.push_back(SwitchPlan::Link{std::size_t(e), std::size_t(f.edges + s), u, e * per + k, &f.up});
        sp.names[std::size_t(e)].push_back(fmt::format("up{}", u));
      }
    for (int s = 0; s < S; ++s)
      for (int e = 0; e < f.edges; ++e)
        for (int k = 0; k < per; ++k)
          sp.names[std::size_t(f.edges + s)].push_back(fmt::format("edge{}.{}", e, k));
  } else {
    const int C = f.edges;
    for (int c = 0; c < C; ++c) add_switch(1);
    for (int c = 0; c < C; ++c) add_switch(C);  // its cluster + the other gateways
    for (int c = 0; c < C; ++c) {
      sp.links.push_back(SwitchPlan::Link{std::size_t(c), std::size_t(C + c), 0, 0, &f.up});
      sp.names[std::size_t(c)].push_back("up");
      sp.names[std::size_t(C + c)].push_back(fmt::format("cluster{}", c));
    }
    auto wan_port = [](int from, int to) { return 1 + (to < from ? to : to - 1); };
    for (int c = 0; c < C; ++c)
      for (int d = 0; d < C; ++d) {
        if (d == c) continue;
        sp.names[std::size_t(C + c)].push_back(fmt::format("wan{}", d));
        if (d > c)
          sp.links.push_back(SwitchPlan::Link{std::size_t(C + c), std::size_t(C + d), wan_port(c, d),
                                              wan_port(d, c), &f.wan});
      }
  }
  for (std::size_t s = 0; s < sp.link_ports.size(); ++s) {
    const std::size_t E = std::size_t(f.edges);
    if (platform.kind == FabricKind::kDragonfly)
      sp.switch_names.push_back(
          fmt::format("g{}r{}", s / std::size_t(f.group_routers), s % std::size_t(f.group_routers)));
    else if (platform.kind == FabricKind::kClusters)
      sp.switch_names.push_back(s < E ? fmt::format("cluster{}", s) : fmt::format("gateway{}", s - E));
    else if (f.levels > 0)
      sp.switch_names.push_back(fmt::format("l{}s{}", s / E, s % E));
    else
      sp.switch_names.push_back(s < E ? fmt::format("edge{}", s) : fmt::format("spine{}", s - E));
  }
  // Host ports follow the link ports on edge (cluster) switches.
  for (int e = 0; e < f.edges; ++e)
    for (int h = 0; h < f.hosts_per_edge; ++h)
      for (int i = 0; i < nis; ++i)
        sp.names[std::size_t(e)].push_back(nis > 1 ? fmt::format("h{}.ni{}", e * f.hosts_per_edge + h, i)
                                                   : fmt::format("h{}", e * f.hosts_per_edge + h));
  return sp;
}

}  // namespace kairo::platforms
