#include "sw/collectives/barrier.h"

#include <algorithm>

namespace kairo::coll {

// Each builder reserves exactly its steps: every rank holds its schedule
// while the barrier runs (82,944 at once on the K computer), and a vector
// grown by doubling would carry up to twice as many.

namespace {
Put signal(int to, std::uint32_t tag) { return Put{to, 0, 0, kBarrierBytes, tag, 0}; }
}  // namespace

Schedule barrier_ring(int rank, int p, std::uint32_t tag_base) {
  Schedule s;
  s.reserve(std::size_t(std::max(p - 1, 0)));
  for (int k = 0; k + 1 < p; ++k) {
    const std::uint32_t tag = tag_base + std::uint32_t(k);
    s.push_back(Step{{signal((rank + 1) % p, tag)}, {Wait{(rank + p - 1) % p, tag}}});
  }
  return s;
}

Schedule barrier_recursive_doubling(int rank, int p, std::uint32_t tag_base) {
  Schedule s;
  if (p < 2) return s;
  int pow2 = 1, n = 0;
  while (pow2 * 2 <= p) pow2 *= 2, ++n;
  const int extra = p - pow2;
  const bool paired = rank >= pow2 || rank < extra;  // one of the extra ranks, or its partner
  s.reserve(std::size_t(rank < pow2 ? n : 0) + (paired ? 2 : 0));
  std::uint32_t tag = tag_base;
  if (extra > 0) {  // the ranks above 2^n report to their partners first
    if (rank >= pow2)
      s.push_back(Step{{signal(rank - pow2, tag)}, {}});
    else if (rank < extra)
      s.push_back(Step{{}, {Wait{rank + pow2, tag}}});
    ++tag;
  }
  if (rank < pow2)
    for (int i = 0; i < n; ++i, ++tag) {
      const int partner = rank ^ (1 << i);
      s.push_back(Step{{signal(partner, tag)}, {Wait{partner, tag}}});
    }
  else
    tag += std::uint32_t(n);
  if (extra > 0) {  // and are released by them last
    if (rank >= pow2)
      s.push_back(Step{{}, {Wait{rank - pow2, tag}}});
    else if (rank < extra)
      s.push_back(Step{{signal(rank + pow2, tag)}, {}});
  }
  return s;
}

Schedule barrier_dissemination(int rank, int p, std::uint32_t tag_base) {
  Schedule s;
  int rounds = 0;
  for (int d = 1; d < p; d *= 2) ++rounds;
  s.reserve(std::size_t(rounds));
  for (int i = 0, d = 1; d < p; ++i, d *= 2) {
    const std::uint32_t tag = tag_base + std::uint32_t(i);
    s.push_back(Step{{signal((rank + d) % p, tag)}, {Wait{(rank + p - d) % p, tag}}});
  }
  return s;
}

}  // namespace kairo::coll
