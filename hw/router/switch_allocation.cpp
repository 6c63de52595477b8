// The switch allocation stage: see hw/router/switch_allocation.h.
#include "hw/router/switch_allocation.h"

#include <stdexcept>

namespace kairo::router {

using sim::Time;

SwitchAllocation::SwitchAllocation(const RouterConfig& cfg, InputUnit& inputs, OutputUnit& outputs,
                                   WaySelection& ways, const RouterTrace& trace)
    : cfg_(cfg), inputs_(inputs), outputs_(outputs), ways_(ways), trace_(trace) {
  const int np = outputs.size();
  allocator_ = make_allocator(cfg.allocator, np, cfg.vcs, np, /*shared_rounds=*/true, cfg.islip_iterations);
  if (!allocator_) throw std::invalid_argument("unknown allocator '" + cfg.allocator + "'");
  if (requests_.size() < inputs.size()) requests_.resize(inputs.size());
}

// Every eligible head whose input, output link and a downstream VC are
// available requests its output, its VC chosen (chosen_vc; -1 for the rest).
// Every other head's wake (head_wake's rules, from the state before this
// round's departures) lowers `wake`.
int SwitchAllocation::request(Time t, Time& wake) {
  InputUnit& inputs = inputs_;
  OutputUnit& outputs = outputs_;
  int n = 0;
  const std::uint64_t port_mask = inputs.port_mask();  // one input's VC bits
  const bool by_age = allocator_->uses_age();
  for (int w = 0; w < inputs.words(); ++w) {
    for (std::uint64_t bits = inputs.word(w); bits;) {
      int idx = w * 64 + __builtin_ctzll(bits);
      int in = inputs.port_of(idx), vc = inputs.vc_of(idx);
      InputVc& ivc = inputs[idx];
      const Head& h = ivc.head;
      if (h.ready_ps > t) {
        bits &= bits - 1;
        if (h.ready_ps < wake) wake = h.ready_ps;
        continue;
      }
      const Port& in_port = outputs[in];
      if (!outputs.input_free(in_port, t)) {
        // The input forwards another packet: each of its heads (this one and
        // the rest of its port's) can go when it is through the pipeline and
        // the input is free, whichever is later.
        const Time free = free_from(in_port.in_busy_until);
        const std::uint64_t group = bits & (port_mask << (inputs.index(in, 0) & 63));
        bits &= ~group;
        for (std::uint64_t g = group; g; g &= g - 1) {
          const Time ready = inputs[w * 64 + __builtin_ctzll(g)].head.ready_ps;
          const Time when = ready > t ? ready : free;
          if (when < wake) wake = when;
        }
        continue;
      }
      bits &= bits - 1;
      ivc.head.chosen_vc = -1;
      int ov;
      if (h.adaptive) {
        if ((ov = ways_.choose(idx, t)) < 0) {
          const Time when = ways_.option_wake(idx, t);
          if (when < wake) wake = when;
          continue;
        }
      } else {
        Port& out = outputs[h.out_port];
        if (!outputs.output_free(out, t)) {
          const Time when = free_from(out.out.free_at);
          if (when < wake) wake = when;
          continue;
        }
        outputs.apply_credits(out, h.out_port, t);
        ov = outputs.head_vc(h, out);
        if (ov < 0) {
          if (trace_.on()) trace_.short_of_credits(in, vc, h.out_port, t);
          const Time when = credit_wake(out, h.out_port);
          if (when < wake) wake = when;
          continue;
        }
        if (trace_.on()) trace_.has_credits(in, vc, h.out_port);
      }
      ivc.head.chosen_vc = std::int8_t(ov);
      requests_[n++] = Request{in, vc, h.out_port, by_age ? ivc.fifo.front().created_ps : 0};
    }
  }
  return n;
}

Time SwitchAllocation::next_wake(Time t) {
  Time wake = sim::kNever;
  for (int w = 0; w < inputs_.words(); ++w)
    for (std::uint64_t bits = inputs_.word(w); bits; bits &= bits - 1) {
      const Time when = head_wake(w * 64 + __builtin_ctzll(bits), t);
      if (when < wake) wake = when;
    }
  return wake;
}

// A head not ready waits until it is; one behind a busy input until the
// input is free; one for a busy output until the output is; one short of
// credits until the next credit already on its way, or, when none is, its
// output is marked so that the next credit returned there schedules a round
// (kNever); an adaptive one until the first of its ways could take it; one
// that could go and did not (lost arbitration) retries next cycle.
Time SwitchAllocation::head_wake(int idx, Time t) {
  InputUnit& inputs = inputs_;
  OutputUnit& outputs = outputs_;
  const Head& h = inputs[idx].head;
  if (h.ready_ps > t) return h.ready_ps;
  const Port& in = outputs[inputs.port_of(idx)];
  if (!outputs.input_free(in, t)) return free_from(in.in_busy_until);
  if (h.adaptive) return ways_.option_wake(idx, t);
  Port& out = outputs[h.out_port];
  if (!outputs.output_free(out, t)) return free_from(out.out.free_at);
  outputs.apply_credits(out, h.out_port, t);
  if (outputs.head_vc(h, out) < 0) return credit_wake(out, h.out_port);
  return t + cfg_.clock.period_ps;
}

}  // namespace kairo::router
