// A get, from its command to its completion (docs/rdma.md):
//   initiator ..... a header-only request; the whole landing range was checked
//                   against the local registration when the command started
//   target ........ the remote key and range are resolved; the tx DMA reads
//                   the data, ahead of the target's own commands, and streams
//                   it back in MTU pieces; a target that cannot resolve the
//                   key answers with one header-only error packet
//   initiator ..... each piece is written by the rx DMA where the get asked;
//                   the get completes with its last byte in memory, or with
//                   the error: a piece that could not be read at the target
//                   or written here fails the get, no later piece of it is
//                   written, and it completes once its last piece is in,
//                   never OK
#include "hw/nic/engine.h"
#include "hw/nic/operation.h"

namespace kairo::nic {

namespace {

class GetOperation final : public RequestResponse<GetOperation, Wire::kGetRequest> {
 public:
  // A piece is in memory (or was dropped); the last completes the get.
  void written(Engine& e, Wire* w) const override {
    OperationTable::Entry& op = e.ops[w->op];
    if (++op.pieces_done == op.pieces) e.finish(w->op, op.status);
    e.ctx->wires->put(w);
  }

  // The request at the target: the transmit engine reads the data here and
  // streams it back; an error goes back in one header-only answer.
  static void serve(Engine& e, Wire& w) {
    const Resolution r = e.registry.resolve(w.key, w.offset, w.op_length);
    auto answer = [&](Wire* d, std::uint64_t offset, std::uint32_t bytes, std::uint32_t packet) {
      *d = Wire{};
      d->type = Wire::kGetData;
      d->status = r.status;
      d->op_kind = w.op_kind;
      d->src_node = w.src_node;
      d->src_tni = w.src_tni;
      d->dst_node = w.src_node;
      d->dst_tni = w.src_tni;
      d->op = w.op;
      d->packet = packet;
      d->op_length = w.op_length;
      d->piece_offset = offset;
      d->piece_bytes = bytes;
      d->read_address = r.address + offset;
    };
    if (r.status != RdmaStatus::kOk) {  // one header-only answer carries the error
      Wire* d = e.ctx->wires->get();
      answer(d, 0, 0, 1);
      e.tx.queue_response(d);
    } else {
      for (std::uint64_t k = 0, n = e.packetizer.packets(w.op_length); k < n; ++k) {
        const PacketPlan plan = e.packetizer.plan(w.op_length, k);
        Wire* d = e.ctx->wires->get();
        answer(d, plan.offset, plan.payload_bytes, std::uint32_t(k + 1));
        e.tx.queue_response_read(d);
      }
    }
    e.ctx->wires->put(&w);
    e.tx.pump_reads(e);
    e.tx.pump_send(e);
  }

  // Get data lands at the initiator, written where the get asked for it.
  static void answer_in(Engine& e, Wire& w) {
    if (w.status != RdmaStatus::kOk && w.piece_bytes == 0) return refused(e, w);  // the target's one answer
    OperationTable::Entry& op = e.ops[w.op];
    if (w.status != RdmaStatus::kOk) op.status = w.status;  // the source could not be read
    if (op.status != RdmaStatus::kOk) return e.rx.drop(e, &w);
    if (!e.rx.write(e, &w, op.local_address + w.piece_offset)) {  // outside the node's memory
      op.status = RdmaStatus::kOutOfBounds;
      e.rx.drop(e, &w);
    }
  }
};

const GetOperation the_get_operation{};

}  // namespace

const Operation& kGetOperation = the_get_operation;

}  // namespace kairo::nic
