// A partitioned traffic run's pieces that need every process (docs/parallel.md):
// the measurement window's port counters and the run's
// statistics, gathered so that process 0 summarizes exactly what one process
// would have.
#pragma once
#include <cstdint>
#include <vector>

#include "hw/router/port_counters.h"
#include "platforms/network.h"
#include "platforms/partition.h"
#include "sim/mpi_world.h"
#include "traffic/traffic_node.h"

namespace kairo::traffic {

// Per router, per port, what the measurement window's summary reads of its
// counters at `now` (busy_ps, flits_sent, then zero_credit_ps of each VC:
// port_figures(vcs) values), read by the process that owns the router.
// Process 0 gets every router's; the others get an empty table.
using PortTable = std::vector<std::vector<std::uint64_t>>;
inline std::size_t port_figures(int vcs) { return 2 + std::size_t(vcs); }
PortTable gather_port_counters(const sim::MpiWorld& world, platforms::Network& net,
                               const platforms::Partition& part, sim::Time now);

// The run's totals over every process, as one process would have counted
// them: sums, the latest delivery, the measured packets' latencies (process 0
// gets them all, in any order: the summary sorts them), and the network's
// activity. count_deliveries() must have run. `events` and `deadlock` are
// combined too.
void combine_stats(const sim::MpiWorld& world, TrafficStats& stats, hw::NetworkActivity& act,
                   std::uint64_t& events, bool& deadlock);

}  // namespace kairo::traffic
