// Dimension-order routing on a mesh/torus with a configurable dimension order,
// the shorter way round on a ring, a deterministic tie-break for the exact
// half-way case, and dateline VC classes. Sees only the topology and the
// packet header (current and destination coordinates, the dimension and class
// it arrived with), never the router's internals.
#pragma once
#include <vector>

#include "hw/common/topology.h"
#include "hw/common/vc_class.h"

namespace kairo::router {

// Which way to go round a ring when both directions are equally short.
enum class TieBreak : std::uint8_t { kPlus, kMinus };

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
  DimensionOrderRouting(const Topology& topo, std::vector<int> order, TieBreak tie = TieBreak::kPlus);

  // Route one hop. `in_dim`/`in_class` describe the link the packet arrived on
  // (-1 / kAny when it was just injected). Staying in the same ring dimension
  // keeps the class; entering a new dimension starts in class 0; the hop that
  // crosses the dateline and every later hop in that dimension use class 1.
  RouteDecision route(const Coord& here, const Coord& dst, int in_dim, VcClass in_class) const;

  const std::vector<int>& order() const { return order_; }

 private:
  const Topology& topo_;
  std::vector<int> order_;
  TieBreak tie_;
};

}  // namespace kairo::router
