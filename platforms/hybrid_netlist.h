// The netlist of Takizawa et al. 2008's hybrid machine: a two-level fat tree of
// electronic packet switches (the SwitchNetlist, TNI 0 of every node) and,
// beside it, an OCS fabric (hw/ocs) that the nodes with an optical NIC reach
// through their TNI 1. A pure netlist: it declares the optical endpoints,
// the data plane and the circuit controller, and binds them; routing over
// the two networks is the firmware's choice (sw/hybrid).
//
// Circuits the platform asks for before the run (preset_pathway) are up at
// time 0, as Takizawa et al. 2008's pre-built pathways are; requests during the run go
// through the controller and pay the reconfiguration delay.
#pragma once
#include <memory>
#include <vector>

#include "hw/ocs/circuit_controller.h"
#include "hw/ocs/ocs_fabric.h"
#include "platforms/network.h"
#include "platforms/switch_netlist.h"

namespace kairo::platforms {

class HybridNetlist final : public Network, public OpticalNetwork {
 public:
  HybridNetlist(const Platform& platform, sim::EventQueue& queue);
  ~HybridNetlist() override;

  const Platform& platform() const override { return platform_; }
  std::size_t num_nodes() const override { return eps_.num_nodes(); }
  int network_interfaces() const override { return 2; }
  hw::Endpoint& endpoint(hw::NodeId n, int ni) override {
    return ni == 0 ? eps_.endpoint(n, 0) : optical_[std::size_t(n)];
  }
  sim::Clock clock() const override { return eps_.clock(); }
  std::string node_name(hw::NodeId n) const override { return eps_.node_name(n); }
  std::size_t num_routers() const override { return eps_.num_routers(); }
  router::Router& router_at(std::size_t i) override { return eps_.router_at(i); }
  hw::NetworkActivity& activity() override { return eps_.activity(); }
  hw::Watchdog& watchdog() override { return eps_.watchdog(); }
  std::vector<std::string> describe_blocked(std::size_t limit) override {
    return eps_.describe_blocked(limit);
  }
  void keep_until_exit() override;
  hw::CircuitGate* gate(hw::NodeId n, int ni) override;
  OpticalNetwork* optical() override { return this; }

  SwitchNetlist& eps() { return eps_; }
  // The optical part (see OpticalNetwork).
  ocs::OcsFabric& ocs() override { return *ocs_; }
  ocs::CircuitController& controller() override { return *controller_; }
  int port_of(hw::NodeId n) const override { return platform_.ocs.port_of(std::uint32_t(n)); }
  std::string preset_pathway(hw::NodeId a, hw::NodeId b) override;
  std::string request_pathway(hw::NodeId a, hw::NodeId b, bool setup) override;

 private:
  class NoOpticalNic;
  std::string ports_of(hw::NodeId a, hw::NodeId b, int* pa, int* pb) const;
  Platform platform_;
  SwitchNetlist eps_;
  std::vector<hw::Endpoint> optical_;  // per node (unconnected without an optical NIC)
  hw::Endpoint::Setup optical_setup_;  // every optical interface's
  std::unique_ptr<ocs::OcsFabric> ocs_;
  std::unique_ptr<ocs::CircuitController> controller_;
  std::unique_ptr<NoOpticalNic> none_;
  bool keep_until_exit_ = false;
};

}  // namespace kairo::platforms
