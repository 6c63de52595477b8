#include "hw/nic/receive_engine.h"

#include <algorithm>

#include "hw/nic/tni.h"

namespace kairo::nic {

void ReceiveEngine::tail_in(Tni& t, hw::Packet* p) {
  if (stalled_ || !held_.empty()) {  // stays in the ejection buffer, in arrival order
    held_.push_back(p);
    t.counters_.held_packets_high =
        std::max<std::uint32_t>(t.counters_.held_packets_high, std::uint32_t(held_.size()));
    return;
  }
  receive(t, p);
}

void ReceiveEngine::receive(Tni& t, hw::Packet* p) {
  ++t.counters_.packets_received;
  Wire* w = static_cast<Wire*>(p->user);
  if (w->type == Wire::kPutData || w->type == Wire::kGetData) {
    w->rx_packet = p;  // its buffer slots free once the rx DMA has written it
  } else {
    t.ep_.consumed(p);
    t.pool_.put(p);
  }
  switch (w->type) {
    case Wire::kPutData:
      return receive_put_data(t, *w);
    case Wire::kGetRequest:
      return receive_get_request(t, *w);
    case Wire::kGetData:
      return receive_get_data(t, *w);
    case Wire::kPutAck: {
      const std::uint64_t handle = t.commands_.retire(w->op);
      t.queues_.complete(t, handle, w->status);
      t.ctx_->wires->put(w);
      return;
    }
  }
}

// Put data lands: the whole operation's target range is checked against this
// node's registrations on the first of its packets to arrive, before any of
// them is written; a bad key or range writes nothing and every packet of the
// put is dropped. A registered region lies inside the node memory
// (MemoryRegistry::add, Tni's constructor), so a range that resolves is
// written in full; a write the memory still refuses fails the put too.
void ReceiveEngine::receive_put_data(Tni& t, Wire& w) {
  auto [it, first] = ops_.try_emplace(rx_key(w));
  RxOp* slot = &it->second;
  if (first) {
    const Resolution r = t.registry_.resolve(w.key, w.offset, w.op_length);
    slot->status = r.status;
    slot->base = r.address;
    slot->pieces = t.packetizer_.packets(w.op_length);
  }
  if (w.status != RdmaStatus::kOk) slot->status = w.status;  // the source could not be read
  if (slot->status != RdmaStatus::kOk) return write_done(t, &w);
  const DmaEngine::Result r =
      dma_.write(t.now(), slot->base + w.piece_offset, t.ctx_->data ? w.data.data() : nullptr, w.piece_bytes);
  if (r.status != tlm::TLM_OK_RESPONSE) {
    slot->status = RdmaStatus::kOutOfBounds;
    return write_done(t, &w);
  }
  t.counters_.dma_bytes_written += w.piece_bytes;
  if (t.probe_) t.probe_->set(t.probe_->rx_dma, r.start_ps, 2), t.probe_->set(t.probe_->rx_dma, r.done_ps, 0);
  t.at(r.done_ps, Tni::kWriteDone, &w);
}

// A get request: the transmit engine reads the data here and streams it
// back; an error goes back in one header-only answer.
void ReceiveEngine::receive_get_request(Tni& t, Wire& w) {
  const Resolution r = t.registry_.resolve(w.key, w.offset, w.op_length);
  auto answer = [&](Wire* d, std::uint64_t offset, std::uint32_t bytes) {
    *d = Wire{};
    d->type = Wire::kGetData;
    d->status = r.status;
    d->src_node = w.src_node;
    d->src_tni = w.src_tni;
    d->dst_node = w.src_node;
    d->dst_tni = w.src_tni;
    d->op = w.op;
    d->op_length = w.op_length;
    d->piece_offset = offset;
    d->piece_bytes = bytes;
    d->read_address = r.address + offset;
  };
  if (r.status != RdmaStatus::kOk) {  // one header-only answer carries the error
    Wire* d = t.ctx_->wires->get();
    answer(d, 0, 0);
    t.tx_.queue_response(d);
  } else {
    for (std::uint64_t k = 0, n = t.packetizer_.packets(w.op_length); k < n; ++k) {
      const PacketPlan plan = t.packetizer_.plan(w.op_length, k);
      Wire* d = t.ctx_->wires->get();
      answer(d, plan.offset, plan.payload_bytes);
      t.tx_.queue_response_read(d);
    }
  }
  t.ctx_->wires->put(&w);
  t.tx_.pump_reads(t);
  t.tx_.pump_send(t);
}

// Get data lands at the initiator: written where the get asked for it (the
// whole landing range was checked against the local registration when the
// get started, and a registered region lies inside the node memory). The
// target's header-only error answer completes the get at once. A data packet
// that could not be read at the target, or that the memory refuses here,
// fails the get: no later packet of it is written, and it completes with the
// error once its last packet is in (write_done), never OK.
void ReceiveEngine::receive_get_data(Tni& t, Wire& w) {
  if (w.status != RdmaStatus::kOk && w.piece_bytes == 0) {  // the target's one answer: refused
    const std::uint64_t handle = t.commands_.retire(w.op);
    t.queues_.complete(t, handle, w.status);
    release_rx(t, &w);
    t.ctx_->wires->put(&w);
    return;
  }
  RdmaStatus& status = t.commands_.status(w.op);
  if (w.status != RdmaStatus::kOk) status = w.status;  // the source could not be read
  if (status != RdmaStatus::kOk) return write_done(t, &w);
  const CommandQueue::TxOp& op = t.commands_.operation(w.op);
  const DmaEngine::Result r = dma_.write(t.now(), op.local_address + w.piece_offset,
                                         t.ctx_->data ? w.data.data() : nullptr, w.piece_bytes);
  if (r.status != tlm::TLM_OK_RESPONSE) {  // outside the node's memory: nothing written
    status = RdmaStatus::kOutOfBounds;
    return write_done(t, &w);
  }
  t.counters_.dma_bytes_written += w.piece_bytes;
  if (t.probe_) t.probe_->set(t.probe_->rx_dma, r.start_ps, 2), t.probe_->set(t.probe_->rx_dma, r.done_ps, 0);
  t.at(r.done_ps, Tni::kWriteDone, &w);
}

// The packet's payload is written: its ejection buffer slots free.
void ReceiveEngine::release_rx(Tni& t, Wire* w) {
  if (!w->rx_packet) return;
  t.ep_.consumed(w->rx_packet);
  t.pool_.put(w->rx_packet);
  w->rx_packet = nullptr;
}

// A piece is in memory (or was dropped). The last piece of a put raises the
// notice and sends the acknowledgement; the last piece of a get completes it,
// with the error if any of its pieces failed.
void ReceiveEngine::write_done(Tni& t, Wire* w) {
  release_rx(t, w);
  if (w->type == Wire::kGetData) {
    CommandQueue::TxOp& op = t.commands_.operation(w->op);
    if (++op.pieces_done == op.pieces) {
      const RdmaStatus status = t.commands_.status(w->op);
      t.queues_.complete(t, t.commands_.retire(w->op), status);
    }
    t.ctx_->wires->put(w);
    return;
  }
  auto it = ops_.find(rx_key(*w));
  RxOp& op = it->second;
  if (++op.pieces_done < op.pieces) {
    t.ctx_->wires->put(w);
    return;
  }
  const RdmaStatus status = op.status;
  ops_.erase(it);
  if (status == RdmaStatus::kOk && w->notify &&
      (t.queues_.notices() >= t.p_->notice_queue_depth || !notice_wait_.empty())) {
    // No room for the notice: the operation waits, and the receive side stops consuming.
    if (!stalled_) ++t.counters_.notice_queue_stalls;
    stalled_ = true;
    notice_wait_.push_back(w);
    return;
  }
  finish_put(t, w, status);
}

// The put's last byte is in memory and its notice has room: raise it and
// answer with the acknowledgement (the last piece's wire, reused).
void ReceiveEngine::finish_put(Tni& t, Wire* w, RdmaStatus status) {
  if (status == RdmaStatus::kOk && w->notify)
    t.queues_.notice(t, Notice{w->tag, w->src_node, w->op_length, t.now()});
  Wire* ack = w;
  const std::uint32_t to_node = ack->src_node;
  const std::uint16_t to_tni = ack->src_tni;
  ack->type = Wire::kPutAck;
  ack->status = status;
  ack->dst_node = to_node;
  ack->dst_tni = to_tni;
  ack->piece_bytes = 0;
  ack->data.clear();
  t.tx_.queue_response(ack);
  t.tx_.pump_send(t);
}

void ReceiveEngine::resume(Tni& t) {
  while (!notice_wait_.empty() && t.queues_.notices() < t.p_->notice_queue_depth) {
    Wire* w = notice_wait_.front();
    notice_wait_.pop_front();
    finish_put(t, w, RdmaStatus::kOk);
  }
  if (notice_wait_.empty()) stalled_ = false;
  while (!stalled_ && !held_.empty()) {  // consume what waited, in order, unless it stalls again
    hw::Packet* p = held_.front();
    held_.pop_front();
    receive(t, p);
  }
}

}  // namespace kairo::nic
