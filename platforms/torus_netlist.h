// The netlist of a mesh/torus platform: one router per node, bound to its
// neighbours in loops over coordinates, and one endpoint per network
// interface. Names come from coordinates (rtr_x1y2z0a0b1c0). No behaviour
// lives here: the builder only declares and binds. In a partitioned run it
// may build only the process's own routers and their endpoints (OwnedPart):
// a cable to a router it does not build then leads to a RemoteRouter.
#pragma once
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "hw/common/endpoint.h"
#include "hw/common/watchdog.h"
#include "hw/router/router.h"
#include "platforms/network.h"
#include "platforms/platform.h"

namespace kairo::platforms {

class TorusNetlist final : public Network {
 public:
  TorusNetlist(const Platform& platform, sim::EventQueue& queue, const OwnedPart& part = {});
  ~TorusNetlist() override;

  const Platform& platform() const override { return platform_; }
  const hw::Topology& topology() const { return topo_; }
  const hw::Topology* torus() const override { return &topo_; }
  const router::RouterConfig& config() const { return cfg_; }
  std::size_t num_nodes() const override { return routers_.size(); }
  router::Router& router(hw::NodeId n) { return *routers_[n]; }
  const router::Router& router(hw::NodeId n) const { return *routers_[n]; }
  hw::Endpoint& endpoint(hw::NodeId n, int ni) override {
    const std::size_t local = local_.empty() ? std::size_t(n) : std::size_t(local_[n]);
    return endpoints_[local * std::size_t(cfg_.network_interfaces) + std::size_t(ni)];
  }
  bool partial() const override { return !local_.empty(); }
  bool has_router(std::size_t i) const override { return routers_[i] != nullptr; }
  bool has_host(hw::NodeId n) const override { return routers_[n] != nullptr; }
  int network_interfaces() const override { return cfg_.network_interfaces; }
  sim::Clock clock() const override { return cfg_.clock; }
  std::string node_name(hw::NodeId n) const override { return topo_.coord_string(topo_.coord_of(n)); }
  std::size_t num_routers() const override { return routers_.size(); }
  router::Router& router_at(std::size_t i) override { return *routers_[i]; }
  hw::NetworkActivity& activity() override { return activity_; }
  hw::Watchdog& watchdog() override { return *watchdog_; }

  void reset_counters(sim::Time now);
  // The process is about to exit: leave the routers in place instead of
  // destroying them (SystemC removes each module from its registries by a
  // linear search, so tearing down the K computer's 82,944 routers one by one
  // takes seconds). The operating system reclaims the memory.
  void keep_until_exit() override { keep_until_exit_ = true; }
  std::vector<std::string> describe_blocked(std::size_t limit) override;

 private:
  void bind_links(hw::NodeId n);
  void bind_endpoints(hw::NodeId n);
  RemoteRouter* remote(hw::NodeId n);

  Platform platform_;
  hw::Topology topo_;
  std::unique_ptr<router::Routing> routing_;
  router::RouterConfig cfg_;
  hw::NetworkActivity activity_;
  std::vector<std::unique_ptr<router::Router>> routers_;  // null: not built (a partial build)
  std::vector<hw::Endpoint> endpoints_;                   // the built nodes', in node order
  std::vector<std::uint32_t> local_;  // a partial build: node -> its place among the built ones; empty: whole
  std::unordered_map<hw::NodeId, std::unique_ptr<RemoteRouter>>
      remote_;                          // a partial build: the cut cables' far ends
  hw::Endpoint::Setup endpoint_setup_;  // every interface's (set before bind_endpoints)
  hw::PacketPool flit_pool_;            // wormhole: the body flits in flight
  std::unique_ptr<hw::Watchdog> watchdog_;
  bool keep_until_exit_ = false;
};

}  // namespace kairo::platforms
