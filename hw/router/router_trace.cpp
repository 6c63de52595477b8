// The router's probe hooks: see hw/router/router_trace.h. Called only when a
// probe is set.
#include "hw/router/router_trace.h"

namespace kairo::router {

using sim::Time;

void RouterTrace::arrival(int port, int vc, const hw::Packet& p) const {
  const auto occ = probe_->occupancy[std::size_t(port) * std::size_t(cfg_.vcs) + std::size_t(vc)];
  if (occ != RouterProbe::kOff) probe_->trace->add_delta(occ, p.arrive_ps, p.flits);
}

void RouterTrace::departure(int in_port, int in_vc, int out_vc, const hw::Packet& p, Time t,
                            const Crossing& x, int charge, const Port& out) const {
  const RouterProbe::Out& o = probe_->out[std::size_t(p.out_port)];
  sim::Trace& tr = *probe_->trace;
  if (o.busy != RouterProbe::kOff) tr.set(o.busy, x.start, 1), tr.set(o.busy, x.tail_leaves, 0);
  if (o.pkt != RouterProbe::kOff) tr.set(o.pkt, x.start, p.label), tr.set(o.pkt, x.tail_leaves, 0);
  if (o.vc != RouterProbe::kOff) tr.set(o.vc, x.start, std::uint64_t(out_vc));
  if (o.route != RouterProbe::kOff) {
    const hw::VcClass c = p.out_class;
    tr.set(o.route, x.start, p.via >= 0 ? 4 : c == hw::VcClass::kAdaptive ? 1 : hw::is_escape(c) ? 2 : 3);
    tr.set(o.route, x.tail_leaves, 0);
  }
  // credit_stall: off as a packet leaves; on again when the output is free
  // if a packet found short of credits still waits for it.
  const std::size_t port = std::size_t(p.out_port);
  const bool stall = o.stall != RouterProbe::kOff;
  if (probe_->stall_from[port] != sim::kNever) {
    if (stall) tr.set(o.stall, t, 0);
    probe_->stall_from[port] = sim::kNever;
  }
  if (probe_->short_heads[port] > 0) {
    const Time free = cfg_.clock.floor(out.out.free_at - cfg_.traversal_ps);
    if (stall) tr.set(o.stall, free, 1);
    probe_->stall_from[port] = free;
  }
  credits(p.out_port, out_vc, t, -charge);
  const auto occ = probe_->occupancy[std::size_t(in_port) * std::size_t(cfg_.vcs) + std::size_t(in_vc)];
  if (occ != RouterProbe::kOff) tr.add_delta(occ, x.input_done, -std::int64_t(p.flits));
}

void RouterTrace::short_of_credits(int in, int vc, int out, Time t) const {
  std::uint8_t& short_of =
      probe_->short_of_credits[std::size_t(in) * std::size_t(cfg_.vcs) + std::size_t(vc)];
  if (!short_of) short_of = 1, ++probe_->short_heads[std::size_t(out)];
  Time& from = probe_->stall_from[std::size_t(out)];
  if (from <= t) return;  // on already
  from = t;
  const auto sig = probe_->out[std::size_t(out)].stall;
  if (sig != RouterProbe::kOff) probe_->trace->set(sig, t, 1);
}

void RouterTrace::has_credits(int in, int vc, int out) const {
  std::uint8_t& short_of =
      probe_->short_of_credits[std::size_t(in) * std::size_t(cfg_.vcs) + std::size_t(vc)];
  if (short_of) short_of = 0, --probe_->short_heads[std::size_t(out)];
}

void RouterTrace::credits(int port, int vc, Time t, int delta) const {
  const auto sig = probe_->credits[std::size_t(port) * std::size_t(cfg_.vcs) + std::size_t(vc)];
  if (sig != RouterProbe::kOff) probe_->trace->add_delta(sig, t, delta);
}

void RouterTrace::held(int port, Time t, std::uint32_t held) const {
  const auto sig = probe_->out[std::size_t(port)].held;
  if (sig != RouterProbe::kOff) probe_->trace->set(sig, t, std::uint64_t(__builtin_popcount(held)));
}

void RouterTrace::spec(int port, Time t, bool hit) const {
  const auto sig = probe_->out[std::size_t(port)].spec;
  if (sig == RouterProbe::kOff) return;
  probe_->trace->set(sig, t, hit ? 1 : 2);
  probe_->trace->set(sig, t + cfg_.clock.period_ps, 0);
}

}  // namespace kairo::router
