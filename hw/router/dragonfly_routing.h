// A dragonfly (Kim, Dally, Scott and Abts 2008): groups of `a` routers, each
// router with `p` hosts and `h` global ports; the routers of a group are
// joined all to all by local links, and the groups by global links, one
// between every two groups when there are a*h + 1 groups (BookSim's
// dragonflynew wiring, which kairo follows link for link):
//   router r is router r mod a of group r / a; host n is on router n / p;
//   group G's global links are numbered j = 0 .. g-2 and link j goes to
//   group j (j < G) or j + 1 (j >= G); it leaves from router j / h of G,
//   through that router's global port j mod h.
// Ports of router i of a group (link ports first, as in every switch):
//   local ports 0 .. a-2, to routers 0 .. a-1 of the group but i itself
//   (port k reaches router k, or k + 1 from k = i on); then its global
//   ports (h, or fewer on the last routers of a group when there are fewer
//   than a*h + 1 groups); then its hosts' network interfaces.
//
// Routing, chosen by router.routing (the packet's phase is its VC class):
//   minimal  local, global, local: to the router of the source group that
//            holds the link to the destination's group, across it, and to
//            the destination's router. Phase 0 up to the global link, phase 1
//            from it on (BookSim's min_dragonflynew: VC 0, then VC 1).
//   valiant  to a random intermediate group first, then minimal: phase 0 to
//            and across the global link into the intermediate group, phase 1
//            from there to the next global link, phase 2 from it on. The
//            intermediate group is the group of a uniformly random node; when
//            that is the source group, or the destination is in the source
//            group, the packet goes minimally (phase 1, or phase 2 inside one
//            group, as BookSim's ugal_dragonflynew).
//   ugal     at the source router, minimal unless the minimal output is
//            busier: minimal if q_min <= 2 q_nonmin + router.ugal_threshold,
//            each q the used credits (flits, all VCs) of that output port,
//            otherwise Valiant's way. BookSim's decision and constants.
// kairo's Valiant leg ends where the packet enters the intermediate group
// (Kim et al.'s intermediate group); BookSim's continues to a random
// router of that group first. That extra local hop would put two local
// hops of one phase in a group, whose local links then close a cycle; with
// kairo's phases every packet's classes rise along its way and each class
// has at most local, global, local hops, so the channel dependency graph is
// acyclic (tests/router/test_dragonfly_routing.cpp builds it) and the
// network is deadlock-free under virtual cut-through.
#pragma once
#include <algorithm>
#include <cstdint>

#include "hw/common/packet.h"
#include "hw/common/vc_class.h"
#include "hw/router/routing_unit.h"

namespace kairo::router {

struct DragonflyShape {
  int p = 1;       // hosts per router
  int a = 1;       // routers per group
  int h = 1;       // global ports per router
  int groups = 1;  // g: 1 .. a*h + 1
  int nis = 1;     // network interfaces per host

  int routers() const { return a * groups; }
  int nodes_per_group() const { return a * p; }
  int global_ports(int idx) const { return std::clamp(groups - 1 - idx * h, 0, h); }
  int link_ports(int idx) const { return a - 1 + global_ports(idx); }
  // Router i's local port to router j of its group (j != i), and back.
  static int local_port(int i, int j) { return j < i ? j : j - 1; }
  static int local_neighbor(int i, int port) { return port < i ? port : port + 1; }
  // Group G's global link toward group D (D != G), and the group link j reaches.
  static int global_link(int G, int D) { return D < G ? D : D - 1; }
  static int link_group(int G, int j) { return j < G ? j : j + 1; }
  int host_port(int idx, hw::NodeId n, int ni) const {
    return link_ports(idx) + int(n % hw::NodeId(p)) * nis + ni;
  }
};

enum class DragonflyMode : std::uint8_t { kMinimal, kValiant, kUgal };

class DragonflyRouting final : public RoutingUnit {
 public:
  // eject_by_phase: a packet takes the channel to its host on its phase's VC
  // class (router.ejection_vc: phase), not on any VC.
  DragonflyRouting(DragonflyShape s, DragonflyMode m, int ugal_threshold = 30, bool eject_by_phase = false)
      : s_(s), mode_(m), threshold_(ugal_threshold), eject_by_phase_(eject_by_phase) {}

  const DragonflyShape& shape() const { return s_; }
  DragonflyMode mode() const { return mode_; }
  // Phases (VC classes) a packet may go through: 2 minimal, 3 otherwise.
  int phases() const { return mode_ == DragonflyMode::kMinimal ? 2 : 3; }
  // Phase k gets VCs [k*v, (k+1)*v), v = floor(vcs / phases()); VCs past
  // phases()*v carry only what the hosts inject (as BookSim's, whose 3
  // VCs under minimal routing leave VC 2 to injection).
  void vc_classes(int vcs, std::uint8_t* first, std::uint8_t* last) const override;
  // The routing unit's hop: route() at router at.id; out_dim is the link
  // kind (0 local, 1 global, -1 ejecting). UGAL reads `load`.
  void next_hop(const RouterPlace& at, hw::Packet& p, OutputLoad& load) const override;
  bool nonminimal() const override { return mode_ != DragonflyMode::kMinimal; }
  bool reads_output_load() const override { return true; }

  struct Hop {
    int port;         // output port (a host port: eject)
    hw::VcClass cls;  // kAny when ejecting (the phase's class with router.ejection_vc: phase)
    int link;         // 0 local, 1 global, -1 ejecting
  };
  // Route packet `pk` one hop at router `r`. `coin`: the packet's random bits
  // (the intermediate group). `used(port)`: the used credits of an output
  // port, read by ugal at the source router only. Sets pk.via where the
  // packet enters the network.
  template <class UsedCredits>
  Hop route(int r, hw::Packet& pk, std::uint64_t coin, UsedCredits&& used) const;

  // The next link port from router r toward router `to` (!= r) along the
  // minimal way, and toward any router of group `to_group` (!= r's group).
  int toward_router(int r, int to) const;
  int toward_group(int r, int to_group) const;
  bool is_global(int r, int port) const { return port >= s_.a - 1 && port < s_.link_ports(r % s_.a); }

 private:
  DragonflyShape s_;
  DragonflyMode mode_;
  int threshold_;
  bool eject_by_phase_;
};

template <class UsedCredits>
DragonflyRouting::Hop DragonflyRouting::route(int r, hw::Packet& pk, std::uint64_t coin,
                                              UsedCredits&& used) const {
  const int dst_router = int(pk.dst / hw::NodeId(s_.p));
  const int G = r / s_.a, D = dst_router / s_.a;
  const bool injected = pk.in_dim < 0;
  int phase = 0;
  if (mode_ == DragonflyMode::kMinimal) {
    phase = pk.vc_class == hw::VcClass::kPhase1 ? 1 : 0;
  } else if (!injected) {
    phase = int(pk.vc_class) - int(hw::VcClass::kPhase0);
    if (phase == 0 && G == pk.via) phase = 1;  // arrived in the intermediate group
  } else if (D == G) {
    phase = 2;
  } else {
    const int I = int(coin % std::uint64_t(s_.routers() * s_.p)) / s_.nodes_per_group();
    phase = 1;
    if (I != G) {
      bool valiant = true;
      if (mode_ == DragonflyMode::kUgal) {
        const int q_min = used(toward_router(r, dst_router)), q_non = used(toward_group(r, I));
        valiant = q_min > 2 * q_non + threshold_;
      }
      if (valiant) phase = 0, pk.via = I;
    }
  }
  if (dst_router == r) {
    const hw::VcClass cls =
        eject_by_phase_ ? hw::VcClass(int(hw::VcClass::kPhase0) + phase) : hw::VcClass::kAny;
    return Hop{s_.host_port(r % s_.a, pk.dst, pk.dst_ni), cls, -1};
  }
  const int port =
      phase == 0 && mode_ != DragonflyMode::kMinimal ? toward_group(r, pk.via) : toward_router(r, dst_router);
  const bool global = is_global(r, port);
  if (global && phase == phases() - 2) phase += 1;  // the minimal leg's global link
  return Hop{port, hw::VcClass(int(hw::VcClass::kPhase0) + phase), global ? 1 : 0};
}

}  // namespace kairo::router
