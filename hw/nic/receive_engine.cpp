#include "hw/nic/receive_engine.h"

#include <algorithm>

#include "hw/nic/engine.h"
#include "hw/nic/operation.h"

namespace kairo::nic {

void ReceiveEngine::tail_in(Engine& e, hw::Packet* p) {
  if (stalled_ || !held_.empty()) {  // stays in the ejection buffer, in arrival order
    held_.push_back(p);
    e.counters.held_packets_high =
        std::max<std::uint32_t>(e.counters.held_packets_high, std::uint32_t(held_.size()));
    return;
  }
  receive(e, p);
}

void ReceiveEngine::receive(Engine& e, hw::Packet* p) {
  ++e.counters.packets_received;
  Wire* w = static_cast<Wire*>(p->user);
  if (e.logging()) {
    observe::OpRecord r = e.record(observe::OpEvent::kArrive, *w);
    r.bytes = w->piece_bytes;
    r.peer = p->src;
    e.log(r);
  }
  if (Wire::is_written(w->type)) {
    w->rx_packet = p;  // its buffer slots free once the rx DMA has written it
  } else {
    e.ep.consumed(p);
    e.pool.put(p);
  }
  operation(w->op_kind).receive(e, *w);
}

bool ReceiveEngine::write(Engine& e, Wire* w, std::uint64_t address) {
  const DmaEngine::Result r =
      dma_.write(e.now(), address, e.ctx->data ? w->data.data() : nullptr, w->piece_bytes);
  if (r.status != tlm::TLM_OK_RESPONSE) return false;
  e.counters.dma_bytes_written += w->piece_bytes;
  if (e.probe) {
    e.probe->set(e.probe->rx_dma, r.start_ps, 2), e.probe->set(e.probe->rx_dma, r.done_ps, 0);
    e.probe->set(e.probe->rx_dma_pkt, r.start_ps, packet_label(*w));
    e.probe->set(e.probe->rx_dma_pkt, r.done_ps, 0);
  }
  w->dma_address = address;
  w->dma_start = r.start_ps;
  e.at(r.done_ps, kWriteDone, w);
  return true;
}

void ReceiveEngine::write_done(Engine& e, Wire* w) {
  if (e.logging())
    e.log_transfer(observe::OpEvent::kDmaWrite, *w, w->dma_address, w->piece_bytes, w->dma_start);
  release(e, w);
  operation(w->op_kind).written(e, w);
}

void ReceiveEngine::atomic_read_done(Engine& e, Wire* w) {
  if (e.logging()) e.log_transfer(observe::OpEvent::kDmaRead, *w, w->dma_address, kAtomicBytes, w->dma_start);
  w->dma_start = w->write_start;
}

void ReceiveEngine::write_again(Engine& e, const Wire& w, std::uint64_t address) {
  Wire* copy = e.ctx->wires->get();
  *copy = w;
  copy->rx_packet = nullptr;
  const DmaEngine::Result r =
      dma_.write(e.now(), address, e.ctx->data ? copy->data.data() : nullptr, copy->piece_bytes);
  if (r.status != tlm::TLM_OK_RESPONSE) {
    e.ctx->wires->put(copy);
    return;
  }
  copy->dma_address = address;
  copy->dma_start = r.start_ps;
  e.at(r.done_ps, kExtraWrite, copy);
}

void ReceiveEngine::extra_write_done(Engine& e, Wire* copy) {
  if (e.logging())
    e.log_transfer(observe::OpEvent::kDmaWrite, *copy, copy->dma_address, copy->piece_bytes, copy->dma_start);
  e.ctx->wires->put(copy);
}

void ReceiveEngine::drop(Engine& e, Wire* w) {
  if (e.logging()) {
    observe::OpRecord r = e.record(observe::OpEvent::kDrop, *w);
    r.bytes = w->piece_bytes;
    e.log(r);
  }
  release(e, w);
  operation(w->op_kind).written(e, w);
}

// The packet's payload is written: its ejection buffer slots free.
void ReceiveEngine::release(Engine& e, Wire* w) {
  if (!w->rx_packet) return;
  e.ep.consumed(w->rx_packet);
  e.pool.put(w->rx_packet);
  w->rx_packet = nullptr;
}

void ReceiveEngine::wait_for_notice_room(Engine& e, Wire* w) {
  if (!stalled_) ++e.counters.notice_queue_stalls;
  stalled_ = true;
  notice_wait_.push_back(w);
}

void ReceiveEngine::resume(Engine& e) {
  while (!notice_wait_.empty() && e.queues.notices() < e.p->notice_queue_depth) {
    Wire* w = notice_wait_.front();
    notice_wait_.pop_front();
    finish_put(e, w, RdmaStatus::kOk);
  }
  if (notice_wait_.empty()) stalled_ = false;
  while (!stalled_ && !held_.empty()) {  // consume what waited, in order, unless it stalls again
    hw::Packet* p = held_.front();
    held_.pop_front();
    receive(e, p);
  }
}

}  // namespace kairo::nic
