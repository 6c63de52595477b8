// What a run's hardware spent: the energy of every router, link, NIC and
// optical switch port over a window, by component class, from the counts the
// blocks keep and the cost model of hw/common/energy.h; and the JSON
// `energy` object of `kairo traffic` and `kairo run` (docs/energy.md).
//
// Computed once, after the run (or at the end of a traffic measurement
// window): nothing here is on a simulation path.
#pragma once
#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "hw/common/energy.h"
#include "platforms/network.h"

namespace kairo::platforms {

enum class EnergyClass : std::uint8_t { kBuffer, kCrossbar, kAllocator, kClock, kLink, kNic, kOcs };
inline constexpr std::size_t kEnergyClasses = 7;

// Energy in whole femtojoules, so that sums over routers and over the
// processes of a partitioned run are exact, in any order, and the same for
// every process count (2^64 fJ is 18 kJ).
struct EnergyTally {
  std::array<std::uint64_t, kEnergyClasses> dynamic_fj{}, static_fj{};
  void add(EnergyClass c, double dynamic_j, double static_j);
  // The 2 x kEnergyClasses counts in one vector (for sums over processes), and back.
  std::vector<std::uint64_t> flat() const;
  static EnergyTally from_flat(const std::vector<std::uint64_t>& v);
};

// A router's shape as the energy model sees it.
hw::RouterShape router_shape(const Platform& p, int ports);

// The model's cost of each router size of a network (of those built here),
// computed once per port count (a fat tree's edge and spine switches
// differ), and the energy of a flit over one router-to-router link.
class RouterCosts {
 public:
  RouterCosts(Network& net, const Platform& p);
  const hw::RouterCost& of(const router::Router& r) const { return by_ports_[std::size_t(r.num_ports())]; }
  double link_flit_pj() const { return link_flit_pj_; }

 private:
  std::vector<hw::RouterCost> by_ports_;
  double link_flit_pj_;
};

// What a router's (or one port's) traffic did, as the energy model charges
// it: flits into input buffers, flits out through buffer reads and the
// crossbar, a switch allocation per departure, a VC allocation and route
// computation per head, and the flits sent over router-to-router links.
struct RouterTraffic {
  std::uint64_t flits_in = 0, flits_out = 0, departures = 0, heads = 0, link_flits = 0;
  void add_port(const router::Router& r, int port, const router::PortCounters& c);
};
// Its dynamic energy (pJ) by class: buffer, crossbar, allocator, link.
struct TrafficEnergy {
  double buffer_pj = 0, crossbar_pj = 0, allocator_pj = 0, link_pj = 0;
  double total_pj() const { return buffer_pj + crossbar_pj + allocator_pj + link_pj; }
};
TrafficEnergy traffic_energy(const RouterTraffic& t, const hw::RouterCost& c, double link_flit_pj);

// The routers' and router-to-router links' dynamic energy, from their
// counters at `now` (counted since their last reset). With `owner`, only the
// routers whose owner is `rank` (a partitioned run's own; add the processes'
// tallies).
void add_network_dynamic(EnergyTally& t, Network& net, const Platform& p, sim::Time now,
                         const std::vector<int>* owner = nullptr, int rank = 0);
// Every router's and router-to-router link's static energy and every
// router's clock over `window` ps: they depend on time alone. With `owner`,
// only the routers whose owner is `rank`, as above.
void add_network_static(EnergyTally& t, Network& net, const Platform& p, sim::Time window,
                        const std::vector<int>* owner = nullptr, int rank = 0);
// The NICs' DMA (bytes read and written) and commands.
void add_nic_energy(EnergyTally& t, const hw::EnergyParams& e, std::uint64_t dma_bytes,
                    std::uint64_t commands);
// An optical circuit switch of `ports` ports over `window` ps, and its circuit changes.
void add_ocs_energy(EnergyTally& t, const hw::EnergyParams& e, int ports, std::uint64_t reconfigurations,
                    sim::Time window);

// The `energy` object: dynamic and static joules per class, totals, the
// average power over the window, energy per delivered unit (`per`: "flit"
// or "byte") when anything was delivered, and the technology.
nlohmann::json energy_json(const Platform& p, const EnergyTally& t, sim::Time window, double delivered,
                           const char* per);

}  // namespace kairo::platforms
