// One RDMA engine of a node's NIC (Tofu's TNI), attached to its own router
// injection/ejection port through the network Endpoint.
//
// Timing (Susukita et al. 2016 §3.1, NSIM-ACE's put model):
//   post(command) ........ the command waits node_latency (doorbell, descriptor
//                          fetch, memory latency) and then becomes active; the
//                          engine works on one command at a time, in order
//   put, initiator ....... the tx DMA reads the payload from local memory one
//                          packet (MTU) at a time at the DMA rate, staying at
//                          most kTxBufferPackets ahead of injection; packets
//                          go out through the endpoint with credit flow control
//   put, target .......... each packet, once its tail is in, is written to
//                          memory by the rx DMA at the DMA rate, in arrival
//                          order; after the operation's last byte is in memory
//                          the notice (tag) is raised and a header-only
//                          acknowledgement goes back
//   put, completion ...... when the acknowledgement's tail reaches the
//                          initiator
//   get .................. a header-only request; the target's tx DMA reads
//                          and streams the data back; completion when the
//                          last byte is in the initiator's memory
// Responses (acknowledgements, get data) go out before new commands' packets.
//
// Errors are reported as the hardware reports them, never as lost data: a
// command that fails the initiator's checks (length over the per-descriptor
// limit, a bad rank or TNI, an unregistered, stale or out-of-bounds local
// key) completes at once with its status and sends nothing; a target that
// cannot resolve the remote key writes nothing and answers with the status.
// A registration lies inside the node memory (the registration table refuses
// one passing its end), so the whole range of an operation is checked before
// its first byte is written: a failing put or get writes nothing.
//
// Full queues back-pressure, never drop:
//   command queue ........ post() refuses; the firmware waits for space
//   completion queue ..... a command starts only when the completion queue
//                          has room for its completion, counting operations
//                          in flight (a reservation, like hardware CQ
//                          credits): a full queue stalls command processing
//                          until the owner polls a completion
//   notice queue ......... a put whose notice finds the queue full waits (its
//                          acknowledgement too), and the receive side stops
//                          taking packets: they stay in the endpoint's
//                          ejection buffer, the router's credits do not come
//                          back and the senders' packets stall in the
//                          network, until the owner polls a notice
//   receive buffer ....... a data packet occupies its ejection buffer slots
//                          until the rx DMA has written it to memory, so a
//                          DMA slower than the link back-pressures the network
// Not modeled: ordering between operations on different TNIs.
//
// The engine is made of the blocks a NIC designer names, one file pair each;
// the Tni wires them together, owns the counters and the waveform probe,
// and is the endpoint's client and the event target they all schedule on:
//   CommandQueue ......... posted commands, node latency, the completion
//                          reservation, the operations in flight
//                          (hw/nic/command_queue.h)
//   TransmitEngine ....... packet creation, tx DMA reads, injection queues,
//                          the optical gate on the send side
//                          (hw/nic/transmit_engine.h)
//   ReceiveEngine ........ tail in, held packets, rx DMA writes, reassembly,
//                          acknowledgements, get serving, get data
//                          (hw/nic/receive_engine.h)
//   CompletionQueues ..... the completion and notice queues
//                          (hw/nic/completion_queues.h)
// The commands, queue entries, parameters and counters are in
// hw/nic/rdma_types.h, the packet format in hw/nic/wire.h.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "hw/common/circuit_gate.h"
#include "hw/common/endpoint.h"
#include "hw/nic/command_queue.h"
#include "hw/nic/completion_queues.h"
#include "hw/nic/dma_engine.h"
#include "hw/nic/memory_registry.h"
#include "hw/nic/node_memory.h"
#include "hw/nic/packetizer.h"
#include "hw/nic/rdma_status.h"
#include "hw/nic/rdma_types.h"
#include "hw/nic/receive_engine.h"
#include "hw/nic/transmit_engine.h"
#include "hw/nic/wire.h"
#include "sim/ring.h"
#include "sim/trace.h"

namespace kairo::nic {

// What the engine needs of the rest of the machine.
struct TniContext {
  sim::EventQueue* queue = nullptr;
  WirePool* wires = nullptr;
  sim::Clock clock;  // the router clock the endpoint runs on
  std::uint32_t flit_bytes = 32;
  std::uint32_t nodes = 1;  // valid destination ranks are [0, nodes)
  std::uint32_t tnis = 1;   // valid destination TNIs are [0, tnis)
  bool data = true;         // data mode: payload bytes travel
};

// What an RDMA engine records into a waveform when it is traced
// (sim/trace.h): `cmdq_depth` (commands posted and not yet taken), `tx_dma`
// and `rx_dma` (0 idle, 1 reading memory, 2 writing it), `tx_pkt` (the
// operation id of the packet being injected, 0 between packets), and the
// running counts `doorbells` (commands posted), `notices` (puts landed here
// with a tag) and `completions` (operations this engine finished). Signals
// not selected keep kOff.
struct TniProbe {
  static constexpr sim::Trace::Signal kOff = ~sim::Trace::Signal(0);
  sim::Trace* trace = nullptr;
  sim::Trace::Signal cmdq = kOff, tx_dma = kOff, rx_dma = kOff, tx_pkt = kOff, doorbells = kOff,
                     notices = kOff, completions = kOff;
  void set(sim::Trace::Signal s, sim::Time t, std::uint64_t v) const {
    if (s != kOff) trace->set(s, t, v);
  }
  void add(sim::Trace::Signal s, sim::Time t, std::int64_t d) const {
    if (s != kOff) trace->add_delta(s, t, d);
  }
};

// Who hears of an engine's completions, notices and command-queue space (the
// firmware runtime's rank), with the slot it gave.
class TniListener {
 public:
  virtual ~TniListener() = default;
  virtual void tni_completion(int slot) = 0;
  virtual void tni_notice(int slot) = 0;
  virtual void tni_command_space(int slot) = 0;
};

class Tni : public hw::EndpointClient, public sim::EventTarget {
 public:
  // `ctx` and `p` are kept by reference: they must outlive the engine.
  Tni(const TniContext& ctx, const NicParams& p, std::uint32_t node, int index, hw::Endpoint& ep,
      NodeMemory& memory, MemoryRegistry& registry, hw::PacketPool& pool);
  ~Tni() override;

  // Queue a command; false (nothing queued) when the command queue is full.
  bool post(const Command& c);
  std::optional<Completion> poll_completion();
  std::optional<Notice> poll_notice();
  // Told (synchronously) when an entry is appended, or a command leaves a
  // full queue: lets firmware wake. `slot` is echoed back.
  void set_listener(TniListener* l, int slot) {
    listener_ = l;
    listener_slot_ = slot;
  }

  const TniCounters& counters() const { return counters_; }
  // A run split over processes (docs/parallel.md): process 0's copy of an
  // engine another process ran takes that engine's final counters, for the
  // report. Never during a run.
  void set_counters(const TniCounters& c) { counters_ = c; }
  void set_probe(const TniProbe* p) { probe_ = p; }  // waveform recording; null: not traced
  // An engine whose endpoint goes through an optical circuit: it asks `g`
  // before starting a command and before each packet (hw/common/circuit_gate.h).
  void set_gate(hw::CircuitGate* g);
  // Waiting for a circuit now (counters: circuit_waits, circuit_wait_ps).
  bool waiting_for_circuit() const { return gate_wait_since_ != sim::kNever; }
  // counters().circuit_wait_ps plus the wait still open at `now`.
  sim::Time circuit_wait_ps(sim::Time now) const {
    return counters_.circuit_wait_ps +
           (waiting_for_circuit() && now > gate_wait_since_ ? now - gate_wait_since_ : 0);
  }
  std::size_t command_queue_depth() const { return commands_.size(); }
  std::uint32_t node() const { return node_; }
  int index() const { return index_; }

  void on_packet(int ni, hw::Packet* p) override;
  void on_send_ready(int ni) override;
  void on_event(std::uint32_t kind, std::uint32_t arg, void* ptr) override;

 private:
  // The blocks reach the engine's context, parameters, counters, probe,
  // listener and gate, and each other, through the engine.
  friend class CommandQueue;
  friend class TransmitEngine;
  friend class ReceiveEngine;
  friend class CompletionQueues;
  enum Kind : std::uint32_t { kActivate = hw::kFirstOwnEvent, kReadDone, kWriteDone, kResume };

  sim::Time now() const { return ctx_->queue->now(); }
  // Every event of the engine's blocks comes back to the engine (on_event).
  void at(sim::Time t, Kind kind, void* ptr = nullptr) {
    ctx_->queue->at(t, sim::kPrioState, this, kind, 0, ptr);
  }
  void schedule_resume();
  void resume();
  bool gate_closed(std::uint32_t dst);  // and starts a wait if so
  void gate_changed();

  const TniContext* ctx_;  // shared by every engine of the machine (must outlive it)
  const NicParams* p_;     // likewise
  std::uint32_t node_;
  int index_;
  hw::Endpoint& ep_;
  MemoryRegistry& registry_;
  hw::PacketPool& pool_;
  Packetizer packetizer_;
  int listener_slot_ = 0;  // (beside the packetizer: fills its padding)
  CommandQueue commands_;
  TransmitEngine tx_;
  ReceiveEngine rx_;
  CompletionQueues queues_;
  TniCounters counters_;
  const TniProbe* probe_ = nullptr;
  TniListener* listener_ = nullptr;
  hw::CircuitGate* gate_ = nullptr;
  sim::Time gate_wait_since_ = sim::kNever;
  bool resume_pending_ = false;  // a kResume event is scheduled
};

}  // namespace kairo::nic
