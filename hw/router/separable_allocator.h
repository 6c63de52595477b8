// Separable switch allocation on port-level requests with round-robin
// arbiters, in either order: BookSim 2's "separable_input_first" and
// "separable_output_first" with arb_type = round_robin (Dally & Towles,
// sec. 19.3). The two are mirror images, so one class does both: the first
// rank of arbiters sits on one side (inputs for input-first, outputs for
// output-first), the second rank on the other.
//
// Hardware: two ranks of round-robin arbiters on the request lines of
// port_match_allocator.h (input i requests output o when any of its VCs does).
//   Stage 1: one arbiter per first-side port, as wide as the other side,
//   picks one of the ports its line requests; only that request goes on.
//   Stage 2: one arbiter per second-side port, as wide as the first side,
//   picks one of the ports whose stage-1 choice it is. The pair is matched.
// Both arbiters on a matched pair move their pointer one past the winner; a
// stage-1 choice that lost keeps its pointer. The matched input then sends
// a VC requesting the output (the VC pointer of port_match_allocator.h).
// Each order's own header says how it behaves:
// separable_input_first_allocator.h, separable_output_first_allocator.h.
//
// Not maximal: a stage-1 choice that loses leaves its port without a match
// this cycle even when another port it requests stays idle.
//
// Cost per allocate(): O(inputs * ceil(outputs/64) + outputs * ceil(inputs/64)
// + matched inputs * vcs). No heap allocation after construction.
#pragma once
#include <cstdint>
#include <vector>

#include "hw/router/port_match_allocator.h"

namespace kairo::router {

template <bool kInputFirst>
class SeparableAllocator final : public PortMatchAllocator {
 public:
  static constexpr const char* kName = kInputFirst ? "separable_input_first" : "separable_output_first";

  // Throws std::invalid_argument unless inputs, vcs and outputs are all >= 1.
  SeparableAllocator(int inputs, int vcs, int outputs);

  void allocate_single(int input, int vc, int output, std::uint64_t age) override;

 private:
  void match() override;
  // The first and second sides: their port counts and request words, a
  // first-side port's request line, and the (input, output) of a pair.
  int first_ports() const { return kInputFirst ? inputs() : outputs(); }
  int second_ports() const { return kInputFirst ? outputs() : inputs(); }
  int first_words() const { return kInputFirst ? in_words() : out_words(); }
  int second_words() const { return kInputFirst ? out_words() : in_words(); }
  const std::uint64_t* line_of(int a) const { return kInputFirst ? outputs_of(a) : inputs_of(a); }
  // Both arbiters on the path of first-side port a and second-side port b
  // move one past the other.
  void advance(int a, int b) {
    first_ptr_[a] = b + 1 == second_ports() ? 0 : b + 1;
    second_ptr_[b] = a + 1 == first_ports() ? 0 : a + 1;
  }

  std::vector<int> first_ptr_;   // per first-side port: the port with the highest stage-1 priority
  std::vector<int> second_ptr_;  // per second-side port: the port with the highest stage-2 priority
  // Stage-2 request vectors, built and consumed by match(): bit a of
  // second-side port b's words is set when a's stage-1 arbiter chose b.
  std::vector<std::uint64_t> stage2_;  // [b * first_words + w]
};

extern template class SeparableAllocator<true>;
extern template class SeparableAllocator<false>;

}  // namespace kairo::router
