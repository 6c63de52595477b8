#include "hw/common/endpoint.h"

#include <algorithm>

#include "hw/common/watchdog.h"

namespace kairo::hw {

using sim::Time;

void Endpoint::init(const Setup& s, EndpointClient* client, int ni) {
  s_ = &s;
  client_ = client;
  ni_ = ni;
  if (s.wormhole && !worm_) worm_ = std::make_unique<Worm>();
  if (s.vcs > kInlineVcs && !more_credits_)
    more_credits_ = std::make_unique<std::int32_t[]>(std::size_t(s.vcs - kInlineVcs));
}

void Endpoint::connect_to_router(PacketSink* router, int port, Time latency_ps, Time flit_ps,
                                 int credits_per_vc) {
  out_.dst = router;
  out_.dst_port = std::uint16_t(port);
  out_.latency_ps = latency_ps;
  out_.flit_ps = flit_ps;
  for (int v = 0; v < s_->vcs; ++v) credit(v) = credits_per_vc;
}

void Endpoint::connect_from_router(CreditSink* router, int port, Time credit_latency_ps) {
  back_ = CreditReturn{router, std::uint16_t(port), credit_latency_ps};
}

void Endpoint::apply_returned_credits() {
  const Time now = s_->queue->now();
  while (!returning_.empty() && returning_.front().at <= now) {
    credit(returning_.front().vc) += returning_.front().flits;
    returning_.pop();
  }
}

int Endpoint::choose_vc(int flits) {
  apply_returned_credits();
  int best = -1, best_credits = flits - 1;
  const int vcs = s_->vcs, inline_vcs = std::min(vcs, kInlineVcs);
  for (int v = 0; v < inline_vcs; ++v)
    if (credits_[v] > best_credits) best = v, best_credits = credits_[v];
  if (__builtin_expect(vcs > kInlineVcs, 0)) best = choose_beyond_inline(best, best_credits);
  return best;
}

int Endpoint::choose_beyond_inline(int best, int best_credits) const {
  for (int v = kInlineVcs; v < s_->vcs; ++v)
    if (more_credits_[v - kInlineVcs] > best_credits) best = v, best_credits = more_credits_[v - kInlineVcs];
  return best;
}

void Endpoint::retry_at(Time t) {
  if (t >= retry_at_) return;
  retry_at_ = t;
  s_->queue->at(t, sim::kPrioState, this, kRetry);
}

bool Endpoint::can_send(int flits) {
  const Time now = s_->queue->now();
  if (s_->wormhole) {
    if (worm_->sending) {  // the channel is the worm's until its tail is out
      waiting_ = true;
      return false;
    }
    flits = 1;  // a head flit needs one credit
  }
  // The channel may be claimed in the cycle it frees, so packets follow
  // back-to-back at the exact channel rate.
  if (out_.free_at >= now + s_->clock.period_ps) {
    waiting_ = true;
    retry_at(s_->clock.floor(out_.free_at));
    return false;
  }
  if (choose_vc(flits) >= 0) return true;
  waiting_ = true;
  if (!returning_.empty())
    retry_at(returning_.front().at);
  else
    credit_waiter_ = true;
  return false;
}

// A client that consumes later acts only once the tail is in (Tni): its packet
// is handed over then, in one event, instead of one at the head and another at
// the tail. What the head's event did for such a client is bookkeeping no
// block reads between head and tail (the run's packet counts; the watchdog's,
// whose progress time is taken as the head's, see on_event).
void Endpoint::accept(int, int vc, Packet* p) {
  if (consume_later_ && !p->worm)
    s_->queue->at(s_->clock.ceil(p->tail_ps), sim::kPrioState, this, kTailIn, pack_port_vc(0, vc), p);
  else
    s_->queue->at(p->arrive_ps, sim::kPrioState, this, kHeadArrive, pack_port_vc(0, vc), p);
}

void Endpoint::consumed(Packet* p) {
  // Taken the moment its tail is in: exactly as an endpoint that does not hold;
  // later, the credit delay counts from now.
  const Time now = s_->queue->now();
  const Time from = now > s_->clock.ceil(p->tail_ps) ? now : p->tail_ps;
  // Credits reach the router in the order they were sent.
  last_credit_ps_ = std::max(last_credit_ps_, s_->clock.ceil(from + back_.latency_ps));
  if (p->eject_vc >= 0)  // a wormhole packet's flits freed their slots as they landed
    back_.src->return_credits(back_.src_port, p->eject_vc, p->flits, last_credit_ps_);
  --s_->activity->held;
  s_->activity->last_progress_ps = now;
}

void Endpoint::return_credits(int, int vc, int flits, Time at) {
  returning_.push(PendingCredit{at, std::uint16_t(vc), std::uint16_t(flits)});
  if (credit_waiter_) {
    credit_waiter_ = false;
    retry_at(at);
  }
}

Time Endpoint::send(Packet* p) {
  const Time now = s_->queue->now();
  p->in_dim = -1;
  p->vc_class = VcClass::kAny;
  p->src_ni = std::uint16_t(ni_);
  ++sent_;
  if (++s_->activity->in_network == 1 && s_->activity->watchdog) s_->activity->watchdog->arm();
  s_->activity->last_progress_ps = now;
  if (s_->wormhole && p->flits > 1) {  // the head flit now, the body flits as credits allow
    p->worm = kWormHead;
    p->worm_flits = p->flits;
    p->flits = 1;
    Worm& w = *worm_;
    w.vc = choose_vc(1);
    w.sent = 1;
    w.sending = s_->flit_pool->get();
    *w.sending = *p;  // before it goes: the receiver owns it from then on
    w.sending->injected_ps = put_on_channel(p, w.vc);
    retry_at(s_->clock.floor(out_.free_at));
    return out_.free_at;
  }
  const int vc = choose_vc(p->flits);
  put_on_channel(p, vc);
  return out_.free_at;
}

// Serialize `p` onto the injection channel on VC `vc` (its credits taken);
// returns when its head starts.
Time Endpoint::put_on_channel(Packet* p, int vc) {
  const Time now = s_->queue->now();
  credit(vc) -= p->flits;
  const Time start = std::max(now, out_.free_at);
  const Time tail_leaves = start + Time(p->flits) * out_.flit_ps;
  out_.free_at = tail_leaves;
  if (!(p->worm & kWormBody)) p->injected_ps = start;
  p->tail_ps = tail_leaves + out_.latency_ps;
  p->arrive_ps = s_->clock.ceil(start + out_.flit_ps + out_.latency_ps);
  out_.dst->accept(out_.dst_port, vc, p);
  return start;
}

bool Endpoint::continue_worm() {
  const Time now = s_->queue->now();
  if (out_.free_at >= now + s_->clock.period_ps) {
    retry_at(s_->clock.floor(out_.free_at));
    return false;
  }
  apply_returned_credits();
  Worm& w = *worm_;
  if (credit(w.vc) < 1) {
    if (!returning_.empty())
      retry_at(returning_.front().at);
    else
      credit_waiter_ = true;
    return false;
  }
  const Packet& head = *w.sending;
  Packet* f = s_->flit_pool->get();
  f->id = head.id;
  f->label = head.label;
  f->created_ps = head.created_ps;
  f->injected_ps = head.injected_ps;
  f->src = head.src, f->dst = head.dst;
  f->src_ni = head.src_ni, f->dst_ni = head.dst_ni;
  f->measured = head.measured;
  f->flits = 1;
  f->worm_flits = head.worm_flits;
  f->worm = std::uint8_t(kWormBody | (++w.sent == head.worm_flits ? kWormTail : 0));
  f->in_dim = -1;
  f->vc_class = VcClass::kAny;
  s_->activity->last_progress_ps = now;
  put_on_channel(f, w.vc);
  if (w.sent < head.worm_flits) {
    retry_at(s_->clock.floor(out_.free_at));
    return false;
  }
  s_->flit_pool->put(w.sending);
  w.sending = nullptr;
  return true;
}

// A wormhole flit landed in ejection VC `vc`: its slot frees now (the
// credit goes back once it is in). The head flit waits for its packet's
// tail flit; the tail flit hands the head back whole.
bool Endpoint::receive_flit(int vc, Packet* p, Packet** whole) {
  back_.src->return_credits(back_.src_port, vc, 1, s_->clock.ceil(p->tail_ps + back_.latency_ps));
  s_->activity->last_progress_ps = s_->queue->now();
  if (p->worm & kWormHead) {
    worm_->arriving[vc] = p;
    return false;
  }
  Packet* head = worm_->arriving[vc];
  const bool tail = p->worm & kWormTail;
  if (tail) {
    head->flits = head->worm_flits;
    head->tail_ps = p->tail_ps;
    head->eject_vc = -1;  // its slots are free already
    worm_->arriving[vc] = nullptr;
    *whole = head;
  }
  s_->flit_pool->put(p);
  return tail;
}

void Endpoint::on_event(std::uint32_t kind, std::uint32_t arg, void* ptr) {
  const Time now = s_->queue->now();
  switch (kind) {
    case kRetry:
      if (now != retry_at_) return;  // superseded by an earlier retry
      retry_at_ = sim::kNever;
      if (worm_ && worm_->sending && !continue_worm()) return;
      break;
    case kHeadArrive: {
      Packet* p = static_cast<Packet*>(ptr);
      if (p->worm) {
        Packet* whole = nullptr;
        if (!receive_flit(arg_vc(arg), p, &whole)) return;
        ++received_;
        --s_->activity->in_network;
        if (consume_later_) ++s_->activity->held;
        client_->on_packet(ni_, whole);
        return;
      }
      ++received_;
      --s_->activity->in_network;
      s_->activity->last_progress_ps = now;
      // Slots free once the tail is in (a client that consumes later gets
      // kTailIn instead, and frees them with consumed()).
      back_.src->return_credits(back_.src_port, arg_vc(arg), p->flits,
                                s_->clock.ceil(p->tail_ps + back_.latency_ps));
      client_->on_packet(ni_, p);
      return;
    }
    case kTailIn: {
      Packet* p = static_cast<Packet*>(ptr);
      ++received_;
      --s_->activity->in_network;
      // The head landed at arrive_ps: the watchdog's last progress is as
      // the head's own event left it (every other block sets it to its now,
      // so the latest of the two is what it would hold at this instant).
      s_->activity->last_progress_ps = std::max(s_->activity->last_progress_ps, p->arrive_ps);
      p->eject_vc = std::int8_t(arg_vc(arg));
      ++s_->activity->held;
      client_->on_packet(ni_, p);
      return;
    }
    default:
      return;
  }
  if (waiting_) {
    waiting_ = false;
    client_->on_send_ready(ni_);
  }
}

}  // namespace kairo::hw
