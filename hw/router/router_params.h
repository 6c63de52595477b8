// The router's parameters: what a platform file sets under `router:`, with
// their defaults (the K computer's Tofu router where known; docs/parameters.md
// has the sources), and the one translation from them to the RouterConfig the
// routers of a network share. The keys are declared in router_params.cpp.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hw/common/topology.h"
#include "hw/router/allocator.h"
#include "hw/router/routing.h"
#include "sim/params.h"
#include "sim/time.h"

namespace kairo::router {

struct RouterConfig;

// router.flow_control on a mesh/torus (a dragonfly takes the first two):
//   kCutThrough  virtual cut-through; rings split their VCs into two
//                dateline classes (router.dateline)
//   kWormhole    flits move one by one; a packet may outgrow a VC buffer
//   kBubble      virtual cut-through with bubble flow control on rings
//                (Carrion et al. 1997; Puente et al. 2001; the Blue Gene/L
//                torus): no dateline classes, every VC serves every packet;
//                a VC on a link between routers counts a packet slot of
//                router.max_packet_flits per packet, and a packet may enter
//                a ring (from its NIC or another dimension) only into a VC
//                with two free slots, so every ring always keeps a free
//                slot and cannot deadlock
enum class FlowControl : std::uint8_t { kCutThrough, kWormhole, kBubble };

// The VCs a packet may take on the channel to its host (router.ejection_vc):
//   kAny    any VC with room, whatever the packet's class on its way
//   kPhase  dragonfly: the VCs of the packet's routing phase only, as BookSim's
//           min_dragonflynew and ugal_dragonflynew eject (one VC per phase)
enum class EjectionVc : std::uint8_t { kAny, kPhase };

// How a router picks among minimal adaptive routing's ways
// (router.adaptive_selection):
//   kMostCredits  at each round, the adaptive way whose output is free and has
//                 the most free credits in an adaptive VC; the escape way only
//                 when no adaptive way can go
//   kVcAllocator  every free VC of every way, adaptive and escape alike, is
//                 requested from the VC allocator (router.vc_allocator), whose
//                 matching picks: BookSim's iq router, whose VC allocator
//                 (iSLIP) ignores the routing function's preference for the
//                 adaptive ways
enum class AdaptiveSelection : std::uint8_t { kMostCredits, kVcAllocator };

struct RouterParams {
  static constexpr sim::Time kDefaultCablePs = 5000;  // router.cable_latency when absent: 5ns

  int vcs = 4;                      // router.vcs: VCs per port
  int vc_buffer_flits = 64;         // router.vc_buffer_flits: buffer per VC
  int flit_bytes = 32;              // router.flit_size: "32B"
  double link_bytes_per_s = 5e9;    // router.link_bandwidth: "5GB/s" per direction
  double host_bytes_per_s = 0;      // router.host_bandwidth: NI<->router channel; 0 = same as link
  double clock_hz = 312.5e6;        // router.clock: "312.5MHz"
  int routing_cycles = 1;           // router.routing_cycles
  int vc_alloc_cycles = 1;          // router.vc_alloc_cycles
  int sw_alloc_cycles = 1;          // router.sw_alloc_cycles
  int switch_traversal_cycles = 1;  // router.switch_traversal_cycles
  std::vector<sim::Time> cable_ps;  // router.cable_latency: "5ns" or {X: 5ns, ...}; one per dim
  sim::Time host_latency_ps = 0;    // router.host_latency: NI<->router channel latency
  int credit_delay_cycles = 1;      // router.credit_delay_cycles: added to the cable on the way back
  int max_packet_flits = 64;        // router.max_packet_flits
  std::vector<int> routing_order;   // router.routing_order: [X, Y, Z, A, C, B]; default = declared order
  TieBreak tie_break = TieBreak::kBalanced;  // router.tie_break: balanced | random | plus | minus
  RoutingAlgorithm routing = RoutingAlgorithm::kDimensionOrder;            // router.routing
  int ugal_threshold = 30;                                                 // router.ugal_threshold (flits)
  DatelineRule dateline = DatelineRule::kOnCrossing;                       // router.dateline
  EjectionVc ejection_vc = EjectionVc::kAny;                               // router.ejection_vc: any | phase
  AdaptiveSelection adaptive_selection = AdaptiveSelection::kMostCredits;  // router.adaptive_selection
  HalfWay adaptive_half_way = HalfWay::kBoth;                              // router.adaptive_half_way
  std::string allocator = "round_robin";    // router.allocator: allocator_kinds() (hw/router/allocator.h)
  int network_interfaces = 1;               // router.network_interfaces: injection/ejection port pairs
  std::uint64_t watchdog_cycles = 1000000;  // router.watchdog_cycles: no progress this long = deadlock
  // Switched fabrics (fat trees, clusters): the time a packet spends in a
  // switch, replacing the cycle counts above when > 0, and whether a switch
  // waits for the whole packet before forwarding it.
  sim::Time switching_delay_ps = 0;  // router.switching_delay: "128ns"
  bool store_and_forward = false;    // router.forwarding: cut_through | store_and_forward

  // router.islip_iterations: request-grant-accept iterations of the "islip"
  // allocator (router.allocator).
  int islip_iterations = kDefaultIslipIterations;
  // router.vc_allocator: "none" (the output VC is picked in the switch
  // allocation round: the free VC of the packet's class with the most
  // credits) or an allocator name: VC allocation as its own stage, with that
  // allocator matching waiting heads to free output VCs (hw/router/vc_allocation.cpp).
  std::string vc_allocator = "none";
  bool speculative = false;  // router.speculative: switch allocation alongside VC allocation (Peh & Dally)
  FlowControl flow_control = FlowControl::kCutThrough;  // router.flow_control
  bool wormhole() const { return flow_control == FlowControl::kWormhole; }
  bool bubble() const { return flow_control == FlowControl::kBubble; }

  // Derived quantities.
  sim::Time clock_period_ps() const;    // rounded to the nearest ps
  sim::Time flit_ps() const;            // one flit on a network link (exact, rounded to ps)
  sim::Time host_flit_ps() const;       // one flit on the NI channel
  double link_flits_per_cycle() const;  // link bandwidth in flits per router cycle
};

// The `router:` keys, in table order. Keys of some networks only name them
// in sim::ParamDecl::only: kMeshTorus, kDragonfly.
const std::vector<sim::ParamDecl>& router_param_decls();
inline constexpr const char* kMeshTorus = "mesh/torus";
inline constexpr const char* kDragonfly = "dragonfly";

// The checks across router keys, each the first that fails or nothing:
//  - routing_problem: the routing and flow control against the network (a
//    dragonfly's routings, phases and flow control; a mesh/torus's own);
//  - router_problem, with the mesh/torus's dimensions (none on a switched
//    fabric): VCs for rings' dateline classes and an adaptive routing's
//    escape network, the VC allocation stage's options, buffers that hold the
//    largest packet (two under bubble flow control), and clocks and flit
//    times that whole picoseconds can represent.
std::optional<sim::ParamProblem> routing_problem(const RouterParams& p, bool dragonfly);
std::optional<sim::ParamProblem> router_problem(const std::vector<hw::DimSpec>& dims, const RouterParams& p);

// Where the routers sit: on a mesh/torus or in a switched fabric (fat tree,
// clusters). The one place the two differ in timing is router.switching_delay
// (see apply_router_params).
enum class RouterSite { kTorus, kSwitchedFabric };

// Fill `cfg`'s timing and shape from `p`, on `cfg.clock` (set first):
//  - pipeline: router.switching_delay rounded up to whole cycles when > 0,
//    else routing + VC allocation + switch allocation cycles;
//  - traversal: switch_traversal_cycles, except in a switched fabric with a
//    switching_delay, where that delay is the whole time in the switch and
//    traversal is 0. On a mesh/torus the crossbar traversal always counts.
//  - credit delay, VCs, buffers, flit size, network interfaces, allocator
//    (and iSLIP's iterations), forwarding. A fabric's switches have their
//    own host port counts: the caller overwrites network_interfaces after.
void apply_router_params(const RouterParams& p, RouterSite site, RouterConfig& cfg);

}  // namespace kairo::router
