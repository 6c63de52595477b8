// The collective workloads, one program driven by sw/collectives' table of
// algorithms (sw/collectives/algorithms.h):
//   barrier         `iterations` barriers back to back (barrier.h)
//   bcast           a broadcast of `size` bytes from `root`
//   scatter         the root's block j to rank j
//   gather          every rank's block to the root
//   allgather       every rank's block to every rank
//   allreduce       the element-wise sum of every rank's `size` / 8 doubles
//   reduce-scatter  part r of that sum at rank r
//   reduce          the sum at the root
//   alltoall        `size` bytes from every rank to every rank (alltoall.h)
//   neighbor        `size` bytes to each of the 2r neighbors on a periodic
//                   process grid (Morie and Nanri 2013) over n NICs (neighbor.h)
// with --param algo= (the collective's algorithms, the first the default;
// an unknown one is refused naming them), size= (not the barrier), root= (bcast, scatter,
// gather, reduce), the knobs the algorithm declares (streams=: Matsuda et
// al.'s n concurrent streams between the two clusters, or gather limited's
// senders at a time) and, for the reductions, reduce_rate_mbps= (bytes of
// input per second an addition runs at; each reads both operands from node
// memory and writes the sum back); neighbor also takes grid= (sizes >= 3
// joined by x; default the topology's own grid placed one hop per neighbor,
// else a three-dimensional factorization of the ranks), nics= (default the
// node's TNIs) and a size up to 1 GiB (a message over the NIC's largest
// descriptor goes as several puts); the barrier and the all-to-all take
// skew_ns= (staggered starts) and their own parameters (their headers).
// Every rank registers the algorithm's send and receive regions (a
// reduction: as far as its own schedule's slots reach), starts at kStart and
// runs its schedule. Figures (the barrier's and the all-to-all's in their
// headers): latency_ns = the slowest rank's time from the
// common start; bandwidth_gbps = the bytes that reach each rank (size; p x
// size for gather and allgather, 2r x size for neighbor) over it;
// details.steps (reductions, neighbor: rank 0's or the root's schedule),
// details.root_steps (bcast), details.phases = when each phase ended (bcast,
// reductions), details.neighbors and .placement (neighbor); verified (data
// mode): every byte is where the collective puts it (the reductions' vectors
// hold small integers, so no sum rounds).
#pragma once
#include "sw/collectives/algorithms.h"
#include "sw/workloads/workload.h"

namespace kairo::sw {

// The workload of collective `c` (one of those above), for workloads().
WorkloadInfo collective_workload(coll::Collective c);

}  // namespace kairo::sw
