// alltoall: one all-to-all of `size` bytes per pair with an algorithm of
// sw/collectives/alltoall.h (`--param algo=a2a|pairwise --param size=32KiB`).
// Figures: latency_ns = the slowest rank's time from the common start;
// bandwidth_gbps = the algorithmic bandwidth, (p - 1) x size per rank over
// that time; verified (data mode): every rank's receive region holds, at
// j x size, exactly the block rank j addressed to it.
#pragma once
#include "sw/workloads/workload.h"

namespace kairo::sw {

std::unique_ptr<Workload> make_alltoall(Params& p, const MachineInfo& m);

}  // namespace kairo::sw
