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
#include "sim/byte_codec.h"
#include "sim/mpi_world.h"
#include "traffic/traffic_node.h"

namespace kairo::traffic {

// Per router, what the measurement window's summary reads of its ports,
// read by the process that owns the router: its ports and VCs, then per port
// (port_figures(vcs) values) its flags (kPortConnected, kPortLink: a
// router-to-router link), and its counters at `now`: busy_ps, flits_sent,
// zero_credit_ps of each VC. Every process sends its own routers' to process
// 0, which reads them in router order, also those it did not build (a
// partial build), without a table of them all: router i is the next of its
// owner's, which sends its routers in ascending order.
constexpr std::uint64_t kPortConnected = 1, kPortLink = 2;
constexpr std::size_t kRouterHeader = 2;  // ports, VCs
inline std::size_t port_figures(int vcs) { return 3 + std::size_t(vcs); }
class PortFigures {
 public:
  // Every process calls it (a collective call); only process 0 reads.
  PortFigures(const sim::MpiWorld& world, platforms::Network& net, const platforms::Partition& part,
              sim::Time now);
  // Router i's figures (kRouterHeader + ports x port_figures(vcs) values),
  // valid until the next call; i = 0, 1, 2 ... in turn.
  const std::uint64_t* router(std::uint32_t i);

 private:
  const platforms::Partition& part_;
  std::vector<std::vector<char>> bytes_;  // per process, what it sent
  std::vector<sim::ByteReader> at_;       // per process, where its next router starts
  std::vector<std::uint64_t> entry_;
};

// The run's totals over every process, as one process would have counted
// them: sums, the latest delivery, the measured packets' latencies (process 0
// gets them all, in any order: the summary sorts them), and the network's
// activity. count_deliveries() must have run. `events` and `deadlock` are
// combined too.
void combine_stats(const sim::MpiWorld& world, TrafficStats& stats, hw::NetworkActivity& act,
                   std::uint64_t& events, bool& deadlock);

}  // namespace kairo::traffic
