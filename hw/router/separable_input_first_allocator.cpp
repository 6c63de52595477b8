// Separable input-first allocation on port-level requests: see
// separable_input_first_allocator.h.
#include "hw/router/separable_input_first_allocator.h"

#include <algorithm>

namespace kairo::router {

SeparableInputFirstAllocator::SeparableInputFirstAllocator(int inputs, int vcs, int outputs)
    : PortMatchAllocator(kName, inputs, vcs, outputs) {
  in_ptr_.assign(std::size_t(inputs), 0);
  out_ptr_.assign(std::size_t(outputs), 0);
  stage2_.assign(std::size_t(outputs) * std::size_t(in_words()), 0);
}

void SeparableInputFirstAllocator::match() {
  const int n_in = inputs(), n_out = outputs(), iw = in_words(), ow = out_words();

  // Stage 1: each input's arbiter picks one of the outputs it requests and
  // raises that request on the output's stage-2 vector.
  for (int i = 0; i < n_in; ++i) {
    const std::uint64_t* line = outputs_of(i);
    const int o = round_robin_arbitrate(ow, in_ptr_[i], [line](int w) { return line[w]; });
    if (o >= 0) stage2_[std::size_t(o) * iw + (i >> 6)] |= request_bit(i);
  }

  // Stage 2: each output's arbiter picks one of those inputs. Only a match
  // moves pointers, at both arbiters on its path.
  for (int o = 0; o < n_out; ++o) {
    std::uint64_t* req = &stage2_[std::size_t(o) * iw];
    const int i = round_robin_arbitrate(iw, out_ptr_[o], [req](int w) { return req[w]; });
    if (i < 0) continue;
    std::fill(req, req + iw, 0);
    match_pair(i, o);
    in_ptr_[i] = o + 1 == n_out ? 0 : o + 1;
    out_ptr_[o] = i + 1 == n_in ? 0 : i + 1;
  }
}

// One request: both arbiters on its path see a single requester and grant
// it, moving their pointers one past it.
void SeparableInputFirstAllocator::allocate_single(int input, int vc, int output, std::uint64_t /*age*/) {
  match_single(input, vc, output);
  in_ptr_[input] = output + 1 == outputs() ? 0 : output + 1;
  out_ptr_[output] = input + 1 == inputs() ? 0 : input + 1;
}

}  // namespace kairo::router
