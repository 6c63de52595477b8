// The switch allocation stage (router.vc_allocator: none, the default):
// one round per decision instant in which every eligible head whose input,
// output link and a downstream VC are available requests its output, the
// switch allocator (hw/router/allocator.h) picks a matching, and the winners
// cross (Router::depart). The VC is chosen in the same round (choose_vc);
// a minimal adaptive head first picks its way (router_adaptive.cpp). With a
// VC allocation stage the rounds are router_va.cpp's instead.
#include "hw/router/router.h"

namespace kairo::router {

using sim::Time;

// Downstream VC for a packet: among its class's VCs with credits for the whole
// packet, the one with the most free credits (lowest index on a tie).
int Router::choose_vc(const Port& out, int flits, hw::VcClass cls, std::uint32_t held) const {
  return out.choose_vc(flits, cfg_.class_first(cls), cfg_.class_last(cls), held);
}

// One allocation round: every eligible head whose input, output link and a
// downstream VC are available requests its output; the allocator picks a
// matching; winners depart. Then wake again when the next waiter could move.
void Router::allocate() {
  const Time t = cfg_.queue->now();
  alloc_at_ = sim::kNever;
  for (auto& w : credit_waiters_) w = 0;
  int n = 0;
  const std::uint64_t port_mask = inputs_.port_mask();  // one input's VC bits
  const bool by_age = allocator_->uses_age();
  for (int w = 0; w < inputs_.words(); ++w) {
    for (std::uint64_t bits = inputs_.word(w); bits;) {
      int idx = w * 64 + __builtin_ctzll(bits);
      int in = inputs_.port_of(idx), vc = inputs_.vc_of(idx);
      InputVc& ivc = inputs_[idx];
      const Head& h = ivc.head;
      if (h.ready_ps > t) {
        bits &= bits - 1;
        continue;
      }
      if (!input_free(ports_[in], t)) {  // forwarding another packet: none of its VCs can go
        bits &= ~(port_mask << (inputs_.index(in, 0) & 63));
        continue;
      }
      bits &= bits - 1;
      ivc.head.chosen_vc = -1;
      int ov;
      if (h.adaptive) {
        if ((ov = choose_option(idx, t)) < 0) continue;
      } else {
        Port& out = ports_[h.out_port];
        if (!output_free(out, t)) continue;
        apply_credits(out, h.out_port, t);
        ov = head_vc(h, out);
        if (ov < 0) {
          if (probe_) trace_stall(h.out_port, t, true);
          continue;
        }
      }
      ivc.head.chosen_vc = std::int8_t(ov);
      requests_[n++] = Request{in, vc, h.out_port, by_age ? ivc.fifo.head->created_ps : 0};
    }
  }
  if (n == 1) {
    const Request& r = requests_[0];
    allocator_->allocate_single(r.input, r.vc, r.output, r.age);
    depart(r.input, r.vc, inputs_[vc_index(r.input, r.vc)].head.chosen_vc, t);
  } else if (n > 1) {
    allocator_->clear();
    for (int k = 0; k < n; ++k)
      allocator_->add_request(requests_[k].input, requests_[k].vc, requests_[k].output, requests_[k].age);
    allocator_->allocate();
    for (int in = 0; in < ports_.size(); ++in) {
      int vc = allocator_->grant_vc(in);
      if (vc >= 0) depart(in, vc, inputs_[vc_index(in, vc)].head.chosen_vc, t);
    }
  }
  if (buffered_ > 0) {
    Time w = next_wake(t);
    if (w != sim::kNever) schedule_allocation(w);
  }
}

// The earliest time a waiting head could be allocated. A head waiting for
// credits wakes at the next credit already on its way, or marks its output so
// that the next credit returned there schedules a round.
Time Router::next_wake(Time t) {
  const Time period = cfg_.clock.period_ps, st = cfg_.traversal_ps;
  Time wake = sim::kNever;
  const std::uint64_t port_mask = inputs_.port_mask();  // one input's VC bits
  for (int w = 0; w < inputs_.words(); ++w) {
    for (std::uint64_t bits = inputs_.word(w); bits;) {
      int idx = w * 64 + __builtin_ctzll(bits);
      const Head& h = inputs_[idx].head;
      if (h.ready_ps > t) {
        bits &= bits - 1;
        if (h.ready_ps < wake) wake = h.ready_ps;
        continue;
      }
      const Port& in = ports_[inputs_.port_of(idx)];
      if (!input_free(in, t)) {
        // The input forwards another packet: each of its heads (this one
        // and the rest of its port's) can go when it is through the pipeline
        // and the input is free, whichever is later.
        const Time free = cfg_.clock.floor(in.in_busy_until - st);
        const std::uint64_t group = bits & (port_mask << (inputs_.index(inputs_.port_of(idx), 0) & 63));
        bits &= ~group;
        for (std::uint64_t g = group; g; g &= g - 1) {
          const Time ready = inputs_[w * 64 + __builtin_ctzll(g)].head.ready_ps;
          const Time when = ready > t ? ready : free;
          if (when < wake) wake = when;
        }
        continue;
      }
      bits &= bits - 1;
      Port& out = ports_[h.out_port];
      Time when;
      if (h.adaptive) {
        if ((when = option_wake(idx, t)) == sim::kNever) continue;
      } else if (!output_free(out, t))
        when = cfg_.clock.floor(out.out.free_at - st);
      else if (apply_credits(out, h.out_port, t), head_vc(h, out) < 0) {
        if (!out.returning.empty())
          when = out.returning.front().at;
        else {
          credit_waiters_[h.out_port >> 6] |= 1ULL << (h.out_port & 63);
          continue;
        }
      } else
        when = t + period;  // lost arbitration: retry next cycle
      if (when < wake) wake = when;
    }
  }
  return wake;
}

}  // namespace kairo::router
