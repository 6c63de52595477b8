#include "hw/nic/command_queue.h"

#include <algorithm>

#include "hw/nic/engine.h"
#include "hw/nic/operation.h"

namespace kairo::nic {

bool CommandQueue::post(Engine& e, const Command& c) {
  if (commands_.size() >= e.p->command_queue_depth) return false;  // back-pressure, never a drop
  ++e.counters.commands;
  const std::uint64_t number = next_number_++;
  commands_.push_back({e.now() + e.p->node_latency_ps, number, c});
  if (e.probe) e.probe->add(e.probe->doorbells, e.now(), 1), e.probe->add(e.probe->cmdq, e.now(), 1);
  e.counters.command_queue_high =
      std::max<std::uint32_t>(e.counters.command_queue_high, std::uint32_t(commands_.size()));
  if (e.logging()) {
    observe::OpRecord r = e.record(observe::OpEvent::kDoorbell);
    r.op.number = number;
    r.kind = operation_kind(c.op);
    r.bytes = moved_bytes(c);
    r.peer = c.dst_node;
    r.key = c.remote_key;
    if (c.op == Op::kPut) r.tag = c.tag;
    r.flags = std::uint8_t(
        (c.op == Op::kPut && c.notify ? observe::kFlagNotify : 0) | (c.fence ? observe::kFlagFence : 0) |
        (c.op == Op::kPut && c.completion == CompletionKind::kLocal ? observe::kFlagLocalCompletion : 0));
    e.log(r);
  }
  start_next(e);
  return true;
}

bool CommandQueue::completion_room(const Engine& e) const {
  return e.queues.completions() + e.ops.live() < e.p->completion_queue_depth;
}

void CommandQueue::start_next(Engine& e) {
  if (busy_ || activate_pending_ || fence_wait_ || commands_.empty()) return;
  if (!completion_room(e)) {  // its completion would have no slot: wait for a poll
    if (!cq_stalled_) ++e.counters.completion_queue_stalls;
    cq_stalled_ = true;
    return;
  }
  activate_pending_ = true;
  e.at(std::max(e.now(), commands_.front().active_at), kActivate);
}

inline RdmaStatus CommandQueue::check(const Engine& e, const Command& c, Resolution* local) const {
  const std::uint64_t length = moved_bytes(c);
  if (length > e.p->max_descriptor_bytes) return RdmaStatus::kLengthOverLimit;
  if (c.dst_node >= e.ctx->nodes) return RdmaStatus::kBadRank;
  if (c.dst_tni >= e.ctx->tnis) return RdmaStatus::kBadTni;
  *local = e.registry.resolve(c.local_key, c.local_offset, length);
  return local->status;
}

void CommandQueue::log_start(const Engine& e, std::uint64_t number, const Command& c, RdmaStatus s,
                             const Resolution& local) const {
  observe::OpRecord r = e.record(observe::OpEvent::kStart);
  r.op.number = number;
  r.kind = operation_kind(c.op);
  r.status = std::uint8_t(s);
  if (s == RdmaStatus::kOk) r.addr = local.address;
  r.bytes = moved_bytes(c);
  r.key = c.local_key;
  r.peer = c.dst_node;
  e.log(r);
}

// The command's node latency has passed: check it, then hand it to its
// operation's handler, which makes its packets.
void CommandQueue::activate(Engine& e) {
  activate_pending_ = false;
  if (!completion_room(e)) return start_next(e);  // filled since it was scheduled: stall
  const Posted& front = commands_.front();
  if (front.cmd.fence && incomplete_ > 0) {  // operation_completed() brings it back
    fence_wait_ = true;
    return;
  }
  if (e.gate && e.gate->policy() == hw::CircuitPolicy::kHold && e.gate_closed(front.cmd.dst_node))
    return;  // the engine's gate_changed() brings it back
  const Posted next = front;
  commands_.pop_front();
  if (e.probe) e.probe->add(e.probe->cmdq, e.now(), -1);
  if (e.listener) e.listener->tni_command_space(e.listener_slot);
  Resolution local;
  RdmaStatus s = check(e, next.cmd, &local);
  if (s == RdmaStatus::kOk && e.gate && !e.gate->open_to(next.cmd.dst_node)) {
    s = RdmaStatus::kCircuitDown;
    ++e.counters.circuit_refusals;
  }
  if (e.logging()) log_start(e, next.number, next.cmd, s, local);
  if (s != RdmaStatus::kOk) {
    e.queues.complete(e, next.number, next.cmd.op, next.cmd.handle, s);
    start_next(e);
    return;
  }
  busy_ = true;
  ++incomplete_;
  const std::uint64_t length = moved_bytes(next.cmd);
  e.ops.add(next.number, next.cmd, local.address, e.packetizer.packets(length));
  operation(next.cmd.op).start(e, next.number, next.cmd, local.address);
}

void CommandQueue::operation_completed(Engine& e) {
  --incomplete_;
  if (fence_wait_ && incomplete_ == 0) {
    fence_wait_ = false;
    start_next(e);
  }
}

void CommandQueue::resume(Engine& e) {
  if (cq_stalled_ && completion_room(e)) {
    cq_stalled_ = false;
    start_next(e);
  }
}

}  // namespace kairo::nic
