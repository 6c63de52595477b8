// The optical data plane of an OCS fabric (Takizawa et al. 2008 §2): one port per node
// that has an optical NIC, a circuit from a port's transmit fibre to another
// port's receive fibre, and nothing else. There is no buffer and no
// optical-electrical-optical conversion inside: a packet entering a port
// whose circuit is up leaves the far end at the optical rate after the
// pathway's propagation delay, and costs no event of its own (it is handed
// straight to the receiving NIC's endpoint, like a cable). Flow control is
// end to end: the receiving endpoint's credits pass back through the fabric
// to whichever port fed the packet.
//
// Which circuits exist is the CircuitController's business (it places them
// in the Clos fabric and applies the reconfiguration delay); this class only
// holds each port's state and enforces it:
//   kDark ........ no circuit from this port
//   kSettingUp ... mirrors moving (also a circuit moved by a rearrangement)
//   kUp .......... light passes
//   kTearingDown . mirrors moving away; the output stays reserved until done
// An RDMA engine asks its port's gate (hw/common/circuit_gate.h) before it
// sends; a packet handed to a port that is not up is a modeling error
// (std::logic_error), never a silent drop.
//
// A circuit becomes kUp only when the reconfiguration delay has passed AND
// its two ends are drained: the sender has all its credits back and the
// output owes none to an earlier feeder. With millisecond delays this is
// always so in practice; it keeps the credit accounting exact when a
// receiver holds packets across a reconfiguration.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "hw/common/circuit_gate.h"
#include "hw/common/endpoint.h"
#include "hw/common/link.h"
#include "sim/byte_codec.h"
#include "sim/trace.h"

namespace kairo::ocs {

enum class PortState : std::uint8_t { kDark = 0, kSettingUp = 1, kUp = 2, kTearingDown = 3 };
const char* to_string(PortState s);

struct OcsPortCounters {
  std::uint64_t packets_sent = 0, flits_sent = 0, bytes_sent = 0;              // into this port's circuit
  std::uint64_t packets_received = 0, flits_received = 0, bytes_received = 0;  // out of its receive fibre
  sim::Time busy_ps = 0;               // transmit fibre carrying light
  sim::Time up_ps = 0;                 // circuit up (closed at counters())
  std::uint64_t reconfigurations = 0;  // set-ups, tear-downs and moves begun
  sim::Time reconfiguring_ps = 0;      // time spent setting up or tearing down
};

// What a traced fabric records per port: `state` (PortState) and `peer` (the
// output port the circuit leads to, plus one; 0 when dark).
struct OcsProbe {
  static constexpr sim::Trace::Signal kOff = ~sim::Trace::Signal(0);
  sim::Trace* trace = nullptr;
  std::vector<sim::Trace::Signal> state, peer;  // per port, kOff when not traced
};

class OcsFabric : public sc_core::sc_module, public hw::PacketSink, public hw::CreditSink {
 public:
  struct Config {
    int ports = 0;
    sim::Time latency_ps = 80000;  // transmit fibre + switches + receive fibre
    hw::CircuitPolicy policy = hw::CircuitPolicy::kHold;
    int vcs = 1;
  };
  OcsFabric(sc_core::sc_module_name name, const Config& cfg, sim::EventQueue& queue);
  ~OcsFabric() override;

  // Wiring: port `port` belongs to node `node`, whose optical endpoint is `ep`.
  void attach(int port, std::uint32_t node, hw::Endpoint* ep, sim::Time credit_delay_ps);
  int ports() const { return int(ports_.size()); }
  sim::Time latency_ps() const { return cfg_.latency_ps; }
  std::uint32_t node_of(int port) const { return ports_[std::size_t(port)].node; }
  hw::CircuitGate& gate(int port);

  // Control plane (CircuitController): the state of port `in` and, unless
  // dark, the output its circuit leads to. kUp is applied when drained (see
  // above); up_pending() says a kUp waits for credits.
  void set_state(int in, PortState s, int out);
  PortState state(int in) const { return ports_[std::size_t(in)].state; }
  int output_of(int in) const { return ports_[std::size_t(in)].out; }
  bool up_pending(int in) const { return ports_[std::size_t(in)].up_pending; }
  // Called when a circuit actually comes up (for the controller's log).
  std::function<void(int in, sim::Time)> on_up;

  void accept(int port, int vc, hw::Packet* p) override;
  void return_credits(int port, int vc, int flits, sim::Time at) override;

  // Partitioned runs (platforms/ocs_boundary.h): a port belongs to the
  // process that runs its node. A packet whose circuit leads to another
  // process's port, and credits owed to another process's feeder, go to
  // `remote`; that process finishes them with receive() and credit(). A
  // port's records (counters, state) are all kept by its node's process;
  // another process's port reads as zero counters here.
  class Remote {
   public:
    virtual ~Remote() = default;
    virtual void packet(int in, int vc, hw::Packet* p) = 0;
    virtual void credits(int feeder, int vc, int flits, sim::Time at) = 0;
  };
  void set_remote(Remote* r, std::vector<char> remote_port) {
    remote_ = r;
    remote_port_ = std::move(remote_port);
  }
  bool kept_elsewhere(int port) const { return remote_ && remote_port_[std::size_t(port)]; }
  // The receiving half of accept(): the packet from input `in` (latency
  // already added) leaves the far end of its circuit.
  void receive(int in, int vc, hw::Packet* p);
  // The feeder's half of return_credits(): `flits` credits freed at `at`.
  void credit(int feeder, int vc, int flits, sim::Time at);
  // What counters() reads of a port, to copy process 0's copy of it from
  // the port's process (app/run_parallel.cpp).
  void save_port(int port, sim::ByteWriter& w) const;
  void load_port(int port, sim::ByteReader& r);

  OcsPortCounters counters(int port, sim::Time now) const;
  // Transmit time already counted in busy_ps that lies after `now` (the
  // packet still leaving: an endpoint starts one only when the last is out).
  sim::Time busy_after(int port, sim::Time now) const {
    const Port& p = ports_[std::size_t(port)];
    return p.tx_end_ps > now ? std::min(p.tx_end_ps - now, p.tx_last_ps) : 0;
  }
  void set_probe(const OcsProbe* p) { probe_ = p; }
  std::string port_name(int port) const;

 private:
  class Gate;
  struct Port {
    std::uint32_t node = 0;
    hw::Endpoint* ep = nullptr;
    sim::Time credit_delay_ps = 0;
    PortState state = PortState::kDark;
    int out = -1;
    bool up_pending = false;
    sim::Time since_ps = 0;                   // when `state` began
    sim::Time tx_end_ps = 0, tx_last_ps = 0;  // the last packet's serialization: its end and length
    std::int64_t outstanding = 0;             // flits this port sent whose credits are not back
    // As an output: the inputs whose packets it still holds credits for,
    // oldest first, each with the flits owed per VC.
    struct Owed {
      int feeder;
      std::vector<std::int64_t> flits;
    };
    std::vector<Owed> owed;  // drained entries are reused, so steady traffic does not allocate
    int pending_in = -1;     // as an output: an input waiting to come up onto it
    OcsPortCounters c;
    // Deliveries out of this port's receive fibre, and credits back to it as
    // a feeder, are scheduled in contexts of their own (sim/event_queue.h):
    // a partitioned run makes those calls later, but in the same order.
    sim::EventContext rx_context, tx_context;
    std::unique_ptr<Gate> gate;
    std::function<void()> wake;
  };
  static bool owes_nothing(const Port::Owed& e) {
    return std::all_of(e.flits.begin(), e.flits.end(), [](std::int64_t f) { return f == 0; });
  }
  void try_up(int in);
  void record(int in);
  static void add_open_state(const Port& p, sim::Time now, OcsPortCounters& c);
  void close_state(Port& p, sim::Time now);

  Config cfg_;
  sim::EventQueue& queue_;
  std::vector<Port> ports_;
  const OcsProbe* probe_ = nullptr;
  Remote* remote_ = nullptr;
  std::vector<char> remote_port_;
};

}  // namespace kairo::ocs
