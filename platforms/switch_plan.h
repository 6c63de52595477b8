// The wiring of a switched fabric (fat tree, k-ary n-tree, clusters, the
// hybrid network's packet switches), from the platform description alone:
// the switches in order with their names, each switch's ports by name (link
// ports first, then its hosts' interfaces) and every switch-to-switch cable.
// SwitchNetlist builds its switches from it and the partitioner
// (platforms/partition_graph.cpp) its graph, so the two agree cable for cable.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "platforms/platform.h"

namespace kairo::platforms {

struct SwitchPlan {
  struct Link {  // one switch-to-switch cable
    std::size_t a, b;
    int port_a, port_b;
    const LinkClass* cls;  // into the platform given to plan_switches
  };
  std::vector<int> link_ports;                  // per switch: its switch-to-switch ports
  std::vector<std::vector<std::string>> names;  // per switch, per port
  std::vector<Link> links;
  std::vector<int> stride;                // k-ary n-trees: k^level per switch (d-mod-k)
  std::vector<std::string> switch_names;  // per switch
};

// `nis`: network interfaces per host (router.network_interfaces).
SwitchPlan plan_switches(const Platform& platform, int nis);

}  // namespace kairo::platforms
