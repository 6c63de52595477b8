#include "hw/nic/command_queue.h"

#include <algorithm>

#include "hw/nic/tni.h"

namespace kairo::nic {

bool CommandQueue::post(Tni& t, const Command& c) {
  if (commands_.size() >= t.p_->command_queue_depth) return false;  // back-pressure, never a drop
  ++t.counters_.commands;
  commands_.push_back({t.now() + t.p_->node_latency_ps, c});
  if (t.probe_) t.probe_->add(t.probe_->doorbells, t.now(), 1), t.probe_->add(t.probe_->cmdq, t.now(), 1);
  t.counters_.command_queue_high =
      std::max<std::uint32_t>(t.counters_.command_queue_high, std::uint32_t(commands_.size()));
  start_next(t);
  return true;
}

bool CommandQueue::completion_room(const Tni& t) const {
  return t.queues_.completions() + live_ops_ < t.p_->completion_queue_depth;
}

void CommandQueue::start_next(Tni& t) {
  if (busy_ || activate_pending_ || commands_.empty()) return;
  if (!completion_room(t)) {  // its completion would have no slot: wait for a poll
    if (!cq_stalled_) ++t.counters_.completion_queue_stalls;
    cq_stalled_ = true;
    return;
  }
  activate_pending_ = true;
  t.at(std::max(t.now(), commands_.front().first), Tni::kActivate);
}

RdmaStatus CommandQueue::check(const Tni& t, const Command& c, Resolution* local) const {
  if (c.length > t.p_->max_descriptor_bytes) return RdmaStatus::kLengthOverLimit;
  if (c.dst_node >= t.ctx_->nodes) return RdmaStatus::kBadRank;
  if (c.dst_tni >= t.ctx_->tnis) return RdmaStatus::kBadTni;
  *local = t.registry_.resolve(c.local_key, c.local_offset, c.length);
  return local->status;
}

// The command's node latency has passed: check it, then hand it to the
// transmit engine, which cuts it into packets.
void CommandQueue::activate(Tni& t) {
  activate_pending_ = false;
  if (!completion_room(t)) return start_next(t);  // filled since it was scheduled: stall
  if (t.gate_ && t.gate_->policy() == hw::CircuitPolicy::kHold &&
      t.gate_closed(commands_.front().second.dst_node))
    return;  // Tni::gate_changed() brings it back
  const Command c = commands_.front().second;
  commands_.pop_front();
  if (t.probe_) t.probe_->add(t.probe_->cmdq, t.now(), -1);
  if (t.listener_) t.listener_->tni_command_space(t.listener_slot_);
  Resolution local;
  RdmaStatus s = check(t, c, &local);
  if (s == RdmaStatus::kOk && t.gate_ && !t.gate_->open_to(c.dst_node)) {
    s = RdmaStatus::kCircuitDown;
    ++t.counters_.circuit_refusals;
  }
  if (s != RdmaStatus::kOk) {
    t.queues_.complete(t, c.handle, s);
    start_next(t);
    return;
  }
  busy_ = true;
  const std::uint64_t op = next_op_++;
  ops_.push_back(Slot{TxOp{c, local.address, t.packetizer_.packets(c.length), 0}, true, RdmaStatus::kOk});
  ++live_ops_;
  t.tx_.start(t, op, c, local.address);
}

void CommandQueue::resume(Tni& t) {
  if (cq_stalled_ && completion_room(t)) {
    cq_stalled_ = false;
    start_next(t);
  }
}

}  // namespace kairo::nic
