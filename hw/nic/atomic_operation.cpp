// The atomics, fetch-and-add, compare-and-swap and fetch-and-or on 8 bytes
// (an unsigned little-endian integer), from the command to the completion
// (docs/rdma.md):
//   initiator ..... a header-only request carrying the operands; the local
//                   8 bytes where the old value lands were checked at start
//   target ........ the remote key and range are resolved (an error answers at
//                   once, header-only); the rx DMA reads the 8 bytes and then
//                   writes the new value, the read starting once the last
//                   atomic on that address of this node has written
//                   (AtomicLocks: serialized per target address, whichever of
//                   the node's engines takes it); then a response carrying
//                   the old value goes back
//   initiator ..... the rx DMA writes the old value; the atomic completes
//                   with it in memory
// Not modeled: ordering between an atomic and a put to the same address other
// than the order the engines execute them in.
#include <algorithm>
#include <cstring>

#include "hw/nic/engine.h"
#include "hw/nic/operation.h"

namespace kairo::nic {

namespace {

std::uint64_t load_le(const unsigned char* b) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | b[i];
  return v;
}
void store_le(unsigned char* b, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) b[i] = static_cast<unsigned char>(v >> (8 * i));
}

// The new value of an atomic's 8 bytes, from the old one and the request's
// operands: each atomic kind's read-modify-write.
std::uint64_t modified(const Wire& w, std::uint64_t old) {
  switch (w.op_kind) {
    case Op::kFetchAdd:
      return old + w.operand;
    case Op::kCompareSwap:
      return old == w.compare ? w.operand : old;
    case Op::kFetchOr:
      return old | w.operand;
    case Op::kPut:
    case Op::kGet:
      break;  // not atomics: no request of theirs comes here
  }
  return old;
}

class AtomicOperation final : public RequestResponse<AtomicOperation, Wire::kAtomicRequest> {
 public:
  // Target: the new value is written; answer. Initiator: the old value is
  // written (or was dropped); the atomic is over.
  void written(Engine& e, Wire* w) const override {
    if (w->type == Wire::kAtomicRequest) return respond(e, w, RdmaStatus::kOk);
    e.finish(w->op, e.ops[w->op].status);
    e.ctx->wires->put(w);
  }

  // The request at the target: read, modify, write, answer.
  static void serve(Engine& e, Wire& w) {
    const Resolution r = e.registry.resolve(w.key, w.offset, kAtomicBytes);
    if (r.status != RdmaStatus::kOk) return respond(e, &w, r.status);
    sim::Time& free_at = e.ctx->atomics->free_at(e.node, r.address);
    unsigned char old_value[8] = {}, new_value[8] = {};
    DmaEngine& dma = e.rx.dma();
    const DmaEngine::Result rd =
        dma.read(std::max(e.now(), free_at), r.address, e.ctx->data ? old_value : nullptr, kAtomicBytes);
    if (rd.status != tlm::TLM_OK_RESPONSE) return respond(e, &w, RdmaStatus::kOutOfBounds);
    store_le(new_value, modified(w, load_le(old_value)));
    const DmaEngine::Result wr =
        dma.write(rd.done_ps, r.address, e.ctx->data ? new_value : nullptr, kAtomicBytes);
    free_at = wr.done_ps;
    e.counters.dma_bytes_read += kAtomicBytes;
    e.counters.dma_bytes_written += kAtomicBytes;
    if (e.probe) {
      e.probe->set(e.probe->rx_dma, rd.start_ps, 1), e.probe->set(e.probe->rx_dma, wr.start_ps, 2);
      e.probe->set(e.probe->rx_dma, wr.done_ps, 0);
      e.probe->set(e.probe->rx_dma_pkt, rd.start_ps, packet_label(w));
      e.probe->set(e.probe->rx_dma_pkt, wr.done_ps, 0);
    }
    w.piece_bytes = kAtomicBytes;  // the response carries the old value
    if (e.ctx->data) w.data.assign(old_value, old_value + kAtomicBytes);
    w.dma_address = r.address;
    w.dma_start = rd.start_ps;
    w.write_start = wr.start_ps;
    e.at(rd.done_ps, kAtomicRead, &w);
    e.at(wr.done_ps, kWriteDone, &w);
  }

  // The request's Wire goes back as the response: the old value, or the error, header-only.
  static void respond(Engine& e, Wire* w, RdmaStatus status) {
    w->type = Wire::kAtomicResponse;
    w->status = status;
    w->dst_node = w->src_node;
    w->dst_tni = w->src_tni;
    w->packet = 1;
    if (status != RdmaStatus::kOk) {
      w->piece_bytes = 0;
      w->data.clear();
    }
    e.tx.queue_response(w);
    e.tx.pump_send(e);
  }

  // The old value lands at the initiator, or the target's refusal.
  static void answer_in(Engine& e, Wire& w) {
    if (w.status != RdmaStatus::kOk) return refused(e, w);
    OperationTable::Entry& op = e.ops[w.op];
    if (!e.rx.write(e, &w, op.local_address)) {
      op.status = RdmaStatus::kOutOfBounds;
      e.rx.drop(e, &w);
    }
  }
};

const AtomicOperation the_atomic_operation{};

}  // namespace

const Operation& kAtomicOperation = the_atomic_operation;

}  // namespace kairo::nic
