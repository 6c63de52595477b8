// The run's energy, from the blocks' counts and hw/common/energy.h's model.
#include "platforms/energy.h"

#include <cmath>

namespace kairo::platforms {

namespace {
constexpr const char* kClassNames[kEnergyClasses] = {"buffer", "crossbar", "allocator", "clock",
                                                     "link",   "nic",      "ocs"};
std::uint64_t femtojoules(double j) { return std::uint64_t(std::llround(j * 1e15)); }
double joules(std::uint64_t fj) { return double(fj) * 1e-15; }
double seconds(sim::Time ps) { return double(ps) * 1e-12; }
}  // namespace

void EnergyTally::add(EnergyClass c, double dynamic_j, double static_j) {
  dynamic_fj[std::size_t(c)] += femtojoules(dynamic_j);
  static_fj[std::size_t(c)] += femtojoules(static_j);
}

std::vector<std::uint64_t> EnergyTally::flat() const {
  std::vector<std::uint64_t> v(dynamic_fj.begin(), dynamic_fj.end());
  v.insert(v.end(), static_fj.begin(), static_fj.end());
  return v;
}

EnergyTally EnergyTally::from_flat(const std::vector<std::uint64_t>& v) {
  EnergyTally t;
  for (std::size_t c = 0; c < kEnergyClasses; ++c)
    t.dynamic_fj[c] = v[c], t.static_fj[c] = v[kEnergyClasses + c];
  return t;
}

hw::RouterShape router_shape(const Platform& p, int ports) {
  return {ports, p.router.vcs, p.router.vc_buffer_flits, p.router.flit_bytes * 8};
}

RouterCosts::RouterCosts(Network& net, const Platform& p)
    : link_flit_pj_(hw::link_cost(p.energy, p.router.flit_bytes * 8).flit_pj) {
  std::vector<bool> known;
  for (std::size_t i = 0; i < net.num_routers(); ++i) {
    if (!net.has_router(i)) continue;  // another process's (a partial build)
    const std::size_t ports = std::size_t(net.router_at(i).num_ports());
    if (ports >= by_ports_.size()) by_ports_.resize(ports + 1), known.resize(ports + 1);
    if (!known[ports])
      by_ports_[ports] = hw::router_cost(p.energy, router_shape(p, int(ports))), known[ports] = true;
  }
}

namespace {
bool link_port(const router::Router& r, int port) { return r.port_dim(port) >= 0 && r.port_connected(port); }
}  // namespace

void RouterTraffic::add_port(const router::Router& r, int port, const router::PortCounters& c) {
  flits_in += c.flits_received, heads += c.packets_received;
  flits_out += c.flits_sent, departures += c.packets_sent;  // a switch allocation per departure
  if (link_port(r, port)) link_flits += c.flits_sent;
}

TrafficEnergy traffic_energy(const RouterTraffic& t, const hw::RouterCost& c, double link_flit_pj) {
  TrafficEnergy e;
  e.buffer_pj = double(t.flits_in) * c.write_pj + double(t.flits_out) * c.read_pj;
  e.crossbar_pj = double(t.flits_out) * c.crossbar_pj;
  e.allocator_pj =
      double(t.departures) * c.arbitration_pj + double(t.heads) * (c.vc_allocation_pj + c.routing_pj);
  e.link_pj = double(t.link_flits) * link_flit_pj;
  return e;
}

void add_network_dynamic(EnergyTally& t, Network& net, const Platform& p, sim::Time now,
                         const std::vector<int>* owner, int rank) {
  const RouterCosts costs(net, p);
  const double pj = 1e-12;
  for (std::size_t i = 0; i < net.num_routers(); ++i) {
    if (owner && (*owner)[i] != rank) continue;
    router::Router& r = net.router_at(i);
    RouterTraffic traffic;
    for (int port = 0; port < r.num_ports(); ++port) traffic.add_port(r, port, r.counters(port, now));
    const TrafficEnergy e = traffic_energy(traffic, costs.of(r), costs.link_flit_pj());
    t.add(EnergyClass::kBuffer, e.buffer_pj * pj, 0);
    t.add(EnergyClass::kCrossbar, e.crossbar_pj * pj, 0);
    t.add(EnergyClass::kAllocator, e.allocator_pj * pj, 0);
    t.add(EnergyClass::kLink, e.link_pj * pj, 0);
  }
}

void add_network_static(EnergyTally& t, Network& net, const Platform& p, sim::Time window,
                        const std::vector<int>* owner, int rank) {
  const RouterCosts costs(net, p);
  const double cycles = double(window) / double(net.clock().period_ps), span = seconds(window);
  const double link_leak_w = hw::link_cost(p.energy, p.router.flit_bytes * 8).leak_w;
  for (std::size_t i = 0; i < net.num_routers(); ++i) {
    if (owner && (*owner)[i] != rank) continue;
    router::Router& r = net.router_at(i);
    const hw::RouterCost& cost = costs.of(r);
    int links = 0;
    for (int port = 0; port < r.num_ports(); ++port) links += link_port(r, port);
    t.add(EnergyClass::kBuffer, 0, cost.buffer_leak_w * span);
    t.add(EnergyClass::kCrossbar, 0, cost.crossbar_leak_w * span);
    t.add(EnergyClass::kAllocator, 0, (cost.allocator_leak_w + cost.vc_allocator_leak_w) * span);
    t.add(EnergyClass::kClock, cycles * cost.clock_pj * 1e-12, 0);
    t.add(EnergyClass::kLink, 0, links * link_leak_w * span);
  }
}

void add_nic_energy(EnergyTally& t, const hw::EnergyParams& e, std::uint64_t dma_bytes,
                    std::uint64_t commands) {
  t.add(EnergyClass::kNic, (double(dma_bytes) * e.dma_pj_per_byte + double(commands) * e.command_pj) * 1e-12,
        0);
}

void add_ocs_energy(EnergyTally& t, const hw::EnergyParams& e, int ports, std::uint64_t reconfigurations,
                    sim::Time window) {
  t.add(EnergyClass::kOcs, double(reconfigurations) * e.ocs_reconfiguration_uj * 1e-6,
        double(ports) * e.ocs_port_w * seconds(window));
}

nlohmann::json energy_json(const Platform& p, const EnergyTally& t, sim::Time window, double delivered,
                           const char* per) {
  nlohmann::json dyn = nlohmann::json::object(), stat = nlohmann::json::object();
  std::uint64_t dyn_fj = 0, stat_fj = 0;
  for (std::size_t c = 0; c < kEnergyClasses; ++c) {
    dyn[kClassNames[c]] = joules(t.dynamic_fj[c]);
    stat[kClassNames[c]] = joules(t.static_fj[c]);
    dyn_fj += t.dynamic_fj[c], stat_fj += t.static_fj[c];
  }
  nlohmann::json j;
  j["window_s"] = seconds(window);
  j["dynamic_j"] = dyn;
  j["static_j"] = stat;
  j["total_dynamic_j"] = joules(dyn_fj);
  j["total_static_j"] = joules(stat_fj);
  j["total_j"] = joules(dyn_fj + stat_fj);
  j["average_w"] = window > 0 ? joules(dyn_fj + stat_fj) / seconds(window) : 0.0;
  const std::string unit = per;
  j["delivered_" + unit + "s"] = delivered;
  // The clock tree runs whether or not flits move: it is left out of the
  // energy a delivered unit costs, as DSENT's and Noxim's per-flit figures do.
  const std::uint64_t moved_fj = dyn_fj - t.dynamic_fj[std::size_t(EnergyClass::kClock)];
  j["dynamic_pj_per_" + unit] = delivered > 0 ? joules(moved_fj) * 1e12 / delivered : 0.0;
  j["total_pj_per_" + unit] = delivered > 0 ? joules(dyn_fj + stat_fj) * 1e12 / delivered : 0.0;
  j["technology"] = {{"node_nm", p.energy.node_nm},
                     {"vdd", p.energy.vdd},
                     {"wire_ff_per_mm", p.energy.wire_ff_per_mm},
                     {"link_length_mm", p.energy.link_length_mm}};
  return j;
}

}  // namespace kairo::platforms
