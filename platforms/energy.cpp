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

const char* energy_class_name(EnergyClass c) { return kClassNames[std::size_t(c)]; }

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

namespace {
// Each router's cost, computed once per port count (a fat tree's edge and
// spine switches differ).
template <typename F>
void each_router(Network& net, const Platform& p, const std::vector<int>* owner, int rank, F f) {
  int last_ports = -1;
  hw::RouterCost cost;
  for (std::size_t i = 0; i < net.num_routers(); ++i) {
    if (owner && (*owner)[i] != rank) continue;
    router::Router& r = net.router_at(i);
    if (r.num_ports() != last_ports)
      cost = hw::router_cost(p.energy, router_shape(p, last_ports = r.num_ports()));
    f(r, cost);
  }
}
bool link_port(router::Router& r, int port) { return r.port_dim(port) >= 0 && r.port_connected(port); }
}  // namespace

void add_network_dynamic(EnergyTally& t, Network& net, const Platform& p, sim::Time now,
                         const std::vector<int>* owner, int rank) {
  const double link_pj = hw::link_cost(p.energy, p.router.flit_bytes * 8).flit_pj, pj = 1e-12;
  each_router(net, p, owner, rank, [&](router::Router& r, const hw::RouterCost& cost) {
    std::uint64_t in = 0, out = 0, allocations = 0, heads = 0, link_flits = 0;
    for (int port = 0; port < r.num_ports(); ++port) {
      const router::PortCounters c = r.counters(port, now);
      in += c.flits_received, heads += c.packets_received;
      out += c.flits_sent, allocations += c.packets_sent;  // a switch allocation per departure
      if (link_port(r, port)) link_flits += c.flits_sent;
    }
    t.add(EnergyClass::kBuffer, (double(in) * cost.write_pj + double(out) * cost.read_pj) * pj, 0);
    t.add(EnergyClass::kCrossbar, double(out) * cost.crossbar_pj * pj, 0);
    t.add(EnergyClass::kAllocator,
          (double(allocations) * cost.arbitration_pj +
           double(heads) * (cost.vc_allocation_pj + cost.routing_pj)) *
              pj,
          0);
    t.add(EnergyClass::kLink, double(link_flits) * link_pj * pj, 0);
  });
}

void add_network_static(EnergyTally& t, Network& net, const Platform& p, sim::Time window) {
  const double cycles = double(window) / double(net.clock().period_ps), span = seconds(window);
  const double link_leak_w = hw::link_cost(p.energy, p.router.flit_bytes * 8).leak_w;
  each_router(net, p, nullptr, 0, [&](router::Router& r, const hw::RouterCost& cost) {
    int links = 0;
    for (int port = 0; port < r.num_ports(); ++port) links += link_port(r, port);
    t.add(EnergyClass::kBuffer, 0, cost.buffer_leak_w * span);
    t.add(EnergyClass::kCrossbar, 0, cost.crossbar_leak_w * span);
    t.add(EnergyClass::kAllocator, 0, (cost.allocator_leak_w + cost.vc_allocator_leak_w) * span);
    t.add(EnergyClass::kClock, cycles * cost.clock_pj * 1e-12, 0);
    t.add(EnergyClass::kLink, 0, links * link_leak_w * span);
  });
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

nlohmann::json router_cost_json(const Platform& p, int ports) {
  const hw::RouterCost c = hw::router_cost(p.energy, router_shape(p, ports));
  const hw::LinkCost l = hw::link_cost(p.energy, p.router.flit_bytes * 8);
  return {{"ports", ports},
          {"pj",
           {{"buffer_write", c.write_pj},
            {"buffer_read", c.read_pj},
            {"crossbar", c.crossbar_pj},
            {"arbitration", c.arbitration_pj},
            {"vc_allocation", c.vc_allocation_pj},
            {"routing", c.routing_pj},
            {"clock_per_cycle", c.clock_pj},
            {"link_flit", l.flit_pj}}},
          {"leakage_mw",
           {{"buffer", c.buffer_leak_w * 1e3},
            {"crossbar", c.crossbar_leak_w * 1e3},
            {"allocator", c.allocator_leak_w * 1e3},
            {"vc_allocator", c.vc_allocator_leak_w * 1e3},
            {"total", c.leak_w() * 1e3}}},
          {"area_um2",
           {{"buffer", c.buffer_um2},
            {"crossbar", c.crossbar_um2},
            {"allocator", c.allocator_um2},
            {"vc_allocator", c.vc_allocator_um2},
            {"total", c.area_um2()}}}};
}

}  // namespace kairo::platforms
