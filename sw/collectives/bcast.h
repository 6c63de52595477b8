// Broadcast of `size` bytes from `root`, in every rank's receive region (the
// root's copy is the source); every algorithm forwards what has arrived.
//   binomial ......... ceil(log2 p) rounds; in round k every rank whose
//                      distance v from the root is below 2^k puts the whole
//                      message to distance v + 2^k
//   vandegeijn ....... van de Geijn: a binomial scatter of p parts, then an
//                      allgather (recursive doubling when p is a power of
//                      two, a ring otherwise) (Matsuda et al. §3.3 without its
//                      counter_copy)
//   vandegeijn-ext ... Matsuda et al.'s extended van de Geijn: the ranks are two
//                      clusters (the lower and the upper half of the ranks;
//                      p even); the root's half scatters p/2 parts, then
//                      counter_copy sends every part to the same index in the
//                      other half with at most `streams` members crossing at
//                      once, then each half allgathers
//   farfirst ......... Matsuda et al. §3.4: the root first sends the whole message
//                      to its counterpart in the other half, then each half
//                      runs van de Geijn from its root
// In the halves, member i of each half is the rank (root + i) mod p/2 of it.
#pragma once
#include "sw/collectives/algorithms.h"
#include "sw/collectives/schedule.h"

namespace kairo::coll {

Schedule bcast_binomial(int rank, int p, int root, std::uint64_t size, std::uint32_t tag_base);
Schedule bcast_vandegeijn(int rank, int p, int root, std::uint64_t size, std::uint32_t tag_base);
Schedule bcast_vandegeijn_ext(int rank, int p, int root, std::uint64_t size, int streams,
                              std::uint32_t tag_base);
Schedule bcast_farfirst(int rank, int p, int root, std::uint64_t size, std::uint32_t tag_base);

// Throws std::invalid_argument for an unknown name or a rank count the
// algorithm does not allow (the two-cluster ones need an even count).
inline Schedule bcast(const std::string& algo, int rank, int p, int root, std::uint64_t size, int streams,
                      std::uint32_t tag_base) {
  return build(Collective::kBcast, algo, Call{rank, p, root, size, streams, tag_base});
}

}  // namespace kairo::coll
