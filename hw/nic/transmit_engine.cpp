#include "hw/nic/transmit_engine.h"

#include "hw/nic/engine.h"
#include "hw/nic/operation.h"

namespace kairo::nic {

namespace {
constexpr std::size_t kTxBufferPackets = 2;  // payloads read ahead of injection
}  // namespace

// The tx DMA reads payloads in order, responses first, staying a small buffer
// ahead of injection.
void TransmitEngine::pump_reads(Engine& e) {
  while (reads_in_flight_ + ready_.size() + responses_.size() < kTxBufferPackets) {
    sim::Ring<Wire*>& q = !response_reads_.empty() ? response_reads_ : reads_;
    if (q.empty()) return;
    Wire* w = q.front();
    q.pop_front();
    unsigned char* buf = nullptr;
    if (e.ctx->data) {
      w->data.resize(w->piece_bytes);
      buf = w->data.data();
    }
    const DmaEngine::Result r = dma_.read(e.now(), w->read_address, buf, w->piece_bytes);
    if (r.status != tlm::TLM_OK_RESPONSE)
      w->status = RdmaStatus::kOutOfBounds;  // outside the node's memory
    else
      e.counters.dma_bytes_read += w->piece_bytes;
    ++reads_in_flight_;
    w->dma_start = r.start_ps;
    if (e.probe) {  // reads are serial: the next one's label, set later at this one's end, wins there
      e.probe->set(e.probe->tx_dma, r.start_ps, 1), e.probe->set(e.probe->tx_dma, r.done_ps, 0);
      e.probe->set(e.probe->tx_dma_pkt, r.start_ps, packet_label(*w));
      e.probe->set(e.probe->tx_dma_pkt, r.done_ps, 0);
    }
    e.at(r.done_ps, kReadDone, w);
  }
}

void TransmitEngine::read_done(Engine& e, Wire* w) {
  --reads_in_flight_;
  if (e.logging())
    e.log_transfer(observe::OpEvent::kDmaRead, *w, w->read_address, w->piece_bytes, w->dma_start);
  if (w->completes_when_read) operation(w->op_kind).read(e, *w);
  (Wire::is_response(w->type) ? responses_ : ready_).push_back(w);
  pump_send(e);
  pump_reads(e);
}

void TransmitEngine::pump_send(Engine& e) {
  for (;;) {
    sim::Ring<Wire*>& q = !responses_.empty() ? responses_ : ready_;
    if (q.empty()) return;
    Wire* w = q.front();
    if (e.gate && e.gate_closed(w->dst_node)) return;  // the engine's gate_changed() comes back here
    const std::uint16_t flits = e.packetizer.plan(w->piece_bytes, 0).flits;
    if (!e.ep.can_send(flits)) return;  // the engine's on_send_ready() comes back here
    q.pop_front();
    const bool response = &q == &responses_;
    send_wire(e, w, response);
  }
}

void TransmitEngine::send_wire(Engine& e, Wire* w, bool response) {
  hw::Packet* p = e.pool.get();
  const PacketPlan plan = e.packetizer.plan(w->piece_bytes, 0);
  p->id = w->op;
  p->label = packet_label(*w);  // a few shifts: set whether or not a block on its way is traced
  p->created_ps = e.now();
  p->src = e.node;
  p->dst = w->dst_node;
  p->flits = plan.flits;
  p->bytes = plan.wire_bytes;
  p->dst_ni = w->dst_tni;
  p->user = w;
  if (e.logging()) {  // before the send: a packet to this node's own engine may be taken at once
    observe::OpRecord r = e.record(observe::OpEvent::kInject, *w);
    r.bytes = w->piece_bytes;
    r.peer = w->dst_node;
    e.log(r);
  }
  e.ep.send(p);
  ++e.counters.packets_sent;
  if (e.probe) e.probe->set(e.probe->tx_pkt, e.now(), p->label), e.probe->set(e.probe->tx_pkt, p->tail_ps, 0);
  // The active command is done once its last packet is on its way.
  if (!response && w->ends_command) {
    if (e.p->fault == Fault::kCompleteBeforeAck) operation(w->op_kind).last_injected(e, *w);
    e.commands.command_sent(e);
  }
  pump_reads(e);
}

}  // namespace kairo::nic
