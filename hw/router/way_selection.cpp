// Which of the routing unit's ways a waiting head takes: see
// hw/router/way_selection.h.
#include "hw/router/way_selection.h"

#include <algorithm>

namespace kairo::router {

using sim::Time;

// Minimal adaptive routing's selection: among the adaptive ways whose output
// is free and has a VC of the adaptive class with credits for the whole
// packet, the one with the most free credits (the first listed on a tie: the
// routing order); the escape way only when no adaptive way can go.
int WaySelection::choose(int idx, Time t, bool staged) {
  hw::Packet& p = inputs_[idx].fifo.front();
  RouteDecision opt[kMaxRouteOptions];
  const int n = routing_.ways(here_, p, opt);
  int best = -1, best_vc = -1, best_credits = -1;
  for (int i = 0; i < n; ++i) {
    if (i == n - 1 && best >= 0) break;  // the escape way: only if no adaptive way can go
    Port& out = outputs_[opt[i].port];
    if (!staged && !outputs_.output_free(out, t)) continue;
    outputs_.apply_credits(out, opt[i].port, t);
    // VCs held by a packet (VC allocation stage, wormhole) are not free.
    const int v = outputs_.choose_vc(out, outputs_.credit_need(opt[i].port, p, opt[i].vc_class),
                                     opt[i].vc_class, outputs_.held(opt[i].port));
    if (v >= 0 && out.credits()[v] > best_credits) {
      best = i;
      best_vc = v;
      best_credits = out.credits()[v];
    }
  }
  if (best < 0) return -1;
  Head& h = inputs_[idx].head;
  h.out_port = p.out_port = std::int16_t(opt[best].port);
  h.out_class = p.out_class = opt[best].vc_class;
  h.need = outputs_.credit_need(opt[best].port, p, opt[best].vc_class);
  p.out_dim = std::int8_t(opt[best].dim);
  return best_vc;
}

Time WaySelection::option_wake(int idx, Time t) {
  const hw::Packet& p = inputs_[idx].fifo.front();
  RouteDecision opt[kMaxRouteOptions];
  const int n = routing_.ways(here_, p, opt);
  Time wake = sim::kNever;
  for (int i = 0; i < n; ++i) {
    const int port = opt[i].port;
    const Port& out = outputs_[port];
    Time when;
    if (!outputs_.output_free(out, t))
      when = cfg_.clock.floor(out.out.free_at - cfg_.traversal_ps);
    else if ((when = outputs_.vc_wake(port, outputs_.credit_need(port, p, opt[i].vc_class), opt[i].vc_class,
                                      t, nullptr)) == sim::kNever)
      continue;  // all its VCs held (their holder's round looks again) or no credit on its way yet
    wake = std::min(wake, when);
  }
  return wake;
}

// router.adaptive_selection: vc_allocator, BookSim's iq router with min_adapt
// routing: the routing function lists the ways with a preference (adaptive
// first), every free VC of every way is requested, and the VC allocator's
// matching picks. (BookSim's iSLIP ignores the preference; its VCs are free
// when no packet holds them, kairo's also need credits for the whole
// packet, virtual cut-through.) A packet not adaptive asks on its one way.
bool WaySelection::request_ways(int idx, Time t, std::uint64_t age, Allocator& va) {
  hw::Packet& p = inputs_[idx].fifo.front();
  const Head& h = inputs_[idx].head;
  RouteDecision opt[kMaxRouteOptions];
  int n = 1;
  if (h.adaptive)
    n = routing_.ways(here_, p, opt);
  else
    opt[0].port = h.out_port, opt[0].vc_class = h.out_class;
  const int nv = cfg_.vcs;
  bool asked = false;
  for (int i = 0; i < n; ++i) {
    const int port = opt[i].port;
    Port& out = outputs_[port];
    outputs_.apply_credits(out, port, t);
    const std::uint32_t held = outputs_.held(port);
    const int need = h.adaptive ? outputs_.credit_need(port, p, opt[i].vc_class) : h.need;
    for (int v = cfg_.class_first(opt[i].vc_class), e = cfg_.class_last(opt[i].vc_class); v < e; ++v) {
      if (held >> v & 1 || out.credits()[v] < need) continue;
      va.add_request(idx, port * nv + v, port * nv + v, age);
      asked = true;
    }
  }
  return asked;
}

int WaySelection::take_way(int idx, int granted) {
  const int nv = cfg_.vcs, port = granted / nv, v = granted % nv;
  Head& h = inputs_[idx].head;
  if (!h.adaptive) return v;
  hw::Packet& p = inputs_[idx].fifo.front();
  RouteDecision opt[kMaxRouteOptions];
  const int n = routing_.ways(here_, p, opt);
  for (int i = 0; i < n; ++i) {
    if (opt[i].port != port || v < cfg_.class_first(opt[i].vc_class) || v >= cfg_.class_last(opt[i].vc_class))
      continue;
    h.out_port = p.out_port = std::int16_t(port);
    h.out_class = p.out_class = opt[i].vc_class;
    h.need = outputs_.credit_need(port, p, opt[i].vc_class);
    p.out_dim = std::int8_t(opt[i].dim);
    break;
  }
  return v;
}

Time WaySelection::vc_wake(int idx, Time t, const Time* release_at) {
  const hw::Packet& p = inputs_[idx].fifo.front();
  RouteDecision opt[kMaxRouteOptions];
  const int n = routing_.ways(here_, p, opt, WayCoin::kZero);
  Time when = sim::kNever;
  for (int i = 0; i < n; ++i)
    when = std::min(when, outputs_.vc_wake(opt[i].port, outputs_.credit_need(opt[i].port, p, opt[i].vc_class),
                                           opt[i].vc_class, t, release_at));
  return when;
}

}  // namespace kairo::router
