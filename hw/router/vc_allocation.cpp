// VC allocation as its own stage (router.vc_allocator) and speculative switch
// allocation (router.speculative), as in Peh & Dally's router pipeline.
//
// A head that has passed routing and the VC allocation cycles asks for an
// output VC: every VC of its class on its output (for adaptive routing, the
// way WaySelection::choose picks) that no other packet holds and that has credits
// for the whole packet (virtual cut-through). The VC allocator, matching
// input VCs to output VCs, grants each at most one; a granted VC is held by
// its packet until the packet's tail has crossed the switch (its last flit
// is on the output link: the output is free for the next packet), so a
// packet that takes the VC after it follows one VC allocation and one switch
// allocation round later, as in a flit-level router (BookSim's iq router
// frees the VC with its tail flit). Switch allocation follows
// router.sw_alloc_cycles after the grant, among the heads holding a VC whose
// input and output are free.
// Speculative: the heads asking for a VC this round ask for the switch in the
// same round too, in a second allocator working beside the first on the same
// requests' state (Peh and Dally). Heads already holding a VC win: a
// speculative grant on an input or output the first allocator granted is
// dropped, and the second allocator does not know which those are when it
// matches. A speculative grant whose VC allocation failed is lost (a miss),
// one whose VC was granted sends the packet (a hit).
// An input VC restarts with every packet (input_vc_left, front_ready): a
// head starts routing once the packet ahead of it has had its last flit
// switch-allocated.
#include "hw/router/vc_allocation.h"

#include <algorithm>
#include <stdexcept>

namespace kairo::router {

using sim::Time;

VcAllocation::VcAllocation(const RouterConfig& cfg, InputUnit& inputs, OutputUnit& outputs,
                           WaySelection& ways, Allocator& sw, const RouterTrace& trace, AllocCounters* counts)
    : cfg_(cfg), inputs_(inputs), outputs_(outputs), ways_(ways), sw_(sw), trace_(trace), counts_(counts) {
  const int np = outputs.size();
  // Inputs: the input VCs by their index (port << vshift | vc, so room for a
  // power of two per port); outputs: port * vcs + vc, also the VC asked for
  // when a head may ask on several ports (adaptive_by_vc_allocator).
  va_ = make_allocator(cfg.vc_allocator, int(inputs.size()),
                       cfg.adaptive_by_vc_allocator ? np * cfg.vcs : cfg.vcs, np * cfg.vcs, false,
                       cfg.islip_iterations);
  if (!va_) throw std::invalid_argument("unknown VC allocator '" + cfg.vc_allocator + "'");
  if (cfg.speculative) spec_ = make_allocator(cfg.allocator, np, cfg.vcs, np, false, cfg.islip_iterations);
  release_at_.assign(std::size_t(np) * std::size_t(cfg.vcs), sim::kNever);
  if (heads_.size() < inputs.size()) heads_.resize(inputs.size());
}

// 1. VC allocation: every head through routing and the VC allocation cycles
// that holds no output VC asks for one; the VC allocator grants. Returns
// how many heads asked (listed in heads_).
int VcAllocation::vc_round(Time t, bool by_age) {
  int nva = 0;
  va_->clear();
  for (int w = 0; w < inputs_.words(); ++w) {
    for (std::uint64_t bits = inputs_.word(w); bits; bits &= bits - 1) {
      const int idx = w * 64 + __builtin_ctzll(bits);
      Head& h = inputs_[idx].head;
      h.chosen_vc = -1;
      if (h.held_vc >= 0 || h.ready_ps > t) continue;
      const std::uint64_t age = by_age ? inputs_[idx].fifo.front().created_ps : 0;
      if (cfg_.adaptive_by_vc_allocator) {  // every way's VCs; the allocator picks (WaySelection)
        if (ways_.request_ways(idx, t, age, *va_)) heads_[std::size_t(nva++)] = idx;
        continue;
      }
      if (h.adaptive && ways_.choose(idx, t, /*staged=*/true) < 0) continue;
      if (request_vcs(idx, h, t, age)) heads_[std::size_t(nva++)] = idx;
    }
  }
  if (nva > 0) va_->allocate();
  for (int k = 0; k < nva; ++k) take_vc_grant(heads_[std::size_t(k)], t);
  return nva;
}

// A head asks for every VC of its class on its output that no packet holds
// and that has credits for the whole packet; false if none.
bool VcAllocation::request_vcs(int idx, const Head& h, Time t, std::uint64_t age) {
  const int nv = cfg_.vcs;
  Port& out = outputs_[h.out_port];
  outputs_.apply_credits(out, h.out_port, t);
  const std::uint32_t held = outputs_.held(h.out_port);
  bool asked = false;
  for (int v = cfg_.class_first(h.out_class), e = cfg_.class_last(h.out_class); v < e; ++v) {
    if (held >> v & 1 || out.credits()[v] < h.need) continue;
    va_->add_request(idx, v, h.out_port * nv + v, age);
    asked = true;
  }
  return asked;
}

// The VC allocator's answer to head idx: the VC it holds from now on, and
// switch allocation router.sw_alloc_cycles later.
void VcAllocation::take_vc_grant(int idx, Time t) {
  Head& h = inputs_[idx].head;
  int v = va_->grant_vc(idx);
  if (cfg_.adaptive_by_vc_allocator && v >= 0) v = ways_.take_way(idx, v);
  AllocCounters& a = counts_[h.out_port];
  ++a.vc_requests;
  if (v < 0) return;
  ++a.vc_grants;
  h.held_vc = std::int8_t(v);
  outputs_.hold(h.out_port, v);  // free: release_due released it
  h.ready_ps = t + cfg_.sa_after_va_ps;
  ++cfg_.activity->vc_grants;
  if (trace_.on()) trace_.held(h.out_port, t, outputs_.held(h.out_port));
}

// Whether head idx may cross now: through its cycles, its input and output
// free, and (holding a VC) credits on it; a body flit's VC may have none.
bool VcAllocation::sa_ready(int idx, const Head& h, Time t) {
  if (h.ready_ps > t || !outputs_.input_free(outputs_[inputs_.port_of(idx)], t)) return false;
  Port& out = outputs_[h.out_port];
  if (!outputs_.output_free(out, t)) return false;
  if (h.held_vc < 0) return true;  // speculative: no VC yet
  outputs_.apply_credits(out, h.out_port, t);
  return out.credits()[h.held_vc] >= h.need;
}

// The requests of a round, from the state before anything leaves: the
// speculative allocator works beside the other, on the same state.
int VcAllocation::sa_requests(Allocator& a, bool speculative, const StagedRound& r) {
  int n = 0;
  a.clear();
  for (int w = 0; w < inputs_.words(); ++w) {
    for (std::uint64_t bits = inputs_.word(w); bits; bits &= bits - 1) {
      const int idx = w * 64 + __builtin_ctzll(bits), in = inputs_.port_of(idx);
      const Head& h = inputs_[idx].head;
      // Speculative round: the heads that asked for a VC in this round.
      const bool asked_now = h.chosen_vc == 1;
      if (speculative != asked_now || !sa_ready(idx, h, r.t)) continue;
      if (!speculative && h.held_vc < 0) continue;
      a.add_request(in, inputs_.vc_of(idx), h.out_port, r.by_age ? inputs_[idx].fifo.front().created_ps : 0);
      ++n;
    }
  }
  return n;
}

// Output VCs whose packet's tail has crossed the switch by t become free,
// each at its own time (the waveform shows each at that time: nothing on
// this port was traced since, as every round first calls this).
void VcAllocation::release_due(Time t) {
  const int nv = cfg_.vcs;
  for (std::size_t w = 0; w < releasing_.size(); ++w) {
    for (std::uint64_t bits = releasing_[w]; bits; bits &= bits - 1) {
      const int port = int(w * 64) + __builtin_ctzll(bits);
      Time* at = &release_at_[std::size_t(port) * std::size_t(nv)];
      bool pending = false;
      for (;;) {  // in time order, for the waveform
        int first = -1;
        for (int v = 0; v < nv; ++v)
          if (at[v] <= t && (first < 0 || at[v] < at[first])) first = v;
        if (first < 0) break;
        outputs_.release(port, first);
        if (trace_.on()) trace_.held(port, at[first], outputs_.held(port));
        at[first] = sim::kNever;
      }
      for (int v = 0; v < nv; ++v) pending = pending || at[v] != sim::kNever;
      if (!pending) releasing_[w] &= ~(1ULL << (port & 63));
    }
  }
}

// An input VC's state restarts with every packet (Peh and Dally's router;
// BookSim's iq router): a head starts routing when it is at the front of its
// VC, that is once the packet ahead of it has had its last flit
// switch-allocated (`last_flit_sa`: one flit time before that flit crosses),
// and then takes the routing and VC allocation cycles of a packet just
// arrived. So an input VC that packet after packet leaves idles routing + VC
// allocation cycles between them; another VC of the same input may fill
// them. A body flit (wormhole) follows its head.
void VcAllocation::input_vc_left(int idx, hw::PacketRing& q, Time t, Time last_flit_sa) {
  Time& from = inputs_.front_free(idx);
  from = std::max(t, cfg_.clock.floor(last_flit_sa));
  if (!q.empty() && !(q.front().worm & hw::kWormBody))
    q.front().ready_ps = std::max(q.front().ready_ps, from + cfg_.va_ready_ps);  // it arrived before `from`
}

// When a waiting head could move: through its cycles, a VC (OutputUnit::vc_wake),
// its input and output free, and credits on its VC.
Time VcAllocation::next_wake(Time t) {
  const Time period = cfg_.clock.period_ps, st = cfg_.traversal_ps;
  Time wake = sim::kNever;
  for (int w = 0; w < inputs_.words(); ++w) {
    for (std::uint64_t bits = inputs_.word(w); bits; bits &= bits - 1) {
      const int idx = w * 64 + __builtin_ctzll(bits);
      const Head& h = inputs_[idx].head;
      Time when;
      if (h.ready_ps > t) {
        when = h.ready_ps;
      } else if (h.held_vc < 0) {
        if (!h.adaptive) {
          when = vc_wake(h.out_port, h.need, h.out_class, t);
        } else {
          when = ways_.vc_wake(idx, t, release_at_.data());
        }
      } else {
        const Port& in = outputs_[inputs_.port_of(idx)];
        Port& out = outputs_[h.out_port];
        outputs_.apply_credits(out, h.out_port, t);
        if (!outputs_.input_free(in, t))
          when = cfg_.clock.floor(in.in_busy_until - st);
        else if (!outputs_.output_free(out, t))
          when = cfg_.clock.floor(out.out.free_at - st);
        else if (out.credits()[h.held_vc] >= h.need)
          when = t + period;  // lost switch allocation
        else if (!out.returning.empty())
          when = out.returning.front().at;  // a body flit waits for a credit
        else {
          outputs_.wait_for_credits(h.out_port);
          continue;
        }
      }
      wake = std::min(wake, when);
    }
  }
  return wake;
}

}  // namespace kairo::router
