// What a router reports about itself, off the packet path: its ports'
// counters (and their transfer in partitioned runs), and, for the deadlock
// watchdog, what each waiting packet waits for.
#include <fmt/format.h>

#include "hw/router/router.h"

namespace kairo::router {

using sim::Time;

PortCounters Router::counters(int port, Time now) {
  Port& p = outputs_[port];
  outputs_.apply_credits(p, port, now);
  PortCounters c;
  static_cast<LinkCounters&>(c) = p.counters;
  if (const VcTime* zero = outputs_.vc_times(port))  // none: no VC has run out
    for (int v = 0; v < cfg_.vcs; ++v)
      c.zero_credit_ps[v] =
          zero[v].zero_ps + (zero[v].zero_since != sim::kNever ? now - zero[v].zero_since : 0);
  return c;
}

void Router::reset_counters(Time now) {
  // Credits already back by `now` end their VC's zero-credit stretch before
  // it: applied here, they do not leave a stretch "since now" that their
  // earlier arrival would close with a negative length.
  for (int i = 0; i < outputs_.size(); ++i) {
    outputs_.apply_credits(outputs_[i], i, now);
    outputs_[i].counters = LinkCounters{};
    if (VcTime* zero = outputs_.vc_times(i))  // none: no VC has run out
      for (int v = 0; v < cfg_.vcs; ++v) {
        zero[v].zero_ps = 0;
        if (zero[v].zero_since != sim::kNever) zero[v].zero_since = now;
      }
  }
  for (auto& a : alloc_) a = AllocCounters{};
}

void Router::save_port_counters(int port, sim::ByteWriter& w) const {
  const Port& p = outputs_[port];
  w.put(p.counters);
  const VcTime* zero = outputs_.vc_times(port);
  for (int v = 0; v < cfg_.vcs; ++v) {
    w.put(p.credits()[v]);
    w.put(zero ? zero[v] : VcTime{});
  }
  std::uint64_t n = 0;
  p.returning.for_each([&](const hw::PendingCredit&) { ++n; });
  w.put(n);
  p.returning.for_each([&](const hw::PendingCredit& c) { w.put(c); });
}

void Router::load_port_counters(int port, sim::ByteReader& r) {
  Port& p = outputs_[port];
  p.counters = r.get<LinkCounters>();
  for (int v = 0; v < cfg_.vcs; ++v) {
    p.credits()[v] = r.get<std::int32_t>();
    const VcTime z = r.get<VcTime>();
    if (z.zero_ps != 0 || z.zero_since != sim::kNever || outputs_.vc_times(port))
      outputs_.vc_time(port, v) = z;
  }
  while (!p.returning.empty()) p.returning.pop();
  for (auto n = r.get<std::uint64_t>(); n > 0; --n) p.returning.push(r.get<hw::PendingCredit>());
}

void Router::describe_blocked(std::vector<std::string>& out, std::size_t limit) {
  const Time t = cfg_.queue->now();
  for (int port = 0; port < num_ports(); ++port) {
    for (int vc = 0; vc < cfg_.vcs; ++vc) {
      const hw::PacketRing& q = fifo(port, vc);
      if (q.empty() || out.size() >= limit) continue;
      const hw::Packet& h = q.front();
      Port& o = outputs_[h.out_port];
      outputs_.apply_credits(o, h.out_port, t);
      std::string why;
      if (h.ready_ps > t)
        why = fmt::format("arriving or in the routing/allocation pipeline for {:.1f} more cycles",
                          cfg_.clock.to_cycles(h.ready_ps - t));
      else if (!o.out.connected())
        why = "output not connected";
      else if (!outputs_.output_free(o, t))
        why = fmt::format("output link busy for {:.1f} more cycles", cfg_.clock.to_cycles(o.out.free_at - t));
      else if (!outputs_.input_free(outputs_[port], t))
        why = fmt::format("input busy forwarding another VC for {:.1f} more cycles",
                          cfg_.clock.to_cycles(outputs_[port].in_busy_until - t));
      else if (outputs_.choose_vc(o, outputs_.credit_need(h), h.out_class) < 0) {
        why = "no downstream VC of its class has credits for the whole packet (credits:";
        for (int v = cfg_.class_first(h.out_class); v < cfg_.class_last(h.out_class); ++v)
          why += fmt::format(" vc{}={}", v, o.credits()[v]);
        why += fmt::format(", packet needs {})", outputs_.credit_need(h));
      } else
        why = "eligible";
      if (va_) {
        const Head& hd = inputs_[vc_index(port, vc)].head;
        why += hd.held_vc >= 0 ? fmt::format("; holds output VC {}", hd.held_vc)
                               : std::string("; waits for VC allocation (VCs held on that output: ") +
                                     std::to_string(__builtin_popcount(outputs_.held(hd.out_port))) + ")";
      }
      if (h.adaptive) {  // the output named is its escape way; it may take the others too
        RouteDecision opt[kMaxRouteOptions];
        const int n = routing_.ways(here_, h, opt, WayCoin::kZero);
        why += "; adaptive, may also leave by";
        for (int i = 0; i + 1 < n; ++i) why += " " + port_name(opt[i].port);
      }
      out.push_back(fmt::format(
          "{}: input {} vc{} holds {} packet(s); head packet {} ({} -> {}) waits for output {}: {}", name(),
          port_name(port), vc, q.size(), h.id, h.src, h.dst, port_name(h.out_port), why));
    }
  }
}

}  // namespace kairo::router
