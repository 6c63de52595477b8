// One RDMA engine's blocks, wired: what they share (where the engine is, its
// parameters, clock, counters and observers) and the blocks themselves, each
// a unit with its own state behind its own interface:
//   commands ..... the command queue: posted commands, node latency, fences,
//                  the completion reservation (command_queue.h)
//   ops .......... the operations this engine started and that are not over
//                  (operation_table.h)
//   tx ........... the transmit engine: tx DMA reads, injection queues
//                  (transmit_engine.h)
//   rx ........... the receive engine: tail in, held packets, rx DMA writes,
//                  the reassembly of arriving puts (receive_engine.h)
//   queues ....... the completion and notice queues (completion_queues.h)
//   registry ..... the node's registration table (memory_registry.h)
// What an operation does with them is said once per operation kind, in its
// handler (operation.h: put, get, atomics). The Tni (tni.h) owns an Engine,
// is its endpoint client and event target, and hands each event to the block
// that scheduled it.
//
// The blocks work on the engine as a whole (`Engine& e`), which is passed in
// rather than kept, so that a block adds no pointers to each of a machine's
// many engines.
#pragma once
#include <cstdint>
#include <map>
#include <utility>

#include "hw/common/circuit_gate.h"
#include "hw/common/endpoint.h"
#include "hw/nic/command_queue.h"
#include "hw/nic/completion_queues.h"
#include "hw/nic/host_interface.h"
#include "hw/nic/memory_registry.h"
#include "hw/nic/node_memory.h"
#include "hw/nic/operation_table.h"
#include "hw/nic/packetizer.h"
#include "hw/nic/rdma_types.h"
#include "hw/nic/receive_engine.h"
#include "hw/nic/transmit_engine.h"
#include "hw/nic/wire.h"
#include "observe/op_log.h"
#include "observe/packet_label.h"
#include "sim/trace.h"

namespace kairo::nic {

// When each 8-byte word that atomics work on is free again, per node: the
// atomics of a node's engines on one address are serialized (docs/rdma.md).
class AtomicLocks {
 public:
  sim::Time& free_at(std::uint32_t node, std::uint64_t address) { return free_at_[{node, address}]; }

 private:
  std::map<std::pair<std::uint32_t, std::uint64_t>, sim::Time> free_at_;
};

// What the engines need of the rest of the machine, shared by all of them.
struct TniContext {
  sim::EventQueue* queue = nullptr;
  WirePool* wires = nullptr;
  sim::Clock clock;  // the router clock the endpoint runs on
  std::uint32_t flit_bytes = 32;
  std::uint32_t nodes = 1;  // valid destination ranks are [0, nodes)
  std::uint32_t tnis = 1;   // valid destination TNIs are [0, tnis)
  bool data = true;         // data mode: payload bytes travel
  AtomicLocks* atomics = nullptr;
  observe::OpLog* log = nullptr;  // the operation log, when one is written
};

// What an RDMA engine records into a waveform when it is traced
// (sim/trace.h): `cmdq_depth` (commands posted and not yet taken), `tx_dma`
// and `rx_dma` (0 idle, 1 reading memory, 2 writing it), `tx_dma_pkt` and
// `rx_dma_pkt` (the packet whose payload that DMA is moving), `tx_pkt` (the
// packet being injected), each packet by its label (observe/packet_label.h;
// 0 idle), and the running counts `doorbells` (commands posted), `notices`
// (puts landed here with a tag) and `completions` (operations this engine
// finished). Signals not selected keep kOff.
struct TniProbe {
  static constexpr sim::Trace::Signal kOff = ~sim::Trace::Signal(0);
  sim::Trace* trace = nullptr;
  sim::Trace::Signal cmdq = kOff, tx_dma = kOff, rx_dma = kOff, tx_dma_pkt = kOff, rx_dma_pkt = kOff,
                     tx_pkt = kOff, doorbells = kOff, notices = kOff, completions = kOff;
  void set(sim::Trace::Signal s, sim::Time t, std::uint64_t v) const {
    if (s != kOff) trace->set(s, t, v);
  }
  void add(sim::Trace::Signal s, sim::Time t, std::int64_t d) const {
    if (s != kOff) trace->add_delta(s, t, d);
  }
};

// The events the blocks schedule; each comes back to the owner (the Tni),
// which hands it to the block.
enum EngineEvent : std::uint32_t {
  kActivate = hw::kFirstOwnEvent,  // the command queue's front command may start
  kReadDone,                       // a tx DMA read is over (the Wire)
  kWriteDone,                      // an rx DMA write is over (the Wire)
  kResume,                         // the owner polled: what waited for room goes on
  kAtomicRead,                     // an atomic's read at the target is over (the Wire)
  kExtraWrite,                     // nic.fault double_write: the second write is over (a copy of the Wire)
};

struct Engine {
  Engine(const TniContext& ctx, const NicParams& p, std::uint32_t node, int index, hw::Endpoint& ep,
         NodeMemory& memory, MemoryRegistry& registry, hw::PacketPool& pool, sim::EventTarget& owner);
  // Throws std::invalid_argument when `registry` maps more than `memory` has;
  // a Tni calls it when built, before its engine exists.
  static void check_registry(const MemoryRegistry& registry, const NodeMemory& memory);

  sim::Time now() const { return ctx->queue->now(); }
  void at(sim::Time t, EngineEvent kind, void* ptr = nullptr) {
    ctx->queue->at(t, sim::kPrioState, owner, kind, 0, ptr);
  }
  // An optical engine: whether its circuit is down towards `dst` (and a wait starts if so).
  bool gate_closed(std::uint32_t dst);

  // Operation `number` of this engine is over with `status`: forgotten (the
  // completion room it reserved is free again) and, unless it completed
  // early (a put's local completion), its completion posted.
  void finish(std::uint64_t number, RdmaStatus status);
  // Operation `number`'s completion, posted now; the operation may still be
  // in flight (a put with local completion waits for its acknowledgement).
  void complete_early(std::uint64_t number, RdmaStatus status);

  // The operation log: whether this engine's step now is recorded, and a
  // record of it with the engine's place filled in.
  bool logging() const { return ctx->log && ctx->log->wants(node); }
  observe::OpRecord record(observe::OpEvent event) const;
  // A packet's step (its operation, packet number and kind from the Wire).
  observe::OpRecord record(observe::OpEvent event, const Wire& w) const;
  void log(const observe::OpRecord& r) const { ctx->log->add(r); }
  // A DMA transfer of `w`'s, over now: `bytes` at `address`, from `start`.
  void log_transfer(observe::OpEvent event, const Wire& w, std::uint64_t address, std::uint64_t bytes,
                    sim::Time start) const;

  // Where the engine is and what it shares with the machine.
  const TniContext* ctx;  // shared by every engine of the machine (must outlive it)
  const NicParams* p;     // likewise
  std::uint32_t node;
  int index;
  hw::Endpoint& ep;
  MemoryRegistry& registry;
  hw::PacketPool& pool;
  sim::EventTarget* owner;
  Packetizer packetizer;
  int listener_slot = 0;  // (beside the packetizer: fills its padding)
  // Its blocks.
  CommandQueue commands;
  OperationTable ops;
  TransmitEngine tx;
  ReceiveEngine rx;
  CompletionQueues queues;
  // What it reports, and to whom.
  TniCounters counters;
  const TniProbe* probe = nullptr;
  TniListener* listener = nullptr;
  hw::CircuitGate* gate = nullptr;
  sim::Time gate_wait_since = sim::kNever;
  bool resume_pending = false;  // a kResume event is scheduled
};

// The packet kind of a Wire, and the operation kind of a command, as the log
// names them (an operation's is its place in sim/rdma_operations.h's table).
// A Wire's types and the log's packet kinds run in the same order, so the
// kind is one addition: every packet sets its label from it (send_wire).
inline observe::OpKind packet_kind(const Wire& w) {
  using K = observe::OpKind;
  static_assert(int(K::kAck) - int(K::kData) == Wire::kPutAck &&
                    int(K::kGetRequest) - int(K::kData) == Wire::kGetRequest &&
                    int(K::kGetResponse) - int(K::kData) == Wire::kGetData &&
                    int(K::kAtomicRequest) - int(K::kData) == Wire::kAtomicRequest &&
                    int(K::kAtomicResponse) - int(K::kData) == Wire::kAtomicResponse && Wire::kPutData == 0,
                "Wire::Type and observe::OpKind's packet kinds run in the same order");
  return K(int(K::kData) + int(w.type));
}
inline observe::OpKind operation_kind(Op op) { return observe::op_kind(op); }
// The Wire's packet as waveforms show it: its operation log id and kind, packed (observe/packet_label.h).
inline std::uint64_t packet_label(const Wire& w) {
  return observe::packet_label({w.src_node, w.src_tni, w.op}, w.packet, packet_kind(w));
}

}  // namespace kairo::nic
