// What a NIC, a firmware runtime, a traffic run or a workload needs of any
// network, whatever its fabric: hosts and their endpoints, the clock the
// endpoints run on, the activity record and the deadlock watchdog, and the
// optical part when there is one. The mesh/torus netlist, the
// switched-fabric netlist (fat trees, clusters) and the hybrid netlist (a fat
// tree beside an optical circuit switch) all provide it, so nothing above
// needs to know which one it has.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hw/common/circuit_gate.h"
#include "hw/common/endpoint.h"
#include "hw/common/watchdog.h"
#include "hw/ocs/circuit_controller.h"
#include "hw/ocs/ocs_fabric.h"
#include "hw/router/router.h"
#include "hw/router/router_config.h"
#include "hw/router/wan_path.h"
#include "platforms/partition.h"
#include "platforms/platform.h"

namespace kairo::platforms {

// The optical circuit-switched part of a network (the hybrid network's OCS):
// its fabric, its circuit controller, and pathways between the optical NICs
// of two nodes.
class OpticalNetwork {
 public:
  virtual ~OpticalNetwork() = default;
  virtual ocs::OcsFabric& ocs() = 0;
  virtual ocs::CircuitController& controller() = 0;
  // The optical port of node n, or -1 when it has no optical NIC.
  virtual int port_of(hw::NodeId n) const = 0;
  // A pathway between two nodes' optical NICs, up from time 0 (before the
  // run starts). Empty on success, otherwise why (a node without an optical
  // NIC, a port already in use, a blocked Clos fabric).
  virtual std::string preset_pathway(hw::NodeId a, hw::NodeId b) = 0;
  // The same during the run, through the controller: up after the
  // reconfiguration delay (setup), or torn down (both directions).
  virtual std::string request_pathway(hw::NodeId a, hw::NodeId b, bool setup) = 0;
};

// In a partial build (OwnedPart), where an owned router's cable to a router
// this process does not build leads, both ways, until the boundary puts its
// stand-in there (platforms/boundary.h). Reaching it is a wiring error.
class RemoteRouter final : public hw::PacketSink, public hw::CreditSink {
 public:
  explicit RemoteRouter(std::uint32_t index) : index_(index) {}
  std::uint32_t index() const { return index_; }  // the remote router's, as build_network numbers them
  void accept(int port, int vc, hw::Packet* p) override;
  void return_credits(int port, int vc, int flits, sim::Time at) override;

 private:
  std::uint32_t index_;
};

class Network {
 public:
  virtual ~Network() = default;
  virtual const Platform& platform() const = 0;
  virtual std::size_t num_nodes() const = 0;   // hosts
  virtual int network_interfaces() const = 0;  // per host
  virtual hw::Endpoint& endpoint(hw::NodeId n, int ni) = 0;
  virtual sim::Clock clock() const = 0;  // of the routers or switches the endpoints attach to
  virtual std::string node_name(hw::NodeId n) const = 0;  // "x1y0z2a0b1c0", "h17"
  // Mesh/torus: the shape; null for switched fabrics.
  virtual const hw::Topology* torus() const { return nullptr; }
  // Every router (mesh/torus: router i is node i's) or switch.
  virtual std::size_t num_routers() const = 0;
  virtual router::Router& router_at(std::size_t i) = 0;
  // A partial build (OwnedPart) has only its own routers and hosts; a whole
  // one has every one. router_at and endpoint are for built ones only.
  virtual bool partial() const { return false; }
  virtual bool has_router(std::size_t) const { return true; }
  virtual bool has_host(hw::NodeId) const { return true; }
  virtual hw::NetworkActivity& activity() = 0;
  virtual hw::Watchdog& watchdog() = 0;
  virtual std::vector<std::string> describe_blocked(std::size_t limit) = 0;
  // The process is about to exit: leave the SystemC modules in place instead
  // of destroying them (see TorusNetlist::keep_until_exit).
  virtual void keep_until_exit() = 0;
  // The gate of a network interface whose channel goes through an optical
  // circuit (the hybrid network's TNI 1); null for packet-switched ones.
  virtual hw::CircuitGate* gate(hw::NodeId, int) { return nullptr; }
  // The optical circuit-switched part; null on networks without one.
  virtual OpticalNetwork* optical() { return nullptr; }
  // links.wan.flow_control: loss: its wide-area paths' counts, summed over
  // paths (peak_queue_bytes: the largest); nothing on lossless networks.
  virtual bool wan_loss() const { return false; }
  virtual router::WanPath::Stats wan_stats() const { return {}; }
};

// What every router (or switch) holding packets waits for, `limit` lines at most.
std::vector<std::string> describe_blocked(const std::vector<std::unique_ptr<router::Router>>& routers,
                                          std::size_t limit);

// The netlist the platform describes (TorusNetlist, SwitchNetlist or
// HybridNetlist). A mesh/torus builds only `part` (the switched fabrics are
// built whole whatever it says: their netlists have no partial build yet).
std::unique_ptr<Network> build_network(const Platform& p, sim::EventQueue& queue, const OwnedPart& part = {});

}  // namespace kairo::platforms
