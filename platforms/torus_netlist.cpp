#include "platforms/torus_netlist.h"

#include <fmt/format.h>

namespace kairo::platforms {

using hw::NodeId;
using sim::Time;

TorusNetlist::TorusNetlist(const Platform& platform, sim::EventQueue& queue, const OwnedPart& part)
    : platform_(platform),
      topo_(platform.dims),
      routing_(router::make_routing(platform.router.routing, topo_, platform.router.routing_order,
                                    platform.router.tie_break, platform.router.dateline,
                                    platform.router.bubble(), platform.router.adaptive_half_way)) {
  const RouterParams& rp = platform_.router;
  cfg_.topo = &topo_;
  cfg_.routing = routing_.get();
  cfg_.queue = &queue;
  cfg_.activity = &activity_;
  cfg_.clock = sim::Clock(rp.clock_period_ps());
  router::apply_router_params(rp, router::RouterSite::kTorus, cfg_);
  routing_->vc_classes(cfg_.vcs, cfg_.vc_first.data(), cfg_.vc_last.data());

  const std::size_t n = topo_.num_nodes();
  routers_.resize(n);
  std::size_t built = 0;
  if (!part.whole()) local_.assign(n, ~std::uint32_t(0));
  for (NodeId id = 0; id < n; ++id) {
    if (!part.router(id)) continue;
    if (!part.whole()) local_[id] = std::uint32_t(built);
    ++built;
    std::string name = "rtr_" + topo_.coord_string(topo_.coord_of(id));
    routers_[id] = std::make_unique<router::Router>(name.c_str(), cfg_, id);
  }
  endpoints_.resize(built * std::size_t(cfg_.network_interfaces));
  endpoint_setup_ = hw::Endpoint::Setup{cfg_.queue, &activity_,           cfg_.clock,
                                        cfg_.vcs,   cfg_.vc_buffer_flits, cfg_.credit_delay_ps};
  endpoint_setup_.wormhole = cfg_.wormhole;
  endpoint_setup_.flit_pool = &flit_pool_;
  for (NodeId id = 0; id < n; ++id) {
    if (!routers_[id]) continue;
    bind_links(id);
    bind_endpoints(id);
  }
  Time timeout = cfg_.clock.cycles(rp.watchdog_cycles);
  watchdog_ =
      std::make_unique<hw::Watchdog>(queue, activity_, timeout, [this] { return describe_blocked(64); });
  activity_.watchdog = watchdog_.get();
}

TorusNetlist::~TorusNetlist() {
  if (keep_until_exit_)
    for (auto& r : routers_) (void)r.release();
}

// Each router drives its outputs to the neighbours and takes their credits
// back over the same cable, and its inputs send credits back to them: both
// directions of its cables are bound here (a cable's two directions have the
// same latency, its dimension's). A neighbour not built is a RemoteRouter.
void TorusNetlist::bind_links(NodeId id) {
  const RouterParams& rp = platform_.router;
  const Time flit = rp.flit_ps();
  router::Router& r = *routers_[id];
  for (int port = 0; port < topo_.num_link_ports(); ++port) {
    auto nb = topo_.neighbor_via_port(id, port);
    if (!nb) continue;
    const Time cable = rp.cable_ps[topo_.port_dim(port)];
    const int peer = topo_.peer_port(port);
    if (router::Router* far = routers_[*nb].get()) {
      r.connect_output(port, far, peer, cable, flit, cfg_.vc_buffer_flits);
      r.connect_input(port, far, peer, cfg_.credit_delay_ps + cable);
    } else {
      RemoteRouter* stand_by = remote(*nb);
      r.connect_output(port, stand_by, peer, cable, flit, cfg_.vc_buffer_flits);
      r.connect_input(port, stand_by, peer, cfg_.credit_delay_ps + cable);
    }
  }
}

RemoteRouter* TorusNetlist::remote(NodeId n) {
  auto& r = remote_[n];
  if (!r) r = std::make_unique<RemoteRouter>(std::uint32_t(n));
  return r.get();
}

void TorusNetlist::bind_endpoints(NodeId id) {
  const RouterParams& rp = platform_.router;
  const Time flit = rp.host_flit_ps(), lat = rp.host_latency_ps;
  const hw::Endpoint::Setup& setup = endpoint_setup_;
  router::Router& r = *routers_[id];
  for (int ni = 0; ni < cfg_.network_interfaces; ++ni) {
    hw::Endpoint& e = endpoint(id, ni);
    const int port = cfg_.ni_port(ni);
    e.init(setup, nullptr, ni);
    e.connect_to_router(&r, port, lat, flit, cfg_.vc_buffer_flits);
    r.connect_input(port, &e, 0, cfg_.credit_delay_ps + lat);
    r.connect_output(port, &e, 0, lat, flit, cfg_.vc_buffer_flits);
    e.connect_from_router(&r, port, cfg_.credit_delay_ps + lat);
  }
}

void TorusNetlist::reset_counters(Time now) {
  for (auto& r : routers_)
    if (r) r->reset_counters(now);
}

std::vector<std::string> TorusNetlist::describe_blocked(std::size_t limit) {
  return platforms::describe_blocked(routers_, limit);
}

}  // namespace kairo::platforms
