// scatter, gather and allgather of `size`-byte blocks (sw/collectives/gather.h):
//   --workload scatter   --param algo=linear                  --param size= --param root=
//   --workload gather    --param algo=linear|limited --param streams=n (limited)
//   --workload allgather --param algo=ring|recursive-doubling (a power-of-two rank count)
// Figures: latency_ns = the slowest rank's time from the common start;
// bandwidth_gbps = the bytes that reach each rank (p x size for allgather,
// size for scatter, p x size at the root for gather) over that time;
// verified (data mode): every block is where the collective puts it.
#pragma once
#include "sw/workloads/workload.h"

namespace kairo::sw {

std::unique_ptr<Workload> make_scatter(Params& p, const MachineInfo& m);
std::unique_ptr<Workload> make_gather(Params& p, const MachineInfo& m);
std::unique_ptr<Workload> make_allgather(Params& p, const MachineInfo& m);

}  // namespace kairo::sw
