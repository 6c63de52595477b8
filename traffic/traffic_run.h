// The synthetic-traffic runner router architects compare designs with, on
// any platform's network (mesh/torus, fat tree, clusters, the hybrid
// network's packet switches): Bernoulli or on/off injection per node
// (traffic/injection.h) at a rate in flits per node per cycle of the routers
// or switches the hosts attach to, one pattern, and the classic phases:
//   warm-up   traffic runs, nothing is measured; counters reset at its end
//   measure   packets created in this window are the measured ones
//   drain     traffic keeps flowing until every measured packet has arrived
//             (at most `drain_cycles`: above saturation the backlog would grow
//             without end, and the JSON then says `drain_limited`), then
//             sources stop and the network empties completely, so every
//             packet created is delivered and checked (exactly once, by id).
// Batch mode instead gives every node N packets at time 0, sent as fast as
// flow control allows; the result is the cycle count to drain the batch.
#pragma once
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "hw/common/topology.h"
#include "platforms/network.h"
#include "platforms/partition.h"
#include "platforms/platform.h"
#include "sim/event_queue.h"

namespace kairo::traffic {

struct TrafficOptions {
  std::string pattern = "uniform";
  double rate = 0.1;  // flits per node per router cycle, in (0, 1]
  int packet_flits = 4;
  // The sources (traffic/injection.h): "bernoulli" or "onoff" (BookSim's
  // on_off, its burst_alpha and burst_beta with their defaults).
  std::string injection = "bernoulli";
  double burst_alpha = 0.5, burst_beta = 0.5;
  // Packet sizes in flits with weights; when not empty, replaces packet_flits.
  std::vector<std::pair<int, double>> packet_sizes;
  std::uint64_t warmup_cycles = 1000;  // with warmup_converge: the longest warm-up
  // Warm-up until convergence (docs/traffic.md): in sample periods of
  // sample_cycles, the warm-up ends after the first period whose average
  // packet latency and accepted rate (of the packets delivered in it) both
  // differ from the previous period's by at most warmup_threshold (relative),
  // BookSim's test; or at warmup_cycles, and the JSON then says it did not converge.
  bool warmup_converge = false;
  std::uint64_t sample_cycles = 1000;
  double warmup_threshold = 0.05;
  std::uint64_t measure_cycles = 10000;
  std::uint64_t drain_cycles = 0;  // 0: warmup + measure
  std::uint64_t seed = 1;
  std::uint64_t batch_packets = 0;  // > 0 selects batch mode
  std::vector<hw::NodeId> hotspots{0};
  double hotspot_fraction = 0.2;
  bool use_systemc = true;     // drive through the SystemC kernel (once per process) or directly
  bool exiting_after = false;  // the process exits after this run: skip tearing the network down
  std::function<void(const std::string&)> progress;  // progress lines, or empty
  // Warnings a person should see even under --quiet (a run that will take
  // more than an hour, said in its first minute: traffic/traffic_progress.h), or empty.
  std::function<void(const std::string&)> warn;
  // Called once the network is built (attach waveform probes, counter logs),
  // and after the run.
  std::function<void(platforms::Network&, sim::EventQueue&)> on_built;
  std::function<void()> on_finished;
  // Called instead of on_finished when the run ends by an exception (an
  // interruption, an error) after on_built: whatever on_built attached lets
  // go of the network before it goes.
  std::function<void()> on_abandoned;
  // Called just before and just after the routers' counters restart at the
  // warm-up's end (true: after), for outputs that read them (a counter log).
  std::function<void(bool after, sim::Time now)> around_reset;
  // A partitioned run over the processes of sim::MpiWorld (docs/parallel.md):
  // every process calls run_traffic with the same options; process 0's
  // result is the run's. Null: one process.
  const platforms::Partition* partition = nullptr;
  // With a partition: each process builds only its own routers and hosts
  // (platforms::OwnedPart). Off when an observer needs every block (the
  // waveform, the counter log: process 0 writes them from every router).
  bool own_part_only = false;
};

// Throws std::invalid_argument with a message naming the option.
void validate(const TrafficOptions& o, const platforms::Platform& p);

struct TrafficResult {
  nlohmann::json json;  // the --json document (see docs/traffic.md)
  bool deadlock = false;
  std::vector<std::string> blocked;  // when deadlock: the blocked ports and VCs
  bool lost_or_duplicated = false;
};

TrafficResult run_traffic(const platforms::Platform& platform, const TrafficOptions& options);

// Fields of the JSON that describe the run's own cost, excluded when two runs
// are compared for determinism.
const std::vector<std::string>& cost_fields();

}  // namespace kairo::traffic
