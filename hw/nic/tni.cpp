#include "hw/nic/tni.h"

#include <stdexcept>
#include <string>

namespace kairo::nic {

namespace {
// The registration table must not map more memory than there is: every range
// a key resolves to is then inside the node memory, which is what lets the
// receive side check a whole message once, before its first byte is written.
MemoryRegistry& inside(MemoryRegistry& registry, const NodeMemory& memory) {
  if (registry.memory_bytes() > memory.params().size_bytes)
    throw std::invalid_argument("RDMA engine: the registration table maps " +
                                std::to_string(registry.memory_bytes()) + " B but the node memory has " +
                                std::to_string(memory.params().size_bytes) + " B");
  return registry;
}
}  // namespace

Tni::Tni(const TniContext& ctx, const NicParams& p, std::uint32_t node, int index, hw::Endpoint& ep,
         NodeMemory& memory, MemoryRegistry& registry, hw::PacketPool& pool)
    : ctx_(&ctx),
      p_(&p),
      node_(node),
      index_(index),
      ep_(ep),
      registry_(inside(registry, memory)),
      pool_(pool),
      packetizer_(p.mtu_bytes, p.header_bytes, ctx.flit_bytes),
      tx_(p.dma_bytes_per_s, memory.target()),
      rx_(p.dma_bytes_per_s, memory.target()) {}

Tni::~Tni() = default;

bool Tni::post(const Command& c) { return commands_.post(*this, c); }

// ---- the owner polls ---------------------------------------------------------

std::optional<Completion> Tni::poll_completion() {
  std::optional<Completion> c = queues_.poll_completion();
  if (c && commands_.stalled()) schedule_resume();
  return c;
}

std::optional<Notice> Tni::poll_notice() {
  std::optional<Notice> n = queues_.poll_notice();
  if (n && rx_.stalled()) schedule_resume();
  return n;
}

// The owner polled: room again. Deferred to an event so that polling never
// runs the engine inside the caller.
void Tni::schedule_resume() {
  if (resume_pending_) return;
  resume_pending_ = true;
  at(now(), kResume);
}

// Notice room first (the puts that waited, then the held packets), then
// completion room (a stalled command).
void Tni::resume() {
  resume_pending_ = false;
  rx_.resume(*this);
  commands_.resume(*this);
}

// ---- optical circuit ---------------------------------------------------------

void Tni::set_gate(hw::CircuitGate* g) {
  gate_ = g;
  if (g) g->on_change([this] { gate_changed(); });
}

bool Tni::gate_closed(std::uint32_t dst) {
  if (gate_->open_to(dst)) return false;
  if (gate_wait_since_ == sim::kNever) {
    gate_wait_since_ = now();
    ++counters_.circuit_waits;
  }
  return true;
}

// The circuit changed: whatever waited for it tries again.
void Tni::gate_changed() {
  if (gate_wait_since_ == sim::kNever) return;
  counters_.circuit_wait_ps += now() - gate_wait_since_;
  gate_wait_since_ = sim::kNever;
  tx_.pump_send(*this);
  commands_.start_next(*this);
}

// ---- the endpoint and the event queue ----------------------------------------

void Tni::on_packet(int, hw::Packet* p) { rx_.tail_in(*this, p); }

void Tni::on_send_ready(int) { tx_.pump_send(*this); }

void Tni::on_event(std::uint32_t kind, std::uint32_t, void* ptr) {
  switch (kind) {
    case kActivate:
      return commands_.activate(*this);
    case kReadDone:
      return tx_.read_done(*this, static_cast<Wire*>(ptr));
    case kWriteDone:
      return rx_.write_done(*this, static_cast<Wire*>(ptr));
    case kResume:
      return resume();
    default:
      return;
  }
}

}  // namespace kairo::nic
