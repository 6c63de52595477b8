// Dimension-order routing with dateline VC classes. Called once per packet per
// hop from the router's route-compute stage, so it only compares coordinates:
// no allocation, no strings. And the table of routings (routing_kinds), read
// once when a platform is loaded and its network built.
#include "hw/router/routing.h"

#include <stdexcept>
#include <string>
#include <utility>

#include "hw/router/adaptive_routing.h"
#include "hw/router/dragonfly_routing.h"

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

namespace {

std::unique_ptr<Routing> dimension_order(const hw::Topology& topo, std::vector<int> order, TieBreak tie,
                                         DatelineRule dateline, bool bubble, HalfWay) {
  return std::make_unique<DimensionOrderRouting>(topo, std::move(order), tie, dateline, bubble);
}

std::unique_ptr<Routing> minimal_adaptive(const hw::Topology& topo, std::vector<int> order, TieBreak tie,
                                          DatelineRule dateline, bool bubble, HalfWay half_way) {
  return std::make_unique<MinimalAdaptiveRouting>(topo, std::move(order), tie, dateline, bubble, half_way);
}

template <DragonflyMode M>
std::unique_ptr<DragonflyRouting> dragonfly(const DragonflyShape& shape, int ugal_threshold,
                                            bool eject_by_phase) {
  return std::make_unique<DragonflyRouting>(shape, M, ugal_threshold, eject_by_phase);
}

const char* const kTwoPhases = "before the global link, from it on";
const char* const kThreePhases = "to the intermediate group, to the last global link, after it";

}  // namespace

const std::vector<RoutingKind>& routing_kinds() {
  static const std::vector<RoutingKind> kinds = {
      {"dimension_order", RoutingAlgorithm::kDimensionOrder,
       "mesh/torus: the dimensions corrected one by one in router.routing_order, dateline VC classes on "
       "rings; on a dragonfly the same as minimal",
       dimension_order, dragonfly<DragonflyMode::kMinimal>, false, 2, kTwoPhases, "minimal"},
      {"minimal_adaptive", RoutingAlgorithm::kMinimalAdaptive,
       "mesh/torus: any productive hop on the adaptive VCs, with dimension order on the escape VCs: VC 0, "
       "and "
       "VC 1 after the dateline when there is a ring (VC 0 alone under router.flow_control: bubble); needs "
       "router.vcs above those",
       minimal_adaptive, nullptr, true, 0, "", ""},
      {"minimal", RoutingAlgorithm::kMinimal,
       "dragonfly: local, global, local; needs router.vcs >= 2 (one VC class per phase)", nullptr,
       dragonfly<DragonflyMode::kMinimal>, false, 2, kTwoPhases, ""},
      {"valiant", RoutingAlgorithm::kValiant,
       "dragonfly: through a random intermediate group; needs router.vcs >= 3", nullptr,
       dragonfly<DragonflyMode::kValiant>, false, 3, kThreePhases, ""},
      {"ugal", RoutingAlgorithm::kUgal,
       "dragonfly: minimal or Valiant, chosen at the source router by the two outputs' used credits; needs "
       "router.vcs >= 3",
       nullptr, dragonfly<DragonflyMode::kUgal>, false, 3, kThreePhases, ""},
  };
  return kinds;
}

const RoutingKind& routing_kind(RoutingAlgorithm a) {
  for (const RoutingKind& k : routing_kinds())
    if (k.algorithm == a) return k;
  throw std::invalid_argument("routing " + std::to_string(int(a)) + " is not described in routing_kinds()");
}

std::string routing_names(const std::function<bool(const RoutingKind&)>& keep, const char* word) {
  std::vector<std::string> names;
  for (const RoutingKind& k : routing_kinds())
    if (keep(k)) names.push_back(k.name);
  std::string s;
  for (std::size_t i = 0; i < names.size(); ++i)
    s += (i == 0 ? "" : i + 1 == names.size() ? std::string(" ") + word + " " : std::string(", ")) + names[i];
  return s;
}

std::unique_ptr<Routing> make_routing(RoutingAlgorithm a, const hw::Topology& topo, std::vector<int> order,
                                      TieBreak tie, DatelineRule dateline, bool bubble, HalfWay half_way) {
  const RoutingKind& k = routing_kind(a);
  if (!k.torus)
    throw std::invalid_argument(std::string("routing ") + k.name + " does not route a mesh/torus");
  return k.torus(topo, std::move(order), tie, dateline, bubble, half_way);
}

}  // namespace kairo::router
