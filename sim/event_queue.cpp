#include "sim/event_queue.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <stdexcept>

namespace kairo::sim {

const char* event_block_name(EventBlock b) {
  static constexpr const char* kNames[kEventBlocks] = {"other", "router",   "endpoint", "nic",
                                                       "ocs",   "firmware", "traffic"};
  return kNames[std::size_t(b)];
}

namespace {
constexpr std::size_t kMask = EventQueue::kSlots - 1;
static_assert((EventQueue::kSlots & kMask) == 0, "slot count must be a power of two");
}  // namespace

EventQueue::EventQueue(Time grain_ps) : wheel_(kSlots), bits_(kSlots / 64, 0) { set_grain(grain_ps); }

void EventQueue::note_sync(Time t) {
  sync_times_.push_back(t);
  std::push_heap(sync_times_.begin(), sync_times_.end(), std::greater<>());
}

Time EventQueue::next_sync_time_after(Time t) const {
  Time best = kNever;  // a few at most are pending: a scan
  for (Time s : sync_times_)
    if (s > t && s < best) best = s;
  return best;
}

// Sync events are taken in time order, so the one taken is the heap's earliest.
void EventQueue::took_sync() {
  std::pop_heap(sync_times_.begin(), sync_times_.end(), std::greater<>());
  sync_times_.pop_back();
}

EventContext EventQueue::make_context() {
  if (contexts_made_ == EventKey::kMaxContexts)
    throw std::length_error(
        fmt::format("the event queue holds at most {} port contexts (router ports); this platform needs more",
                    EventKey::kMaxContexts));
  return EventContext{EventKey::kContextBit | std::uint64_t(contexts_made_++) << EventKey::kSeqBits};
}

void EventQueue::set_grain(Time grain_ps) {
  if (size_ == 0) {
    grain_ = grain_ps ? grain_ps : 1;
    inv_grain_ = ~std::uint64_t{0} / grain_;
    cur_ = now_ / grain_;
  }
}

void EventQueue::push(const Event& e) {
  ++size_;
  if (wheel_count_ == 0) cur_ = now_ / grain_;  // an empty wheel may move freely up to now
  Time rem;
  const std::uint64_t slot = slot_of(e.t, &rem);
  if (slot >= cur_ + kSlots) return push_far(e);
  Slot& s = wheel_[slot & kMask];
  std::uint32_t list;
  if (rem == 0 && EventKey::own_context(e.order)) {
    // The FIFO append below is written out twice on purpose: a shared
    // member function made push() 6% more instructions (callgrind, traffic
    // mesh-8x8 at 0.30).
    list = own_list(EventKey::prio(e.order));
    Fifo& f = s.list[list];
    const std::uint32_t n = new_node(e);
    if (f.tail == kNil)
      f.head = n;
    else
      nodes_[f.tail].next = n;
    f.tail = n;
  } else {
    list = rem == 0 ? ported_list(EventKey::prio(e.order)) : kOdd;
    Fifo& f = s.list[list];
    if (slot == cur_) {
      if (!push_sorted(f, e, kMaxOddWalk)) return push_far(e);
    } else if (s.unsorted >> list & 1 || !push_sorted(f, e, kMaxLaterWalk)) {
      append(s, list, e);
    }
  }
  if (s.live == 0) set_bit(slot & kMask);
  s.live |= 1u << list;
  ++wheel_count_;
}

bool EventQueue::push_sorted(Fifo& f, const Event& e, int max_walk) {
  if (f.tail == kNil || !before(e, nodes_[f.tail].e)) {  // the usual case: after every other
    const std::uint32_t n = new_node(e);
    if (f.tail == kNil)
      f.head = n;
    else
      nodes_[f.tail].next = n;
    f.tail = n;
    return true;
  }
  std::uint32_t prev = kNil, at = f.head;
  for (int walked = 0; before(nodes_[at].e, e); ++walked) {  // ends before the tail: e is before it
    if (walked == max_walk) return false;
    prev = at;
    at = nodes_[at].next;
  }
  const std::uint32_t n = new_node(e);
  nodes_[n].next = at;
  if (prev == kNil)
    f.head = n;
  else
    nodes_[prev].next = n;
  return true;
}

void EventQueue::append(Slot& s, std::uint32_t list, const Event& e) {
  Fifo& f = s.list[list];
  const std::uint32_t n = new_node(e);
  if (f.tail == kNil) {
    f.head = n;
  } else {
    if (before(e, nodes_[f.tail].e)) s.unsorted |= 1u << list;
    nodes_[f.tail].next = n;
  }
  f.tail = n;
}

// A list appended to out of order is a few ascending runs, one after
// another (the events of each router that scheduled into the slot, in the
// order the routers acted): it is cut into its runs, and they are merged
// pairwise until one is left. That costs a comparison per node to find the
// runs and one per node per round of merges, log2 of the runs' number, where
// sorting the nodes afresh costs log2 of the nodes'. scratch_ holds each
// run's first and last node.
void EventQueue::sort_lists(Slot& s) const {
  for (std::uint32_t left = s.unsorted; left != 0; left &= left - 1) {
    Fifo& f = s.list[__builtin_ctz(left)];
    scratch_.clear();
    for (std::uint32_t at = f.head; at != kNil;) {
      scratch_.push_back(at);
      std::uint32_t next = nodes_[at].next;
      while (next != kNil && !before(nodes_[next].e, nodes_[at].e)) {
        at = next;
        next = nodes_[at].next;
      }
      nodes_[at].next = kNil;
      scratch_.push_back(at);
      at = next;
    }
    while (scratch_.size() > 2) {
      std::size_t out = 0;
      for (std::size_t i = 0; i + 3 < scratch_.size(); i += 4) {
        std::uint32_t tail;
        const std::uint32_t head =
            merge_runs(scratch_[i], scratch_[i + 1], scratch_[i + 2], scratch_[i + 3], tail);
        scratch_[out++] = head;
        scratch_[out++] = tail;
      }
      if (scratch_.size() % 4 != 0) {  // an odd run out: kept for the next round
        scratch_[out++] = scratch_[scratch_.size() - 2];
        scratch_[out++] = scratch_.back();
      }
      scratch_.resize(out);
    }
    f.head = scratch_[0];
    f.tail = scratch_[1];
  }
  s.unsorted = 0;
}

// Two ascending runs, a .. a_tail and b .. b_tail (each ended by kNil), as
// one: returns its first node and sets `tail` to its last.
std::uint32_t EventQueue::merge_runs(std::uint32_t a, std::uint32_t a_tail, std::uint32_t b,
                                     std::uint32_t b_tail, std::uint32_t& tail) const {
  std::uint32_t head;
  if (before(nodes_[b].e, nodes_[a].e)) {
    head = b;
    b = nodes_[b].next;
  } else {
    head = a;
    a = nodes_[a].next;
  }
  std::uint32_t last = head;
  while (a != kNil && b != kNil) {
    if (before(nodes_[b].e, nodes_[a].e)) {
      nodes_[last].next = b;
      last = b;
      b = nodes_[b].next;
    } else {
      nodes_[last].next = a;
      last = a;
      a = nodes_[a].next;
    }
  }
  // Each step takes a node from one run, so exactly one run has nodes left.
  if (a != kNil) {
    nodes_[last].next = a;
    tail = a_tail;
  } else {
    nodes_[last].next = b;
    tail = b_tail;
  }
  return head;
}

std::uint32_t EventQueue::new_node(const Event& e) {
  std::uint32_t n = free_;
  if (n == kNil) {
    n = std::uint32_t(nodes_.size());
    nodes_.push_back(Node{e, kNil});
  } else {
    free_ = nodes_[n].next;
    nodes_[n] = Node{e, kNil};
  }
  return n;
}

void EventQueue::push_far(const Event& e) {
  far_.push_back(e);
  std::size_t i = far_.size() - 1;
  while (i > 0) {
    std::size_t parent = (i - 1) / 2;
    if (!before(e, far_[parent])) break;
    far_[i] = far_[parent];
    i = parent;
  }
  far_[i] = e;
}

Event EventQueue::pop_far() {
  Event top = far_.front();
  Event last = far_.back();
  far_.pop_back();
  const std::size_t n = far_.size();
  if (n == 0) return top;
  std::size_t i = 0;
  for (;;) {
    std::size_t child = 2 * i + 1;
    if (child >= n) break;
    if (child + 1 < n && before(far_[child + 1], far_[child])) ++child;
    if (!before(far_[child], last)) break;
    far_[i] = far_[child];
    i = child;
  }
  far_[i] = last;
  return top;
}

std::size_t EventQueue::first_nonempty_distance() const {
  if (wheel_count_ == 0) return kSlots;
  const std::size_t start = cur_ & kMask;
  for (std::size_t scanned = 0; scanned < kSlots;) {
    const std::size_t pos = (start + scanned) & kMask;
    std::uint64_t w = bits_[pos >> 6] >> (pos & 63);
    if (w) return std::min(kSlots, scanned + std::size_t(__builtin_ctzll(w)));
    scanned += 64 - (pos & 63);
  }
  return kSlots;
}

EventQueue::Next EventQueue::peek() const {
  Next n;
  if (size_ == 0) return n;
  std::size_t d = 0;
  if (!(bits_[(cur_ & kMask) >> 6] >> (cur_ & 63) & 1)) {
    // The wheel is to move on to a later slot: its lists appended to out of
    // order are sorted now (the current slot's never are: its events are
    // placed as they come).
    d = first_nonempty_distance();
    if (d != kSlots && wheel_[(cur_ + d) & kMask].unsorted) sort_lists(wheel_[(cur_ + d) & kMask]);
  }
  if (d != kSlots) {
    n.slot = cur_ + d;
    Slot& s = wheel_[n.slot & kMask];
    n.list = std::uint32_t(__builtin_ctz(s.live));
    n.fifo = &s.list[n.list];
    n.event = &nodes_[n.fifo->head].e;
  }
  if (!far_.empty() && (!n.event || before(far_.front(), *n.event))) {
    n.fifo = nullptr;
    n.event = &far_.front();
  }
  return n;
}

Event EventQueue::take(const Next& n) {
  --size_;
  if (!n.fifo) return pop_far();
  cur_ = n.slot;  // the wheel moves only to an event being taken now
  Fifo* f = n.fifo;
  const std::uint32_t id = f->head;
  Event e = nodes_[id].e;
  f->head = nodes_[id].next;
  // The event after this one at the same instant is known now: on a large
  // machine the first lines of its target are fetched into the cache while
  // this one runs (its routers and engines are rarely there: each event
  // would otherwise start on misses). 8 lines: a router's fields up to its
  // switch allocation stage.
  if (prefetch_ && f->head != kNil) {
    const Event& after = nodes_[f->head].e;
    const char* next = reinterpret_cast<const char*>(after.target);
    for (int line = 0; line < 8; ++line) __builtin_prefetch(next + 64 * line);
    __builtin_prefetch(after.ptr);  // its packet, if any (a prefetch of null is harmless)
  }
  nodes_[id].next = free_;
  free_ = id;
  --wheel_count_;
  if (f->head == kNil) {
    f->tail = kNil;
    Slot& s = wheel_[n.slot & kMask];
    if ((s.live &= ~(1u << n.list)) == 0) clear_bit(n.slot & kMask);
  }
  return e;
}

Time EventQueue::next_time() const {
  Next n = peek();
  return n.event ? n.event->t : kNever;
}

// The wheel only moves to an event that is taken, so a SystemC process that
// schedules between two bridge steps never lands behind the current slot.
std::uint64_t EventQueue::run_until(Time limit, std::uint64_t budget) {
  std::uint64_t ran = 0;
  while (!stopped_ && ran < budget) {
    const Next n = peek();
    if (!n.event || n.event->t > limit) break;
    Event e = take(n);
    if (EventKey::prio(e.order) == kPrioSync) took_sync();
    now_ = e.t;
    ++processed_;
    ++ran;
    ++by_block_[std::size_t(e.target->event_block())];
    e.target->on_event(e.kind, e.arg, e.ptr);
  }
  return ran;
}

void EventQueue::run_direct() { run_until(kNever); }

}  // namespace kairo::sim
