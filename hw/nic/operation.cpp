// The operation kinds' handlers, by kind, and what every handler's packets
// start from (operation.h).
#include "hw/nic/operation.h"

#include "hw/nic/engine.h"

namespace kairo::nic {

const Operation* const kOperations[4] = {&kPutOperation, &kGetOperation, &kAtomicOperation,
                                         &kAtomicOperation};

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
  w->op_length = is_atomic(c.op) ? kAtomicBytes : c.length;
  w->tag = c.tag;
  w->notify = c.notify;
  w->operand = c.operand;
  w->compare = c.compare;
  w->piece_offset = 0;
  w->piece_bytes = 0;
  w->ends_command = w->completes_when_read = false;
  return w;
}

void send_request(Engine& e, std::uint64_t number, const Command& c, Wire::Type type) {
  Wire* w = new_wire(e, number, c, type, 0);
  w->ends_command = true;
  e.tx.queue_ready(w);
  e.tx.pump_send(e);
}

}  // namespace kairo::nic
