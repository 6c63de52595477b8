// Reductions of every rank's vector of `size` / 8 doubles
// (sw/collectives/allreduce.h for the algorithms):
//   --workload allreduce      --param algo=recursive-doubling|ring|rabenseifner|rabenseifner-ext|twotier
//   --workload reduce-scatter --param algo=ring|halving
//   --workload reduce         --param algo=binomial|rabenseifner --param root=
// with --param size= (a multiple of 8), streams= (the extended algorithm's
// concurrent inter-cluster streams, Matsuda et al.'s n), reduce_rate_mbps= (bytes
// of input per second an addition runs at; each reads both operands from
// node memory and writes the sum back through Rank::read_local/write_local).
// Every sum takes the lower index's operand first (A's cluster first across
// clusters), so a run's bits depend on the algorithm and rank count only.
// Figures: latency_ns = the slowest rank's time; bandwidth_gbps = size over
// it (algorithmic bandwidth); details.phases = when each phase ended;
// verified (data mode): the ranks that hold a result hold the exact sums
// (the vectors hold small integers, so no sum rounds).
#pragma once
#include "sw/workloads/workload.h"

namespace kairo::sw {

std::unique_ptr<Workload> make_allreduce(Params& p, const MachineInfo& m);
std::unique_ptr<Workload> make_reduce_scatter(Params& p, const MachineInfo& m);
std::unique_ptr<Workload> make_reduce(Params& p, const MachineInfo& m);

}  // namespace kairo::sw
