// One node's traffic generator and sink: creates packets by the run's
// injection process (traffic/injection.h: Bernoulli or on/off, sampled so that
// idle cycles cost nothing) with sizes from its packet-size mix, queues
// them at the source (source queueing counts in packet latency), injects them
// through the node's packet-switched network interfaces, and records each
// arrival. Packets are addressed to a node; the network maps it to its route.
#pragma once
#include <cstdint>
#include <vector>

#include "hw/common/endpoint.h"
#include "hw/common/packet.h"
#include "platforms/network.h"
#include "sim/random.h"
#include "traffic/injection.h"
#include "traffic/pattern.h"

namespace kairo::traffic {

struct TrafficStats {
  std::uint64_t created = 0, delivered = 0;
  std::uint64_t measured_created = 0, measured_delivered = 0;
  std::uint64_t window_flits_created = 0, window_flits_delivered = 0;
  std::uint64_t measured_hops = 0;
  std::uint64_t network_latency_sum_ps = 0;   // an integer: the same sum in any order
  std::vector<std::uint64_t> latency_cycles;  // per measured packet: creation to tail delivery
  std::vector<std::uint8_t> deliveries;       // per packet id: times delivered
  sim::Time last_delivery_ps = 0;
  // Every delivery, measured or not: the warm-up's convergence test
  // (TrafficOptions::warmup_converge) reads them per sample period.
  std::uint64_t flits_delivered = 0, latency_sum_ps = 0;
  // From `deliveries` once the run is over (count_deliveries): packets
  // delivered at least once, and more than once.
  std::uint64_t distinct_delivered = 0, duplicated = 0;
};

// Fills stats.distinct_delivered and stats.duplicated.
void count_deliveries(TrafficStats& stats);

// What every node of one run shares.
struct TrafficContext {
  sim::EventQueue* queue = nullptr;
  platforms::Network* net = nullptr;
  int interfaces = 1;  // packet-switched network interfaces per node (0..interfaces-1)
  const DestinationPicker* picker = nullptr;
  hw::PacketPool pool;
  sim::Clock clock;
  PacketSizeMix sizes;
  int flit_bytes = 32;
  const InjectionProcess* injection = nullptr;  // null: no creations (batch mode)
  bool generating = true;
  bool measuring = false;     // inside the measurement window
  bool measure_done = false;  // measurement window closed
  std::uint64_t nodes = 1;
  TrafficStats stats;

  // A packet's id is its source's own count, interleaved over the nodes
  // (src + nodes * count): the same whatever process creates it.
  hw::Packet* create(hw::NodeId src, std::uint64_t count, hw::NodeId dst, int flits, sim::Time now);
  void deliver(hw::Packet* p);
};

class TrafficNode : public hw::EndpointClient, public sim::EventTarget {
 public:
  TrafficNode(TrafficContext& ctx, hw::NodeId id, std::uint64_t seed);
  // ctx.net and ctx.interfaces must be set.
  // Starts the source (ctx.injection) at `t`: schedules its first creation.
  void start(sim::Time t);
  // Queues n packets now (batch mode) and starts injecting.
  void enqueue_batch(std::uint64_t n);

  hw::NodeId id() const { return id_; }
  void on_event(std::uint32_t kind, std::uint32_t arg, void* ptr) override;
  void on_packet(int, hw::Packet* p) override { ctx_.deliver(p); }
  void on_send_ready(int) override { try_inject(); }

 private:
  void try_inject();
  void schedule_next(sim::Time from);

  TrafficContext& ctx_;
  hw::NodeId id_;
  std::vector<hw::Endpoint*> interfaces_;  // the node's packet-switched ones, looked up once
  sim::Rng rng_;
  SourceState source_;
  hw::PacketFifo source_queue_;
  int next_ni_ = 0;
  std::uint64_t created_ = 0;
};

}  // namespace kairo::traffic
