// Traffic sources and sinks: packet creation, the source queue, injection
// over the node's packet-switched interfaces, and the delivery record.
#include "traffic/traffic_node.h"

#include <algorithm>

namespace kairo::traffic {

using sim::Time;

hw::Packet* TrafficContext::create(hw::NodeId src, std::uint64_t count, hw::NodeId dst, int flits, Time now) {
  hw::Packet* p = pool.get();
  p->id = std::uint64_t(src) + nodes * count;
  p->label = p->id + 1;  // unique in the run, as the waveform showed it before the NIC's labels
  p->created_ps = now;
  p->src = src;
  p->dst = dst;
  p->flits = std::uint16_t(flits);
  p->bytes = std::uint32_t(flits * flit_bytes);
  p->measured = measuring;
  ++stats.created;
  if (measuring) {
    ++stats.measured_created;
    stats.window_flits_created += p->flits;
  }
  return p;
}

void TrafficContext::deliver(hw::Packet* p) {
  ++stats.delivered;
  if (p->id >= stats.deliveries.size())
    stats.deliveries.resize(std::max(p->id + 1, 2 * stats.deliveries.size()));
  ++stats.deliveries[p->id];
  const Time tail = clock.ceil(p->tail_ps);
  if (tail > stats.last_delivery_ps) stats.last_delivery_ps = tail;
  if (measuring) stats.window_flits_delivered += p->flits;
  stats.flits_delivered += p->flits;
  stats.latency_sum_ps += tail - p->created_ps;
  if (p->measured) {
    ++stats.measured_delivered;
    stats.measured_hops += p->hops;
    stats.latency_cycles.push_back((tail - p->created_ps) / clock.period_ps);
    stats.network_latency_sum_ps += tail - p->injected_ps;
  }
  pool.put(p);
}

void count_deliveries(TrafficStats& stats) {
  stats.distinct_delivered = stats.duplicated = 0;
  for (auto d : stats.deliveries) stats.distinct_delivered += d > 0, stats.duplicated += d > 1;
}

TrafficNode::TrafficNode(TrafficContext& ctx, hw::NodeId id, std::uint64_t seed)
    : sim::EventTarget(sim::EventBlock::kTraffic), ctx_(ctx), id_(id), rng_(seed, id) {
  for (int ni = 0; ni < ctx.interfaces; ++ni) interfaces_.push_back(&ctx.net->endpoint(id, ni));
}

void TrafficNode::start(Time t) {
  if (!ctx_.injection) return;
  ctx_.injection->start(t, rng_, source_);
  schedule_next(t);
}

// The next creation at or after cycle `from`.
void TrafficNode::schedule_next(Time from) {
  ctx_.queue->at(ctx_.injection->next(from, rng_, source_), sim::kPrioState, this, 0);
}

// A packet: its destination, then its size, from the node's own stream.
void TrafficNode::on_event(std::uint32_t, std::uint32_t, void*) {
  if (!ctx_.generating) return;
  const Time now = ctx_.queue->now();
  const hw::NodeId dst = ctx_.picker->pick(id_, rng_);
  source_queue_.push(ctx_.create(id_, created_++, dst, ctx_.sizes.draw(rng_), now));
  try_inject();
  schedule_next(now + ctx_.clock.period_ps);
}

void TrafficNode::enqueue_batch(std::uint64_t n) {
  const Time now = ctx_.queue->now();
  for (std::uint64_t i = 0; i < n; ++i) {
    const hw::NodeId dst = ctx_.picker->pick(id_, rng_);
    source_queue_.push(ctx_.create(id_, created_++, dst, ctx_.sizes.draw(rng_), now));
  }
  try_inject();
}

// Packets leave the source queue in order, each through the first network
// interface (round-robin from the last one used) that can take it now.
void TrafficNode::try_inject() {
  const int nis = int(interfaces_.size());
  while (!source_queue_.empty()) {
    hw::Packet* p = source_queue_.head;
    int chosen = -1;
    for (int k = 0; k < nis && chosen < 0; ++k) {
      int ni = (next_ni_ + k) % nis;
      if (interfaces_[std::size_t(ni)]->can_send(p->flits)) chosen = ni;
    }
    if (chosen < 0) return;
    source_queue_.pop();
    p->dst_ni = std::uint16_t(chosen);
    interfaces_[std::size_t(chosen)]->send(p);
    next_ni_ = (chosen + 1) % nis;
  }
}

}  // namespace kairo::traffic
