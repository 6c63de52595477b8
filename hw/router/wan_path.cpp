#include "hw/router/wan_path.h"

#include <algorithm>

namespace kairo::router {

using sim::Time;

WanPath::WanPath(sim::EventQueue& queue, hw::NetworkActivity& activity, const WanPathParams& p)
    : sim::EventTarget(sim::EventBlock::kRouter), q_(queue), act_(activity), p_(p) {}

void WanPath::connect(hw::CreditSink* up, int up_port, hw::PacketSink* down, int down_port,
                      int down_credits) {
  up_ = up;
  up_port_ = up_port;
  down_ = down;
  down_port_ = down_port;
  credits_ = down_credits;
}

const TcpWindow* WanPath::window(hw::NodeId src, hw::NodeId dst) const {
  auto it = index_.find(std::uint64_t(src) << 32 | std::uint64_t(dst));
  return it == index_.end() ? nullptr : &it->second->win;
}

WanPath::Flow& WanPath::flow_of(const hw::Packet& p) {
  const std::uint64_t key = std::uint64_t(p.src) << 32 | std::uint64_t(p.dst);
  auto it = index_.find(key);
  if (it != index_.end()) return *it->second;
  flows_.emplace_back(p_.initial_window);  // once per stream
  index_.emplace(key, &flows_.back());
  return flows_.back();
}

// The sending gateway hands a packet over as its head starts toward us; it
// joins its stream once its tail is in.
void WanPath::accept(int, int vc, hw::Packet* p) {
  const sim::EventQueue::Scope in_context(q_, context_);
  q_.at(p->tail_ps, sim::kPrioState, this, kArrive, std::uint32_t(vc), p);
}

void WanPath::return_credits(int, int, int flits, Time at) {
  const sim::EventQueue::Scope in_context(q_, context_);
  q_.at(at, sim::kPrioState, this, kCredit, std::uint32_t(flits));
}

void WanPath::on_event(std::uint32_t kind, std::uint32_t arg, void* ptr) {
  const Time now = q_.now();
  act_.last_progress_ps = now;
  switch (kind) {
    case kArrive: {
      auto* p = static_cast<hw::Packet*>(ptr);
      // The stream's queue takes it: the gateway's buffer slots free at once.
      up_->return_credits(up_port_, int(arg), p->flits, now + p_.credit_delay_ps);
      Flow& f = flow_of(*p);
      f.waiting.push(p);
      pump(f);
      break;
    }
    case kPace: {
      auto* f = static_cast<Flow*>(ptr);
      f->pace_pending = false;
      pump(*f);
      break;
    }
    case kAck:
      ack(*static_cast<Flow*>(ptr), arg);
      break;
    case kRto: {
      auto* f = static_cast<Flow*>(ptr);
      if (arg != f->lost_gen || f->lost.empty()) break;  // found by duplicate ACKs first
      recover(*f, true);
      pump(*f);
      break;
    }
    case kLinkFree:
      busy_ = false;
      queued_ -= on_wire_bytes_;
      serve();
      break;
    case kCredit:
      credits_ += arg;
      serve();
      break;
  }
}

// Send what the window and the access rate allow: retransmissions first.
void WanPath::pump(Flow& f) {
  const Time now = q_.now();
  while (f.win.can_send(f.in_flight) && !(f.retx.empty() && f.waiting.empty())) {
    if (f.next_send > now) {
      if (!f.pace_pending) {
        f.pace_pending = true;
        q_.at(f.next_send, sim::kPrioState, this, kPace, 0, &f);
      }
      return;
    }
    hw::Packet* p = f.retx.empty() ? f.waiting.pop() : f.retx.pop();
    f.next_send = now + p_.access_flit_ps * p->flits;
    ++f.in_flight;
    ++stats_.sent;
    enqueue(f, p, ++f.tx_seq);
  }
}

// Drop-tail: a segment that does not fit in the bottleneck's buffer is lost.
void WanPath::enqueue(Flow& f, hw::Packet* p, std::uint32_t seq) {
  if (queued_ + p->bytes > p_.queue_bytes) {
    ++stats_.drops;
    if (f.lost.empty()) {
      f.first_lost_seq = seq;
      f.dupacks = 0;
      q_.at(q_.now() + p_.rto_ps, sim::kPrioState, this, kRto, ++f.lost_gen, &f);
    }
    f.lost.push(p);
    ++f.lost_count;
    return;
  }
  queued_ += p->bytes;
  stats_.peak_queue_bytes = std::max(stats_.peak_queue_bytes, queued_);
  fifo_.push_back(Queued{p, &f, seq});
  serve();
}

// The wide-area serializer: the FIFO's head goes when the link is free and
// the receiving gateway has room for it; its ACK comes back one propagation
// delay after its tail reached the far end.
void WanPath::serve() {
  if (busy_ || fifo_.empty()) return;
  const Queued e = fifo_.front();
  if (credits_ < e.p->flits) return;  // kCredit serves again
  fifo_.pop_front();
  credits_ -= e.p->flits;
  const Time start = std::max(q_.now(), free_at_);
  free_at_ = start + p_.flit_ps * e.p->flits;
  e.p->arrive_ps = start + p_.flit_ps + p_.latency_ps;
  e.p->tail_ps = free_at_ + p_.latency_ps;
  busy_ = true;
  on_wire_bytes_ = e.p->bytes;
  q_.at(free_at_, sim::kPrioState, this, kLinkFree);
  q_.at(e.p->tail_ps + p_.latency_ps, sim::kPrioState, this, kAck, e.seq, e.f);
  ++stats_.delivered;
  down_->accept(down_port_, 0, e.p);
}

// An ACK: new data ACKed grows the window; while a loss waits to be found,
// ACKs of later segments are duplicates, and the third one retransmits.
void WanPath::ack(Flow& f, std::uint32_t seq) {
  --f.in_flight;
  if (!f.lost.empty() && seq > f.first_lost_seq) {
    if (++f.dupacks >= 3) recover(f, false);
  } else {
    f.win.on_ack(seq);
  }
  pump(f);
}

// A loss found: every segment lost so far goes again (the ACKs' selective
// information names them all); the window shrinks once.
void WanPath::recover(Flow& f, bool timeout) {
  if (timeout) {
    ++stats_.timeouts;
    f.win.on_timeout(f.in_flight);
  } else {
    ++stats_.fast_retransmits;
    f.win.on_fast_retransmit(f.tx_seq);
  }
  f.in_flight -= f.lost_count;
  f.lost_count = 0;
  while (!f.lost.empty()) f.retx.push(f.lost.pop());
  f.dupacks = 0;
  ++f.lost_gen;
}

}  // namespace kairo::router
