#include "sw/collectives/bounds.h"

#include <algorithm>
#include <cmath>

namespace kairo::coll {

std::optional<double> alltoall_lower_bound_ns(const platforms::Platform& p, std::uint64_t m) {
  if (p.kind != platforms::FabricKind::kTorus) return std::nullopt;
  const double flits = std::ceil(double(p.nic.mtu_bytes + p.nic.header_bytes) / p.router.flit_bytes);
  const double B = p.router.link_bytes_per_s * p.nic.mtu_bytes / (flits * p.router.flit_bytes);
  double nodes = 1;
  for (const auto& d : p.dims) nodes *= d.size;
  double best = 0;
  for (const auto& d : p.dims) {
    if (d.size < 2) continue;
    const double alpha = d.wrap && d.size >= 3 ? 0.5 : 1.0;
    const double bound =
        alpha * std::floor(d.size / 2.0) * std::ceil(d.size / 2.0) * (nodes / d.size) * double(m) / B;
    best = std::max(best, bound);
  }
  return best * 1e9;
}

}  // namespace kairo::coll
