// Dimension-order routing with dateline VC classes. Called once per packet per
// hop from the router's route-compute stage, so it only compares coordinates:
// no allocation, no strings.
#include "hw/router/routing.h"

#include <stdexcept>
#include <string>
#include <utility>

#include "hw/router/adaptive_routing.h"

namespace kairo::router {
namespace {

void check_order(const hw::Topology& topo, const std::vector<int>& order) {
  const int n = topo.num_dims();
  if (int(order.size()) != n) {
    throw std::invalid_argument("routing order lists " + std::to_string(order.size()) +
                                " dimensions but the topology has " + std::to_string(n) +
                                "; list every dimension exactly once");
  }
  std::vector<bool> seen(std::size_t(n), false);
  for (int d : order) {
    if (d < 0 || d >= n) {
      throw std::invalid_argument("routing order names dimension index " + std::to_string(d) +
                                  ", which the topology does not have (0.." + std::to_string(n - 1) + ")");
    }
    if (seen[std::size_t(d)]) {
      throw std::invalid_argument("routing order lists dimension " + topo.dim(d).name +
                                  " twice; list every dimension exactly once");
    }
    seen[std::size_t(d)] = true;
  }
}

// Direction of the next hop in dimension d. A mesh moves toward the
// destination; a ring takes the shorter way round, `tie` when both are equal
// (which only happens on the first hop in the ring: see TieBreak).
int direction(const hw::DimSpec& spec, int from, int to, TieBreak tie, std::uint64_t coin) {
  if (!spec.wrap || spec.size < 3) return to > from ? +1 : -1;
  const int plus = (to - from + spec.size) % spec.size;
  const int minus = spec.size - plus;
  if (plus != minus) return plus < minus ? +1 : -1;
  switch (tie) {
    case TieBreak::kPlus:
      return +1;
    case TieBreak::kMinus:
      return -1;
    case TieBreak::kBalanced:
      return from % 2 == 0 ? +1 : -1;
    case TieBreak::kRandom:
      return coin & 1 ? +1 : -1;
  }
  return +1;
}

}  // namespace

void dimension_order_vc_classes(int vcs, std::uint8_t* first, std::uint8_t* last) {
  const auto v = std::uint8_t(vcs), half = std::uint8_t(vcs / 2);
  auto set = [&](hw::VcClass c, std::uint8_t f, std::uint8_t l) {
    first[int(c)] = f;
    last[int(c)] = l;
  };
  set(hw::VcClass::kLow, 0, half);
  set(hw::VcClass::kHigh, half, v);
  set(hw::VcClass::kAny, 0, v);
  set(hw::VcClass::kRingEntry, 0, v);
  set(hw::VcClass::kEscLow, 0, 0);
  set(hw::VcClass::kEscHigh, 0, 0);
  set(hw::VcClass::kEscRingEntry, 0, 0);
  set(hw::VcClass::kAdaptive, 0, 0);
  for (hw::VcClass c : {hw::VcClass::kPhase0, hw::VcClass::kPhase1, hw::VcClass::kPhase2}) set(c, 0, 0);
}

DimensionOrderRouting::DimensionOrderRouting(const hw::Topology& topo, std::vector<int> order, TieBreak tie,
                                             DatelineRule dateline, bool bubble)
    : topo_(topo), order_(std::move(order)), tie_(tie), dateline_(dateline), bubble_(bubble) {
  check_order(topo_, order_);
}

RouteDecision DimensionOrderRouting::route(const hw::Coord& here, const hw::Coord& dst, int in_dim,
                                           hw::VcClass in_class, std::uint64_t coin) const {
  for (int d : order_) {
    if (here[d] == dst[d]) continue;
    const hw::DimSpec& spec = topo_.dim(d);
    RouteDecision r;
    r.dim = d;
    // A size-2 dimension has a single link to the other node; report it as +1.
    r.dir = spec.size == 2 ? +1 : direction(spec, here[d], dst[d], tie_, coin);
    r.port = topo_.port_of(d, r.dir);
    if (topo_.is_ring(d)) {
      if (bubble_) {
        // Bubble flow control: no classes; entering the ring is what the
        // routers hold to the stricter rule (a second packet's room).
        r.vc_class = in_dim == d ? hw::VcClass::kAny : hw::VcClass::kRingEntry;
      } else if (dateline_ == DatelineRule::kAtEntry) {
        // Fixed as the packet enters the ring, by whether its way there
        // crosses the wrap-around link: the classes split the ring's paths
        // into two sets, each of which leaves a link of the ring unused.
        if (in_dim == d) {
          r.vc_class = in_class;
        } else {
          const bool will_cross = r.dir > 0 ? dst[d] < here[d] : dst[d] > here[d];
          r.vc_class = will_cross == (r.dir > 0) ? hw::VcClass::kHigh : hw::VcClass::kLow;
        }
      } else {
        // Dateline: the wrap link and every later hop in this ring use the
        // high half of the VCs, which breaks the ring's cyclic dependency.
        const bool after_dateline = in_dim == d && in_class == hw::VcClass::kHigh;
        const bool crossing = topo_.crosses_dateline(here, d, r.dir);
        r.vc_class = after_dateline || crossing ? hw::VcClass::kHigh : hw::VcClass::kLow;
      }
    }
    return r;
  }
  return RouteDecision{};  // every coordinate matches: eject to the local NIC
}

std::unique_ptr<Routing> make_routing(RoutingAlgorithm a, const hw::Topology& topo, std::vector<int> order,
                                      TieBreak tie, DatelineRule dateline, bool bubble, HalfWay half_way) {
  if (a == RoutingAlgorithm::kMinimalAdaptive)
    return std::make_unique<MinimalAdaptiveRouting>(topo, std::move(order), tie, dateline, bubble, half_way);
  return std::make_unique<DimensionOrderRouting>(topo, std::move(order), tie, dateline, bubble);
}

}  // namespace kairo::router
