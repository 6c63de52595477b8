// VC allocation as its own stage (router.vc_allocator) and speculative switch
// allocation (router.speculative), as in Peh & Dally's router pipeline.
//
// A head that has passed routing and the VC allocation cycles asks for an
// output VC: every VC of its class on its output (for adaptive routing, the
// way choose_option picks) that no other packet holds and that has credits
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
#include "hw/router/router.h"

namespace kairo::router {

using sim::Time;

// One round of the staged router: VCs are freed whose packet has crossed,
// the VC allocation stage grants output VCs, the switch allocation stage
// (with its speculative twin) sends packets; then the next wake-up.
void Router::allocate_staged() {
  const Time t = cfg_.queue->now();
  alloc_at_ = sim::kNever;
  for (auto& w : credit_waiters_) w = 0;
  const bool by_age = allocator_->uses_age() || va_->uses_age();
  release_due(t);
  const int nva = vc_allocation_round(t, by_age);
  switch_allocation_round(t, nva, by_age);
  if (buffered_ > 0) {
    const Time wake = next_wake_staged(t);
    if (wake != sim::kNever) schedule_allocation(wake);
  }
}

// 1. VC allocation: every head through routing and the VC allocation cycles
// that holds no output VC asks for one; the VC allocator grants. Returns
// how many heads asked (listed in va_heads_).
int Router::vc_allocation_round(Time t, bool by_age) {
  int nva = 0;
  va_->clear();
  for (int w = 0; w < inputs_.words(); ++w) {
    for (std::uint64_t bits = inputs_.word(w); bits; bits &= bits - 1) {
      const int idx = w * 64 + __builtin_ctzll(bits);
      Head& h = inputs_[idx].head;
      h.chosen_vc = -1;
      if (h.held_vc >= 0 || h.ready_ps > t) continue;
      const std::uint64_t age = by_age ? inputs_[idx].fifo.head->created_ps : 0;
      if (cfg_.adaptive_by_vc_allocator) {  // every way's VCs; the allocator picks (router_adaptive.cpp)
        if (request_ways(idx, t, age)) va_heads_[std::size_t(nva++)] = idx;
        continue;
      }
      if (h.adaptive && choose_option(idx, t, /*staged=*/true) < 0) continue;
      if (request_vcs(idx, h, t, age)) va_heads_[std::size_t(nva++)] = idx;
    }
  }
  if (nva > 0) va_->allocate();
  for (int k = 0; k < nva; ++k) take_vc_grant(va_heads_[std::size_t(k)], t);
  return nva;
}

// A head asks for every VC of its class on its output that no packet holds
// and that has credits for the whole packet; false if none.
bool Router::request_vcs(int idx, const Head& h, Time t, std::uint64_t age) {
  const int nv = cfg_.vcs;
  Port& out = ports_[h.out_port];
  apply_credits(out, h.out_port, t);
  const std::uint32_t held = vc_held_[std::size_t(h.out_port)];
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
void Router::take_vc_grant(int idx, Time t) {
  Head& h = inputs_[idx].head;
  int v = va_->grant_vc(idx);
  if (cfg_.adaptive_by_vc_allocator && v >= 0) v = take_way(idx, v);
  AllocCounters& a = alloc_[std::size_t(h.out_port)];
  ++a.vc_requests;
  if (v < 0) return;
  ++a.vc_grants;
  h.held_vc = std::int8_t(v);
  vc_held_[std::size_t(h.out_port)] |= 1u << v;  // free: release_due cleared it
  h.ready_ps = t + cfg_.sa_after_va_ps;
  ++cfg_.activity->vc_grants;
  if (probe_) trace_held(h.out_port, t);
}

// 2. Switch allocation among the heads holding a VC whose switch
// allocation cycles have passed (with router.sw_alloc_cycles 0, those
// granted a VC just now too) and, when speculative, in a second allocator
// beside it, among the heads that asked for a VC in this round; a
// speculative grant is used where the first allocator granted neither its
// input nor its output (Peh and Dally; BookSim's spec_mask_by_reqs = 0).
void Router::switch_allocation_round(Time t, int nva, bool by_age) {
  StagedRound r{t, by_age, {}, {}};
  if (spec_) {
    // Mark the heads that asked for a VC this round (chosen_vc is free here).
    for (int k = 0; k < nva; ++k) inputs_[va_heads_[std::size_t(k)]].head.chosen_vc = 1;
  }
  const bool spec_asked = spec_ && sa_requests(*spec_, true, r) > 0;
  if (sa_requests(*allocator_, false, r) > 0) sa_grants(*allocator_, false, r);
  if (spec_asked) sa_grants(*spec_, true, r);
}

// Whether head idx may cross now: through its cycles, its input and output
// free, and (holding a VC) credits on it; a body flit's VC may have none.
bool Router::sa_ready(int idx, const Head& h, Time t) {
  if (h.ready_ps > t || !input_free(ports_[inputs_.port_of(idx)], t)) return false;
  Port& out = ports_[h.out_port];
  if (!output_free(out, t)) return false;
  if (h.held_vc < 0) return true;  // speculative: no VC yet
  apply_credits(out, h.out_port, t);
  return out.credits()[h.held_vc] >= h.need;
}

// The requests of a round, from the state before anything leaves: the
// speculative allocator works beside the other, on the same state.
int Router::sa_requests(Allocator& a, bool speculative, const StagedRound& r) {
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
      a.add_request(in, inputs_.vc_of(idx), h.out_port, r.by_age ? inputs_[idx].fifo.head->created_ps : 0);
      ++n;
    }
  }
  return n;
}

void Router::sa_grants(Allocator& a, bool speculative, StagedRound& r) {
  const Time t = r.t;
  hw::NetworkActivity& act = *cfg_.activity;
  a.allocate();
  for (int in = 0; in < ports_.size(); ++in) {
    const int vc = a.grant_vc(in);
    if (vc < 0) continue;
    Head& h = inputs_[vc_index(in, vc)].head;
    const int out = h.out_port, ov = h.held_vc;
    // The speculative allocator ran beside the other (Peh and Dally): its
    // grant on an input or output the other granted is dropped.
    if (r.taken_in[in >> 6] >> (in & 63) & 1 || r.taken_out[out >> 6] >> (out & 63) & 1) continue;
    r.taken_in[in >> 6] |= 1ULL << (in & 63);
    r.taken_out[out >> 6] |= 1ULL << (out & 63);
    if (speculative && probe_) trace_spec(out, t, ov >= 0);
    if (speculative && ov < 0) {
      ++act.speculative_misses;  // the switch was granted, the VC was not: the cycle is lost
      ++alloc_[std::size_t(out)].spec_misses;
      continue;
    }
    if (speculative) ++act.speculative_hits, ++alloc_[std::size_t(out)].spec_hits;
    // A packet lets its VC go once its tail has crossed the switch; a
    // wormhole packet's flits hold it from the head flit to the tail flit
    // (hold_for_worm).
    const bool worm = inputs_[vc_index(in, vc)].fifo.head->worm != 0;
    depart(in, vc, ov, t);
    if (!worm) {
      release_at_[std::size_t(out) * std::size_t(cfg_.vcs) + std::size_t(ov)] =
          cfg_.clock.ceil(ports_[out].out.free_at);
      releasing_[out >> 6] |= 1ULL << (out & 63);
    }
  }
}

// Output VCs whose packet's tail has crossed the switch by t become free,
// each at its own time (the waveform shows each at that time: nothing on
// this port was traced since, as every round first calls this).
void Router::release_due(Time t) {
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
        vc_held_[std::size_t(port)] &= ~(1u << first);
        if (probe_) trace_held(port, at[first]);
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
void Router::input_vc_left(int idx, hw::PacketFifo& q, Time t, Time last_flit_sa) {
  Time& from = inputs_.front_free(idx);
  from = std::max(t, cfg_.clock.floor(last_flit_sa));
  if (!q.empty() && !(q.head->worm & hw::kWormBody))
    q.head->ready_ps = std::max(q.head->ready_ps, from + cfg_.va_ready_ps);  // it arrived before `from`
}

// When a head waiting for a VC on `port` (class cls) could get one: next
// cycle if a free VC has credits (it lost allocation), at the next credit
// on its way if not, or when a held VC's packet has left (release_at_);
// never if every VC is held by a packet still here (its departure, a round
// of this router, looks again) or if no credit is on its way (the output is
// marked so that the next credit schedules a round).
Time Router::vc_wake(int port, int flits, hw::VcClass cls, Time t) {
  Port& out = ports_[port];
  apply_credits(out, port, t);
  const std::uint32_t held = held_mask(port);
  bool any_free = false;
  Time released = sim::kNever;  // the first held VC whose packet has left
  for (int v = cfg_.class_first(cls), e = cfg_.class_last(cls); v < e; ++v) {
    if (held >> v & 1) {
      if (!release_at_.empty())
        released =
            std::min(released, release_at_[std::size_t(port) * std::size_t(cfg_.vcs) + std::size_t(v)]);
      continue;
    }
    if (out.credits()[v] >= flits) return t + cfg_.clock.period_ps;
    any_free = true;
  }
  if (!any_free) return released;
  if (!out.returning.empty()) return std::min(released, out.returning.front().at);
  credit_waiters_[port >> 6] |= 1ULL << (port & 63);
  return released;
}

Time Router::next_wake_staged(Time t) {
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
          const hw::Packet& p = *inputs_[idx].fifo.head;
          RouteDecision opt[kMaxRouteOptions];
          const int n = routing_.ways(here_, p, opt, WayCoin::kZero);
          when = sim::kNever;
          for (int i = 0; i < n; ++i)
            when = std::min(
                when, vc_wake(opt[i].port, credit_need(opt[i].port, p, opt[i].vc_class), opt[i].vc_class, t));
        }
      } else {
        const Port& in = ports_[inputs_.port_of(idx)];
        Port& out = ports_[h.out_port];
        apply_credits(out, h.out_port, t);
        if (!input_free(in, t))
          when = cfg_.clock.floor(in.in_busy_until - st);
        else if (!output_free(out, t))
          when = cfg_.clock.floor(out.out.free_at - st);
        else if (out.credits()[h.held_vc] >= h.need)
          when = t + period;  // lost switch allocation
        else if (!out.returning.empty())
          when = out.returning.front().at;  // a body flit waits for a credit
        else {
          credit_waiters_[h.out_port >> 6] |= 1ULL << (h.out_port & 63);
          continue;
        }
      }
      wake = std::min(wake, when);
    }
  }
  return wake;
}

}  // namespace kairo::router
