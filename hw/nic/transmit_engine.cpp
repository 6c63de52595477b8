#include "hw/nic/transmit_engine.h"

#include "hw/nic/tni.h"

namespace kairo::nic {

namespace {
constexpr std::size_t kTxBufferPackets = 2;  // payloads read ahead of injection
}  // namespace

void TransmitEngine::start(Tni& t, std::uint64_t op, const Command& c, std::uint64_t local_address) {
  auto fill = [&](Wire* w) {
    w->status = RdmaStatus::kOk;
    w->src_node = t.node_;
    w->src_tni = std::uint16_t(t.index_);
    w->dst_node = c.dst_node;
    w->dst_tni = c.dst_tni;
    w->op = op;
    w->key = c.remote_key;
    w->offset = c.remote_offset;
    w->op_length = c.length;
    w->tag = c.tag;
    w->notify = c.notify;
  };
  if (c.op == Op::kGet) {
    Wire* w = t.ctx_->wires->get();
    fill(w);
    w->type = Wire::kGetRequest;
    w->piece_offset = 0;
    w->piece_bytes = 0;
    ready_.push_back(w);
    pump_send(t);
    return;
  }
  for (std::uint64_t k = 0, n = t.packetizer_.packets(c.length); k < n; ++k) {
    const PacketPlan plan = t.packetizer_.plan(c.length, k);
    Wire* w = t.ctx_->wires->get();
    fill(w);
    w->type = Wire::kPutData;
    w->piece_offset = plan.offset;
    w->piece_bytes = plan.payload_bytes;
    w->read_address = local_address + plan.offset;
    reads_.push_back(w);
  }
  pump_reads(t);
}

// The tx DMA reads payloads in order, responses first, staying a small buffer
// ahead of injection.
void TransmitEngine::pump_reads(Tni& t) {
  while (reads_in_flight_ + ready_.size() + responses_.size() < kTxBufferPackets) {
    sim::Ring<Wire*>& q = !response_reads_.empty() ? response_reads_ : reads_;
    if (q.empty()) return;
    Wire* w = q.front();
    q.pop_front();
    unsigned char* buf = nullptr;
    if (t.ctx_->data) {
      w->data.resize(w->piece_bytes);
      buf = w->data.data();
    }
    const DmaEngine::Result r = dma_.read(t.now(), w->read_address, buf, w->piece_bytes);
    if (r.status != tlm::TLM_OK_RESPONSE)
      w->status = RdmaStatus::kOutOfBounds;  // outside the node's memory
    else
      t.counters_.dma_bytes_read += w->piece_bytes;
    ++reads_in_flight_;
    if (t.probe_)
      t.probe_->set(t.probe_->tx_dma, r.start_ps, 1), t.probe_->set(t.probe_->tx_dma, r.done_ps, 0);
    t.at(r.done_ps, Tni::kReadDone, w);
  }
}

void TransmitEngine::read_done(Tni& t, Wire* w) {
  --reads_in_flight_;
  (w->type == Wire::kGetData ? responses_ : ready_).push_back(w);
  pump_send(t);
  pump_reads(t);
}

void TransmitEngine::pump_send(Tni& t) {
  for (;;) {
    sim::Ring<Wire*>& q = !responses_.empty() ? responses_ : ready_;
    if (q.empty()) return;
    Wire* w = q.front();
    if (t.gate_ && t.gate_closed(w->dst_node)) return;  // Tni::gate_changed() comes back here
    const std::uint16_t flits = t.packetizer_.plan(w->piece_bytes, 0).flits;
    if (!t.ep_.can_send(flits)) return;  // Tni::on_send_ready() comes back here
    q.pop_front();
    const bool response = &q == &responses_;
    send_wire(t, w, response);
  }
}

void TransmitEngine::send_wire(Tni& t, Wire* w, bool response) {
  hw::Packet* p = t.pool_.get();
  const PacketPlan plan = t.packetizer_.plan(w->piece_bytes, 0);
  p->id = w->op;
  p->created_ps = t.now();
  p->src = t.node_;
  p->dst = w->dst_node;
  p->flits = plan.flits;
  p->bytes = plan.wire_bytes;
  p->dst_ni = w->dst_tni;
  p->user = w;
  t.ep_.send(p);
  ++t.counters_.packets_sent;
  if (t.probe_)
    t.probe_->set(t.probe_->tx_pkt, t.now(), p->id + 1), t.probe_->set(t.probe_->tx_pkt, p->tail_ps, 0);
  // The active command is done once its last packet is on its way.
  const bool last_of_command =
      !response && (w->type == Wire::kGetRequest ||
                    (w->type == Wire::kPutData && w->piece_offset + w->piece_bytes >= w->op_length));
  if (last_of_command) t.commands_.command_sent(t);
  pump_reads(t);
}

}  // namespace kairo::nic
