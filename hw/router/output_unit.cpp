// The output units' set-up and the questions asked of them once per waiting
// head rather than per request (hw/router/output_unit.h).
#include "hw/router/output_unit.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace kairo::router {

using sim::Time;

OutputUnit::OutputUnit(const RouterConfig& cfg) : cfg_(cfg) {
  const int np = cfg.num_ports();
  if (np > kMaxPorts)
    throw std::invalid_argument("a router has at most " + std::to_string(kMaxPorts) + " ports");
  ports_.init(np, cfg.vcs);
  for (int i = 0; i < np; ++i) ports_[i].context = cfg.queue->make_context();
  bubble_flits_ = cfg.bubble_flits;
  link_ports_ = cfg.num_link_ports();
  window_ = cfg.traversal_ps + cfg.clock.period_ps;
  if (cfg.wormhole || !cfg.vc_allocator.empty()) held_.assign(std::size_t(np), 0);
}

void OutputUnit::make_vc_times() { vc_time_ = std::make_unique<VcTime[]>(std::size_t(size()) * cfg_.vcs); }

void OutputUnit::connect(int port, hw::PacketSink* dst, int dst_port, Time latency_ps, Time flit_ps,
                         int dst_credits_per_vc) {
  Port& p = ports_[port];
  p.out.dst = dst;
  p.out.dst_port = std::uint16_t(dst_port);
  p.out.latency_ps = latency_ps;
  p.out.flit_ps = flit_ps;
  for (int v = 0; v < cfg_.vcs; ++v) p.credits()[v] = dst_credits_per_vc;
  if (cfg_.routing->reads_output_load()) {
    if (capacity_.empty()) capacity_.assign(std::size_t(size()), 0);
    capacity_[std::size_t(port)] = dst_credits_per_vc;
  }
}

int OutputUnit::used_credits(int port, Time now) {
  Port& out = ports_[port];
  apply_credits(out, port, now);
  long used = 0;
  for (int v = 0; v < cfg_.vcs; ++v) used += capacity_[std::size_t(port)] - out.credits()[v];
  return int(used);
}

Time OutputUnit::vc_wake(int port, int flits, hw::VcClass cls, Time t, const Time* release_at) {
  Port& out = ports_[port];
  apply_credits(out, port, t);
  const std::uint32_t held_vcs = held(port);
  bool any_free = false;
  Time released = sim::kNever;  // the first held VC whose packet has left
  for (int v = cfg_.class_first(cls), e = cfg_.class_last(cls); v < e; ++v) {
    if (held_vcs >> v & 1) {
      if (release_at)
        released = std::min(released, release_at[std::size_t(port) * std::size_t(cfg_.vcs) + std::size_t(v)]);
      continue;
    }
    if (out.credits()[v] >= flits) return t + cfg_.clock.period_ps;
    any_free = true;
  }
  if (!any_free) return released;
  if (!out.returning.empty()) return std::min(released, out.returning.front().at);
  wait_for_credits(port);
  return released;
}

}  // namespace kairo::router
