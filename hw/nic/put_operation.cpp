// A put, from its command to its completion (Susukita et al. 2016 §3.1,
// NSIM-ACE's put model; docs/rdma.md, "One put"):
//   initiator ..... the payload is cut at the MTU; the tx DMA reads each piece
//                   (transmit engine) and it goes out as a data packet
//   target ........ the first packet to arrive resolves the remote key for the
//                   whole put, before any byte is written (a bad key or range
//                   writes nothing, and every packet of the put is dropped);
//                   each packet is written by the rx DMA in arrival order
//   target ........ after the last byte is in memory the notice (tag) is
//                   raised, then a header-only acknowledgement goes back; a
//                   full notice queue holds both (receive engine)
//   initiator ..... the acknowledgement completes the put (remote
//                   completion), or the last piece's read did already (local
//                   completion: the source may be reused; a remote error is
//                   then counted at the target only)
// The nic.fault knobs that break a put's promises act here (nic_params.h).
#include <algorithm>

#include "hw/nic/engine.h"
#include "hw/nic/operation.h"

namespace kairo::nic {

namespace {

class PutOperation final : public Operation {
 public:
  void start(Engine& e, std::uint64_t number, const Command& c, std::uint64_t local_address) const override {
    for (std::uint64_t k = 0, n = e.packetizer.packets(c.length); k < n; ++k) {
      const PacketPlan plan = e.packetizer.plan(c.length, k);
      Wire* w = new_wire(e, number, c, Wire::kPutData, std::uint32_t(k));
      w->piece_offset = plan.offset;
      w->piece_bytes = plan.payload_bytes;
      w->read_address = local_address + plan.offset;
      w->ends_command = k + 1 == n;
      w->completes_when_read = k + 1 == n && c.completion == CompletionKind::kLocal;
      e.tx.queue_read(w);
    }
    e.tx.pump_reads(e);
  }

  void receive(Engine& e, Wire& w) const override {
    if (w.type == Wire::kPutData) return data_in(e, w);
    e.finish(w.op, w.status);  // the acknowledgement
    e.ctx->wires->put(&w);
  }

  // A piece is in memory (or was dropped). The last piece raises the notice
  // and sends the acknowledgement.
  void written(Engine& e, Wire* w) const override {
    ReceiveEngine::Arrival& a = e.rx.arrival(*w);
    if (++a.pieces_done < a.pieces) {
      e.ctx->wires->put(w);
      return;
    }
    const RdmaStatus status = a.status;
    if (a.noticed) w->notify = false;
    e.rx.forget(*w);
    if (status == RdmaStatus::kOk && w->notify &&
        (e.queues.notices() >= e.p->notice_queue_depth || e.rx.waiting_for_notice_room())) {
      // No room for the notice: the put waits, and the receive side stops consuming.
      e.rx.wait_for_notice_room(e, w);
      return;
    }
    finish_put(e, w, status);
  }

  // Local completion: the last piece has been read out of the source.
  void read(Engine& e, Wire& w) const override { e.complete_early(w.op, w.status); }

  // nic.fault complete_before_ack: the put completes as its last packet leaves.
  void last_injected(Engine& e, Wire& w) const override {
    if (!w.completes_when_read) e.complete_early(w.op, RdmaStatus::kOk);
  }

 private:
  // Put data lands: checked on the first packet of the put to arrive, written
  // at the range it resolved to. A registered region lies inside the node
  // memory (MemoryRegistry::add, Engine's constructor), so a range that
  // resolves is written in full; a write the memory still refuses fails the
  // put too.
  static void data_in(Engine& e, Wire& w) {
    bool first = false;
    ReceiveEngine::Arrival& a = e.rx.arrival(w, &first);
    if (first) {
      const Resolution r = e.registry.resolve(w.key, w.offset, w.op_length);
      a.status = r.status;
      a.base = r.address;
      a.pieces = e.packetizer.packets(w.op_length);
    }
    if (w.status != RdmaStatus::kOk) a.status = w.status;  // the source could not be read
    if (a.status != RdmaStatus::kOk) return e.rx.drop(e, &w);
    if (e.p->fault != Fault::kNone && faulty(e, w, a)) return;
    if (!e.rx.write(e, &w, a.base + w.piece_offset)) {
      a.status = RdmaStatus::kOutOfBounds;
      e.rx.drop(e, &w);
    }
  }

  // The nic.fault knobs at the target; true when the packet was taken care of.
  static bool faulty(Engine& e, Wire& w, ReceiveEngine::Arrival& a) {
    const bool last = w.piece_offset + w.piece_bytes >= w.op_length;
    switch (e.p->fault) {
      case Fault::kNoticeBeforeWrite:
        if (last && w.notify && e.queues.notices() < e.p->notice_queue_depth) {
          e.queues.notice(e, Notice{w.tag, w.src_node, w.op_length, e.now(), w.src_tni, w.op});
          a.noticed = true;
        }
        return false;
      case Fault::kReorderWrites:
        if (a.pieces >= 2 && w.packet == 0) {  // written after the second
          a.held = &w;
          return true;
        }
        if (w.packet == 1 && a.held) {
          Wire* first = a.held;
          a.held = nullptr;
          e.rx.write(e, &w, a.base + w.piece_offset);
          e.rx.write(e, first, a.base + first->piece_offset);
          return true;
        }
        return false;
      case Fault::kDoubleWrite:
        if (w.packet == 0) e.rx.write_again(e, w, a.base + w.piece_offset);
        return false;
      case Fault::kWritePastRegion:
        if (last && w.piece_bytes > 0) {
          if (!e.rx.write(e, &w, a.base + w.piece_offset + e.p->mtu_bytes)) {
            a.status = RdmaStatus::kOutOfBounds;
            e.rx.drop(e, &w);
          }
          return true;
        }
        return false;
      default:
        return false;
    }
  }
};

const PutOperation the_put_operation{};

}  // namespace

const Operation& kPutOperation = the_put_operation;

// The put's last byte is in memory and its notice has room: raise it and
// answer with the acknowledgement (the last piece's Wire, reused).
void finish_put(Engine& e, Wire* w, RdmaStatus status) {
  if (status == RdmaStatus::kOk && w->notify)
    e.queues.notice(e, Notice{w->tag, w->src_node, w->op_length, e.now(), w->src_tni, w->op});
  Wire* ack = w;
  ack->type = Wire::kPutAck;
  ack->status = status;
  ack->dst_node = ack->src_node;
  ack->dst_tni = ack->src_tni;
  ack->packet = std::uint32_t(e.packetizer.packets(ack->op_length));
  ack->piece_bytes = 0;
  ack->data.clear();
  e.tx.queue_response(ack);
  e.tx.pump_send(e);
}

}  // namespace kairo::nic
