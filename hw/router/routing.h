// Routing on a mesh/torus: the strategy a router is given (Routing), and its
// deterministic member, dimension-order routing with a configurable dimension
// order, the shorter way round on a ring, a tie-break for the exact half-way
// case of an even ring, and dateline VC classes. A strategy sees only the
// topology and the packet header (current and destination coordinates, the
// dimension and class it arrived with), never the router's internals; the
// adaptive one (hw/router/adaptive_routing.h) lists the ways a packet may go
// and the router picks among them by what it sees (free outputs, credits).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hw/common/topology.h"
#include "hw/common/vc_class.h"
#include "hw/router/routing_unit.h"

namespace kairo::router {

// Which way to go round a ring when both directions are equally short (the
// destination exactly half-way round an even ring). The choice is made at
// the packet's first hop in that dimension; from the next hop on the way it
// took is the shorter one.
//   kPlus, kMinus  every such packet the same way (one direction carries all
//                  half-way traffic)
//   kBalanced      by the parity of the coordinate it starts the ring from:
//                  even +, odd -, so the sources of a ring split it evenly
//                  (exactly, link by link, on rings whose size is a multiple
//                  of 4) and every packet of one flow takes the same way
//   kRandom        a coin per packet, as BookSim's dim_order_torus: drawn
//                  from the packet's identity (route()'s `coin`), so a run
//                  is reproduced exactly
enum class TieBreak : std::uint8_t { kPlus, kMinus, kBalanced, kRandom };

// When a packet takes the high dateline class on a ring (router.dateline):
//   kOnCrossing  from the hop that crosses the wrap-around link on (kairo's
//                default): the links before the dateline carry only the low class
//   kAtEntry     for the whole ring when its path there will cross the wrap-
//                around link, decided as it enters the dimension (BookSim's
//                dim_order_torus): + direction crossing -> high, - direction
//                crossing -> low (the labels swap per direction, as BookSim's);
//                each class's paths on a ring still never close a cycle
enum class DatelineRule : std::uint8_t { kOnCrossing, kAtEntry };

// Minimal adaptive routing's productive ways for a packet exactly half-way
// round an even ring (router.adaptive_half_way):
//   kBoth   both directions (either is as short)
//   kMinus  the - direction only, as BookSim's min_adapt_torus (its
//           adaptive hop goes + only when + is strictly shorter)
enum class HalfWay : std::uint8_t { kBoth, kMinus };

// The strategy a mesh/torus router routes with, chosen by router.routing:
// a routing unit that decides by coordinates.
class Routing : public RoutingUnit {
 public:
  // Route one hop (see DimensionOrderRouting::route for the arguments). An
  // adaptive strategy returns its escape hop marked `adaptive` when the
  // packet may also go other ways.
  virtual RouteDecision route(const hw::Coord& here, const hw::Coord& dst, int in_dim, hw::VcClass in_class,
                              std::uint64_t coin = 0) const = 0;
  // Every way the packet may leave `here`, preferred ones first and the
  // escape way last; returns how many (at most kMaxRouteOptions).
  virtual int options(const hw::Coord& here, const hw::Coord& dst, int in_dim, hw::VcClass in_class,
                      std::uint64_t coin, RouteDecision* out) const {
    out[0] = route(here, dst, in_dim, in_class, coin);
    return 1;
  }
  // Whether route() reads its `coin` (a packet's random bits).
  virtual bool random_ties() const = 0;

 protected:
  // The routing unit's hop of strategy S, by coordinates: the destination's
  // are filled once, where the packet enters the network (an injection port:
  // the endpoint marks it with in_dim -1), and carried from hop to hop. S is
  // the final class that calls this, so its route() is called directly.
  template <class S>
  static void hop_by_coordinates(const S& s, const hw::Topology& topo, const RouterPlace& at, hw::Packet& p) {
    if (p.in_dim < 0) p.dst_coord = topo.coord_of(p.dst);
    const RouteDecision d =
        s.route(at.coord, p.dst_coord, p.in_dim, p.vc_class, s.random_ties() ? packet_coin(p) : 0);
    p.adaptive = d.adaptive;
    if (d.port < 0) {  // arrived: the destination's network interface
      p.out_port = std::int16_t(at.link_ports + p.dst_ni);
      p.out_class = hw::VcClass::kAny;
      p.out_dim = -1;
    } else {
      p.out_port = std::int16_t(d.port);
      p.out_class = d.vc_class;
      p.out_dim = std::int8_t(d.dim);
    }
  }
};

class DimensionOrderRouting final : public Routing {
 public:
  // order: dimension indices in the order they are corrected; must be a
  // permutation of 0..num_dims-1 (throws std::invalid_argument otherwise).
  // bubble: rings need no dateline classes (bubble flow control: the
  // routers keep a free packet slot in every ring); a hop entering a ring
  // is kRingEntry, every other hop kAny.
  DimensionOrderRouting(const hw::Topology& topo, std::vector<int> order, TieBreak tie = TieBreak::kBalanced,
                        DatelineRule dateline = DatelineRule::kOnCrossing, bool bubble = false);

  // Route one hop. `in_dim`/`in_class` describe the link the packet arrived on
  // (-1 / kAny when it was just injected). Staying in the same ring dimension
  // keeps the class; entering a new dimension starts in class 0; the hop that
  // crosses the dateline and every later hop in that dimension use class 1.
  // `coin`: the packet's random bits, read by TieBreak::kRandom only.
  RouteDecision route(const hw::Coord& here, const hw::Coord& dst, int in_dim, hw::VcClass in_class,
                      std::uint64_t coin = 0) const override;
  void next_hop(const RouterPlace& at, hw::Packet& p, OutputLoad&) const override {
    hop_by_coordinates(*this, topo_, at, p);
  }

  const std::vector<int>& order() const { return order_; }
  const hw::Topology& topology() const { return topo_; }
  bool random_ties() const override { return tie_ == TieBreak::kRandom; }

 private:
  const hw::Topology& topo_;
  std::vector<int> order_;
  TieBreak tie_;
  DatelineRule dateline_;
  bool bubble_;
};

// router.routing: which strategy the routers are given (each described in
// routing_kinds(), hw/router/routing.cpp).
enum class RoutingAlgorithm : std::uint8_t { kDimensionOrder, kMinimalAdaptive, kMinimal, kValiant, kUgal };

class DragonflyRouting;
struct DragonflyShape;

// One routing as router.routing names it. Which networks it routes is which
// builders it has; the platform reader, the checks across router keys, the
// netlists and `kairo platforms` read the rest from here.
struct RoutingKind {
  const char* name;  // the value of router.routing
  RoutingAlgorithm algorithm;
  const char* doc;  // one line for docs/parameters.md and --list-params
  // A mesh/torus's strategy: order and tie as DimensionOrderRouting's (the
  // escape network's for an adaptive one), bubble for both, half_way for an
  // adaptive one; null when it does not route a mesh/torus.
  std::unique_ptr<Routing> (*torus)(const hw::Topology& topo, std::vector<int> order, TieBreak tie,
                                    DatelineRule dateline, bool bubble, HalfWay half_way);
  // A dragonfly's; null when it does not route a dragonfly.
  std::unique_ptr<DragonflyRouting> (*dragonfly)(const DragonflyShape& shape, int ugal_threshold,
                                                 bool eject_by_phase);
  // Several ways a hop, over an escape network of the low VCs (the escape
  // VCs, router.adaptive_selection and the adaptive counters apply).
  bool adaptive;
  // A dragonfly: the VC classes a packet's way takes, one per phase, and
  // what the phases are.
  int phases;
  const char* phase_ways;
  const char* same_as;  // on a dragonfly, the routing it is ("" = none other)
};

// Every routing, in the order router.routing lists them.
const std::vector<RoutingKind>& routing_kinds();
const RoutingKind& routing_kind(RoutingAlgorithm a);
// The names of the routings `keep` keeps, as a sentence lists them: "a",
// "a or b", "a, b or c" with `word` "or".
std::string routing_names(const std::function<bool(const RoutingKind&)>& keep, const char* word = "or");
// Whether `k` is a dragonfly routing of its own (not the same as another there).
inline bool own_dragonfly_routing(const RoutingKind& k) { return k.dragonfly && !*k.same_as; }

// The mesh/torus strategy of routing `a` for `topo` (RoutingKind::torus).
// Throws std::invalid_argument as DimensionOrderRouting does, or when `a`
// does not route a mesh/torus.
std::unique_ptr<Routing> make_routing(RoutingAlgorithm a, const hw::Topology& topo, std::vector<int> order,
                                      TieBreak tie, DatelineRule dateline = DatelineRule::kOnCrossing,
                                      bool bubble = false, HalfWay half_way = HalfWay::kBoth);

}  // namespace kairo::router
