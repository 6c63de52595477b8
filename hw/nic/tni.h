// One RDMA engine of a node's NIC (Tofu's TNI), attached to its own router
// injection/ejection port through the network Endpoint.
//
// Timing (seed 004 §3.1, NSIM-ACE's put model):
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
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "hw/common/circuit_gate.h"
#include "hw/common/endpoint.h"
#include "hw/nic/dma_engine.h"
#include "hw/nic/memory_registry.h"
#include "hw/nic/node_memory.h"
#include "hw/nic/packetizer.h"
#include "hw/nic/rdma_status.h"
#include "sim/trace.h"
#include "sim/ring.h"

namespace kairo::nic {

enum class Op : std::uint8_t { kPut, kGet };

struct Command {
  Op op = Op::kPut;
  std::uint32_t dst_node = 0;
  std::uint16_t dst_tni = 0;
  MemKey local_key = 0;  // put: source; get: destination
  std::uint64_t local_offset = 0;
  MemKey remote_key = 0;  // put: destination; get: source
  std::uint64_t remote_offset = 0;
  std::uint64_t length = 0;
  std::uint32_t tag = 0;     // put: raised at the target with the notice
  bool notify = true;        // put: raise a notice at the target
  std::uint64_t handle = 0;  // the caller's id, echoed in the completion
};

struct Completion {
  std::uint64_t handle = 0;
  RdmaStatus status = RdmaStatus::kOk;
  sim::Time time_ps = 0;
};

struct Notice {
  std::uint32_t tag = 0;
  std::uint32_t src_node = 0;
  std::uint64_t length = 0;
  sim::Time time_ps = 0;
};

struct TniParams {
  sim::Time node_latency_ps = 700000;  // seed 004: 0.6 to 0.8 us
  double dma_bytes_per_s = 2.8e9;      // seed 004 Table 1
  std::uint32_t mtu_bytes = 1920;      // TofuD
  std::uint32_t header_bytes = 32;
  std::uint64_t max_descriptor_bytes = (std::uint64_t(16) << 20) - 1;  // TofuD: 16 MiB - 1
  std::uint32_t command_queue_depth = 64;
  std::uint32_t completion_queue_depth = 256;
  std::uint32_t notice_queue_depth = 256;
};

struct TniCounters {
  std::uint64_t commands = 0, dma_bytes_read = 0, dma_bytes_written = 0;
  std::uint64_t packets_sent = 0, packets_received = 0, error_completions = 0;
  std::uint32_t command_queue_high = 0, completion_queue_high = 0, notice_queue_high = 0;
  // Back-pressure: times command processing stalled on a full completion
  // queue, times the receive side stalled on a full notice queue, and the
  // most received packets held unconsumed at once.
  std::uint64_t completion_queue_stalls = 0, notice_queue_stalls = 0;
  std::uint32_t held_packets_high = 0;
  // Optical engines (set_gate): commands refused because their circuit was
  // not up (CircuitPolicy::kError), and the time the engine spent waiting
  // for a circuit, with the number of such waits.
  std::uint64_t circuit_refusals = 0, circuit_waits = 0;
  sim::Time circuit_wait_ps = 0;
};

// RDMA packets' headers and payloads, recycled across all engines of a run
// (a packet allocated by one engine is freed by the one that consumes it).
struct Wire {
  enum Type : std::uint8_t { kPutData, kPutAck, kGetRequest, kGetData } type = kPutData;
  RdmaStatus status = RdmaStatus::kOk;
  std::uint32_t src_node = 0;  // the operation's initiator
  std::uint16_t src_tni = 0;
  std::uint32_t dst_node = 0;  // where this packet goes
  std::uint16_t dst_tni = 0;
  std::uint64_t op = 0;  // the initiator's operation id
  MemKey key = 0;        // the target-side region of the operation
  std::uint64_t offset = 0;
  std::uint64_t op_length = 0;
  std::uint64_t piece_offset = 0;  // this packet's share of the payload
  std::uint32_t piece_bytes = 0;
  std::uint32_t tag = 0;
  bool notify = false;
  std::uint64_t read_address = 0;   // sender side: where the tx DMA reads the payload
  std::vector<unsigned char> data;  // data mode only
  hw::Packet* rx_packet = nullptr;  // receiver side: the packet holding its ejection slots until written
  Wire* next_free = nullptr;
};

class WirePool {
 public:
  Wire* get() {
    if (!free_) {
      store_.push_back(std::make_unique<Wire>());
      return store_.back().get();
    }
    Wire* w = free_;
    free_ = w->next_free;
    w->next_free = nullptr;
    return w;
  }
  void put(Wire* w) {
    w->next_free = free_;
    free_ = w;
  }

 private:
  std::vector<std::unique_ptr<Wire>> store_;
  Wire* free_ = nullptr;
};

// What the engine needs of the rest of the machine.
struct TniContext {
  sim::EventQueue* queue = nullptr;
  const router::Topology* topo = nullptr;  // mesh/torus: to address packets by coordinates; null otherwise
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
  sim::Trace::Signal cmdq = kOff, tx_dma = kOff, rx_dma = kOff, tx_pkt = kOff, doorbells = kOff, notices = kOff,
                     completions = kOff;
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
  Tni(const TniContext& ctx, const TniParams& p, std::uint32_t node, int index, hw::Endpoint& ep,
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
  void set_probe(const TniProbe* p) { probe_ = p; }  // waveform recording; null: not traced
  // An engine whose endpoint goes through an optical circuit: it asks `g`
  // before starting a command and before each packet (hw/common/circuit_gate.h).
  void set_gate(hw::CircuitGate* g);
  // Waiting for a circuit now (counters: circuit_waits, circuit_wait_ps).
  bool waiting_for_circuit() const { return gate_wait_since_ != sim::kNever; }
  // counters().circuit_wait_ps plus the wait still open at `now`.
  sim::Time circuit_wait_ps(sim::Time now) const {
    return counters_.circuit_wait_ps + (waiting_for_circuit() && now > gate_wait_since_ ? now - gate_wait_since_ : 0);
  }
  std::size_t command_queue_depth() const { return commands_.size(); }
  std::uint32_t node() const { return node_; }
  int index() const { return index_; }

  void on_packet(int ni, hw::Packet* p) override;
  void on_send_ready(int ni) override;
  void on_event(std::uint32_t kind, std::uint32_t arg, void* ptr) override;

 private:
  struct TxOp;  // an operation this engine started
  struct RxOp;  // an operation arriving here
  enum Kind : std::uint32_t { kActivate = hw::kFirstOwnEvent, kReadDone, kTailIn, kWriteDone, kResume };

  void activate();
  void start_next_command();
  RdmaStatus check(const Command& c, Resolution* local) const;
  void pump_reads();
  void pump_send();
  void send_wire(Wire* w, bool response);
  void receive(hw::Packet* p);
  static std::uint64_t rx_key(const Wire& w) {
    return (std::uint64_t(w.src_node) << 40) ^ (std::uint64_t(w.src_tni) << 32) ^ (w.op & 0xffffffffULL);
  }
  void receive_put_data(Wire& w);
  void receive_get_request(Wire& w);
  void receive_get_data(Wire& w);
  void write_done(Wire* w);
  void release_rx(Wire* w);
  void finish_put(Wire* w, RdmaStatus status);
  bool completion_room() const { return completions_.size() + tx_ops_.size() < p_->completion_queue_depth; }
  void schedule_resume();
  bool gate_closed(std::uint32_t dst);  // and starts a wait if so
  void gate_changed();
  void resume();
  void complete(std::uint64_t handle, RdmaStatus status);
  void notice(const Notice& n);

  const TniContext* ctx_;  // shared by every engine of the machine (must outlive it)
  const TniParams* p_;    // likewise
  std::uint32_t node_;
  int index_;
  hw::Endpoint& ep_;
  NodeMemory& memory_;
  MemoryRegistry& registry_;
  hw::PacketPool& pool_;
  Packetizer packetizer_;
  DmaEngine tx_dma_, rx_dma_;

  sim::Ring<std::pair<sim::Time, Command>> commands_;  // posted, with the time each becomes active
  bool busy_ = false;                                  // a command is active
  bool activate_pending_ = false;
  bool cq_stalled_ = false;          // a command waits for completion-queue room
  bool rx_stalled_ = false;          // the receive side waits for notice-queue room
  bool resume_pending_ = false;      // a kResume event is scheduled
  sim::Ring<Wire*> response_reads_;  // get data to read for another engine (served first)
  sim::Ring<Wire*> reads_;           // packets whose payload the tx DMA still has to read (in order)
  int reads_in_flight_ = 0;
  sim::Ring<Wire*> ready_;        // read, waiting to be injected (command packets)
  sim::Ring<Wire*> responses_;    // acknowledgements and get data, injected first
  sim::Ring<Wire*> notice_wait_;  // puts whose last byte is in, waiting for notice-queue room
  sim::Ring<hw::Packet*> held_;   // received while stalled: still in the ejection buffer
  std::unordered_map<std::uint64_t, std::unique_ptr<TxOp>> tx_ops_;
  std::unordered_map<std::uint64_t, std::unique_ptr<RxOp>> rx_ops_;
  sim::Ring<Completion> completions_;
  sim::Ring<Notice> notices_;
  std::uint64_t next_op_ = 1;
  TniCounters counters_;
  const TniProbe* probe_ = nullptr;
  TniListener* listener_ = nullptr;
  int listener_slot_ = 0;
  hw::CircuitGate* gate_ = nullptr;
  sim::Time gate_wait_since_ = sim::kNever;
};

}  // namespace kairo::nic
