// A Tofu-like input-queued virtual-channel router with virtual cut-through,
// credit-based flow control per VC, a routing unit and a replaceable switch
// allocator. The router is its units, wired here (as garnet's Router and SST
// merlin's hr_router are), and the entry points of the events that drive
// them (accept, return_credits, on_event: an allocation round):
//   routing unit      RoutingUnit (routing_unit.h): dimension order, minimal
//                     adaptive, dragonfly or forwarding table; the hop, in
//                     accept; WaySelection (way_selection.h): which of its
//                     ways an adaptive head takes
//   input units       InputUnit (input_unit.h): input VC buffers, their heads,
//                     the occupancy bits a round scans
//   output units      OutputUnit (output_unit.h; a port's state: port.h):
//                     output link, downstream credits, held VCs, credits
//                     coming back, zero-credit time, a departure's credits
//                     and times
//   switch allocation SwitchAllocation (switch_allocation.h): its allocator
//                     (router.allocator), the round, the next wake
//   VC allocation     VcAllocation (vc_allocation.h): router.vc_allocator,
//                     router.speculative; its rounds replace the switch
//                     allocation stage's, with that stage's allocator
//   crossbar          cross (crossbar.h): the times; depart wires a winner
//                     through the units
//   hooks             count_* (router.cpp) and RouterTrace (router_trace.h):
//                     the counters and the waveform probe, called after each step
//
// Timing (per hop, all delays in router cycles, times quantized to the clock):
//   head fully received at t_a
//   -> routing + VC allocation + switch allocation: eligible at t_a + pipeline
//   -> allocation round at t >= eligible when the input port, the output link
//      and a downstream VC with credits for the whole packet are available
//   -> switch traversal and the link: crossbar.h
//
// Event-driven: the router does work only when a head arrives, a credit
// returns, or an allocation it has waited for can be decided. Idle routers cost
// nothing.
//
// Under virtual cut-through (the default) a packet's flits go back to back
// and its credits return together when its tail leaves the buffer (when the
// last of its slots frees); under router.flow_control: wormhole every flit is
// its own unit (hold_for_worm, Endpoint), so VCs interleave flit by flit on a
// link and credits return per flit. Under router.flow_control: bubble a
// packet moves as under cut-through, but takes a whole packet slot of a VC
// between routers and enters a ring only with two free (credit_charge,
// OutputUnit::credit_charge, credit_need).
#pragma once
#include <array>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "hw/common/link.h"
#include "hw/common/packet.h"
#include "hw/router/allocator.h"
#include "hw/router/crossbar.h"
#include "hw/router/input_unit.h"
#include "hw/router/output_unit.h"
#include "hw/router/port_counters.h"
#include "hw/router/router_config.h"
#include "hw/router/router_probe.h"
#include "hw/router/router_trace.h"
#include "hw/router/switch_allocation.h"
#include "hw/router/vc_allocation.h"
#include "hw/router/way_selection.h"
#include "sim/byte_codec.h"

namespace kairo::router {

class Router : public sc_core::sc_module,
               public sim::EventTarget,
               public hw::PacketSink,
               public hw::CreditSink,
               private OutputLoad {
 public:
  Router(sc_core::sc_module_name name, const RouterConfig& cfg, hw::NodeId id);

  // Wiring, done by the netlist builder before the run.
  void connect_output(int port, hw::PacketSink* dst, int dst_port, sim::Time latency_ps, sim::Time flit_ps,
                      int dst_credits_per_vc);
  void connect_input(int port, hw::CreditSink* src, int src_port, sim::Time credit_latency_ps);

  void on_event(std::uint32_t kind, std::uint32_t arg, void* ptr) override;
  void return_credits(int port, int vc, int flits, sim::Time at) override;
  // A head that will be fully received at p->arrive_ps (see hw::PacketSink).
  void accept(int port, int vc, hw::Packet* p) override;

  hw::NodeId id() const { return here_.id; }
  const hw::Coord& coord() const { return here_.coord; }
  int num_ports() const { return outputs_.size(); }
  std::string port_name(int port) const;
  bool port_connected(int port) const { return outputs_[port].out.connected(); }
  // Partitioned runs (platforms/boundary.h): who receives an output port's
  // packets and who an input port's credits go back to, and replacing them
  // by a stand-in for a router another process owns.
  hw::PacketSink* output_sink(int port) const { return outputs_[port].out.dst; }
  std::uint16_t output_sink_port(int port) const { return outputs_[port].out.dst_port; }
  hw::CreditSink* upstream_sink(int port) const { return outputs_[port].upstream.src; }
  std::uint16_t upstream_sink_port(int port) const { return outputs_[port].upstream.src_port; }
  void set_output_sink(int port, hw::PacketSink* s) { outputs_[port].out.dst = s; }
  void set_upstream_sink(int port, hw::CreditSink* s) { outputs_[port].upstream.src = s; }
  const hw::LinkOut& link_out(int port) const { return outputs_[port].out; }
  // Busy time of the output link still to come after `now`: the packets
  // already sent onto it that have not left yet (a packet is decided before
  // it starts; packets on a link never overlap, and the ones decided ahead
  // follow each other back to back).
  sim::Time busy_after(int port, sim::Time now) const {
    const Port& p = outputs_[port];
    return p.out.free_at > now ? p.out.free_at - std::max(now, p.run_start) : 0;
  }
  sim::Time clock_period_ps() const { return cfg_.clock.period_ps; }
  // Counters with open intervals (zero credits right now) closed at `now`.
  PortCounters counters(int port, sim::Time now);
  void reset_counters(sim::Time now);
  // Partitioned runs (app/run_parallel.cpp): what counters() reads of an
  // output port (its counts, its VCs' credits and zero-credit stretches, and
  // the credits still on their way back), so that process 0's copy of a
  // router another process ran answers counters() as that one would.
  const LinkCounters& link_counters(int port) const { return outputs_[port].counters; }
  void save_port_counters(int port, sim::ByteWriter& w) const;
  void load_port_counters(int port, sim::ByteReader& r);
  std::uint64_t buffered_packets() const { return buffered_; }
  // One line per packet waiting here, saying what it waits for.
  void describe_blocked(std::vector<std::string>& out, std::size_t limit);
  // Waveform recording (null: not traced, the default). Set before the run.
  void set_probe(RouterProbe* p) { trace_.set_probe(p); }
  int vcs() const { return cfg_.vcs; }
  // Free credits for downstream VC `vc` of output `port` (returns not yet
  // due excluded): before the run, the receiver's buffer per VC.
  int free_credits(int port, int vc) const { return outputs_[port].credits()[vc]; }
  Allocator& allocator() { return sa_.allocator(); }
  bool routes_adaptively() const { return routing_.adaptive(); }
  // A dragonfly routed by Valiant or UGAL: some packets take a non-minimal way.
  bool routes_nonminimally() const { return routing_.nonminimal(); }
  bool has_vc_allocation_stage() const { return va_ != nullptr; }
  bool speculative() const { return va_ && va_->speculative(); }
  // Whether the router counts its allocation's choices (AllocCounters): it
  // routes adaptively, routes a dragonfly by Valiant or UGAL, or has a VC
  // allocation stage. Port `port`'s running totals (zeros if it does not).
  bool counts_allocation() const { return !alloc_.empty(); }
  AllocCounters alloc_counters(int port) const {
    return alloc_.empty() ? AllocCounters{} : alloc_[std::size_t(port)];
  }
  const sim::EventQueue& queue() const { return *cfg_.queue; }
  int port_dim(int port) const;  // the dimension a link port runs along, -1 for a network interface

 private:
  enum OwnEvent : std::uint32_t { kAllocate = hw::kFirstOwnEvent };

  // A new head of input VC idx: a body flit takes its worm's way.
  void set_head(int idx, hw::Packet& p) {
    if (p.worm & hw::kWormBody) inputs_.follow_worm(idx, p);
    inputs_.set_head(idx, p, outputs_.credit_need(p));
  }
  // An allocation round of the switch allocation stage, or of the VC
  // allocation stage when the router has one; then the next wake.
  void allocate();
  void allocate_staged();
  // Out of line: called from each allocation stage's round, per winner.
  [[gnu::noinline]] void depart(int in_port, int in_vc, int out_vc, sim::Time t);
  // t is always on the clock: arrivals and credits are rounded up by their
  // senders, and wake times are derived from clock edges.
  void schedule_allocation(sim::Time t) {
    if (t >= alloc_at_) return;
    alloc_at_ = t;
    cfg_.queue->at(t, sim::kPrioDecide, this, kAllocate);
  }
  void hold_for_worm(int in_port, int in_vc, const hw::Packet& p, int out_vc);
  int used_credits(int port) override;  // OutputLoad, for UGAL
  int vc_index(int port, int vc) const { return inputs_.index(port, vc); }
  const hw::PacketRing& fifo(int port, int vc) const { return inputs_.fifo(port, vc); }

  const RouterConfig& cfg_;
  const RoutingUnit& routing_;
  RouterPlace here_;  // its id, link ports (they come first) and coordinates
  OutputUnit outputs_;
  InputUnit inputs_;
  RouterTrace trace_;
  WaySelection ways_;
  SwitchAllocation sa_;
  std::vector<AllocCounters> alloc_;  // per output port; empty unless counts_allocation()
  std::unique_ptr<VcAllocation> va_;  // null: no VC allocation stage
  sim::Time alloc_at_ = sim::kNever;  // earliest pending allocation event
  std::uint64_t buffered_ = 0;
  bool released_ = false;  // this round let a held output VC go (wormhole)

  // Hooks: the counters and the waveform probe (trace_), called at the end
  // of the step they observe rather than written into it. Counting is cheap
  // and always on (router.cpp); tracing runs only with a probe
  // (router_trace.cpp, off the hot path).
  void count_arrival(Port& in, const hw::Packet& p);
  void count_departure(Port& out, const hw::Packet& p, sim::Time t, const Crossing& x);
};

}  // namespace kairo::router
