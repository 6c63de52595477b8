// barrier: `iterations` barriers back to back with one algorithm of
// sw/collectives/barrier.h (`--param algo=`, the barriers of the table in
// sw/collectives/algorithms.cpp). Ranks enter the first barrier at staggered
// times (`--param skew_ns`: rank r arrives (r x 7919 mod p) / p x skew after
// the common start) so the barrier has something to wait for.
// Figures: latency_ns = the barrier time, the last rank's exit minus the last
// rank's entry, averaged over iterations; details.steps_rank0 and
// .barrier_held; verified (data mode) = the barrier held: in every iteration
// no rank left before every rank had entered.
// One of the collective workloads (collective.h): its Spec is barrier_spec()
// (collective_run.h).
#pragma once
#include "sw/workloads/collective_run.h"

namespace kairo::sw {

extern const Spec kBarrierSpec;

}  // namespace kairo::sw
