// VC allocation as its own stage (garnet's VCallocator; router.vc_allocator)
// and speculative switch allocation (router.speculative), as in Peh and
// Dally's router pipeline. Each round: output VCs are freed whose packet has
// crossed (release_due), the VC allocator grants output VCs to heads that
// hold none (vc_round), and switch allocation among the heads holding one
// (with its speculative twin among those that asked this round) sends
// packets. The stage owns its allocators (the VC allocator, the speculative
// switch allocator; the plain switch allocator is SwitchAllocation's) and
// when each held VC is released; which output VCs are held is the output
// units' (OutputUnit::held). How the stages decide: vc_allocation.cpp.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "hw/common/network_activity.h"
#include "hw/common/packet.h"
#include "hw/router/allocator.h"
#include "hw/router/input_unit.h"
#include "hw/router/output_unit.h"
#include "hw/router/port_counters.h"
#include "hw/router/router_config.h"
#include "hw/router/router_trace.h"
#include "hw/router/way_selection.h"
#include "sim/time.h"

namespace kairo::router {

class VcAllocation {
 public:
  // sw: the switch allocator (SwitchAllocation's); counts: per output port,
  // the counters this stage adds to. Throws std::invalid_argument for an
  // unknown router.vc_allocator.
  VcAllocation(const RouterConfig& cfg, InputUnit& inputs, OutputUnit& outputs, WaySelection& ways,
               Allocator& sw, const RouterTrace& trace, AllocCounters* counts);

  bool speculative() const { return spec_ != nullptr; }
  // An input VC's state restarts with every packet: a head just arrived at
  // `arrived` at input VC idx is ready for VC allocation at front_ready;
  // input_vc_left is told when a packet leaves the VC (vc_allocation.cpp).
  sim::Time front_ready(int idx, sim::Time arrived) const {
    return std::max(arrived, inputs_.front_free(idx)) + cfg_.va_ready_ps;
  }
  void input_vc_left(int idx, hw::PacketRing& q, sim::Time t, sim::Time last_flit_sa);
  // One round at t: depart(input port, input VC, downstream VC) for each
  // packet switch allocation sends.
  template <class Depart>
  void round(sim::Time t, Depart&& depart);
  sim::Time next_wake(sim::Time t);

 private:
  static constexpr int kPortWords = OutputUnit::kPortWords;
  struct StagedRound {
    sim::Time t;
    bool by_age;
    std::uint64_t taken_in[kPortWords], taken_out[kPortWords];  // granted this round
  };
  void release_due(sim::Time t);
  int vc_round(sim::Time t, bool by_age);
  bool request_vcs(int idx, const Head& h, sim::Time t, std::uint64_t age);
  void take_vc_grant(int idx, sim::Time t);
  bool sa_ready(int idx, const Head& h, sim::Time t);
  int sa_requests(Allocator& a, bool speculative, const StagedRound& r);
  template <class Depart>
  void sa_grants(Allocator& a, bool speculative, StagedRound& r, Depart& depart);
  sim::Time vc_wake(int port, int flits, hw::VcClass cls, sim::Time t) {
    return outputs_.vc_wake(port, flits, cls, t, release_at_.data());
  }

  const RouterConfig& cfg_;
  InputUnit& inputs_;
  OutputUnit& outputs_;
  WaySelection& ways_;
  Allocator& sw_;
  const RouterTrace& trace_;
  AllocCounters* counts_;
  // The VC allocator (input VCs x output VCs) and the switch allocator of
  // the speculative requests.
  std::unique_ptr<Allocator> va_, spec_;
  // Under virtual cut-through a packet's output VC stays held until its
  // tail has crossed the switch (release_at_, per port and VC; kNever: no
  // release pending); releasing_: a bit per port with a release pending.
  std::vector<sim::Time> release_at_;
  std::array<std::uint64_t, kPortWords> releasing_{};
  static inline std::vector<int> heads_;  // this round's heads in VC allocation
};

// The VC allocation stage grants, then the switch allocation stage (with
// its speculative twin) sends.
template <class Depart>
inline void VcAllocation::round(sim::Time t, Depart&& depart) {
  const bool by_age = sw_.uses_age() || va_->uses_age();
  release_due(t);
  const int nva = vc_round(t, by_age);
  // 2. Switch allocation among the heads holding a VC whose switch
  // allocation cycles have passed (with router.sw_alloc_cycles 0, those
  // granted a VC just now too) and, when speculative, in a second allocator
  // beside it, among the heads that asked for a VC in this round; a
  // speculative grant is used where the first allocator granted neither its
  // input nor its output (Peh and Dally; BookSim's spec_mask_by_reqs = 0).
  StagedRound r{t, by_age, {}, {}};
  if (spec_) {
    // Mark the heads that asked for a VC this round (chosen_vc is free here).
    for (int k = 0; k < nva; ++k) inputs_[heads_[std::size_t(k)]].head.chosen_vc = 1;
  }
  const bool spec_asked = spec_ && sa_requests(*spec_, true, r) > 0;
  if (sa_requests(sw_, false, r) > 0) sa_grants(sw_, false, r, depart);
  if (spec_asked) sa_grants(*spec_, true, r, depart);
}

template <class Depart>
inline void VcAllocation::sa_grants(Allocator& a, bool speculative, StagedRound& r, Depart& depart) {
  const sim::Time t = r.t;
  hw::NetworkActivity& act = *cfg_.activity;
  a.allocate();
  for (int in = 0; in < outputs_.size(); ++in) {
    const int vc = a.grant_vc(in);
    if (vc < 0) continue;
    Head& h = inputs_[inputs_.index(in, vc)].head;
    const int out = h.out_port, ov = h.held_vc;
    // The speculative allocator ran beside the other (Peh and Dally): its
    // grant on an input or output the other granted is dropped.
    if (r.taken_in[in >> 6] >> (in & 63) & 1 || r.taken_out[out >> 6] >> (out & 63) & 1) continue;
    r.taken_in[in >> 6] |= 1ULL << (in & 63);
    r.taken_out[out >> 6] |= 1ULL << (out & 63);
    if (speculative && trace_.on()) trace_.spec(out, t, ov >= 0);
    if (speculative && ov < 0) {
      ++act.speculative_misses;  // the switch was granted, the VC was not: the cycle is lost
      ++counts_[out].spec_misses;
      continue;
    }
    if (speculative) ++act.speculative_hits, ++counts_[out].spec_hits;
    // A packet lets its VC go once its tail has crossed the switch; a
    // wormhole packet's flits hold it from the head flit to the tail flit
    // (Router::hold_for_worm).
    const bool worm = inputs_[inputs_.index(in, vc)].fifo.front().worm != 0;
    depart(in, vc, ov);
    if (!worm) {
      release_at_[std::size_t(out) * std::size_t(cfg_.vcs) + std::size_t(ov)] =
          cfg_.clock.ceil(outputs_[out].out.free_at);
      releasing_[std::size_t(out >> 6)] |= 1ULL << (out & 63);
    }
  }
}

}  // namespace kairo::router
