// neighbor: `size` bytes to each of the 2r neighbors on a periodic process
// grid (Morie and Nanri 2013) over n NICs, with an algorithm of
// sw/collectives/neighbor.h (`--param algo=native|fragment`); `--param
// grid=` (sizes >= 3 joined by x; default the topology's own grid placed one
// hop per neighbor, else a three-dimensional factorization of the ranks),
// `nics=` (default the node's TNIs) and a size up to 1 GiB (a message over
// the NIC's largest descriptor goes as several puts). One of the collective
// workloads (collective.h).
#pragma once
#include "sw/workloads/collective_run.h"

namespace kairo::sw {

extern const Spec kNeighborSpec;

}  // namespace kairo::sw
