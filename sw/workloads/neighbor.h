// neighbor: every rank exchanges `size` bytes with each of its 2r neighbors
// on a periodic process grid (sw/collectives/neighbor.h, Morie and Nanri 2013):
//   --param algo=native|fragment --param size=1MiB --param grid=4x4x6 --param nics=4
// grid defaults to a three-dimensional factorization of the ranks (every
// side at least 3); nics to the node's TNIs. Figures: latency_ns = the
// slowest rank's time; bandwidth_gbps = 2r x size per rank over it;
// verified (data mode): every received message is the one its neighbor sent.
#pragma once
#include "sw/workloads/workload.h"

namespace kairo::sw {

std::unique_ptr<Workload> make_neighbor(Params& p, const MachineInfo& m);

}  // namespace kairo::sw
