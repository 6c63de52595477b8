// Wavefront allocation on port-level requests: see wavefront_allocator.h.
#include "hw/router/wavefront_allocator.h"

#include <algorithm>

namespace kairo::router {

WavefrontAllocator::WavefrontAllocator(int inputs, int vcs, int outputs)
    : PortMatchAllocator(kName, inputs, vcs, outputs), n_(std::max(inputs, outputs)) {}

void WavefrontAllocator::match() {
  if (num_requests() == 0) return;  // no wave: the priority diagonal stays
  const int n_in = inputs(), n_out = outputs();
  int free_out = n_out, free_in = n_in;
  // Wave step p: the cells (i, o) with (i + o - pri) mod n == p, one per
  // column o (rows past the last input, in a taller-than-wide array, are
  // empty). A cell grants if its request line is raised and neither its row
  // nor its column granted in an earlier step.
  for (int p = 0; p < n_ && free_out > 0 && free_in > 0; ++p) {
    int i = pri_ + p;  // the cell of column 0; one row up per column
    if (i >= n_) i -= n_;
    for (int o = 0; o < n_out; ++o, i = i == 0 ? n_ - 1 : i - 1) {
      if (i >= n_in || output_matched(o) || input_matched(i)) continue;
      if (!(inputs_of(o)[i >> 6] & request_bit(i))) continue;
      match_pair(i, o);
      --free_out;
      --free_in;
    }
  }
  pri_ = pri_ + 1 == n_ ? 0 : pri_ + 1;
}

// One request: the wave reaches its cell with its row and column free; the
// priority diagonal moves on as after any round with a request.
void WavefrontAllocator::allocate_single(int input, int vc, int output, std::uint64_t /*age*/) {
  match_single(input, vc, output);
  pri_ = pri_ + 1 == n_ ? 0 : pri_ + 1;
}

}  // namespace kairo::router
