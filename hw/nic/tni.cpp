#include "hw/nic/tni.h"

namespace kairo::nic {

const TniCounters Tni::kNoCounters{};

Tni::Tni(const TniContext& ctx, const NicParams& p, std::uint32_t node, int index, hw::Endpoint& ep,
         NodeMemory& memory, MemoryRegistry& registry, hw::PacketPool& pool)
    : sim::EventTarget(sim::EventBlock::kNic),
      ctx_(ctx),
      p_(p),
      node_(node),
      index_(index),
      ep_(ep),
      memory_(memory),
      registry_(registry),
      pool_(pool) {
  Engine::check_registry(registry, memory);  // refused when built, not at first use
}

Tni::~Tni() = default;

Engine& Tni::make_engine() {
  e_ = std::make_unique<Engine>(ctx_, p_, node_, index_, ep_, memory_, registry_, pool_, *this);
  e_->listener = listener_;
  e_->listener_slot = listener_slot_;
  e_->probe = probe_;
  e_->gate = gate_;
  return *e_;
}

void Tni::set_listener(TniListener* l, int slot) {
  listener_ = l;
  listener_slot_ = slot;
  if (e_) e_->listener = l, e_->listener_slot = slot;
}

void Tni::set_probe(const TniProbe* p) {
  probe_ = p;
  if (e_) e_->probe = p;
}

bool Tni::post(const Command& c) {
  Engine& e = engine();
  return e.commands.post(e, c);
}

// ---- the owner polls ---------------------------------------------------------

// An empty queue is the firmware's usual answer: it asks every engine
// whenever it is inside a runtime call. Taking an entry is out of line.
std::optional<Completion> Tni::poll_completion() {
  if (!e_ || e_->queues.completions() == 0) return std::nullopt;
  return take_completion();
}

std::optional<Completion> Tni::take_completion() {
  std::optional<Completion> c = e_->queues.poll_completion();
  if (e_->logging()) {
    observe::OpRecord r = e_->record(observe::OpEvent::kPoll);
    r.op.number = c->number;
    r.kind = operation_kind(c->op);
    r.status = std::uint8_t(c->status);
    e_->log(r);
  }
  if (e_->commands.stalled()) schedule_resume();
  return c;
}

std::optional<Notice> Tni::poll_notice() {
  if (!e_ || e_->queues.notices() == 0) return std::nullopt;
  return take_notice();
}

std::optional<Notice> Tni::take_notice() {
  std::optional<Notice> n = e_->queues.poll_notice();
  if (e_->logging()) {
    observe::OpRecord r = e_->record(observe::OpEvent::kNoticePoll);
    r.op = {n->src_node, n->src_tni, n->op};
    r.tag = n->tag;
    r.peer = n->src_node;
    e_->log(r);
  }
  if (e_->rx.stalled()) schedule_resume();
  return n;
}

// The owner polled: room again. Deferred to an event so that polling never
// runs the engine inside the caller.
void Tni::schedule_resume() {
  if (e_->resume_pending) return;
  e_->resume_pending = true;
  e_->at(e_->now(), kResume);
}

// Notice room first (the puts that waited, then the held packets), then
// completion room (a stalled command).
void Tni::resume() {
  e_->resume_pending = false;
  e_->rx.resume(*e_);
  e_->commands.resume(*e_);
}

// ---- optical circuit ---------------------------------------------------------

void Tni::set_gate(hw::CircuitGate* g) {
  gate_ = g;
  if (e_) e_->gate = g;
  if (g) g->on_change([this] { gate_changed(); });
}

// The circuit changed: whatever waited for it tries again.
void Tni::gate_changed() {
  if (!e_ || e_->gate_wait_since == sim::kNever) return;
  e_->counters.circuit_wait_ps += e_->now() - e_->gate_wait_since;
  e_->gate_wait_since = sim::kNever;
  e_->tx.pump_send(*e_);
  e_->commands.start_next(*e_);
}

// ---- the endpoint and the event queue ----------------------------------------

void Tni::on_packet(int, hw::Packet* p) {
  Engine& e = engine();
  e.rx.tail_in(e, p);
}

void Tni::on_send_ready(int) {
  if (e_) e_->tx.pump_send(*e_);  // an engine that never sent has nothing to send
}

void Tni::on_event(std::uint32_t kind, std::uint32_t, void* ptr) {
  Wire* w = static_cast<Wire*>(ptr);
  switch (kind) {
    case kActivate:
      return e_->commands.activate(*e_);
    case kReadDone:
      return e_->tx.read_done(*e_, w);
    case kWriteDone:
      return e_->rx.write_done(*e_, w);
    case kResume:
      return resume();
    case kAtomicRead:
      return e_->rx.atomic_read_done(*e_, w);
    case kExtraWrite:
      return e_->rx.extra_write_done(*e_, w);
    default:
      return;
  }
}

}  // namespace kairo::nic
