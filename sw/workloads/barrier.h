// barrier: `iterations` barriers back to back with one algorithm of
// sw/collectives/barrier.h (`--param algo=ring|recursive-doubling|
// dissemination`). Ranks enter the first barrier at staggered times
// (`--param skew`: rank r arrives (r x 7919 mod p) / p x skew after the common
// start) so the barrier has something to wait for.
// Figures: latency_ns = the barrier time, the last rank's exit minus the last
// rank's entry, averaged over iterations; verified (data mode) = the barrier
// held: in every iteration no rank left before every rank had entered.
#pragma once
#include "sw/workloads/workload.h"

namespace kairo::sw {

std::unique_ptr<Workload> make_barrier(Params& p, const MachineInfo& m);

}  // namespace kairo::sw
