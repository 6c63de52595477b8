// What a NIC, a firmware runtime or a run needs of any network, whatever its
// fabric: hosts and their endpoints, the clock the endpoints run on, the
// activity record and the deadlock watchdog. The mesh/torus netlist and the
// switched-fabric netlist (fat trees, clusters) both provide it.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hw/common/circuit_gate.h"
#include "hw/common/endpoint.h"
#include "hw/common/watchdog.h"
#include "hw/router/router.h"
#include "hw/router/router_config.h"
#include "platforms/platform.h"

namespace kairo::platforms {

class Network {
 public:
  virtual ~Network() = default;
  virtual const Platform& platform() const = 0;
  virtual std::size_t num_nodes() const = 0;   // hosts
  virtual int network_interfaces() const = 0;  // per host
  virtual hw::Endpoint& endpoint(router::NodeId n, int ni) = 0;
  virtual sim::Clock clock() const = 0;  // of the routers or switches the endpoints attach to
  virtual std::string node_name(router::NodeId n) const = 0;  // "x1y0z2a0b1c0", "h17"
  // Mesh/torus: the shape; null for switched fabrics.
  virtual const router::Topology* torus() const { return nullptr; }
  // Every router (mesh/torus: router i is node i's) or switch.
  virtual std::size_t num_routers() const = 0;
  virtual router::Router& router_at(std::size_t i) = 0;
  virtual router::NetworkActivity& activity() = 0;
  virtual router::Watchdog& watchdog() = 0;
  virtual std::vector<std::string> describe_blocked(std::size_t limit) = 0;
  // The process is about to exit: leave the SystemC modules in place instead
  // of destroying them (see TorusNetlist::keep_until_exit).
  virtual void keep_until_exit() = 0;
  // The gate of a network interface whose channel goes through an optical
  // circuit (the hybrid network's TNI 1); null for packet-switched ones.
  virtual hw::CircuitGate* gate(router::NodeId, int) { return nullptr; }
};

// What every router (or switch) holding packets waits for, `limit` lines at most.
std::vector<std::string> describe_blocked(const std::vector<std::unique_ptr<router::Router>>& routers,
                                          std::size_t limit);

// The netlist the platform describes (TorusNetlist or SwitchNetlist).
std::unique_ptr<Network> build_network(const Platform& p, sim::EventQueue& queue);

}  // namespace kairo::platforms
