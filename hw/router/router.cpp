#include "hw/router/router.h"

#include <fmt/format.h>

#include <stdexcept>

namespace kairo::router {

using sim::Time;

Router::Router(sc_core::sc_module_name name, const RouterConfig& cfg, NodeId id)
    : sc_module(name),
      cfg_(cfg),
      routing_(*cfg.routing),
      here_{id, cfg.num_link_ports(), cfg.topo ? cfg.topo->coord_of(id) : Coord{}} {
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

void Router::PortBlock::init(int ports, int vcs) {
  const std::size_t credit_bytes =
      (std::size_t(vcs) * sizeof(std::int32_t) + alignof(Port) - 1) & ~(alignof(Port) - 1);
  stride_ = std::uint32_t(sizeof(Port) + credit_bytes);
  n_ = ports;
  base_ = std::make_unique<unsigned char[]>(std::size_t(ports) * stride_);  // zeroed: no credits yet
  for (int i = 0; i < ports; ++i) ::new (base_.get() + std::size_t(i) * stride_) Port();
}

Router::PortBlock::~PortBlock() {
  for (int i = 0; i < n_; ++i) (*this)[i].~Port();
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
  LinkCounters& c = ports_[port].counters;
  c.packets_received += !(p->worm & hw::kWormBody);
  c.flits_received += p->flits;
  c.bytes_received += p->bytes;

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

  if (probe_) {
    const auto occ = probe_->occupancy[std::size_t(port) * std::size_t(cfg_.vcs) + std::size_t(vc)];
    if (occ != RouterProbe::kOff) probe_->trace->add_delta(occ, p->arrive_ps, p->flits);
  }
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

// Credits whose return time has come become usable; a VC that had none stops
// accruing zero-credit ("VC full") time at the credit's arrival.
void Router::apply_due_credits(Port& p, int port, Time now) {
  std::int32_t* credits = p.credits();
  while (!p.returning.empty() && p.returning.front().at <= now) {
    const hw::PendingCredit& c = p.returning.front();
    if (credits[c.vc] == 0 && c.flits > 0) {
      VcTime& z = vc_time(port, c.vc);
      z.zero_ps += c.at - z.zero_since;
      z.zero_since = sim::kNever;
    }
    credits[c.vc] += c.flits;
    p.returning.pop();
  }
}

// t is always on the clock: arrivals and credits are rounded up by their
// senders, and wake times are derived from clock edges.
void Router::schedule_allocation(Time t) {
  if (t >= alloc_at_) return;
  alloc_at_ = t;
  cfg_.queue->at(t, sim::kPrioDecide, this, kAllocate);
}

// Downstream VC for a packet: among its class's VCs with credits for the whole
// packet, the one with the most free credits (lowest index on a tie).
int Router::choose_vc(const Port& out, int flits, VcClass cls, std::uint32_t held) const {
  int best = -1, best_credits = flits - 1;
  const std::int32_t* credits = out.credits();
  for (int v = cfg_.class_first(cls), e = cfg_.class_last(cls); v < e; ++v) {
    if (credits[v] > best_credits && !(held >> v & 1)) {
      best = v;
      best_credits = credits[v];
    }
  }
  return best;
}

// One allocation round: every eligible head whose input, output link and a
// downstream VC are available requests its output; the allocator picks a
// matching; winners depart. Then wake again when the next waiter could move.
void Router::allocate() {
  const Time t = cfg_.queue->now();
  alloc_at_ = sim::kNever;
  for (auto& w : credit_waiters_) w = 0;
  int n = 0;
  const std::uint64_t port_mask = inputs_.port_mask();  // one input's VC bits
  const bool by_age = allocator_->uses_age();
  for (int w = 0; w < inputs_.words(); ++w) {
    for (std::uint64_t bits = inputs_.word(w); bits;) {
      int idx = w * 64 + __builtin_ctzll(bits);
      int in = inputs_.port_of(idx), vc = inputs_.vc_of(idx);
      InputVc& ivc = inputs_[idx];
      const Head& h = ivc.head;
      if (h.ready_ps > t) {
        bits &= bits - 1;
        continue;
      }
      if (!input_free(ports_[in], t)) {  // forwarding another packet: none of its VCs can go
        bits &= ~(port_mask << (inputs_.index(in, 0) & 63));
        continue;
      }
      bits &= bits - 1;
      ivc.head.chosen_vc = -1;
      int ov;
      if (h.adaptive) {
        if ((ov = choose_option(idx, t)) < 0) continue;
      } else {
        Port& out = ports_[h.out_port];
        if (!output_free(out, t)) continue;
        apply_credits(out, h.out_port, t);
        ov = head_vc(h, out);
        if (ov < 0) {
          if (probe_) trace_stall(h.out_port, t, true);
          continue;
        }
      }
      ivc.head.chosen_vc = std::int8_t(ov);
      requests_[n++] = Request{in, vc, h.out_port, by_age ? ivc.fifo.head->created_ps : 0};
    }
  }
  if (n == 1) {
    const Request& r = requests_[0];
    allocator_->allocate_single(r.input, r.vc, r.output, r.age);
    depart(r.input, r.vc, inputs_[vc_index(r.input, r.vc)].head.chosen_vc, t);
  } else if (n > 1) {
    allocator_->clear();
    for (int k = 0; k < n; ++k)
      allocator_->add_request(requests_[k].input, requests_[k].vc, requests_[k].output, requests_[k].age);
    allocator_->allocate();
    for (int in = 0; in < ports_.size(); ++in) {
      int vc = allocator_->grant_vc(in);
      if (vc >= 0) depart(in, vc, inputs_[vc_index(in, vc)].head.chosen_vc, t);
    }
  }
  if (buffered_ > 0) {
    Time w = next_wake(t);
    if (w != sim::kNever) schedule_allocation(w);
  }
}

// The earliest time a waiting head could be allocated. A head waiting for
// credits wakes at the next credit already on its way, or marks its output so
// that the next credit returned there schedules a round.
Time Router::next_wake(Time t) {
  const Time period = cfg_.clock.period_ps, st = cfg_.traversal_ps;
  Time wake = sim::kNever;
  const std::uint64_t port_mask = inputs_.port_mask();  // one input's VC bits
  for (int w = 0; w < inputs_.words(); ++w) {
    for (std::uint64_t bits = inputs_.word(w); bits;) {
      int idx = w * 64 + __builtin_ctzll(bits);
      const Head& h = inputs_[idx].head;
      if (h.ready_ps > t) {
        bits &= bits - 1;
        if (h.ready_ps < wake) wake = h.ready_ps;
        continue;
      }
      const Port& in = ports_[inputs_.port_of(idx)];
      if (!input_free(in, t)) {
        // The input forwards another packet: each of its heads (this one
        // and the rest of its port's) can go when it is through the pipeline
        // and the input is free, whichever is later.
        const Time free = cfg_.clock.floor(in.in_busy_until - st);
        const std::uint64_t group = bits & (port_mask << (inputs_.index(inputs_.port_of(idx), 0) & 63));
        bits &= ~group;
        for (std::uint64_t g = group; g; g &= g - 1) {
          const Time ready = inputs_[w * 64 + __builtin_ctzll(g)].head.ready_ps;
          const Time when = ready > t ? ready : free;
          if (when < wake) wake = when;
        }
        continue;
      }
      bits &= bits - 1;
      Port& out = ports_[h.out_port];
      Time when;
      if (h.adaptive) {
        if ((when = option_wake(idx, t)) == sim::kNever) continue;
      } else if (!output_free(out, t))
        when = cfg_.clock.floor(out.out.free_at - st);
      else if (apply_credits(out, h.out_port, t), head_vc(h, out) < 0) {
        if (!out.returning.empty())
          when = out.returning.front().at;
        else {
          credit_waiters_[h.out_port >> 6] |= 1ULL << (h.out_port & 63);
          continue;
        }
      } else
        when = t + period;  // lost arbitration: retry next cycle
      if (when < wake) wake = when;
    }
  }
  return wake;
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

void Router::depart(int in_port, int in_vc, int out_vc, Time t) {
  Port& in = ports_[in_port];
  const int idx = vc_index(in_port, in_vc);
  hw::PacketFifo& q = inputs_[idx].fifo;
  hw::Packet* p = inputs_.pop(idx);
  --buffered_;
  if (p->worm) hold_for_worm(in_port, in_vc, *p, out_vc);  // before the next flit becomes head
  Port& out = ports_[p->out_port];

  const Time start = std::max({t + cfg_.traversal_ps, out.out.free_at, in.in_busy_until});
  const Time tail_leaves = std::max(start + Time(p->flits) * out.out.flit_ps, p->tail_ps + out.out.flit_ps);
  if (start > out.out.free_at) out.run_start = start;  // a gap: a new stretch of busy time
  out.out.free_at = tail_leaves;
  // Cut-through: the input streams the packet out at the output's pace.
  // Store-and-forward: the whole packet is in, and the crossbar moves it to
  // the output at the faster of the two links' rates (the output link then
  // drains it), so a slow output does not hold a fast input.
  const Time input_done = cfg_.store_and_forward
                              ? start + Time(p->flits) * std::min(in.out.flit_ps, out.out.flit_ps)
                              : tail_leaves;
  in.in_busy_until = input_done;
  if (va_) input_vc_left(idx, q, t, input_done - cfg_.traversal_ps - out.out.flit_ps);
  if (!q.empty()) set_head(idx, *q.head);

  // Credits taken downstream and freed upstream: flits, or a bubble slot.
  const int charge = credit_charge(p->out_port, *p), freed = credit_charge(in_port, *p);
  std::int32_t& credits = out.credits()[out_vc];
  credits -= charge;
  if (credits == 0) vc_time(p->out_port, out_vc).zero_since = t;
  LinkCounters& c = out.counters;
  if (t > p->ready_ps) c.stall_ps += t - p->ready_ps;
  ++c.packets_sent;
  c.flits_sent += p->flits;
  c.bytes_sent += p->bytes;
  c.busy_ps += tail_leaves - start;

  NetworkActivity& act = *cfg_.activity;
  act.last_progress_ps = t;
  if (p->out_dim >= 0) {
    if (!(p->worm & hw::kWormBody)) ++p->hops, ++act.packet_hops;
    act.flit_hops += p->flits;
    if (p->out_class == VcClass::kAdaptive)
      ++act.adaptive_hops;
    else if (is_escape(p->out_class))
      ++act.escape_hops;
    p->in_dim = p->out_dim;
    p->vc_class = p->out_class;
  }
  if (!alloc_.empty() && !(p->worm & hw::kWormBody)) {  // ejection too: its class is kAny
    AllocCounters& a = alloc_[std::size_t(p->out_port)];
    if (p->out_class == VcClass::kAdaptive)
      ++a.adaptive_packets;
    else if (is_escape(p->out_class))
      ++a.escape_packets;
    if (p->via >= 0) ++a.nonminimal_packets;
  }
  p->tail_ps = tail_leaves + out.out.latency_ps;
  p->arrive_ps = cfg_.clock.ceil(start + out.out.flit_ps + out.out.latency_ps);
  if (probe_) {
    const RouterProbe::Out& o = probe_->out[std::size_t(p->out_port)];
    sim::Trace& tr = *probe_->trace;
    if (o.busy != RouterProbe::kOff) tr.set(o.busy, start, 1), tr.set(o.busy, tail_leaves, 0);
    if (o.pkt != RouterProbe::kOff) tr.set(o.pkt, start, p->label), tr.set(o.pkt, tail_leaves, 0);
    if (o.vc != RouterProbe::kOff) tr.set(o.vc, start, std::uint64_t(out_vc));
    if (o.route != RouterProbe::kOff) {
      const VcClass c = p->out_class;
      tr.set(o.route, start, p->via >= 0 ? 4 : c == VcClass::kAdaptive ? 1 : is_escape(c) ? 2 : 3);
      tr.set(o.route, tail_leaves, 0);
    }
    trace_stall(p->out_port, t, false);
    trace_credits(p->out_port, out_vc, t, -charge);
    const auto occ = probe_->occupancy[std::size_t(in_port) * std::size_t(cfg_.vcs) + std::size_t(in_vc)];
    if (occ != RouterProbe::kOff) tr.add_delta(occ, input_done, -std::int64_t(p->flits));
  }
  out.out.dst->accept(out.out.dst_port, out_vc, p);

  // The packet's buffer slots upstream free as its tail leaves the input.
  const hw::CreditReturn& up = in.upstream;
  up.src->return_credits(up.src_port, in_vc, freed, cfg_.clock.ceil(input_done + up.latency_ps));
}

void Router::trace_stall(int out, Time t, bool on) {
  std::uint8_t& s = probe_->stalled[std::size_t(out)];
  if (s == on) return;
  s = on;
  const auto sig = probe_->out[std::size_t(out)].stall;
  if (sig != RouterProbe::kOff) probe_->trace->set(sig, t, on);
}

void Router::trace_credits(int port, int vc, Time t, int delta) {
  const auto sig = probe_->credits[std::size_t(port) * std::size_t(cfg_.vcs) + std::size_t(vc)];
  if (sig != RouterProbe::kOff) probe_->trace->add_delta(sig, t, delta);
}

int Router::port_dim(int port) const {
  if (cfg_.port_names) return port < cfg_.num_link_ports() ? 0 : -1;
  return port < cfg_.topo->num_link_ports() ? cfg_.topo->port_dim(port) : -1;
}

}  // namespace kairo::router
