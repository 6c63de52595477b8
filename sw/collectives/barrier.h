// Barriers over puts (Susukita et al. 2016, section 4.2): every step a rank puts a few
// bytes to its partners and waits until its partners' puts have landed.
//   ring ................ p - 1 steps: put to rank + 1, wait for rank - 1
//   recursive doubling .. p = 2^n + r: the r ranks above 2^n first put to
//                         their partner rank - 2^n; then n steps of pairwise
//                         exchange with rank xor 2^i among the first 2^n; then
//                         the partners put back to the r extra ranks
//   dissemination ....... ceil(log2 p) steps: put to rank + 2^i, wait for
//                         rank - 2^i (mod p)
// Tags are `tag_base` + the step index, so barriers run back to back stay apart
// when each uses its own base.
#pragma once
#include "sw/collectives/algorithms.h"
#include "sw/collectives/schedule.h"

namespace kairo::coll {

inline constexpr std::uint64_t kBarrierBytes = 8;

Schedule barrier_ring(int rank, int p, std::uint32_t tag_base);
Schedule barrier_recursive_doubling(int rank, int p, std::uint32_t tag_base);
Schedule barrier_dissemination(int rank, int p, std::uint32_t tag_base);

// The builder for one of the names `--param algo=` takes (algorithms.cpp).
inline Schedule barrier(const std::string& algo, int rank, int p, std::uint32_t tag_base) {
  return build(Collective::kBarrier, algo, Call{rank, p, 0, 0, 1, tag_base});
}

}  // namespace kairo::coll
