// alltoall: one all-to-all of `size` bytes per pair with an algorithm of
// sw/collectives/alltoall.h (`--param algo=`, the all-to-alls of the table in
// sw/collectives/algorithms.cpp, and each algorithm's knobs, such as tofu's
// `--param barrier_every=k`, 1 to p - 1; a2at also takes `--param
// order=mirror|plain`). An algorithm that needs_torus needs one rank on
// every node of a mesh/torus (any ranks.map that is a permutation of the
// nodes); elsewhere the run is refused. `--param skew_ns` staggers the starts.
// Figures: latency_ns = the slowest rank's time from the common start;
// bandwidth_gbps = the algorithmic bandwidth, (p - 1) x size per rank over
// that time; details.phases = each stretch of the schedule's phases
// ("exchange", tofu's "barrier", with a "round" when a phase recurs) and when
// its last rank left it; the algorithm's knobs and figures (tofu: barriers);
// verified (data mode): every rank's receive region holds, at j x size,
// exactly the block rank j addressed to it.
// One of the collective workloads (collective.h).
#pragma once
#include "sw/workloads/collective_run.h"

namespace kairo::sw {

extern const Spec kAlltoallSpec;

}  // namespace kairo::sw
