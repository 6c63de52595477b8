// allreduce: the element-wise sum of every rank's vector of `size` / 8
// doubles, left in every rank's vector (`--param algo=recursive-doubling
// --param size=64KiB`). Recursive doubling as seed 004's barrier: the p - 2^n
// ranks above 2^n first hand their vectors to a partner, 2^n ranks exchange
// and add in n rounds, then the partners hand the result back. Each addition
// reads both vectors from node memory, adds at `reduce_rate` (bytes of input
// per second, default 10GB/s) and writes the sum back (Rank::read_local,
// write_local). Both partners add in the same order (lower rank's vector
// first), so every rank ends with the same bits.
// Figures: latency_ns = the slowest rank's time; bandwidth_gbps = size over
// it; verified (data mode): every element equals the exact sum (the vectors
// hold small integers, so no sum rounds).
#pragma once
#include "sw/workloads/workload.h"

namespace kairo::sw {

std::unique_ptr<Workload> make_allreduce(Params& p, const MachineInfo& m);

}  // namespace kairo::sw
