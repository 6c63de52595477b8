#include "hw/nic/tni.h"

#include <algorithm>

namespace kairo::nic {

using sim::Time;

namespace {
constexpr std::size_t kTxBufferPackets = 2;  // payloads read ahead of injection
}  // namespace

struct Tni::TxOp {
  Command cmd;
  std::uint64_t local_address = 0;
  std::uint64_t pieces = 0, pieces_done = 0;
};

struct Tni::RxOp {
  RdmaStatus status = RdmaStatus::kOk;
  std::uint64_t base = 0;
  std::uint64_t pieces = 0, pieces_done = 0;
};

Tni::Tni(const TniContext& ctx, const TniParams& p, std::uint32_t node, int index, hw::Endpoint& ep,
         NodeMemory& memory, MemoryRegistry& registry, hw::PacketPool& pool)
    : ctx_(&ctx),
      p_(&p),
      node_(node),
      index_(index),
      ep_(ep),
      memory_(memory),
      registry_(registry),
      pool_(pool),
      packetizer_(p.mtu_bytes, p.header_bytes, ctx.flit_bytes),
      tx_dma_(p.dma_bytes_per_s, memory.target()),
      rx_dma_(p.dma_bytes_per_s, memory.target()) {}

Tni::~Tni() = default;

// ---- commands ----------------------------------------------------------------

bool Tni::post(const Command& c) {
  if (commands_.size() >= p_->command_queue_depth) return false;  // back-pressure, never a drop
  ++counters_.commands;
  commands_.push_back({ctx_->queue->now() + p_->node_latency_ps, c});
  if (probe_) probe_->add(probe_->doorbells, ctx_->queue->now(), 1), probe_->add(probe_->cmdq, ctx_->queue->now(), 1);
  counters_.command_queue_high =
      std::max<std::uint32_t>(counters_.command_queue_high, std::uint32_t(commands_.size()));
  start_next_command();
  return true;
}

void Tni::start_next_command() {
  if (busy_ || activate_pending_ || commands_.empty()) return;
  if (!completion_room()) {  // its completion would have no slot: wait for a poll
    if (!cq_stalled_) ++counters_.completion_queue_stalls;
    cq_stalled_ = true;
    return;
  }
  activate_pending_ = true;
  ctx_->queue->at(std::max(ctx_->queue->now(), commands_.front().first), sim::kPrioState, this, kActivate);
}

RdmaStatus Tni::check(const Command& c, Resolution* local) const {
  if (c.length > p_->max_descriptor_bytes) return RdmaStatus::kLengthOverLimit;
  if (c.dst_node >= ctx_->nodes) return RdmaStatus::kBadRank;
  if (c.dst_tni >= ctx_->tnis) return RdmaStatus::kBadTni;
  *local = registry_.resolve(c.local_key, c.local_offset, c.length);
  return local->status;
}

// The command's node latency has passed: check it, then cut it into packets.
void Tni::activate() {
  activate_pending_ = false;
  if (!completion_room()) return start_next_command();  // filled since it was scheduled: stall
  if (gate_ && gate_->policy() == hw::CircuitPolicy::kHold && gate_closed(commands_.front().second.dst_node))
    return;  // gate_changed() brings it back
  const Command c = commands_.front().second;
  commands_.pop_front();
  if (probe_) probe_->add(probe_->cmdq, ctx_->queue->now(), -1);
  if (listener_) listener_->tni_command_space(listener_slot_);
  Resolution local;
  RdmaStatus s = check(c, &local);
  if (s == RdmaStatus::kOk && gate_ && !gate_->open_to(c.dst_node)) {
    s = RdmaStatus::kCircuitDown;
    ++counters_.circuit_refusals;
  }
  if (s != RdmaStatus::kOk) {
    complete(c.handle, s);
    start_next_command();
    return;
  }
  busy_ = true;
  const std::uint64_t op = next_op_++;
  auto tx = std::make_unique<TxOp>();
  tx->cmd = c;
  tx->local_address = local.address;
  tx->pieces = packetizer_.packets(c.length);
  tx_ops_.emplace(op, std::move(tx));
  auto fill = [&](Wire* w) {
    w->status = RdmaStatus::kOk;
    w->src_node = node_;
    w->src_tni = std::uint16_t(index_);
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
    Wire* w = ctx_->wires->get();
    fill(w);
    w->type = Wire::kGetRequest;
    w->piece_offset = 0;
    w->piece_bytes = 0;
    ready_.push_back(w);
    pump_send();
    return;
  }
  for (std::uint64_t k = 0, n = packetizer_.packets(c.length); k < n; ++k) {
    const PacketPlan plan = packetizer_.plan(c.length, k);
    Wire* w = ctx_->wires->get();
    fill(w);
    w->type = Wire::kPutData;
    w->piece_offset = plan.offset;
    w->piece_bytes = plan.payload_bytes;
    w->read_address = local.address + plan.offset;
    reads_.push_back(w);
  }
  pump_reads();
}

// ---- transmit ----------------------------------------------------------------

// The tx DMA reads payloads in order, responses first, staying a small buffer
// ahead of injection.
void Tni::pump_reads() {
  while (reads_in_flight_ + ready_.size() + responses_.size() < kTxBufferPackets) {
    sim::Ring<Wire*>& q = !response_reads_.empty() ? response_reads_ : reads_;
    if (q.empty()) return;
    Wire* w = q.front();
    q.pop_front();
    unsigned char* buf = nullptr;
    if (ctx_->data) {
      w->data.resize(w->piece_bytes);
      buf = w->data.data();
    }
    const DmaEngine::Result r = tx_dma_.read(ctx_->queue->now(), w->read_address, buf, w->piece_bytes);
    if (r.status != tlm::TLM_OK_RESPONSE)
      w->status = RdmaStatus::kOutOfBounds;  // outside the node's memory
    else
      counters_.dma_bytes_read += w->piece_bytes;
    ++reads_in_flight_;
    if (probe_) probe_->set(probe_->tx_dma, r.start_ps, 1), probe_->set(probe_->tx_dma, r.done_ps, 0);
    ctx_->queue->at(r.done_ps, sim::kPrioState, this, kReadDone, 0, w);
  }
}

void Tni::pump_send() {
  for (;;) {
    sim::Ring<Wire*>& q = !responses_.empty() ? responses_ : ready_;
    if (q.empty()) return;
    Wire* w = q.front();
    if (gate_ && gate_closed(w->dst_node)) return;  // gate_changed() comes back here
    const std::uint16_t flits = packetizer_.plan(w->piece_bytes, 0).flits;
    if (!ep_.can_send(flits)) return;  // on_send_ready() comes back here
    q.pop_front();
    const bool response = &q == &responses_;
    send_wire(w, response);
  }
}

void Tni::send_wire(Wire* w, bool response) {
  hw::Packet* p = pool_.get();
  const PacketPlan plan = packetizer_.plan(w->piece_bytes, 0);
  p->id = w->op;
  p->created_ps = ctx_->queue->now();
  p->src = node_;
  p->dst = w->dst_node;
  if (ctx_->topo) p->dst_coord = ctx_->topo->coord_of(w->dst_node);  // mesh/torus routing needs it
  p->flits = plan.flits;
  p->bytes = plan.wire_bytes;
  p->dst_ni = w->dst_tni;
  p->user = w;
  ep_.send(p);
  ++counters_.packets_sent;
  if (probe_) probe_->set(probe_->tx_pkt, ctx_->queue->now(), p->id + 1), probe_->set(probe_->tx_pkt, p->tail_ps, 0);
  // The active command is done once its last packet is on its way.
  const bool last_of_command =
      !response && (w->type == Wire::kGetRequest ||
                    (w->type == Wire::kPutData && w->piece_offset + w->piece_bytes >= w->op_length));
  if (last_of_command) {
    busy_ = false;
    start_next_command();
  }
  pump_reads();
}

void Tni::on_send_ready(int) { pump_send(); }

// ---- optical circuit ---------------------------------------------------------

void Tni::set_gate(hw::CircuitGate* g) {
  gate_ = g;
  if (g) g->on_change([this] { gate_changed(); });
}

bool Tni::gate_closed(std::uint32_t dst) {
  if (gate_->open_to(dst)) return false;
  if (gate_wait_since_ == sim::kNever) {
    gate_wait_since_ = ctx_->queue->now();
    ++counters_.circuit_waits;
  }
  return true;
}

// The circuit changed: whatever waited for it tries again.
void Tni::gate_changed() {
  if (gate_wait_since_ == sim::kNever) return;
  counters_.circuit_wait_ps += ctx_->queue->now() - gate_wait_since_;
  gate_wait_since_ = sim::kNever;
  pump_send();
  start_next_command();
}

// ---- receive -----------------------------------------------------------------

void Tni::on_packet(int, hw::Packet* p) {
  // The endpoint hands the packet over when its head lands; the engine acts
  // once the tail is in.
  ctx_->queue->at(ctx_->clock.ceil(p->tail_ps), sim::kPrioState, this, kTailIn, 0, p);
}

void Tni::receive(hw::Packet* p) {
  ++counters_.packets_received;
  Wire* w = static_cast<Wire*>(p->user);
  if (w->type == Wire::kPutData || w->type == Wire::kGetData) {
    w->rx_packet = p;  // its buffer slots free once the rx DMA has written it
  } else {
    ep_.consumed(p);
    pool_.put(p);
  }
  switch (w->type) {
    case Wire::kPutData:
      return receive_put_data(*w);
    case Wire::kGetRequest:
      return receive_get_request(*w);
    case Wire::kGetData:
      return receive_get_data(*w);
    case Wire::kPutAck: {
      auto it = tx_ops_.find(w->op);
      const std::uint64_t handle = it->second->cmd.handle;
      tx_ops_.erase(it);
      complete(handle, w->status);
      ctx_->wires->put(w);
      return;
    }
  }
}

// Put data lands: the whole operation's target range is checked against this
// node's registrations on its first packet; a bad key writes nothing.
void Tni::receive_put_data(Wire& w) {
  auto& slot = rx_ops_[rx_key(w)];
  if (!slot) {
    slot = std::make_unique<RxOp>();
    const Resolution r = registry_.resolve(w.key, w.offset, w.op_length);
    slot->status = r.status;
    slot->base = r.address;
    slot->pieces = packetizer_.packets(w.op_length);
  }
  if (w.status != RdmaStatus::kOk) slot->status = w.status;  // the source could not be read
  if (slot->status != RdmaStatus::kOk) return write_done(&w);
  const DmaEngine::Result r = rx_dma_.write(ctx_->queue->now(), slot->base + w.piece_offset,
                                            ctx_->data ? w.data.data() : nullptr, w.piece_bytes);
  if (r.status != tlm::TLM_OK_RESPONSE) {
    slot->status = RdmaStatus::kOutOfBounds;
    return write_done(&w);
  }
  counters_.dma_bytes_written += w.piece_bytes;
  if (probe_) probe_->set(probe_->rx_dma, r.start_ps, 2), probe_->set(probe_->rx_dma, r.done_ps, 0);
  ctx_->queue->at(r.done_ps, sim::kPrioState, this, kWriteDone, 0, &w);
}

void Tni::receive_get_request(Wire& w) {
  const Resolution r = registry_.resolve(w.key, w.offset, w.op_length);
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
    Wire* d = ctx_->wires->get();
    answer(d, 0, 0);
    responses_.push_back(d);
  } else {
    for (std::uint64_t k = 0, n = packetizer_.packets(w.op_length); k < n; ++k) {
      const PacketPlan plan = packetizer_.plan(w.op_length, k);
      Wire* d = ctx_->wires->get();
      answer(d, plan.offset, plan.payload_bytes);
      response_reads_.push_back(d);
    }
  }
  ctx_->wires->put(&w);
  pump_reads();
  pump_send();
}

void Tni::receive_get_data(Wire& w) {
  auto it = tx_ops_.find(w.op);
  TxOp& op = *it->second;
  if (w.status != RdmaStatus::kOk) {
    const std::uint64_t handle = op.cmd.handle;
    tx_ops_.erase(it);
    complete(handle, w.status);
    release_rx(&w);
    ctx_->wires->put(&w);
    return;
  }
  const DmaEngine::Result r = rx_dma_.write(ctx_->queue->now(), op.local_address + w.piece_offset,
                                            ctx_->data ? w.data.data() : nullptr, w.piece_bytes);
  counters_.dma_bytes_written += w.piece_bytes;
  if (probe_) probe_->set(probe_->rx_dma, r.start_ps, 2), probe_->set(probe_->rx_dma, r.done_ps, 0);
  ctx_->queue->at(r.done_ps, sim::kPrioState, this, kWriteDone, 0, &w);
}

// A piece is in memory. The last piece of a put raises the notice and sends
// the acknowledgement; the last piece of a get completes it.
void Tni::release_rx(Wire* w) {
  if (!w->rx_packet) return;
  ep_.consumed(w->rx_packet);
  pool_.put(w->rx_packet);
  w->rx_packet = nullptr;
}

void Tni::write_done(Wire* w) {
  release_rx(w);
  if (w->type == Wire::kGetData) {
    auto it = tx_ops_.find(w->op);
    if (++it->second->pieces_done == it->second->pieces) {
      const std::uint64_t handle = it->second->cmd.handle;
      tx_ops_.erase(it);
      complete(handle, RdmaStatus::kOk);
    }
    ctx_->wires->put(w);
    return;
  }
  auto it = rx_ops_.find(rx_key(*w));
  RxOp& op = *it->second;
  if (++op.pieces_done < op.pieces) {
    ctx_->wires->put(w);
    return;
  }
  const RdmaStatus status = op.status;
  rx_ops_.erase(it);
  if (status == RdmaStatus::kOk && w->notify &&
      (notices_.size() >= p_->notice_queue_depth || !notice_wait_.empty())) {
    // No room for the notice: the operation waits, and the receive side stops consuming.
    if (!rx_stalled_) ++counters_.notice_queue_stalls;
    rx_stalled_ = true;
    notice_wait_.push_back(w);
    return;
  }
  finish_put(w, status);
}

// The put's last byte is in memory and its notice has room: raise it and
// answer with the acknowledgement (the last piece's wire, reused).
void Tni::finish_put(Wire* w, RdmaStatus status) {
  if (status == RdmaStatus::kOk && w->notify)
    notice(Notice{w->tag, w->src_node, w->op_length, ctx_->queue->now()});
  Wire* ack = w;
  const std::uint32_t to_node = ack->src_node;
  const std::uint16_t to_tni = ack->src_tni;
  ack->type = Wire::kPutAck;
  ack->status = status;
  ack->dst_node = to_node;
  ack->dst_tni = to_tni;
  ack->piece_bytes = 0;
  ack->data.clear();
  responses_.push_back(ack);
  pump_send();
}

// The owner polled: room again. Deferred to an event so that polling never
// runs the engine inside the caller.
void Tni::schedule_resume() {
  if (resume_pending_) return;
  resume_pending_ = true;
  ctx_->queue->at(ctx_->queue->now(), sim::kPrioState, this, kResume);
}

void Tni::resume() {
  resume_pending_ = false;
  while (!notice_wait_.empty() && notices_.size() < p_->notice_queue_depth) {
    Wire* w = notice_wait_.front();
    notice_wait_.pop_front();
    finish_put(w, RdmaStatus::kOk);
  }
  if (notice_wait_.empty()) rx_stalled_ = false;
  while (!rx_stalled_ && !held_.empty()) {  // consume what waited, in order, unless it stalls again
    hw::Packet* p = held_.front();
    held_.pop_front();
    receive(p);
  }
  if (cq_stalled_ && completion_room()) {
    cq_stalled_ = false;
    start_next_command();
  }
}

void Tni::complete(std::uint64_t handle, RdmaStatus status) {
  completions_.push_back(Completion{handle, status, ctx_->queue->now()});
  if (probe_) probe_->add(probe_->completions, ctx_->queue->now(), 1);
  if (status != RdmaStatus::kOk) ++counters_.error_completions;
  counters_.completion_queue_high =
      std::max<std::uint32_t>(counters_.completion_queue_high, std::uint32_t(completions_.size()));
  if (listener_) listener_->tni_completion(listener_slot_);
}

void Tni::notice(const Notice& n) {
  notices_.push_back(n);
  if (probe_) probe_->add(probe_->notices, ctx_->queue->now(), 1);
  counters_.notice_queue_high =
      std::max<std::uint32_t>(counters_.notice_queue_high, std::uint32_t(notices_.size()));
  if (listener_) listener_->tni_notice(listener_slot_);
}

std::optional<Completion> Tni::poll_completion() {
  if (completions_.empty()) return std::nullopt;
  Completion c = completions_.front();
  completions_.pop_front();
  if (cq_stalled_) schedule_resume();
  return c;
}

std::optional<Notice> Tni::poll_notice() {
  if (notices_.empty()) return std::nullopt;
  Notice n = notices_.front();
  notices_.pop_front();
  if (rx_stalled_) schedule_resume();
  return n;
}

void Tni::on_event(std::uint32_t kind, std::uint32_t, void* ptr) {
  switch (kind) {
    case kActivate:
      return activate();
    case kReadDone: {
      Wire* w = static_cast<Wire*>(ptr);
      --reads_in_flight_;
      (w->type == Wire::kGetData ? responses_ : ready_).push_back(w);
      pump_send();
      pump_reads();
      return;
    }
    case kTailIn: {
      hw::Packet* p = static_cast<hw::Packet*>(ptr);
      if (rx_stalled_ || !held_.empty()) {  // stays in the ejection buffer, in arrival order
        held_.push_back(p);
        counters_.held_packets_high =
            std::max<std::uint32_t>(counters_.held_packets_high, std::uint32_t(held_.size()));
        return;
      }
      return receive(p);
    }
    case kWriteDone:
      return write_done(static_cast<Wire*>(ptr));
    case kResume:
      return resume();
    default:
      return;
  }
}

}  // namespace kairo::nic
