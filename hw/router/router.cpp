#include "hw/router/router.h"

#include <fmt/format.h>

#include <stdexcept>

namespace kairo::router {

using sim::Time;

Router::Router(sc_core::sc_module_name name, const RouterConfig& cfg, hw::NodeId id)
    : sc_module(name),
      sim::EventTarget(sim::EventBlock::kRouter),
      cfg_(cfg),
      routing_(*cfg.routing),
      here_{id, cfg.num_link_ports(), cfg.topo ? cfg.topo->coord_of(id) : hw::Coord{}},
      outputs_(cfg),
      inputs_(cfg.num_ports(), cfg.vcs, cfg.wormhole, !cfg.vc_allocator.empty()),
      trace_(cfg),
      ways_(cfg, here_, inputs_, outputs_),
      sa_(cfg, inputs_, outputs_, ways_, trace_) {
  if (!cfg.vc_allocator.empty() || routes_adaptively() || routes_nonminimally())
    alloc_.resize(std::size_t(cfg.num_ports()));
  if (!cfg.vc_allocator.empty())
    va_ =
        std::make_unique<VcAllocation>(cfg, inputs_, outputs_, ways_, sa_.allocator(), trace_, alloc_.data());
}

void Router::connect_output(int port, hw::PacketSink* dst, int dst_port, Time latency_ps, Time flit_ps,
                            int dst_credits_per_vc) {
  outputs_.connect(port, dst, dst_port, latency_ps, flit_ps, dst_credits_per_vc);
}

// Flits the downstream buffers of an output hold or will hold (OutputLoad).
int Router::used_credits(int port) { return outputs_.used_credits(port, cfg_.queue->now()); }

void Router::connect_input(int port, hw::CreditSink* src, int src_port, Time credit_latency_ps) {
  outputs_[port].upstream = hw::CreditReturn{src, std::uint16_t(src_port), credit_latency_ps};
}

std::string Router::port_name(int port) const {
  if (cfg_.port_names) return (*cfg_.port_names)[std::size_t(port)];
  int links = cfg_.topo->num_link_ports();
  return port < links ? cfg_.topo->port_name(port) : fmt::format("ni{}", port - links);
}

void Router::on_event(std::uint32_t kind, std::uint32_t, void*) {
  // The router's only own event is an allocation round; a round superseded
  // by an earlier one (which recomputed the next wake) is skipped.
  if (kind == kAllocate && cfg_.queue->now() == alloc_at_) va_ ? allocate_staged() : allocate();
}

void Router::allocate() {
  const Time t = cfg_.queue->now();
  alloc_at_ = sim::kNever;
  outputs_.clear_credit_waiters();
  released_ = false;
  const Time scanned = sa_.round(t, [this, t](int in, int vc, int ov) { depart(in, vc, ov, t); });
  if (buffered_ > 0) {
    // A VC a tail let go may serve a head the scan found without one: then
    // every head is looked at again.
    const Time wake = released_ ? sa_.next_wake(t) : sa_.requesters_wake(t, scanned);
    if (wake != sim::kNever) schedule_allocation(wake);
  }
}

void Router::allocate_staged() {
  const Time t = cfg_.queue->now();
  alloc_at_ = sim::kNever;
  outputs_.clear_credit_waiters();
  va_->round(t, [this, t](int in, int vc, int ov) { depart(in, vc, ov, t); });
  if (buffered_ > 0) {
    const Time wake = va_->next_wake(t);
    if (wake != sim::kNever) schedule_allocation(wake);
  }
}

// A head on its way in: it joins its VC's queue now (the sender's credits
// reserved the space; links deliver in order), is routed (by the header
// alone: see hw/router/routing_unit.h), and becomes eligible once fully
// received and through routing and the allocation stages. Nothing here acts
// on it before p->arrive_ps. Receive counters count the packet here, when
// its head starts onto the link (a few cycles before it lands).
void Router::accept(int port, int vc, hw::Packet* p) {
  const sim::EventQueue::Scope in_port_context(*cfg_.queue, outputs_[port].context);
  count_arrival(outputs_[port], *p);

  if (p->worm & hw::kWormBody) {
    // A body flit follows its head: the output is known when it is first
    // in its queue (set_head); it passes switch allocation only.
    p->ready_ps = p->arrive_ps + cfg_.body_pipeline_ps;
    p->adaptive = false;
  } else {
    routing_.next_hop(here_, *p, *this);
    // Cut-through: eligible once the head is in; store-and-forward: the
    // tail. With a VC allocation stage the head is first ready for VC
    // allocation.
    const Time in = cfg_.store_and_forward ? cfg_.clock.ceil(p->tail_ps) : p->arrive_ps;
    p->ready_ps = va_ ? va_->front_ready(vc_index(port, vc), in) : in + cfg_.pipeline_ps;
  }

  if (trace_.on()) trace_.arrival(port, vc, *p);
  const int idx = vc_index(port, vc);
  ++buffered_;
  if (inputs_.push(idx, p)) {
    set_head(idx, *p);
    schedule_allocation(p->ready_ps);
  }
}

void Router::return_credits(int port, int vc, int flits, Time at) {
  const sim::EventQueue::Scope in_port_context(*cfg_.queue, outputs_[port].context);
  outputs_[port].returning.push(hw::PendingCredit{at, std::uint16_t(vc), std::uint16_t(flits)});
  if (trace_.on()) trace_.credits(port, vc, at, flits);  // usable from `at` on
  if (outputs_.waits_for_credits(port)) schedule_allocation(at);
}

// Wormhole: the head flit takes the downstream VC for its packet (the flits
// behind it in this input VC follow it there), the tail flit lets it go.
void Router::hold_for_worm(int in_port, int in_vc, const hw::Packet& p, int out_vc) {
  Worm& w = inputs_.worm(vc_index(in_port, in_vc));
  if (p.worm & hw::kWormTail) {
    outputs_.release(p.out_port, out_vc);
    released_ = true;
    w = Worm{};
  } else if (p.worm & hw::kWormHead) {
    outputs_.hold(p.out_port, out_vc);
    w = Worm{p.out_port, std::int8_t(out_vc), p.out_dim, p.out_class};
  }
}

// The switch gave input VC (in_port, in_vc) its output and downstream VC
// out_vc at t: the packet leaves the input unit, the output unit sends it
// (the crossbar's times, its credits downstream, its times on the link), its
// slots free upstream, and the hooks count and trace it.
void Router::depart(int in_port, int in_vc, int out_vc, Time t) {
  const int idx = vc_index(in_port, in_vc);
  hw::PacketRing& q = inputs_[idx].fifo;
  hw::Packet* p = inputs_.pop(idx);
  --buffered_;
  if (p->worm) hold_for_worm(in_port, in_vc, *p, out_vc);  // before the next flit becomes head
  const int out_port = p->out_port;
  Port& out = outputs_[out_port];

  // Credits taken downstream and freed upstream: flits, or a bubble slot.
  const int charge = outputs_.credit_charge(out_port, *p), freed = outputs_.credit_charge(in_port, *p);
  const Crossing x = outputs_.send(in_port, *p, out_vc, charge, t);
  if (va_) va_->input_vc_left(idx, q, t, x.input_done - cfg_.traversal_ps - out.out.flit_ps);
  if (!q.empty()) set_head(idx, q.front());
  count_departure(out, *p, t, x);
  if (trace_.on()) trace_.departure(in_port, in_vc, out_vc, *p, t, x, charge, out);
  out.out.dst->accept(out.out.dst_port, out_vc, p);

  // The packet's buffer slots upstream free as its tail leaves the input.
  const hw::CreditReturn& up = outputs_[in_port].upstream;
  up.src->return_credits(up.src_port, in_vc, freed, cfg_.clock.ceil(x.input_done + up.latency_ps));
}

// Counting hooks: a port's receive counters when a head starts onto its
// input link; its send counters, the network's activity and, where the
// allocation makes choices, what it chose, when a packet leaves.
inline void Router::count_arrival(Port& in, const hw::Packet& p) {
  LinkCounters& c = in.counters;
  c.packets_received += !(p.worm & hw::kWormBody);
  c.flits_received += p.flits;
  c.bytes_received += p.bytes;
}

inline void Router::count_departure(Port& out, const hw::Packet& p, Time t, const Crossing& x) {
  LinkCounters& c = out.counters;
  if (t > p.ready_ps) c.stall_ps += t - p.ready_ps;
  ++c.packets_sent;
  c.flits_sent += p.flits;
  c.bytes_sent += p.bytes;
  c.busy_ps += x.tail_leaves - x.start;
  hw::NetworkActivity& act = *cfg_.activity;
  act.last_progress_ps = t;
  const bool head = !(p.worm & hw::kWormBody);
  if (p.out_dim >= 0) {
    act.packet_hops += head;
    act.flit_hops += p.flits;
    if (p.out_class == hw::VcClass::kAdaptive)
      ++act.adaptive_hops;
    else if (hw::is_escape(p.out_class))
      ++act.escape_hops;
  }
  if (!alloc_.empty() && head) {  // ejection too: its class is kAny
    AllocCounters& a = alloc_[std::size_t(p.out_port)];
    if (p.out_class == hw::VcClass::kAdaptive)
      ++a.adaptive_packets;
    else if (hw::is_escape(p.out_class))
      ++a.escape_packets;
    if (p.via >= 0) ++a.nonminimal_packets;
  }
}

int Router::port_dim(int port) const {
  if (cfg_.port_names) return port < cfg_.num_link_ports() ? 0 : -1;
  return port < cfg_.topo->num_link_ports() ? cfg_.topo->port_dim(port) : -1;
}

}  // namespace kairo::router
