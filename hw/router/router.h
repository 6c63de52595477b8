// A Tofu-like input-queued virtual-channel router with virtual cut-through,
// credit-based flow control per VC, a routing unit and a replaceable switch
// allocator. The router wires its units (as garnet's Router and SST
// merlin's hr_router do) and owns the event that runs an allocation round:
//   routing unit      RoutingUnit (routing_unit.h): dimension order, minimal
//                     adaptive, dragonfly or forwarding table; the hop, in accept
//   input units       InputUnit (input_unit.h): input VC buffers, their heads,
//                     the occupancy bits a round scans
//   output units      Port, PortBlock (output_unit.h): output link, downstream
//                     credits, credits coming back, zero-credit time
//   switch allocation allocate, next_wake (switch_allocation.cpp), the VC
//                     chosen in the same round; adaptive ways (router_adaptive.cpp)
//   VC allocation     allocate_staged and its stages (router_va.cpp):
//                     router.vc_allocator, router.speculative
//   crossbar          cross (crossbar.h): the times; depart wires the credits
//   hooks             count_* (router.cpp) and trace_* (router_trace.cpp): the
//                     counters and the waveform probe, called after each step
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
// credit_need).
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
  int num_ports() const { return ports_.size(); }
  std::string port_name(int port) const;
  bool port_connected(int port) const { return ports_[port].out.connected(); }
  // Partitioned runs (platforms/boundary.h): who receives an output port's
  // packets and who an input port's credits go back to, and replacing them
  // by a stand-in for a router another process owns.
  hw::PacketSink* output_sink(int port) const { return ports_[port].out.dst; }
  std::uint16_t output_sink_port(int port) const { return ports_[port].out.dst_port; }
  hw::CreditSink* upstream_sink(int port) const { return ports_[port].upstream.src; }
  std::uint16_t upstream_sink_port(int port) const { return ports_[port].upstream.src_port; }
  void set_output_sink(int port, hw::PacketSink* s) { ports_[port].out.dst = s; }
  void set_upstream_sink(int port, hw::CreditSink* s) { ports_[port].upstream.src = s; }
  const hw::LinkOut& link_out(int port) const { return ports_[port].out; }
  // Busy time of the output link still to come after `now`: the packets
  // already sent onto it that have not left yet (a packet is decided before
  // it starts; packets on a link never overlap, and the ones decided ahead
  // follow each other back to back).
  sim::Time busy_after(int port, sim::Time now) const {
    const Port& p = ports_[port];
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
  const LinkCounters& link_counters(int port) const { return ports_[port].counters; }
  void save_port_counters(int port, sim::ByteWriter& w) const;
  void load_port_counters(int port, sim::ByteReader& r);
  std::uint64_t buffered_packets() const { return buffered_; }
  // One line per packet waiting here, saying what it waits for.
  void describe_blocked(std::vector<std::string>& out, std::size_t limit);
  // Waveform recording (null: not traced, the default). Set before the run.
  void set_probe(RouterProbe* p) { probe_ = p; }
  int vcs() const { return cfg_.vcs; }
  // Free credits for downstream VC `vc` of output `port` (returns not yet
  // due excluded): before the run, the receiver's buffer per VC.
  int free_credits(int port, int vc) const { return ports_[port].credits()[vc]; }
  Allocator& allocator() { return *allocator_; }
  bool routes_adaptively() const { return routing_.adaptive(); }
  // A dragonfly routed by Valiant or UGAL: some packets take a non-minimal way.
  bool routes_nonminimally() const { return routing_.nonminimal(); }
  bool has_vc_allocation_stage() const { return va_ != nullptr; }
  bool speculative() const { return spec_ != nullptr; }
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
    inputs_.set_head(idx, p, credit_need(p));
  }
  // Credits a packet takes from a downstream VC on `port`: its flits, or
  // under bubble flow control a packet slot on a link between routers.
  int credit_charge(int port, const hw::Packet& p) const {
    return __builtin_expect(bubble_flits_ > 0, 0) && port < here_.link_ports ? bubble_flits_ : p.flits;
  }
  // Credits it needs there to go: its charge, and under bubble flow control
  // a second slot when it enters a ring (so every ring keeps a free slot).
  std::uint16_t credit_need(const hw::Packet& p) const {
    if (__builtin_expect(bubble_flits_ == 0, 1)) return p.flits;
    return credit_need(p.out_port, p, p.out_class);
  }
  // The same for a way the packet may take (adaptive routing's options).
  std::uint16_t credit_need(int port, const hw::Packet& p, hw::VcClass cls) const {
    const int c = credit_charge(port, p);
    return std::uint16_t(hw::enters_ring(cls) ? 2 * c : c);
  }
  // The VC a head may take on `out`: its own (a body flit's, or one granted
  // by VC allocation) if it has credits for it, else the best free one.
  int head_vc(const Head& h, const Port& out) const {
    if (h.held_vc >= 0) return out.credits()[h.held_vc] >= h.need ? h.held_vc : -1;
    return choose_vc(out, h.need, h.out_class, held_mask(h.out_port));
  }
  // The output unit of `port`: credits due by `now` become usable.
  void apply_credits(Port& out, int port, sim::Time now) {
    if (!out.returning.empty() && out.returning.front().at <= now)
      out.apply_due_credits(&vc_time(port, 0), now);
  }
  void allocate();
  // VC allocation as its own stage (router.vc_allocator; router_va.cpp).
  void allocate_staged();
  sim::Time next_wake_staged(sim::Time t);
  // When a head that needs a VC of class cls on `port` could get one (the
  // output aside): router_va.cpp.
  sim::Time vc_wake(int port, int flits, hw::VcClass cls, sim::Time t);
  void depart(int in_port, int in_vc, int out_vc, sim::Time t);
  sim::Time next_wake(sim::Time t);
  // t is always on the clock: arrivals and credits are rounded up by their
  // senders, and wake times are derived from clock edges.
  void schedule_allocation(sim::Time t) {
    if (t >= alloc_at_) return;
    alloc_at_ = t;
    cfg_.queue->at(t, sim::kPrioDecide, this, kAllocate);
  }
  // Output VCs of `port` held by a packet (VC allocation stage, wormhole): not free.
  std::uint32_t held_mask(int port) const { return vc_held_.empty() ? 0 : vc_held_[std::size_t(port)]; }
  // held: output VCs that may not be chosen (held by a packet, VC allocation stage).
  int choose_vc(const Port& out, int flits, hw::VcClass cls, std::uint32_t held = 0) const;
  // Adaptive routing: the way (output and VC) the head of input VC `idx`
  // takes this round, written into its head and packet; -1 if none can take
  // it now. option_wake: the earliest time one could (kNever: waits for
  // credits not yet on their way; its outputs are marked credit waiters).
  // With a VC allocation stage (staged) the output need not be free yet,
  // and VCs held by other packets are skipped.
  int choose_option(int idx, sim::Time t, bool staged = false);
  // router.adaptive_selection: vc_allocator. request_ways asks the VC
  // allocator for every free VC with credits on every way of the head of
  // `idx` (each request named by its output VC, port * vcs + vc); false if
  // none. take_way writes the granted output VC's way into the head and its
  // packet, and returns the VC.
  bool request_ways(int idx, sim::Time t, std::uint64_t age);
  int take_way(int idx, int granted);
  sim::Time option_wake(int idx, sim::Time t);
  bool output_free(const Port& out, sim::Time t) const {
    return out.output_free(t, cfg_.traversal_ps + cfg_.clock.period_ps);
  }
  bool input_free(const Port& in, sim::Time t) const {
    return in.input_free(t, cfg_.traversal_ps + cfg_.clock.period_ps);
  }
  int vc_index(int port, int vc) const { return inputs_.index(port, vc); }
  hw::PacketFifo& fifo(int port, int vc) { return inputs_.fifo(port, vc); }
  const hw::PacketFifo& fifo(int port, int vc) const { return inputs_.fifo(port, vc); }
  VcTime& vc_time(int port, int vc) { return vc_time_[std::size_t(port) * cfg_.vcs + vc]; }

  const RouterConfig& cfg_;
  const RoutingUnit& routing_;
  RouterPlace here_;  // its id, link ports (they come first) and coordinates
  PortBlock ports_;
  std::vector<VcTime> vc_time_;  // [output port][vc]
  int bubble_flits_ = 0;         // cfg_.bubble_flits, kept beside the hot fields
  InputUnit inputs_;
  // Bit per output with a head waiting for credits.
  static constexpr int kMaxPorts = 12 + 64;  // 6 dims x 2 links + network interfaces
  std::array<std::uint64_t, (kMaxPorts + 63) / 64> credit_waiters_{};
  struct Request {
    int input, vc, output;
    std::uint64_t age;
  };
  // This round's requests: one array for every router (rounds never overlap:
  // the simulation runs on one thread), sized for the largest.
  static inline std::vector<Request> requests_;
  std::unique_ptr<Allocator> allocator_;
  // VC allocation stage: its allocator (input VCs x output VCs), the switch
  // allocator of the speculative requests, and each output port's held VCs.
  std::unique_ptr<Allocator> va_, spec_;
  std::vector<std::uint32_t> vc_held_;
  // VC allocation stage under virtual cut-through: a packet's output VC
  // stays held until its tail has crossed the switch (release_at_, per port
  // and VC; kNever: no release pending); releasing_: a bit per port with a
  // release pending. release_due frees those due by t (router_va.cpp).
  std::vector<sim::Time> release_at_;
  std::array<std::uint64_t, (kMaxPorts + 63) / 64> releasing_{};
  void release_due(sim::Time t);
  // The stages of a staged round (router_va.cpp).
  struct StagedRound {
    sim::Time t;
    bool by_age;
    std::uint64_t taken_in[(kMaxPorts + 63) / 64], taken_out[(kMaxPorts + 63) / 64];  // granted this round
  };
  int vc_allocation_round(sim::Time t, bool by_age);
  bool request_vcs(int idx, const Head& h, sim::Time t, std::uint64_t age);
  void take_vc_grant(int idx, sim::Time t);
  void switch_allocation_round(sim::Time t, int nva, bool by_age);
  bool sa_ready(int idx, const Head& h, sim::Time t);
  int sa_requests(Allocator& a, bool speculative, const StagedRound& r);
  void sa_grants(Allocator& a, bool speculative, StagedRound& r);
  // VC allocation stage: an input VC's state restarts with every packet
  // (router_va.cpp; InputUnit::front_free).
  sim::Time front_ready(int idx, sim::Time arrived) const {
    return std::max(arrived, inputs_.front_free(idx)) + cfg_.va_ready_ps;
  }
  void input_vc_left(int idx, hw::PacketFifo& q, sim::Time t, sim::Time last_flit_sa);
  std::vector<AllocCounters> alloc_;         // per output port; empty unless counts_allocation()
  std::vector<std::int32_t> capacity_;       // dragonfly: credits per VC of each output's receiver
  int used_credits(int port) override;       // OutputLoad, for UGAL
  static inline std::vector<int> va_heads_;  // this round's heads in VC allocation
  sim::Time alloc_at_ = sim::kNever;         // earliest pending allocation event
  std::uint64_t buffered_ = 0;
  void hold_for_worm(int in_port, int in_vc, const hw::Packet& p, int out_vc);
  // The packet's header after its hop: the link it arrived on, its times.
  void leave(hw::Packet& p, const Port& out, const Crossing& x) const;

  // Hooks: the counters and the waveform probe, called at the end of the
  // step they observe rather than written into it. Counting is cheap and
  // always on (router.cpp); tracing runs only with a probe
  // (router_trace.cpp, off the hot path).
  void count_arrival(Port& in, const hw::Packet& p);
  void count_departure(Port& out, const hw::Packet& p, sim::Time t, const Crossing& x);
  RouterProbe* probe_ = nullptr;
  void trace_arrival(int port, int vc, const hw::Packet& p);
  void trace_departure(int in_port, int in_vc, int out_vc, const hw::Packet& p, sim::Time t,
                       const Crossing& x, int charge);
  void trace_stall(int out, sim::Time t, bool on);
  void trace_credits(int port, int vc, sim::Time t, int delta);
  void trace_held(int port, sim::Time t);
  void trace_spec(int port, sim::Time t, bool hit);
};

}  // namespace kairo::router
