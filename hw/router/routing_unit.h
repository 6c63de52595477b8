// The routing stage of a router (garnet's RoutingUnit): one interface that
// every routing kairo has implements, so the router holds one pointer and
// calls it the same way whatever the network is.
//   DimensionOrderRouting   mesh/torus, the default (hw/router/routing.h)
//   MinimalAdaptiveRouting  mesh/torus, several ways a hop (adaptive_routing.h)
//   DragonflyRouting        minimal, Valiant or UGAL (dragonfly_routing.h)
//   ForwardingTable         fat trees and clusters (forwarding_table.h)
// A unit sees the packet's header and where the router is (RouterPlace),
// never the router's internals; UGAL's one look at the router's outputs
// goes through OutputLoad. Units are built once per network and shared by
// its routers: they hold no per-router or per-packet state.
#pragma once
#include <cstdint>

#include "hw/common/coord.h"
#include "hw/common/packet.h"
#include "hw/common/vc_class.h"

namespace kairo::router {

// One way a packet may leave a mesh/torus router.
struct RouteDecision {
  int port = -1;  // link port to leave through; -1 = arrived, eject
  int dim = -1;   // dimension of that hop, -1 when ejecting
  int dir = 0;    // +1 / -1 (for size-2 dims: the direction taken, reported as +1)
  hw::VcClass vc_class = hw::VcClass::kAny;
  // The packet has other ways to go (RoutingUnit::ways): the router chooses
  // at allocation; this decision is then the escape way.
  bool adaptive = false;
};

// The most ways one hop may offer: every dimension in each direction, plus
// the escape way.
inline constexpr int kMaxRouteOptions = 2 * hw::kMaxDims + 1;

// What a routing unit knows of the router that asks it.
struct RouterPlace {
  hw::NodeId id = 0;
  int link_ports = 0;  // ports to other routers; the network interfaces' ports follow
  hw::Coord coord{};   // mesh/torus: the router's coordinates
};

// The router's outputs as a routing unit may weigh them (UGAL).
class OutputLoad {
 public:
  // Flits the downstream buffers of output `port` hold or will hold, all VCs
  // together (BookSim's GetUsedCredit).
  virtual int used_credits(int port) = 0;

 protected:
  ~OutputLoad() = default;
};

// A packet's random bits, for a random tie-break or a Valiant intermediate:
// a mix (splitmix64's finalizer) of what identifies it, so a run is
// reproduced exactly, whichever process of a partitioned run routes it.
inline std::uint64_t packet_coin(const hw::Packet& p) {
  std::uint64_t z = p.id * 0x9e3779b97f4a7c15ULL ^ std::uint64_t(p.src) << 32 ^ std::uint64_t(p.created_ps);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Whether ways() draws the tie-break from the packet (kPacket, as the hop
// itself does) or takes coin 0 (kZero: the VC allocation stage's wake-up
// estimate and the deadlock report, which only need the ways' outputs).
enum class WayCoin : std::uint8_t { kPacket, kZero };

// Dimension order's VC classes on a router with `vcs` VCs: kLow the low
// floor(vcs/2), kHigh the rest, kAny and kRingEntry all; the escape classes
// have none.
void dimension_order_vc_classes(int vcs, std::uint8_t* first, std::uint8_t* last);

class RoutingUnit {
 public:
  virtual ~RoutingUnit() = default;
  // Route the head `p` one hop at router `at`: writes p.out_port,
  // p.out_class and p.out_dim (the hop's dimension or link kind, -1 when it
  // ejects), and what the unit carries in the header (the destination's
  // coordinates, a Valiant intermediate, whether the packet is adaptive).
  virtual void next_hop(const RouterPlace& at, hw::Packet& p, OutputLoad& load) const = 0;
  // An adaptive unit: every way p may leave `at`, preferred ones first and
  // the escape way last; returns how many (at most kMaxRouteOptions).
  // Asked only for a packet next_hop marked adaptive.
  virtual int ways(const RouterPlace& at, const hw::Packet& p, RouteDecision* out,
                   WayCoin coin = WayCoin::kPacket) const {
    (void)at, (void)p, (void)out, (void)coin;
    return 0;
  }
  // The VCs of each class on a router with `vcs` VCs: [first[c], last[c]).
  virtual void vc_classes(int vcs, std::uint8_t* first, std::uint8_t* last) const {
    dimension_order_vc_classes(vcs, first, last);
  }
  // Whether next_hop may mark a packet adaptive (ways() then lists its ways).
  virtual bool adaptive() const { return false; }
  // Whether some packets take a way longer than minimal (Valiant, UGAL).
  virtual bool nonminimal() const { return false; }
  // Whether next_hop reads OutputLoad (the router then keeps each output's
  // receiver capacity).
  virtual bool reads_output_load() const { return false; }
};

}  // namespace kairo::router
