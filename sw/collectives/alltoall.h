// All-to-all: every rank sends block j (`size` bytes at j x size in its send
// region) to rank j, which keeps it at (sender x size) in its receive region.
// The rank's own block is not sent (a local copy, outside the network).
//   a2a ........ simple spread (Yazaki et al. 2015): one step posting the puts to
//                rank + 1, rank + 2, ... (mod p) in that order, then waiting
//                for all p - 1 arrivals; TNIs taken in turn
//   a2at ....... topology-aware, for one rank on every node of a mesh/torus
//                (Yazaki et al. 2015's A2AT; its definition, in Yazaki et al. 2015's reference
//                [28], is not available: this is kairo's own design). Phase
//                i = 1 .. p - 1 is a translation: every rank puts to its
//                coordinates plus o(i) (mod each dimension's size) and
//                receives from minus o(i), so every phase is a permutation.
//                o(i) comes from i's mixed-radix digits (dimension 0 fastest)
//                through a unimodular lower-triangular map, staggered per
//                dimension (torus_ranks.h: phase_offset), so consecutive
//                phases move in every dimension at once; simple spread
//                stays in X for its first X - 1 phases and leaves Y and Z
//                idle (Yazaki et al. 2015, Fig. 3). One step posts
//                every phase's put in that order, as a2a does; TNIs in turn.
//   tofu ....... the Tofu MPI all-to-all of Yazaki et al. 2015 (Fig. 4), also our own
//                design: a2at's phase order with the digits taken in the
//                routers' routing order, the phases grouped `barrier_every`
//                (k) at a time, one step per group (its k puts, then its k
//                arrivals), and a dissemination barrier between groups, so
//                no rank runs more than a group ahead. Default k =
//                ceil((p - 1) / 3): two barriers, as in Yazaki et al. 2015. The
//                barriers' 8-byte signals use a scratch word at p x size in
//                both regions, which must therefore hold p x size + 8 bytes.
//   pairwise ... p - 1 steps; in step i a rank exchanges with rank xor i
//                when p is a power of two, otherwise it puts to rank + i and
//                waits for rank - i (mod p)
// Tags: phase i raises tag_base + i; tofu's g-th barrier (g = 0, 1, ...)
// uses tag_base + p + g x ceil(log2 p) onwards.
// Step phases (for per-phase times): "exchange" and, in tofu, "barrier".
#pragma once
#include "sw/collectives/algorithms.h"
#include "sw/collectives/schedule.h"
#include "sw/collectives/torus_ranks.h"

namespace kairo::coll {

Schedule alltoall_a2a(int rank, int p, std::uint64_t size, std::uint32_t tag_base);
Schedule alltoall_a2at(int rank, const TorusRanks& t, std::uint64_t size, std::uint32_t tag_base);
// Throws std::invalid_argument unless 1 <= barrier_every <= p - 1.
Schedule alltoall_tofu(int rank, const TorusRanks& t, std::uint64_t size, std::uint32_t tag_base,
                       int barrier_every);
Schedule alltoall_pairwise(int rank, int p, std::uint64_t size, std::uint32_t tag_base);

// tofu's default group: ceil((p - 1) / 3) phases, so two barriers.
int tofu_default_barrier_every(int p);
// Barriers in a tofu all-to-all: ceil((p - 1) / k) groups, one barrier fewer.
int tofu_barriers(int p, int barrier_every);

// a2at and tofu need one rank on every node of a mesh/torus (their
// descriptors' needs_torus, algorithms.cpp).
struct AlltoallOptions {
  const TorusRanks* torus = nullptr;  // a2at, tofu
  int barrier_every = 0;              // tofu; 0 = the default
};
inline Schedule alltoall(const std::string& algo, int rank, int p, std::uint64_t size, std::uint32_t tag_base,
                         const AlltoallOptions& opt = {}) {
  Call c{rank, p, 0, size, 1, tag_base};
  c.barrier_every = opt.barrier_every;
  c.torus = opt.torus;
  return build(Collective::kAlltoall, algo, c);
}

}  // namespace kairo::coll
