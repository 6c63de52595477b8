// `--workload trace`: an MPI application's OTF2 trace replayed on the
// machine (docs/traces.md): every rank's point to point over the NIC
// (eager below `eager_limit`, rendezvous above), its collectives by kairo's
// algorithms, the time between its MPI calls as compute x `compute_scale`.
// Parameters: trace (DIR/traces.otf2, required), compute_scale (1),
// eager_limit (12KiB), copy_gbps (10), strict (false), algo.COLLECTIVE
// (an algorithm for every call of that collective), and on the hybrid
// EPS+OCS network scheme (eps, sp, cp) and pathways. Figures: latency_ns =
// the predicted time, from the start to the last rank's end; bandwidth_gbps
// = point-to-point bytes per rank over it. Details: the trace's own
// recorded duration, per-rank compute/communication, per-call counts, bytes
// and time, p2p_messages, p2p_bytes, p2p_pairs, collectives.
#pragma once
#include "sw/workloads/workload.h"

namespace kairo::sw {

std::unique_ptr<Workload> make_trace(Params& p, const MachineInfo& m);

}  // namespace kairo::sw
