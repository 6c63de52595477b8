// What every router of one network shares: geometry, routing, timing
// constants already converted to picoseconds, and the run's activity record.
// Filled once by the netlist builder; immutable during the run.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "hw/common/link.h"
#include "hw/common/network_activity.h"
#include "hw/common/topology.h"
#include "hw/router/allocator.h"
#include "hw/router/routing_unit.h"
#include "sim/event_queue.h"
#include "sim/time.h"

namespace kairo::router {

struct RouterConfig {
  const hw::Topology* topo = nullptr;
  // Dimension order, minimal adaptive, a dragonfly's or a forwarding table
  // (hw/router/routing_unit.h); shared by the network's routers.
  const RoutingUnit* routing = nullptr;
  sim::EventQueue* queue = nullptr;
  hw::NetworkActivity* activity = nullptr;
  sim::Clock clock;
  // Filled from RouterParams (hw/router/router_params.h: the defaults live
  // there) by apply_router_params, the one translation both netlists use.
  int vcs = 0;
  int vc_buffer_flits = 0;
  int flit_bytes = 0;
  int network_interfaces = 0;
  sim::Time pipeline_ps = 0;      // routing + VC allocation + switch allocation
  sim::Time traversal_ps = 0;     // switch traversal (overlaps the previous tail)
  sim::Time credit_delay_ps = 0;  // receiver-side credit return delay
  std::string allocator;
  // VC allocation as its own stage (empty: the VC is chosen in the switch
  // round). va_ready_ps: arrival to the VC allocation round; sa_after_va_ps:
  // VC grant to the switch allocation round. pipeline_ps is their sum.
  std::string vc_allocator;
  bool speculative = false;
  sim::Time va_ready_ps = 0, sa_after_va_ps = 0;
  // Wormhole flow control: packets move as flits; a body flit is ready
  // body_pipeline_ps (switch allocation) after it arrives.
  bool wormhole = false;
  sim::Time body_pipeline_ps = 0;
  // Bubble flow control (router.flow_control: bubble): a packet takes a
  // slot of bubble_flits credits (router.max_packet_flits) in a VC between
  // routers, whatever its size, and needs two free slots to enter a ring
  // (VcClass::kRingEntry). 0: off, a packet takes its own flits.
  int bubble_flits = 0;
  int islip_iterations = kDefaultIslipIterations;  // used by the "islip" allocator
  // router.adaptive_selection: vc_allocator (minimal adaptive routing with a
  // VC allocation stage): a head asks the VC allocator for the free VCs of
  // every way it may take, and the allocator's grant picks the way.
  bool adaptive_by_vc_allocator = false;
  // Switched fabrics: ports to other switches first, then `network_interfaces`
  // host ports; routes come from the table, not from coordinates; packets
  // may wait for their tail (store-and-forward). Mesh/torus: link_ports < 0
  // (the topology's).
  int link_ports = -1;
  bool store_and_forward = false;
  const std::vector<std::string>* port_names = nullptr;  // switched fabrics

  int num_link_ports() const { return link_ports >= 0 ? link_ports : topo->num_link_ports(); }
  int num_ports() const { return num_link_ports() + network_interfaces; }
  int ni_port(int ni) const { return num_link_ports() + ni; }
  // VCs a packet of class c may use: [vc_first[c], vc_last[c]), as the
  // routing unit divides them (RoutingUnit::vc_classes).
  std::array<std::uint8_t, hw::kNumVcClasses> vc_first{}, vc_last{};
  int class_first(hw::VcClass c) const { return vc_first[std::size_t(c)]; }
  int class_last(hw::VcClass c) const { return vc_last[std::size_t(c)]; }
};

}  // namespace kairo::router
