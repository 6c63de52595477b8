// A machine's blocks registered for observation (observe/registry.h), each
// set from its block's own report (hw/router/router_observe.h,
// hw/ocs/ocs_observe.h, hw/nic/tni_observe.h), named where it sits in the
// network: the counter log, --tni-counters and the JSON summary's
// nic_counters are written from these sets, a split run moves their state
// into process 0, and the tracer records the signals they declare.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "observe/registry.h"
#include "platforms/network.h"
#include "platforms/rdma_machine.h"

namespace kairo::platforms {

// Table "link": every connected router port, then the optical ports of a
// hybrid network; table "tni": every RDMA engine (an empty set without a
// machine, so the tables keep their columns); table "alloc", only where a
// router counts its allocation's choices: those routers' ports. The signal
// classes, and the traced kinds: routers, RDMA engines, the optical switch.
observe::Registry observe_blocks(Network& net, RdmaMachine* machine);
// The RDMA engines alone. Neither this nor observe_blocks is for a partial
// build (OwnedPart): its blocks are not the whole machine's.
observe::CounterSet tni_blocks(RdmaMachine* machine);
// The most VCs of any router (at least 1): the link table's zero-credit columns.
int widest_vcs(Network& net);

// The JSON summary's nic_counters: every engine's counters summed, and the
// high-water marks' most.
nlohmann::json nic_counter_summary(RdmaMachine& m);
// Their totals over the engines built here (nic::tni_counters() order): a
// split run adds them up over its processes.
std::vector<std::uint64_t> nic_counter_totals(RdmaMachine& m);
// --tni-counters: one CSV line per engine that did anything (took a command
// or received a packet).
std::string tni_table(RdmaMachine& m);
// The same in parts: its header line, and the lines of the engines built
// here (each keyed by its engine's index, node x TNIs per node + TNI, in
// that order), which a split run's processes send to process 0.
std::string tni_table_header();
std::vector<std::pair<std::uint64_t, std::string>> tni_table_rows(RdmaMachine& m);

}  // namespace kairo::platforms
