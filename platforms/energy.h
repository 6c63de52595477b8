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
const char* energy_class_name(EnergyClass c);

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

// The routers' and router-to-router links' dynamic energy, from their
// counters at `now` (counted since their last reset). With `owner`, only the
// routers whose owner is `rank` (a partitioned run's own; add the processes'
// tallies).
void add_network_dynamic(EnergyTally& t, Network& net, const Platform& p, sim::Time now,
                         const std::vector<int>* owner = nullptr, int rank = 0);
// Every router's and router-to-router link's static energy and every
// router's clock over `window` ps: they depend on time alone.
void add_network_static(EnergyTally& t, Network& net, const Platform& p, sim::Time window);
// The NICs' DMA (bytes read and written) and commands.
void add_nic_energy(EnergyTally& t, const hw::EnergyParams& e, std::uint64_t dma_bytes,
                    std::uint64_t commands);
// An optical circuit switch of `ports` ports over `window` ps, and its circuit changes.
void add_ocs_energy(EnergyTally& t, const hw::EnergyParams& e, int ports, std::uint64_t reconfigurations,
                    sim::Time window);

// The `energy` object: dynamic and static joules per class, totals, the
// average power over the window, energy per delivered unit (`per`: "flit"
// or "byte") when anything was delivered, and the router model's figures.
nlohmann::json energy_json(const Platform& p, const EnergyTally& t, sim::Time window, double delivered,
                           const char* per);
// One router of `ports` ports: per-event energies (pJ), static power (mW)
// and area (um^2) by component.
nlohmann::json router_cost_json(const Platform& p, int ports);

}  // namespace kairo::platforms
