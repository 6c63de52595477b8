#include "hw/nic/engine.h"

#include <stdexcept>
#include <string>

namespace kairo::nic {

// The registration table must not map more memory than there is: every range
// a key resolves to is then inside the node memory, which is what lets the
// receive side check a whole message once, before its first byte is written.
void Engine::check_registry(const MemoryRegistry& registry, const NodeMemory& memory) {
  if (registry.memory_bytes() > memory.params().size_bytes)
    throw std::invalid_argument("RDMA engine: the registration table maps " +
                                std::to_string(registry.memory_bytes()) + " B but the node memory has " +
                                std::to_string(memory.params().size_bytes) + " B");
}

Engine::Engine(const TniContext& c, const NicParams& params, std::uint32_t n, int i, hw::Endpoint& endpoint,
               NodeMemory& memory, MemoryRegistry& reg, hw::PacketPool& packets, sim::EventTarget& o)
    : ctx(&c),
      p(&params),
      node(n),
      index(i),
      ep(endpoint),
      registry(reg),  // checked against `memory` when its Tni was built
      pool(packets),
      owner(&o),
      packetizer(params.mtu_bytes, params.header_bytes, c.flit_bytes),
      tx(params.dma_bytes_per_s, memory.target()),
      rx(params.dma_bytes_per_s, memory.target()) {}

bool Engine::gate_closed(std::uint32_t dst) {
  if (gate->open_to(dst)) return false;
  if (gate_wait_since == sim::kNever) {
    gate_wait_since = now();
    ++counters.circuit_waits;
  }
  return true;
}

// Retired before its completion is raised, so that the room it reserved is free.
void Engine::finish(std::uint64_t number, RdmaStatus status) {
  const OperationTable::Entry& op = ops[number];
  const bool completed = op.completed;
  const Op kind = op.op;
  const std::uint64_t handle = op.handle;
  ops.retire(number);
  if (completed) return;
  queues.complete(*this, number, kind, handle, status);
  commands.operation_completed(*this);
}

void Engine::complete_early(std::uint64_t number, RdmaStatus status) {
  OperationTable::Entry& op = ops[number];
  op.completed = true;
  queues.complete(*this, number, op.op, op.handle, status);
  commands.operation_completed(*this);
}

observe::OpRecord Engine::record(observe::OpEvent event) const {
  observe::OpRecord r;
  r.event = event;
  r.node = node;
  r.tni = index;
  r.op = {node, std::uint16_t(index), 0};
  return r;
}

observe::OpRecord Engine::record(observe::OpEvent event, const Wire& w) const {
  observe::OpRecord r;
  r.event = event;
  r.node = node;
  r.tni = index;
  r.op = {w.src_node, w.src_tni, w.op};
  r.packet = w.packet;
  r.kind = packet_kind(w);
  r.status = std::uint8_t(w.status);
  return r;
}

void Engine::log_transfer(observe::OpEvent event, const Wire& w, std::uint64_t address, std::uint64_t bytes,
                          sim::Time start) const {
  observe::OpRecord r = record(event, w);
  r.addr = address;
  r.bytes = bytes;
  r.start_ps = start;
  log(r);
}

}  // namespace kairo::nic
