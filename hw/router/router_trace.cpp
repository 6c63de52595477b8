// The router's probe hooks (hw/router/router_probe.h): what a traced router
// records into its waveform as a packet arrives, waits and leaves, as
// credits move and as VCs are held. Called only when a probe is set.
#include "hw/router/router.h"

namespace kairo::router {

using sim::Time;

void Router::trace_arrival(int port, int vc, const hw::Packet& p) {
  const auto occ = probe_->occupancy[std::size_t(port) * std::size_t(cfg_.vcs) + std::size_t(vc)];
  if (occ != RouterProbe::kOff) probe_->trace->add_delta(occ, p.arrive_ps, p.flits);
}

void Router::trace_departure(int in_port, int in_vc, int out_vc, const hw::Packet& p, Time t,
                             const Crossing& x, int charge) {
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
  trace_stall(p.out_port, t, false);
  trace_credits(p.out_port, out_vc, t, -charge);
  const auto occ = probe_->occupancy[std::size_t(in_port) * std::size_t(cfg_.vcs) + std::size_t(in_vc)];
  if (occ != RouterProbe::kOff) tr.add_delta(occ, x.input_done, -std::int64_t(p.flits));
}

void Router::trace_stall(int out, Time t, bool on) {
  std::uint8_t& s = probe_->stalled[std::size_t(out)];
  if (s == on) return;
  s = on;
  const auto sig = probe_->out[std::size_t(out)].stall;
  if (sig != RouterProbe::kOff) probe_->trace->set(sig, t, on);
}

void Router::trace_credits(int port, int vc, Time t, int delta) {
  const auto sig = probe_->credits[std::size_t(port) * std::size_t(cfg_.vcs) + std::size_t(vc)];
  if (sig != RouterProbe::kOff) probe_->trace->add_delta(sig, t, delta);
}

void Router::trace_held(int port, Time t) {
  const auto sig = probe_->out[std::size_t(port)].held;
  if (sig != RouterProbe::kOff)
    probe_->trace->set(sig, t, std::uint64_t(__builtin_popcount(vc_held_[std::size_t(port)])));
}

void Router::trace_spec(int port, Time t, bool hit) {
  const auto sig = probe_->out[std::size_t(port)].spec;
  if (sig == RouterProbe::kOff) return;
  probe_->trace->set(sig, t, hit ? 1 : 2);
  probe_->trace->set(sig, t + cfg_.clock.period_ps, 0);
}

}  // namespace kairo::router
