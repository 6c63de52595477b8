#include "hw/router/router.h"

#include <fmt/format.h>

#include <stdexcept>

namespace kairo::router {

using sim::Time;

Router::Router(sc_core::sc_module_name name, const RouterConfig& cfg, hw::NodeId id)
    : sc_module(name),
      cfg_(cfg),
      routing_(*cfg.routing),
      here_{id, cfg.num_link_ports(), cfg.topo ? cfg.topo->coord_of(id) : hw::Coord{}} {
  const int np = cfg.num_ports();
  bubble_flits_ = cfg.bubble_flits;
  ports_.init(np, cfg.vcs);
  for (int i = 0; i < np; ++i) ports_[i].context = cfg.queue->make_context();
  vc_time_.resize(std::size_t(np) * cfg.vcs);
  inputs_.init(np, cfg.vcs, cfg.wormhole, !cfg.vc_allocator.empty());
  if (np > kMaxPorts)
    throw std::invalid_argument("a router has at most " + std::to_string(kMaxPorts) + " ports");
  if (requests_.size() < inputs_.size()) requests_.resize(inputs_.size());
  allocator_ = make_allocator(cfg.allocator, np, cfg.vcs, np, /*shared_rounds=*/true, cfg.islip_iterations);
  if (!allocator_) throw std::invalid_argument("unknown allocator '" + cfg.allocator + "'");
  if (cfg.wormhole) vc_held_.assign(std::size_t(np), 0);
  if (!cfg.vc_allocator.empty()) {
    // Inputs: the input VCs by their index (port << vshift | vc, so room
    // for a power of two per port); outputs: port * vcs + vc, also the VC
    // asked for when a head may ask on several ports (adaptive_by_vc_allocator).
    va_ = make_allocator(cfg.vc_allocator, int(inputs_.size()),
                         cfg.adaptive_by_vc_allocator ? np * cfg.vcs : cfg.vcs, np * cfg.vcs, false,
                         cfg.islip_iterations);
    if (!va_) throw std::invalid_argument("unknown VC allocator '" + cfg.vc_allocator + "'");
    if (cfg.speculative) spec_ = make_allocator(cfg.allocator, np, cfg.vcs, np, false, cfg.islip_iterations);
    vc_held_.assign(std::size_t(np), 0);
    release_at_.assign(std::size_t(np) * std::size_t(cfg.vcs), sim::kNever);
    if (va_heads_.size() < inputs_.size()) va_heads_.resize(inputs_.size());
  }
  if (va_ || routes_adaptively() || routes_nonminimally()) alloc_.resize(std::size_t(np));
}

void Router::connect_output(int port, hw::PacketSink* dst, int dst_port, Time latency_ps, Time flit_ps,
                            int dst_credits_per_vc) {
  Port& p = ports_[port];
  p.out.dst = dst;
  p.out.dst_port = std::uint16_t(dst_port);
  p.out.latency_ps = latency_ps;
  p.out.flit_ps = flit_ps;
  for (int v = 0; v < cfg_.vcs; ++v) p.credits()[v] = dst_credits_per_vc;
  if (routing_.reads_output_load()) {
    if (capacity_.empty()) capacity_.assign(std::size_t(cfg_.num_ports()), 0);
    capacity_[std::size_t(port)] = dst_credits_per_vc;
  }
}

// Flits the downstream buffers of an output hold or will hold, all VCs
// together (BookSim's GetUsedCredit): what UGAL compares (OutputLoad).
int Router::used_credits(int port) {
  Port& out = ports_[port];
  apply_credits(out, port, cfg_.queue->now());
  long used = 0;
  for (int v = 0; v < cfg_.vcs; ++v) used += capacity_[std::size_t(port)] - out.credits()[v];
  return int(used);
}

void Router::connect_input(int port, hw::CreditSink* src, int src_port, Time credit_latency_ps) {
  ports_[port].upstream = hw::CreditReturn{src, std::uint16_t(src_port), credit_latency_ps};
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

// A head on its way in: it joins its VC's queue now (the sender's credits
// reserved the space; links deliver in order), is routed (by the header
// alone: see hw/router/routing_unit.h), and becomes eligible once fully
// received and through routing and the allocation stages. Nothing here acts
// on it before p->arrive_ps. Receive counters count the packet here, when
// its head starts onto the link (a few cycles before it lands).
void Router::accept(int port, int vc, hw::Packet* p) {
  const sim::EventQueue::Scope in_port_context(*cfg_.queue, ports_[port].context);
  count_arrival(ports_[port], *p);

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
    p->ready_ps = va_ ? front_ready(vc_index(port, vc), in) : in + cfg_.pipeline_ps;
  }

  if (probe_) trace_arrival(port, vc, *p);
  const int idx = vc_index(port, vc);
  ++buffered_;
  if (inputs_.push(idx, p)) {
    set_head(idx, *p);
    schedule_allocation(p->ready_ps);
  }
}

void Router::return_credits(int port, int vc, int flits, Time at) {
  const sim::EventQueue::Scope in_port_context(*cfg_.queue, ports_[port].context);
  ports_[port].returning.push(hw::PendingCredit{at, std::uint16_t(vc), std::uint16_t(flits)});
  if (probe_) trace_credits(port, vc, at, flits);  // usable from `at` on
  if (credit_waiters_[port >> 6] >> (port & 63) & 1) schedule_allocation(at);
}

// Wormhole: the head flit takes the downstream VC for its packet (the flits
// behind it in this input VC follow it there), the tail flit lets it go.
void Router::hold_for_worm(int in_port, int in_vc, const hw::Packet& p, int out_vc) {
  Worm& w = inputs_.worm(vc_index(in_port, in_vc));
  std::uint32_t& held = vc_held_[std::size_t(p.out_port)];
  if (p.worm & hw::kWormTail) {
    held &= ~(1u << out_vc);
    w = Worm{};
  } else if (p.worm & hw::kWormHead) {
    held |= 1u << out_vc;
    w = Worm{p.out_port, std::int8_t(out_vc), p.out_dim, p.out_class};
  }
}

// The switch gave input VC (in_port, in_vc) its output and downstream VC
// out_vc at t: the packet leaves the input unit, crosses the crossbar
// (crossbar.h: the times), takes its credits downstream and frees its slots
// upstream; the hooks count and trace it.
void Router::depart(int in_port, int in_vc, int out_vc, Time t) {
  Port& in = ports_[in_port];
  const int idx = vc_index(in_port, in_vc);
  hw::PacketFifo& q = inputs_[idx].fifo;
  hw::Packet* p = inputs_.pop(idx);
  --buffered_;
  if (p->worm) hold_for_worm(in_port, in_vc, *p, out_vc);  // before the next flit becomes head
  const int out_port = p->out_port;
  Port& out = ports_[out_port];

  const Crossing x = cross(in, out, *p, t, cfg_.traversal_ps, cfg_.store_and_forward);
  if (va_) input_vc_left(idx, q, t, x.input_done - cfg_.traversal_ps - out.out.flit_ps);
  if (!q.empty()) set_head(idx, *q.head);

  // Credits taken downstream and freed upstream: flits, or a bubble slot.
  const int charge = credit_charge(out_port, *p), freed = credit_charge(in_port, *p);
  out.take_credits(&vc_time(out_port, 0), out_vc, charge, t);
  count_departure(out, *p, t, x);
  if (probe_) trace_departure(in_port, in_vc, out_vc, *p, t, x, charge);
  leave(*p, out, x);
  out.out.dst->accept(out.out.dst_port, out_vc, p);

  // The packet's buffer slots upstream free as its tail leaves the input.
  const hw::CreditReturn& up = in.upstream;
  up.src->return_credits(up.src_port, in_vc, freed, cfg_.clock.ceil(x.input_done + up.latency_ps));
}

// A hop between routers moves the packet's link of arrival and class on; a
// hop into a network interface leaves them (the endpoint reads neither).
inline void Router::leave(hw::Packet& p, const Port& out, const Crossing& x) const {
  if (p.out_dim >= 0) {
    p.hops += !(p.worm & hw::kWormBody);
    p.in_dim = p.out_dim;
    p.vc_class = p.out_class;
  }
  p.tail_ps = x.tail_leaves + out.out.latency_ps;
  p.arrive_ps = cfg_.clock.ceil(x.start + out.out.flit_ps + out.out.latency_ps);
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
