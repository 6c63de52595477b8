// Reductions of a vector of `size` bytes of doubles (a multiple of 8) held
// in every rank's send region, summed in place; scratch slots for what
// arrives are in the receive region (recv_extent() of the schedule says how
// much). Sums take the lower index's operand first, so a run's bits are
// fixed by the algorithm and the rank count alone.
//   allreduce
//     recursive-doubling  ceil(log2 p) exchanges of the whole vector; with
//                         p not a power of two the ranks above the largest
//                         power of two first hand their vector to rank - 2^k
//                         and get the result back at the end (as Susukita et al. 2016's
//                         barrier)
//     ring .............. reduce_scatter_ring then allgather_ring: 2 (p - 1)
//                         steps of size / p
//     rabenseifner ...... reduce_scatter_halving then allgather_doubling on
//                         the largest power of two, with the same pre- and
//                         post-step for the other ranks
//     rabenseifner-ext .. Matsuda et al. §3.5: each half of the ranks (a cluster)
//                         reduce-scatters, counter_reduce exchanges and sums
//                         the parts between the halves with at most `streams`
//                         members crossing, each half allgathers; the halves
//                         must be a power of two
//     twotier ........... Matsuda et al. §3.6: each half reduces to its first
//                         member (reduce-scatter then gather), the two first
//                         members exchange and sum the vectors, each half
//                         broadcasts (scatter then allgather)
//   reduce-scatter (rank r ends with part r of p, summed)
//     ring, halving (p a power of two)
//   reduce (the root ends with the sum)
//     binomial .......... the vector up a binomial tree
//     rabenseifner ...... reduce_scatter_halving then gather_binomial to the
//                         root, with the pre-step for the other ranks
// Each algorithm's entry (name, rank-count rule, receive slots, knobs) is in
// sw/collectives/algorithms.cpp.
#pragma once
#include "sw/collectives/algorithms.h"
#include "sw/collectives/schedule.h"

namespace kairo::coll {

// rank, p, root, size, streams, tag_base: the first members of a Call.
using Reduction = Call;

Schedule allreduce_recursive_doubling(const Reduction& c);
Schedule allreduce_ring(const Reduction& c);
Schedule allreduce_rabenseifner(const Reduction& c);
Schedule allreduce_rabenseifner_ext(const Reduction& c);
Schedule allreduce_twotier(const Reduction& c);
Schedule reduce_scatter_ring(const Reduction& c);
Schedule reduce_scatter_halving(const Reduction& c);
Schedule reduce_binomial(const Reduction& c);
Schedule reduce_rabenseifner(const Reduction& c);

// kAllreduce, kReduceScatter or kReduce.
using ReductionKind = Collective;
// Throws std::invalid_argument for an unknown name or a rank count the
// algorithm does not allow, naming what it needs.
inline Schedule reduction(ReductionKind k, const std::string& algo, const Reduction& c) {
  return build(k, algo, c);
}

}  // namespace kairo::coll
