#include "platforms/switch_netlist.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "sim/units.h"

namespace kairo::platforms {

using hw::NodeId;
using sim::Time;

namespace {
Time flit_time(const Platform& p, const LinkClass& c) {
  return Time(std::llround(double(p.router.flit_bytes) * 1e12 / c.bytes_per_s));
}
int buffer_flits(const Platform& p, const LinkClass& c) {
  if (c.buffer_bytes == 0) return p.router.vc_buffer_flits;
  return int(std::min<std::uint64_t>(c.buffer_bytes / std::uint64_t(p.router.flit_bytes), 1u << 30));
}
}  // namespace

SwitchNetlist::SwitchNetlist(const Platform& platform, sim::EventQueue& queue) : platform_(platform) {
  hosts_ = std::size_t(platform_.nodes());
  nis_ = platform_.router.network_interfaces;
  clock_ = sim::Clock(platform_.router.clock_period_ps());
  plan();
  apply_port_overrides();
  if (platform_.kind == FabricKind::kDragonfly) {
    const SwitchedFabric& f = platform_.fabric;
    const RouterParams& rp = platform_.router;
    dragonfly_ = router::routing_kind(rp.routing)
                     .dragonfly(router::DragonflyShape{f.hosts_per_edge, f.group_routers, f.global_ports,
                                                       f.groups, nis_},
                                rp.ugal_threshold, rp.ejection_vc == router::EjectionVc::kPhase);
  } else {
    route();
  }
  build(queue);
}

SwitchNetlist::~SwitchNetlist() {
  if (keep_until_exit_)
    for (auto& s : switches_) (void)s.release();
}

// Switches, their ports and the cables between them. Fat tree: edges
// [0, E), spines [E, E + S); edge port u (u < U) goes to spine u mod S, the
// spine's ports count edges then parallel links. Clusters: cluster switches
// [0, C), gateways [C, 2C); a cluster switch's port 0 goes to its gateway,
// whose other ports go to the other gateways in cluster order.
void SwitchNetlist::plan() {
  SwitchPlan sp = plan_switches(platform_, nis_);
  link_ports_ = std::move(sp.link_ports);
  names_ = std::move(sp.names);
  links_ = std::move(sp.links);
  stride_ = std::move(sp.stride);
  switch_names_ = std::move(sp.switch_names);
  host_class_.assign(hosts_ * std::size_t(nis_), &platform_.fabric.host);
}

// links.ports: the cable at a named switch port takes its own values.
void SwitchNetlist::apply_port_overrides() {
  for (const auto& o : platform_.fabric.ports) {
    auto sw = std::find(switch_names_.begin(), switch_names_.end(), o.sw);
    if (sw == switch_names_.end())
      throw ConfigError(
          fmt::format("{}.switch: no switch named '{}'; expected one of {} ... {} (kairo check --ports lists "
                      "every switch and port)",
                      o.where, o.sw, switch_names_.front(), switch_names_.back()));
    const std::size_t s = std::size_t(sw - switch_names_.begin());
    auto pt = std::find(names_[s].begin(), names_[s].end(), o.port);
    if (pt == names_[s].end())
      throw ConfigError(fmt::format("{}.port: switch {} has no port named '{}'; expected one of: {}", o.where,
                                    o.sw, o.port, fmt::join(names_[s], ", ")));
    const int port = int(pt - names_[s].begin());
    auto apply = [&](const LinkClass* base) {
      LinkClass c = *base;
      if (o.bandwidth) c.bytes_per_s = o.values.bytes_per_s;
      if (o.latency) c.latency_ps = o.values.latency_ps;
      if (o.buffer) c.buffer_bytes = o.values.buffer_bytes;
      const std::uint64_t packet =
          std::uint64_t(platform_.router.max_packet_flits) * std::uint64_t(platform_.router.flit_bytes);
      if (o.buffer && c.buffer_bytes < packet)
        throw ConfigError(
            fmt::format("{}.buffer: expected at least router.max_packet_flits x router.flit_size ({}B): "
                        "a VC must hold the largest packet, got {}B",
                        o.where, packet, c.buffer_bytes));
      custom_.push_back(c);
      return &custom_.back();
    };
    if (port >= link_ports_[s]) {  // a host port
      const std::size_t k = std::size_t(s) * std::size_t(platform_.fabric.hosts_per_edge * nis_) +
                            std::size_t(port - link_ports_[s]);
      host_class_[k] = apply(host_class_[k]);
      continue;
    }
    for (Link& l : links_)
      if ((l.a == s && l.port_a == port) || (l.b == s && l.port_b == port)) l.cls = apply(l.cls);
  }
}

// Shortest-path (hop count) routes by breadth-first search from every edge
// switch; ties between equally short ports go to the (destination mod
// count)-th, in port order; on a k-ary n-tree, a level-l switch takes the
// destination's base-k digit l instead (d-mod-k: (d / k^l) mod k).
void SwitchNetlist::route() {
  const SwitchedFabric& f = platform_.fabric;
  const std::size_t n = link_ports_.size();
  std::vector<std::vector<std::pair<int, std::size_t>>> adj(n);  // (port, neighbour)
  for (const Link& l : links_) {
    adj[l.a].push_back({l.port_a, l.b});
    adj[l.b].push_back({l.port_b, l.a});
  }
  for (auto& a : adj) std::sort(a.begin(), a.end());
  table_ = router::ForwardingTable(n, hosts_, nis_);
  constexpr int kFar = std::numeric_limits<int>::max();
  for (int e = 0; e < f.edges; ++e) {
    std::vector<int> dist(n, kFar);
    std::vector<std::size_t> frontier{std::size_t(e)};
    dist[std::size_t(e)] = 0;
    for (std::size_t i = 0; i < frontier.size(); ++i)
      for (const auto& [port, nb] : adj[frontier[i]])
        if (dist[nb] == kFar) {
          dist[nb] = dist[frontier[i]] + 1;
          frontier.push_back(nb);
        }
    for (int h = 0; h < f.hosts_per_edge; ++h) {
      const NodeId d = NodeId(e * f.hosts_per_edge + h);
      for (std::size_t s = 0; s < n; ++s) {
        for (int i = 0; i < nis_; ++i) {
          if (s == std::size_t(e)) {
            table_.set(s, d, i, link_ports_[s] + h * nis_ + i);
            continue;
          }
          if (dist[s] == kFar)
            throw ConfigError(fmt::format("{}: switch {} cannot reach host {}: the fabric is not connected",
                                          platform_.source, s, d));
          std::vector<int> closer;
          for (const auto& [port, nb] : adj[s])
            if (dist[nb] == dist[s] - 1) closer.push_back(port);
          const std::size_t stride = s < stride_.size() ? std::size_t(stride_[s]) : 1;
          table_.set(s, d, i, closer[(d / stride) % closer.size()]);
        }
      }
    }
  }
}

void SwitchNetlist::build(sim::EventQueue& queue) {
  const Platform& p = platform_;
  const RouterParams& rp = p.router;
  const SwitchedFabric& f = p.fabric;
  const Time credit_delay = clock_.cycles(rp.credit_delay_cycles);
  for (std::size_t s = 0; s < link_ports_.size(); ++s) {
    router::RouterConfig cfg;
    cfg.queue = &queue;
    cfg.activity = &activity_;
    cfg.clock = clock_;
    router::apply_router_params(rp, router::RouterSite::kSwitchedFabric, cfg);
    cfg.link_ports = link_ports_[s];
    cfg.network_interfaces = s < std::size_t(f.edges) ? f.hosts_per_edge * nis_ : 0;
    cfg.routing = dragonfly_ ? static_cast<const router::RoutingUnit*>(dragonfly_.get()) : &table_;
    cfg.routing->vc_classes(cfg.vcs, cfg.vc_first.data(), cfg.vc_last.data());
    cfg.port_names = &names_[s];
    configs_.push_back(cfg);
    switches_.push_back(
        std::make_unique<router::Router>(switch_names_[s].c_str(), configs_.back(), NodeId(s)));
  }
  for (const Link& l : links_) {
    const Time flit = flit_time(p, *l.cls), lat = l.cls->latency_ps;
    const int credits = buffer_flits(p, *l.cls);
    router::Router &a = *switches_[l.a], &b = *switches_[l.b];
    // A wide-area cable (gateway to gateway) with the loss model: each
    // gateway sends into a path that holds its streams, the bottleneck and
    // the cable (hw/router/wan_path.h), and never runs out of room in it.
    if (f.wan_flow.loss && p.kind == FabricKind::kClusters && l.a >= std::size_t(f.edges) &&
        l.b >= std::size_t(f.edges)) {
      router::WanPathParams wp;
      wp.flit_ps = flit;
      wp.latency_ps = lat;
      wp.access_flit_ps = flit_time(p, f.host);
      wp.queue_bytes = f.wan_flow.queue_bytes;
      wp.rto_ps = f.wan_flow.rto_ps;
      wp.initial_window = f.wan_flow.initial_window;
      wp.credit_delay_ps = credit_delay;
      constexpr int kUnbounded = 1 << 30;
      for (auto [from, fport, to, tport] :
           {std::tuple{&a, l.port_a, &b, l.port_b}, {&b, l.port_b, &a, l.port_a}}) {
        router::WanPath& w = wan_paths_.emplace_back(queue, activity_, wp);
        from->connect_output(fport, &w, 0, 0, flit, kUnbounded);
        w.connect(from, fport, to, tport, credits);
        to->connect_input(tport, &w, 0, credit_delay + lat);
      }
      continue;
    }
    a.connect_output(l.port_a, &b, l.port_b, lat, flit, credits);
    b.connect_input(l.port_b, &a, l.port_a, credit_delay + lat);
    b.connect_output(l.port_b, &a, l.port_a, lat, flit, credits);
    a.connect_input(l.port_a, &b, l.port_b, credit_delay + lat);
  }
  endpoints_.resize(hosts_ * std::size_t(nis_));
  for (NodeId h = 0; h < hosts_; ++h) {
    router::Router& sw = *switches_[edge_of(h)];
    for (int i = 0; i < nis_; ++i) {
      const LinkClass& hc = *host_class_[std::size_t(h) * std::size_t(nis_) + std::size_t(i)];
      const Time hflit = flit_time(p, hc), hlat = hc.latency_ps;
      const int hbuf = buffer_flits(p, hc);
      endpoint_setups_.push_back(hw::Endpoint::Setup{&queue, &activity_, clock_, rp.vcs, hbuf, credit_delay});
      endpoint_setups_.back().wormhole =
          rp.wormhole();  // a dragonfly's router.flow_control (others refuse it)
      endpoint_setups_.back().flit_pool = &flit_pool_;
      hw::Endpoint& e = endpoint(h, i);
      const int port = link_ports_[edge_of(h)] + int(h % NodeId(f.hosts_per_edge)) * nis_ + i;
      e.init(endpoint_setups_.back(), nullptr, i);
      e.connect_to_router(&sw, port, hlat, hflit, hbuf);
      sw.connect_input(port, &e, 0, credit_delay + hlat);
      sw.connect_output(port, &e, 0, hlat, hflit, hbuf);
      e.connect_from_router(&sw, port, credit_delay + hlat);
    }
  }
  // Nothing moves while a packet crosses a long cable: the watchdog waits
  // for at least a few of the longest round trips.
  Time longest = 0;
  for (const LinkClass* c : host_class_) longest = std::max(longest, c->latency_ps);
  for (const Link& l : links_) longest = std::max(longest, l.cls->latency_ps);
  Time timeout = std::max(clock_.cycles(rp.watchdog_cycles), 4 * (longest + credit_delay));
  if (!wan_paths_.empty())
    timeout = std::max(timeout, 2 * f.wan_flow.rto_ps);  // a stream waits out its timer
  watchdog_ =
      std::make_unique<hw::Watchdog>(queue, activity_, timeout, [this] { return describe_blocked(64); });
  activity_.watchdog = watchdog_.get();
}

std::vector<std::string> SwitchNetlist::describe_ports() const {
  std::vector<std::string> out;
  for (std::size_t s = 0; s < switch_names_.size(); ++s) {
    std::string line = switch_names_[s] + ":";
    for (int port = 0; port < int(names_[s].size()); ++port) {
      const LinkClass* c = nullptr;
      if (port >= link_ports_[s])
        c = host_class_[s * std::size_t(platform_.fabric.hosts_per_edge * nis_) +
                        std::size_t(port - link_ports_[s])];
      else
        for (const Link& l : links_)
          if ((l.a == s && l.port_a == port) || (l.b == s && l.port_b == port)) c = l.cls;
      line += fmt::format(" {}({}, {})", names_[s][std::size_t(port)],
                          units::format_bandwidth(c->bytes_per_s), units::format_duration(c->latency_ps));
    }
    out.push_back(line);
  }
  return out;
}

SwitchNetlist::LinkTally SwitchNetlist::links() const {
  LinkTally t;
  t.host = hosts_ * std::uint64_t(nis_);
  const SwitchedFabric& f = platform_.fabric;
  for (const Link& l : links_)
    (l.cls == &f.wan ? t.wan : l.cls == &f.local ? t.local : l.cls == &f.global ? t.global : t.up) += 1;
  return t;
}

router::WanPath::Stats SwitchNetlist::wan_stats() const {
  router::WanPath::Stats t;
  for (const router::WanPath& w : wan_paths_) {
    const router::WanPath::Stats& s = w.stats();
    t.sent += s.sent;
    t.delivered += s.delivered;
    t.drops += s.drops;
    t.fast_retransmits += s.fast_retransmits;
    t.timeouts += s.timeouts;
    t.peak_queue_bytes = std::max(t.peak_queue_bytes, s.peak_queue_bytes);
  }
  return t;
}

std::vector<std::string> SwitchNetlist::describe_blocked(std::size_t limit) {
  return platforms::describe_blocked(switches_, limit);
}

}  // namespace kairo::platforms
