#include "platforms/hybrid_netlist.h"

#include <fmt/format.h>

#include <cmath>

namespace kairo::platforms {

using sim::Time;

// TNI 1 of a node without an optical NIC: never open; its commands complete
// with kCircuitDown whatever ocs.on_circuit_down says (holding would wait
// forever).
class HybridNetlist::NoOpticalNic final : public hw::CircuitGate {
 public:
  bool open_to(std::uint32_t) const override { return false; }
  void on_change(std::function<void()>) override {}
  hw::CircuitPolicy policy() const override { return hw::CircuitPolicy::kError; }
};

HybridNetlist::HybridNetlist(const Platform& platform, sim::EventQueue& queue)
    : platform_(platform),
      eps_(platform, queue),
      optical_(eps_.num_nodes()),
      none_(std::make_unique<NoOpticalNic>()) {
  const OcsParams& o = platform_.ocs;
  const RouterParams& rp = platform_.router;
  ocs::OcsFabric::Config cfg;
  cfg.ports = int(o.optical_nodes.size());
  cfg.latency_ps = o.latency_ps;
  cfg.policy = o.hold ? hw::CircuitPolicy::kHold : hw::CircuitPolicy::kError;
  cfg.vcs = 1;
  ocs_ = std::make_unique<ocs::OcsFabric>("ocs", cfg, queue);
  const ocs::ClosShape shape{o.switch_ports, o.banks, o.middle_banks};
  controller_ = std::make_unique<ocs::CircuitController>(
      queue, *ocs_, shape, o.rearrange ? ocs::ClosMode::kRearrangeable : ocs::ClosMode::kNonRearrangeable,
      o.reconfiguration_ps);
  const sim::Clock clock = eps_.clock();
  const Time credit_delay = clock.cycles(rp.credit_delay_cycles);
  const Time flit = Time(std::llround(double(rp.flit_bytes) * 1e12 / o.bytes_per_s));
  const int buffer_flits = int(o.buffer_bytes / std::uint64_t(rp.flit_bytes));
  optical_setup_ = hw::Endpoint::Setup{&queue, &eps_.activity(), clock, 1, buffer_flits, credit_delay};
  for (std::size_t port = 0; port < o.optical_nodes.size(); ++port) {
    const hw::NodeId n = o.optical_nodes[port];
    hw::Endpoint& e = optical_[n];
    e.init(optical_setup_, nullptr, 1);
    e.connect_to_router(ocs_.get(), int(port), 0, flit, buffer_flits);
    e.connect_from_router(ocs_.get(), int(port), credit_delay);
    ocs_->attach(int(port), std::uint32_t(n), &e, credit_delay);
  }
}

HybridNetlist::~HybridNetlist() {
  if (keep_until_exit_) (void)ocs_.release();  // see TorusNetlist::keep_until_exit
}

void HybridNetlist::keep_until_exit() {
  keep_until_exit_ = true;
  eps_.keep_until_exit();
}

hw::CircuitGate* HybridNetlist::gate(hw::NodeId n, int ni) {
  if (ni != 1) return nullptr;
  const int port = port_of(n);
  return port < 0 ? static_cast<hw::CircuitGate*>(none_.get()) : &ocs_->gate(port);
}

// The optical ports of a pathway's two nodes, or why there is none.
std::string HybridNetlist::ports_of(hw::NodeId a, hw::NodeId b, int* pa, int* pb) const {
  *pa = port_of(a), *pb = port_of(b);
  if (*pa < 0 || *pb < 0)
    return fmt::format("node {} has no optical NIC (ocs.optical_nics)", *pa < 0 ? a : b);
  if (a == b) return fmt::format("node {}: a pathway joins two different nodes", a);
  return {};
}

std::string HybridNetlist::preset_pathway(hw::NodeId a, hw::NodeId b) {
  int pa = 0, pb = 0;
  if (std::string why = ports_of(a, b, &pa, &pb); !why.empty()) return why;
  return controller_->preset_pathway(pa, pb);
}

std::string HybridNetlist::request_pathway(hw::NodeId a, hw::NodeId b, bool setup) {
  int pa = 0, pb = 0;
  if (std::string why = ports_of(a, b, &pa, &pb); !why.empty()) return why;
  if (setup) return controller_->pathway(pa, pb);
  if (ocs_->output_of(pa) != pb || ocs_->output_of(pb) != pa)
    return fmt::format("nodes {} and {}: no pathway between them to tear down", a, b);
  if (std::string why = controller_->teardown(pa); !why.empty()) return why;
  return controller_->teardown(pb);
}

}  // namespace kairo::platforms
