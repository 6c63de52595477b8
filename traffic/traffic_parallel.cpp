#include "traffic/traffic_parallel.h"

#include <stdexcept>

namespace kairo::traffic {

PortFigures::PortFigures(const sim::MpiWorld& world, platforms::Network& net,
                         const platforms::Partition& part, sim::Time now)
    : part_(part) {
  std::vector<char> mine;
  sim::ByteWriter w(mine);
  for (std::uint32_t i = 0; i < net.num_routers(); ++i) {
    if (part.owner[i] != world.rank()) continue;
    router::Router& r = net.router_at(i);
    w.put(i);
    w.put(std::uint64_t(r.num_ports()));
    w.put(std::uint64_t(r.vcs()));
    for (int port = 0; port < r.num_ports(); ++port) {
      const router::PortCounters c = r.counters(port, now);
      w.put((r.port_connected(port) ? kPortConnected : 0) | (r.port_dim(port) >= 0 ? kPortLink : 0));
      w.put(std::uint64_t(c.busy_ps));
      w.put(c.flits_sent);
      for (int v = 0; v < r.vcs(); ++v) w.put(std::uint64_t(c.zero_credit_ps[std::size_t(v)]));
    }
  }
  bytes_ = world.gather(mine);
  for (const auto& b : bytes_) at_.emplace_back(b);
}

const std::uint64_t* PortFigures::router(std::uint32_t i) {
  const int owner = part_.owner.at(i);
  if (std::size_t(owner) >= at_.size() || at_[std::size_t(owner)].done())
    throw std::runtime_error("port counters: a router's owner sent no more routers");
  sim::ByteReader& r = at_[std::size_t(owner)];
  if (r.get<std::uint32_t>() != i) throw std::runtime_error("port counters: routers out of order");
  const auto ports = r.get<std::uint64_t>(), vcs = r.get<std::uint64_t>();
  entry_.assign({ports, vcs});
  entry_.resize(kRouterHeader + ports * port_figures(int(vcs)));
  r.get_bytes(entry_.data() + kRouterHeader, (entry_.size() - kRouterHeader) * sizeof(std::uint64_t));
  return entry_.data();
}

void combine_stats(const sim::MpiWorld& world, TrafficStats& s, hw::NetworkActivity& act,
                   std::uint64_t& events, bool& deadlock) {
  // Every count that adds up over the processes, summed in one reduction.
  std::uint64_t* const counts[] = {&s.created,
                                   &s.delivered,
                                   &s.measured_created,
                                   &s.measured_delivered,
                                   &s.window_flits_created,
                                   &s.window_flits_delivered,
                                   &s.flits_delivered,
                                   &s.measured_hops,
                                   &s.network_latency_sum_ps,
                                   &s.distinct_delivered,
                                   &s.duplicated,
                                   &act.packet_hops,
                                   &act.flit_hops,
                                   &act.adaptive_hops,
                                   &act.escape_hops,
                                   &act.vc_grants,
                                   &act.speculative_hits,
                                   &act.speculative_misses,
                                   &events};
  std::vector<std::uint64_t> sums;
  for (const std::uint64_t* c : counts) sums.push_back(*c);
  world.sum(sums);
  for (std::size_t k = 0; k < sums.size(); ++k) *counts[k] = sums[k];
  s.last_delivery_ps = world.max(s.last_delivery_ps);
  deadlock = world.any(deadlock);
  std::vector<char> mine;
  sim::ByteWriter w(mine);
  for (auto l : s.latency_cycles) w.put(l);
  const auto all = world.gather(mine);
  if (!world.root()) return;
  s.latency_cycles.clear();
  for (const auto& bytes : all) {
    sim::ByteReader r(bytes);
    while (!r.done()) s.latency_cycles.push_back(r.get<std::uint64_t>());
  }
}

}  // namespace kairo::traffic
