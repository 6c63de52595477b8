// Which of the routing unit's ways a waiting head takes (minimal adaptive
// routing, a dragonfly's adaptive hops): the routing strategy lists the ways
// (hw/router/routing_unit.h, adaptive_routing.h), this unit picks among them
// by what the output units show this round, for either allocation stage.
//   choose       the switch allocation round's choice (and, staged, the way
//                a head asks the VC allocator on): the way with the most
//                credits, the escape way only when no adaptive way can go
//   option_wake  when a head that could take none might take one
//   request_ways router.adaptive_selection: vc_allocator, every free VC of
//   take_way     every way asked for, the VC allocator's grant picks the way
//   vc_wake      the staged router's wake for an adaptive head
#pragma once
#include <cstdint>

#include "hw/router/allocator.h"
#include "hw/router/input_unit.h"
#include "hw/router/output_unit.h"
#include "hw/router/router_config.h"
#include "hw/router/routing_unit.h"
#include "sim/time.h"

namespace kairo::router {

class WaySelection {
 public:
  WaySelection(const RouterConfig& cfg, const RouterPlace& here, InputUnit& inputs, OutputUnit& outputs)
      : cfg_(cfg), routing_(*cfg.routing), here_(here), inputs_(inputs), outputs_(outputs) {}

  // The way (output and VC) the head of input VC `idx` takes this round,
  // written into its head and packet; -1 if none can take it now. With a VC
  // allocation stage (staged) the output need not be free yet, and VCs held
  // by other packets are skipped.
  int choose(int idx, sim::Time t, bool staged = false);
  // The earliest time it could take one (kNever: waits for credits not yet
  // on their way; its outputs are marked credit waiters).
  sim::Time option_wake(int idx, sim::Time t);
  // request_ways asks allocator `va` for every free VC with credits on every
  // way of the head of `idx` (each request named by its output VC,
  // port * vcs + vc); false if none. take_way writes the granted output
  // VC's way into the head and its packet, and returns the VC.
  bool request_ways(int idx, sim::Time t, std::uint64_t age, Allocator& va);
  int take_way(int idx, int granted);
  // The staged router: when the adaptive head of `idx`, holding no VC,
  // could get one on any of its ways (OutputUnit::vc_wake).
  sim::Time vc_wake(int idx, sim::Time t, const sim::Time* release_at);

 private:
  const RouterConfig& cfg_;
  const RoutingUnit& routing_;
  const RouterPlace& here_;
  InputUnit& inputs_;
  OutputUnit& outputs_;
};

}  // namespace kairo::router
