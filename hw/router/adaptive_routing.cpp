// Minimal adaptive routing over a dimension-order escape network; see the
// header for the rules and the deadlock argument. Called per hop: compares
// coordinates only, no allocation.
#include "hw/router/adaptive_routing.h"

#include <utility>

namespace kairo::router {

MinimalAdaptiveRouting::MinimalAdaptiveRouting(const hw::Topology& topo, std::vector<int> order, TieBreak tie,
                                               DatelineRule dateline, bool bubble, HalfWay half_way)
    : topo_(topo), escape_(topo, std::move(order), tie, dateline, bubble), half_way_(half_way) {
  for (int d = 0; d < topo.num_dims(); ++d)
    if (topo.is_ring(d) && !bubble) escape_vcs_ = 2;
}

RouteDecision MinimalAdaptiveRouting::route(const hw::Coord& here, const hw::Coord& dst, int in_dim,
                                            hw::VcClass in_class, std::uint64_t coin) const {
  // The escape network is dimension order with its own two classes: a packet
  // is past in_dim's dateline only if it arrived on the escape's high VC. One
  // coming off an adaptive VC starts low: if it crossed the ring's dateline
  // adaptively, its remaining minimal hops cannot cross it again, so its low
  // VC never meets the wrap link; if not, dimension order sees the crossing.
  // A packet entering the escape network enters it as if injected here (so
  // a dateline class fixed at entry is decided here too).
  const hw::VcClass dor_class = in_class == hw::VcClass::kEscHigh ? hw::VcClass::kHigh : hw::VcClass::kLow;
  RouteDecision r = escape_.route(here, dst, hw::is_escape(in_class) ? in_dim : -1, dor_class, coin);
  if (r.port < 0) return r;
  // Under bubble flow control the escape network's hops are kAny, and
  // kRingEntry where one enters a ring: from another dimension or, since a
  // packet off an adaptive VC enters as if injected, from the adaptive VCs.
  r.vc_class = r.vc_class == hw::VcClass::kHigh        ? hw::VcClass::kEscHigh
               : r.vc_class == hw::VcClass::kRingEntry ? hw::VcClass::kEscRingEntry
                                                       : hw::VcClass::kEscLow;
  r.adaptive = !hw::is_escape(in_class);
  return r;
}

int MinimalAdaptiveRouting::options(const hw::Coord& here, const hw::Coord& dst, int in_dim,
                                    hw::VcClass in_class, std::uint64_t coin, RouteDecision* out) const {
  const RouteDecision escape = route(here, dst, in_dim, in_class, coin);
  int n = 0;
  if (escape.adaptive) {
    for (int d : escape_.order()) {
      if (here[d] == dst[d]) continue;
      const hw::DimSpec& spec = topo_.dim(d);
      int dirs[2], nd = 0;
      if (spec.size == 2) {
        dirs[nd++] = +1;  // one link to the other node
      } else if (!topo_.is_ring(d)) {
        dirs[nd++] = dst[d] > here[d] ? +1 : -1;
      } else {
        const int plus = (dst[d] - here[d] + spec.size) % spec.size, minus = spec.size - plus;
        if (plus < minus || (plus == minus && half_way_ == HalfWay::kBoth)) dirs[nd++] = +1;
        if (minus <= plus) dirs[nd++] = -1;
      }
      for (int i = 0; i < nd; ++i) {
        RouteDecision& o = out[n++];
        o = RouteDecision{};
        o.port = topo_.port_of(d, dirs[i]);
        o.dim = d;
        o.dir = dirs[i];
        o.vc_class = hw::VcClass::kAdaptive;
      }
    }
  }
  out[n++] = escape;
  return n;
}

void MinimalAdaptiveRouting::vc_classes(int vcs, std::uint8_t* first, std::uint8_t* last) const {
  dimension_order_vc_classes(vcs, first, last);
  const auto v = std::uint8_t(vcs), e = std::uint8_t(escape_vcs_);
  first[int(hw::VcClass::kEscLow)] = 0;
  last[int(hw::VcClass::kEscLow)] = 1;
  first[int(hw::VcClass::kEscHigh)] = std::uint8_t(e - 1);
  last[int(hw::VcClass::kEscHigh)] = e;
  first[int(hw::VcClass::kEscRingEntry)] = 0;
  last[int(hw::VcClass::kEscRingEntry)] = 1;
  first[int(hw::VcClass::kAdaptive)] = e;
  last[int(hw::VcClass::kAdaptive)] = v;
}

}  // namespace kairo::router
