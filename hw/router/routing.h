// Dimension-order routing on a mesh/torus with a configurable dimension order,
// the shorter way round on a ring, a tie-break for the exact half-way case of
// an even ring, and dateline VC classes. Sees only the topology and the
// packet header (current and destination coordinates, the dimension and class
// it arrived with), never the router's internals.
#pragma once
#include <cstdint>
#include <vector>

#include "hw/common/topology.h"
#include "hw/common/vc_class.h"

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

struct RouteDecision {
  int port = -1;  // link port to leave through; -1 = arrived, eject
  int dim = -1;   // dimension of that hop, -1 when ejecting
  int dir = 0;    // +1 / -1 (for size-2 dims: the direction taken, reported as +1)
  VcClass vc_class = VcClass::kAny;
};

class DimensionOrderRouting {
 public:
  // order: dimension indices in the order they are corrected; must be a
  // permutation of 0..num_dims-1 (throws std::invalid_argument otherwise).
  DimensionOrderRouting(const Topology& topo, std::vector<int> order, TieBreak tie = TieBreak::kBalanced);

  // Route one hop. `in_dim`/`in_class` describe the link the packet arrived on
  // (-1 / kAny when it was just injected). Staying in the same ring dimension
  // keeps the class; entering a new dimension starts in class 0; the hop that
  // crosses the dateline and every later hop in that dimension use class 1.
  // `coin`: the packet's random bits, read by TieBreak::kRandom only.
  RouteDecision route(const Coord& here, const Coord& dst, int in_dim, VcClass in_class,
                      std::uint64_t coin = 0) const;

  const std::vector<int>& order() const { return order_; }
  bool random_ties() const { return tie_ == TieBreak::kRandom; }

 private:
  const Topology& topo_;
  std::vector<int> order_;
  TieBreak tie_;
};

}  // namespace kairo::router
