// bcast: a broadcast of `size` bytes from `root` with an algorithm of
// sw/collectives/bcast.h (`--param algo=binomial --param size=1MiB
// --param root=0`). Figures: latency_ns = the slowest rank's time from the
// common start; bandwidth_gbps = size over that time; verified (data mode):
// every rank's buffer holds the root's bytes.
#pragma once
#include "sw/workloads/workload.h"

namespace kairo::sw {

std::unique_ptr<Workload> make_bcast(Params& p, const MachineInfo& m);

}  // namespace kairo::sw
