// The operation kinds' handlers, by kind, and what every handler's packets
// start from (operation.h).
#include "hw/nic/operation.h"

#include "hw/nic/engine.h"

namespace kairo::nic {

namespace {
const Operation& handler(sim::RdmaFamily f) {
  switch (f) {
    case sim::RdmaFamily::kPut:
      return kPutOperation;
    case sim::RdmaFamily::kGet:
      return kGetOperation;
    case sim::RdmaFamily::kAtomic:
      return kAtomicOperation;
  }
  return kPutOperation;
}
}  // namespace

// Filled before any engine runs: the handlers are references bound at
// constant initialization, so their addresses are known here.
const std::array<const Operation*, sim::kRdmaOpCount> kOperations = [] {
  std::array<const Operation*, sim::kRdmaOpCount> by_op{};
  for (const sim::RdmaOpKind& k : sim::kRdmaOps) by_op[std::size_t(k.op)] = &handler(k.family);
  return by_op;
}();

Wire* new_wire(Engine& e, std::uint64_t number, const Command& c, Wire::Type type, std::uint32_t packet) {
  Wire* w = e.ctx->wires->get();
  w->type = type;
  w->status = RdmaStatus::kOk;
  w->op_kind = c.op;
  w->src_node = e.node;
  w->src_tni = std::uint16_t(e.index);
  w->dst_node = c.dst_node;
  w->dst_tni = c.dst_tni;
  w->op = number;
  w->packet = packet;
  w->key = c.remote_key;
  w->offset = c.remote_offset;
  w->op_length = moved_bytes(c);
  w->tag = c.tag;
  w->notify = c.notify;
  w->operand = c.operand;
  w->compare = c.compare;
  w->piece_offset = 0;
  w->piece_bytes = 0;
  w->ends_command = w->completes_when_read = false;
  return w;
}

void refused(Engine& e, Wire& w) {
  e.finish(w.op, w.status);
  e.rx.release(e, &w);
  e.ctx->wires->put(&w);
}

void send_request(Engine& e, std::uint64_t number, const Command& c, Wire::Type type) {
  Wire* w = new_wire(e, number, c, type, 0);
  w->ends_command = true;
  e.tx.queue_ready(w);
  e.tx.pump_send(e);
}

}  // namespace kairo::nic
