// Lower bounds that collective results are compared against.
#pragma once
#include <cstdint>
#include <optional>

#include "platforms/platform.h"

namespace kairo::coll {

// Yazaki et al. 2015, formula (1): the all-to-all lower bound on a mesh/torus,
//   L = alpha floor(k_b / 2) ceil(k_b / 2) (prod_{i != b} k_i) m / B,
// with k_b the bottleneck dimension (the one that maximizes the bound; alpha
// = 1/2 when it wraps around as a ring, 1 otherwise), m the bytes per pair
// and B a link's payload bandwidth (link bandwidth x MTU / the wire bytes of
// a full packet, as the packets carry headers). In ns; nullopt on switched
// fabrics, where the formula does not apply.
std::optional<double> alltoall_lower_bound_ns(const platforms::Platform& p, std::uint64_t m);

}  // namespace kairo::coll
