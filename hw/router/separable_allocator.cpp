// Separable allocation on port-level requests, either order: see
// separable_allocator.h.
#include "hw/router/separable_allocator.h"

#include <algorithm>

namespace kairo::router {

template <bool kInputFirst>
SeparableAllocator<kInputFirst>::SeparableAllocator(int inputs, int vcs, int outputs)
    : PortMatchAllocator(kName, inputs, vcs, outputs) {
  first_ptr_.assign(std::size_t(first_ports()), 0);
  second_ptr_.assign(std::size_t(second_ports()), 0);
  stage2_.assign(std::size_t(second_ports()) * std::size_t(first_words()), 0);
}

template <bool kInputFirst>
void SeparableAllocator<kInputFirst>::match() {
  const int na = first_ports(), nb = second_ports(), aw = first_words(), bw = second_words();

  // Stage 1: each first-side arbiter picks one of the ports its line
  // requests and raises that request on the port's stage-2 vector.
  for (int a = 0; a < na; ++a) {
    const std::uint64_t* line = line_of(a);
    const int b = round_robin_arbitrate(bw, first_ptr_[a], [line](int w) { return line[w]; });
    if (b >= 0) stage2_[std::size_t(b) * aw + (a >> 6)] |= request_bit(a);
  }

  // Stage 2: each second-side arbiter picks one of those. Only a match
  // moves pointers, at both arbiters on its path.
  for (int b = 0; b < nb; ++b) {
    std::uint64_t* req = &stage2_[std::size_t(b) * aw];
    const int a = round_robin_arbitrate(aw, second_ptr_[b], [req](int w) { return req[w]; });
    if (a < 0) continue;
    std::fill(req, req + aw, 0);
    if constexpr (kInputFirst)
      match_pair(a, b);
    else
      match_pair(b, a);
    advance(a, b);
  }
}

// One request: both arbiters on its path see a single requester and grant
// it, moving their pointers one past it.
template <bool kInputFirst>
void SeparableAllocator<kInputFirst>::allocate_single(int input, int vc, int output, std::uint64_t /*age*/) {
  match_single(input, vc, output);
  if constexpr (kInputFirst)
    advance(input, output);
  else
    advance(output, input);
}

template class SeparableAllocator<true>;
template class SeparableAllocator<false>;

}  // namespace kairo::router
