#include "sw/collectives/bcast.h"

namespace kairo::coll {

Schedule bcast_binomial(int rank, int p, int root, std::uint64_t size, std::uint32_t tag_base) {
  Schedule s;
  const int v = (rank - root + p) % p;  // distance from the root
  for (int k = 0, d = 1; d < p; ++k, d *= 2) {
    Step step;
    const std::uint32_t tag = tag_base + std::uint32_t(k);
    if (v < d && v + d < p) step.puts.push_back(Put{(rank + d) % p, 0, 0, size, tag, 0, /*from_recv=*/true});
    if (v >= d && v < 2 * d) step.waits.push_back(Wait{(rank - d + p) % p, tag});
    if (!step.puts.empty() || !step.waits.empty()) s.push_back(step);
  }
  return s;
}

}  // namespace kairo::coll
