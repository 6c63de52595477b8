// Minimal adaptive routing with an escape network (Duato), on meshes and tori.
//
// A packet may take any productive hop: in every dimension where it is not
// yet at its destination's coordinate, the shorter way round (both ways when
// it is exactly half-way round an even ring, or the - way only under
// HalfWay::kMinus), on the adaptive VCs. Its
// escape way is dimension-order routing on the escape VCs (VC 0, and VC 1
// after the dateline when the topology has a ring), which the router takes
// when no adaptive way can take the packet. A packet that has entered the
// escape network stays in it to its destination, as BookSim's
// min_adapt_mesh / min_adapt_torus do.
//
// Deadlock freedom (virtual cut-through: a hop is granted only with credits
// for the whole packet): the escape network is dimension-order routing with
// dateline classes, whose channel dependency graph is acyclic
// (tests/router/test_routing.cpp builds it); every packet can always request
// its escape hop; and no dependency leads from an escape channel back to an
// adaptive one, because an escaped packet never leaves the escape network.
// These are Duato's conditions. Minimal hops make every packet's path finite.
#pragma once
#include <vector>

#include "hw/router/routing.h"

namespace kairo::router {

class MinimalAdaptiveRouting final : public Routing {
 public:
  // order, tie: the escape network's dimension order and half-way tie-break.
  // bubble: the escape network is one VC under bubble flow control (as Blue
  // Gene/L's torus) instead of two dateline classes.
  // half_way: the productive ways of a packet exactly half-way round an
  // even ring.
  MinimalAdaptiveRouting(const hw::Topology& topo, std::vector<int> order, TieBreak tie,
                         DatelineRule dateline = DatelineRule::kOnCrossing, bool bubble = false,
                         HalfWay half_way = HalfWay::kBoth);

  // The escape hop; marked `adaptive` unless the packet is in the escape
  // network already (or arrived).
  RouteDecision route(const hw::Coord& here, const hw::Coord& dst, int in_dim, hw::VcClass in_class,
                      std::uint64_t coin = 0) const override;
  // The productive hops in routing order (each on the adaptive VCs), then the
  // escape hop; only the escape hop for a packet in the escape network.
  int options(const hw::Coord& here, const hw::Coord& dst, int in_dim, hw::VcClass in_class,
              std::uint64_t coin, RouteDecision* out) const override;
  void next_hop(const RouterPlace& at, hw::Packet& p, OutputLoad&) const override {
    hop_by_coordinates(*this, topo_, at, p);
  }
  int ways(const RouterPlace& at, const hw::Packet& p, RouteDecision* out,
           WayCoin coin = WayCoin::kPacket) const override {
    return options(at.coord, p.dst_coord, p.in_dim, p.vc_class,
                   coin == WayCoin::kPacket && random_ties() ? packet_coin(p) : 0, out);
  }
  // Escape VCs first (1, or 2 when the topology has a ring and no bubble), the
  // rest adaptive.
  void vc_classes(int vcs, std::uint8_t* first, std::uint8_t* last) const override;
  bool random_ties() const override { return escape_.random_ties(); }
  bool adaptive() const override { return true; }
  // VCs the escape network needs; a router needs at least one more.
  int escape_vcs() const { return escape_vcs_; }

 private:
  const hw::Topology& topo_;
  DimensionOrderRouting escape_;
  int escape_vcs_ = 1;
  HalfWay half_way_;
};

}  // namespace kairo::router
