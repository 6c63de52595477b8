// pattern: a communication pattern replayed on a fat tree, or on the hybrid
// EPS+OCS network with Takizawa et al. 2008's locality-aware routing (sw/hybrid):
//   --param pattern=neighbor ... Takizawa et al. 2008's Neighbor benchmark: an R x C
//                                 process grid (grid=8x16), every process
//                                 sends `size` (40MB) to its up, down, left
//                                 and right neighbours (open borders; wrap
//                                 with periodic=1)
//   --param pattern=FILE.csv .... a ranks x ranks matrix of bytes per
//                                 iteration (NAS CG, MG, ... brought by the
//                                 user)
//   --param iterations=5 --param scheme=sp|cp|eps --param pathways=N
// scheme sp (Switch Partitioning: processes stay on nodes in rank order) or
// cp (Communication Partitioning: METIS regroups them, then SP) assigns
// `pathways` (default ocs.pathways) optical pathways, set up before the run;
// eps uses the electronic network only (the default without an `ocs:`
// section). circuits=preset (the default, Takizawa et al. 2008's pre-built pathways) has
// them up at time 0; with circuits=request each pathway's first node asks
// the circuit controller from its program when it starts (firmware
// Rank::request_pathway), so they come up after the reconfiguration delay
// and the optical sends wait for them (ocs.on_circuit_down=hold). Every message larger than ocs.threshold to
// another edge switch follows the forwarding tables' route; each relay node forwards a message once all of it
// has arrived (EO-OE, store-and-forward). In every iteration each process posts its messages and its relays,
// then waits for what it receives and relays. Figures: latency_ns = the slowest process's end; bandwidth_gbps
// = the bytes a process sends per iteration x iterations over it. Details: the top EPS switch's load (bytes
// it received), the largest node EPS-link load (bytes a node sent and received on its EPS link), the pathways
// used, the circuit reconfigurations and their time, each measured in the network and
// (`model_*`) tallied from the routes. Verified (data mode): every message
// arrives byte-exact at its destination after its relays.
#pragma once
#include "sw/workloads/workload.h"

namespace kairo::sw {

std::unique_ptr<Workload> make_pattern(Params& p, const MachineInfo& m);

}  // namespace kairo::sw
