// The netlist of a mesh/torus platform: one router per node, bound to its
// neighbours in loops over coordinates, and one endpoint per network
// interface. Names come from coordinates (rtr_x1y2z0a0b1c0). No behaviour
// lives here: the builder only declares and binds.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "hw/common/endpoint.h"
#include "hw/router/router.h"
#include "hw/router/watchdog.h"
#include "platforms/platform.h"

namespace kairo::platforms {

class TorusNetlist {
 public:
  TorusNetlist(const Platform& platform, sim::EventQueue& queue);
  ~TorusNetlist();

  const Platform& platform() const { return platform_; }
  const router::Topology& topology() const { return topo_; }
  const router::RouterConfig& config() const { return cfg_; }
  std::size_t num_nodes() const { return routers_.size(); }
  router::Router& router(router::NodeId n) { return *routers_[n]; }
  const router::Router& router(router::NodeId n) const { return *routers_[n]; }
  hw::Endpoint& endpoint(router::NodeId n, int ni) { return endpoints_[std::size_t(n) * cfg_.network_interfaces + ni]; }
  int network_interfaces() const { return cfg_.network_interfaces; }
  router::NetworkActivity& activity() { return activity_; }
  router::Watchdog& watchdog() { return *watchdog_; }

  void reset_counters(sim::Time now);
  // The process is about to exit: leave the routers in place instead of
  // destroying them (SystemC removes each module from its registries by a
  // linear search, so tearing down the K computer's 82,944 routers one by one
  // takes seconds). The operating system reclaims the memory.
  void keep_until_exit() { keep_until_exit_ = true; }
  std::vector<std::string> describe_blocked(std::size_t limit);

 private:
  void bind_links(router::NodeId n);
  void bind_endpoints(router::NodeId n);

  Platform platform_;
  router::Topology topo_;
  router::DimensionOrderRouting routing_;
  router::RouterConfig cfg_;
  router::NetworkActivity activity_;
  std::vector<std::unique_ptr<router::Router>> routers_;
  std::vector<hw::Endpoint> endpoints_;
  std::unique_ptr<router::Watchdog> watchdog_;
  bool keep_until_exit_ = false;
};

}  // namespace kairo::platforms
