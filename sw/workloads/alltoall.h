// alltoall: one all-to-all of `size` bytes per pair with an algorithm of
// sw/collectives/alltoall.h (`--param algo=a2a|a2at|tofu|pairwise --param
// size=32KiB`; tofu also takes `--param barrier_every=k`, 1 to p - 1).
// a2at and tofu need one rank on every node of a mesh/torus (any ranks.map
// that is a permutation of the nodes); elsewhere the run is refused.
// Figures: latency_ns = the slowest rank's time from the common start;
// bandwidth_gbps = the algorithmic bandwidth, (p - 1) x size per rank over
// that time; details.phases = each stretch of the schedule's phases
// ("exchange", tofu's "barrier", with a "round" when a phase recurs) and when
// its last rank left it; verified (data mode): every rank's receive region
// holds, at j x size, exactly the block rank j addressed to it.
#pragma once
#include "sw/workloads/workload.h"

namespace kairo::sw {

std::unique_ptr<Workload> make_alltoall(Params& p, const MachineInfo& m);

}  // namespace kairo::sw
