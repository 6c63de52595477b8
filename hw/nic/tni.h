// One RDMA engine of a node's NIC (Tofu's TNI), attached to its own router
// injection/ejection port through the network Endpoint.
//
// Timing (Susukita et al. 2016 §3.1, NSIM-ACE's put model; docs/rdma.md):
//   post(command) ........ the command waits node_latency (doorbell, descriptor
//                          fetch, memory latency) and then becomes active; the
//                          engine works on one command at a time, in order; a
//                          fenced command waits for every earlier one to complete
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
//                          initiator (remote), or when the last piece has been
//                          read (local)
//   get .................. a header-only request; the target's tx DMA reads
//                          and streams the data back; completion when the
//                          last byte is in the initiator's memory
//   atomics .............. a header-only request; the target's rx DMA reads
//                          and writes 8 bytes, serialized per address; the old
//                          value comes back and is written at the initiator
// Responses (acknowledgements, get data, atomic results) go out before new
// commands' packets.
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
// The engine's blocks and how they are wired are in hw/nic/engine.h, what
// each operation kind does with them in hw/nic/operation.h; the Tni owns
// them, is the endpoint's client and the event target they schedule on, and
// is what the host sees (hw/nic/host_interface.h).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>

#include "hw/common/circuit_gate.h"
#include "hw/common/endpoint.h"
#include "hw/nic/engine.h"
#include "hw/nic/host_interface.h"
#include "hw/nic/memory_registry.h"
#include "hw/nic/node_memory.h"
#include "hw/nic/rdma_types.h"

namespace kairo::nic {

class Tni final : public HostInterface, public hw::EndpointClient, public sim::EventTarget {
 public:
  // `ctx` and `p` are kept by reference: they must outlive the engine.
  Tni(const TniContext& ctx, const NicParams& p, std::uint32_t node, int index, hw::Endpoint& ep,
      NodeMemory& memory, MemoryRegistry& registry, hw::PacketPool& pool);
  ~Tni() override;

  bool post(const Command& c) override;
  std::optional<Completion> poll_completion() override;
  std::optional<Notice> poll_notice() override;
  void set_listener(TniListener* l, int slot) override;
  const TniCounters& counters() const override { return e_ ? e_->counters : kNoCounters; }

  // A run split over processes (docs/parallel.md): process 0's copy of an
  // engine another process ran takes that engine's final counters, for the
  // report. Never during a run.
  void set_counters(const TniCounters& c) { engine().counters = c; }
  void set_probe(const TniProbe* p);  // waveform recording; null: not traced
  // An engine whose endpoint goes through an optical circuit: it asks `g`
  // before starting a command and before each packet (hw/common/circuit_gate.h).
  void set_gate(hw::CircuitGate* g);
  // Waiting for a circuit now (counters: circuit_waits, circuit_wait_ps).
  bool waiting_for_circuit() const { return e_ && e_->gate_wait_since != sim::kNever; }
  // counters().circuit_wait_ps plus the wait still open at `now`.
  sim::Time circuit_wait_ps(sim::Time now) const {
    return counters().circuit_wait_ps +
           (waiting_for_circuit() && now > e_->gate_wait_since ? now - e_->gate_wait_since : 0);
  }
  std::size_t command_queue_depth() const { return e_ ? e_->commands.size() : 0; }
  std::uint32_t node() const { return node_; }
  int index() const { return index_; }
  // Whether the engine has been used: a command posted, a packet received,
  // counters set. Until then it holds no state (see e_).
  bool used() const { return e_ != nullptr; }

  void on_packet(int ni, hw::Packet* p) override;
  void on_send_ready(int ni) override;
  void on_event(std::uint32_t kind, std::uint32_t arg, void* ptr) override;

 private:
  [[gnu::noinline]] std::optional<Completion> take_completion();
  [[gnu::noinline]] std::optional<Notice> take_notice();
  void schedule_resume();
  void resume();
  void gate_changed();
  // The engine, made at its first use.
  Engine& engine() { return e_ ? *e_ : make_engine(); }
  [[gnu::noinline]] Engine& make_engine();

  static const TniCounters kNoCounters;
  // What the engine is made from, and what it is told before it exists.
  const TniContext& ctx_;
  const NicParams& p_;
  std::uint32_t node_;
  int index_;
  hw::Endpoint& ep_;
  NodeMemory& memory_;
  MemoryRegistry& registry_;
  hw::PacketPool& pool_;
  TniListener* listener_ = nullptr;
  int listener_slot_ = 0;
  const TniProbe* probe_ = nullptr;
  hw::CircuitGate* gate_ = nullptr;
  // An engine's state (its queues, operation table, transmit and receive
  // units, counters: 648 bytes) exists from its first use on: a Tofu node has
  // four engines and most programs use one or two of them (the K computer's
  // recursive-doubling barrier uses one, its pingpong two of 331,776), so an
  // idle engine costs its node 128 bytes (the Tni) rather than 680. The simulated
  // behaviour is the same: an unused engine has empty queues and zero counters.
  std::unique_ptr<Engine> e_;
};

}  // namespace kairo::nic
