// The netlist of a switched fabric: a two-level fat tree (edge switches with
// their hosts, spine switches above, d-mod-k up/down routing), clusters of
// one switch each joined by wide-area links between per-cluster gateways, or
// a dragonfly (routed by hw/router/dragonfly_routing.h, not by a table).
// Switches are the same router module as a mesh/torus uses, with table
// routing, per-link-class rates, latencies and buffers, and cut-through or
// store-and-forward; hosts attach through the same endpoints. The builder
// declares and binds; routes are computed once, here, into a forwarding
// table: from every switch, among the ports on a shortest path to the
// destination's switch, the (destination mod count)-th (d-mod-k: spreads
// destinations evenly over parallel up links, deterministic, deadlock-free
// on a tree).
#pragma once
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "hw/router/dragonfly_routing.h"
#include "hw/router/forwarding_table.h"
#include "hw/router/router.h"
#include "hw/router/wan_path.h"
#include "platforms/network.h"
#include "platforms/switch_plan.h"

namespace kairo::platforms {

class SwitchNetlist final : public Network {
 public:
  SwitchNetlist(const Platform& platform, sim::EventQueue& queue);
  ~SwitchNetlist() override;

  const Platform& platform() const override { return platform_; }
  std::size_t num_nodes() const override { return hosts_; }
  int network_interfaces() const override { return nis_; }
  hw::Endpoint& endpoint(hw::NodeId n, int ni) override {
    return endpoints_[std::size_t(n) * std::size_t(nis_) + std::size_t(ni)];
  }
  sim::Clock clock() const override { return clock_; }
  std::string node_name(hw::NodeId n) const override { return "h" + std::to_string(n); }
  std::size_t num_routers() const override { return switches_.size(); }
  router::Router& router_at(std::size_t i) override { return *switches_[i]; }
  hw::NetworkActivity& activity() override { return activity_; }
  hw::Watchdog& watchdog() override { return *watchdog_; }
  std::vector<std::string> describe_blocked(std::size_t limit) override;
  void keep_until_exit() override { keep_until_exit_ = true; }
  bool wan_loss() const override { return !wan_paths_.empty(); }
  router::WanPath::Stats wan_stats() const override;

  std::size_t num_switches() const { return switches_.size(); }
  router::Router& switch_at(std::size_t s) { return *switches_[s]; }
  // The switch host `n` attaches to.
  std::size_t edge_of(hw::NodeId n) const {
    return std::size_t(n) / std::size_t(platform_.fabric.hosts_per_edge);
  }
  const router::ForwardingTable& table() const { return table_; }
  const router::DragonflyRouting* dragonfly() const { return dragonfly_.get(); }
  // links.wan.flow_control: loss: one path per direction of every wide-area
  // cable, in cable order (a to b, then b to a); none with credit.
  std::size_t num_wan_paths() const { return wan_paths_.size(); }
  router::WanPath& wan_path(std::size_t i) { return wan_paths_[i]; }

  // Switch-to-switch links (each counted once, both directions) by class.
  struct LinkTally {
    std::uint64_t host = 0, up = 0, wan = 0;
    std::uint64_t local = 0, global = 0;  // dragonfly
  };
  LinkTally links() const;
  // One line per switch: its name, then every port with its bandwidth and latency.
  std::vector<std::string> describe_ports() const;

 private:
  using Link = SwitchPlan::Link;
  void plan();
  void apply_port_overrides();
  void build(sim::EventQueue& queue);
  void route();

  Platform platform_;
  std::size_t hosts_ = 0;
  int nis_ = 1;
  sim::Clock clock_;
  std::vector<int> link_ports_;                  // per switch
  std::vector<std::vector<std::string>> names_;  // per switch, per port
  std::vector<Link> links_;
  std::vector<int> stride_;
  std::vector<std::string> switch_names_;     // per switch
  std::vector<const LinkClass*> host_class_;  // per host network interface
  std::deque<LinkClass> custom_;  // links.ports values, one per cable they change                   // k-ary
                                  // n-trees: k^level per switch (d-mod-k)
  std::deque<router::RouterConfig> configs_;             // one per switch (port counts differ)
  router::ForwardingTable table_;                        // fat trees, clusters
  std::unique_ptr<router::DragonflyRouting> dragonfly_;  // a dragonfly routes by arithmetic instead
  hw::NetworkActivity activity_;
  std::vector<std::unique_ptr<router::Router>> switches_;
  std::deque<router::WanPath> wan_paths_;
  std::vector<hw::Endpoint> endpoints_;
  std::deque<hw::Endpoint::Setup> endpoint_setups_;  // one per interface (kept: endpoints refer to them)
  hw::PacketPool flit_pool_;                         // a dragonfly under wormhole: the body flits in flight
  std::unique_ptr<hw::Watchdog> watchdog_;
  bool keep_until_exit_ = false;
};

}  // namespace kairo::platforms
