// Separable output-first allocation on port-level requests: see
// separable_output_first_allocator.h.
#include "hw/router/separable_output_first_allocator.h"

#include <algorithm>

namespace kairo::router {

SeparableOutputFirstAllocator::SeparableOutputFirstAllocator(int inputs, int vcs, int outputs)
    : PortMatchAllocator(kName, inputs, vcs, outputs) {
  out_ptr_.assign(std::size_t(outputs), 0);
  in_ptr_.assign(std::size_t(inputs), 0);
  stage2_.assign(std::size_t(inputs) * std::size_t(out_words()), 0);
}

void SeparableOutputFirstAllocator::match() {
  const int n_in = inputs(), n_out = outputs(), iw = in_words(), ow = out_words();

  // Stage 1: each output's arbiter grants one of the inputs requesting it;
  // the grant is raised on that input's stage-2 vector.
  for (int o = 0; o < n_out; ++o) {
    const std::uint64_t* line = inputs_of(o);
    const int i = round_robin_arbitrate(iw, out_ptr_[o], [line](int w) { return line[w]; });
    if (i >= 0) stage2_[std::size_t(i) * ow + (o >> 6)] |= request_bit(o);
  }

  // Stage 2: each input's arbiter accepts one of the outputs that granted
  // it. Only a match moves pointers, at both arbiters on its path.
  for (int i = 0; i < n_in; ++i) {
    std::uint64_t* grants = &stage2_[std::size_t(i) * ow];
    const int o = round_robin_arbitrate(ow, in_ptr_[i], [grants](int w) { return grants[w]; });
    if (o < 0) continue;
    std::fill(grants, grants + ow, 0);
    match_pair(i, o);
    out_ptr_[o] = i + 1 == n_in ? 0 : i + 1;
    in_ptr_[i] = o + 1 == n_out ? 0 : o + 1;
  }
}

// One request: both arbiters on its path see a single requester and grant
// it, moving their pointers one past it.
void SeparableOutputFirstAllocator::allocate_single(int input, int vc, int output, std::uint64_t /*age*/) {
  match_single(input, vc, output);
  out_ptr_[output] = input + 1 == inputs() ? 0 : input + 1;
  in_ptr_[input] = output + 1 == outputs() ? 0 : output + 1;
}

}  // namespace kairo::router
