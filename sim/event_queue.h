// kairo's discrete-event queue: the cheapest mechanism that keeps the timing
// model exact inside the network (docs/design.md §2). SystemC's kernel owns
// simulated time; this queue holds the network's fine-grained events (a head
// arriving, a credit returning, an allocation round) and is drained by one
// SystemC process per distinct timestamp (sim/kernel.h), or directly by
// run_direct() in tests that build many networks in one process.
//
// Ordering is total and deterministic: (time, priority, context, sequence).
// Priority separates state changes (arrivals, credits) from decisions
// (allocation) at one instant: every decision at time t sees every change at
// t, so process order cannot change the result (compute-then-commit).
//
// The context is who scheduled the event. Most events are scheduled in the
// queue's own context (0), numbered in the order they are scheduled. A block
// that other blocks call directly across a link (a router's input port:
// Router::accept and return_credits) schedules in a context of its own, the
// port's, numbered in the order of the calls on that link. A partitioned run
// (docs/parallel.md) makes those calls later than one process does, when
// packets and credits cross between processes, but in the same order per
// link; because the port's events are ordered by the port's own numbering,
// every event still runs in the same order as in one process.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/time.h"

namespace kairo::sim {

// The kind of block an event goes to: the queue counts events by it (a
// run's `events_by_block`, which says where a run's events go).
enum class EventBlock : std::uint8_t { kOther, kRouter, kEndpoint, kNic, kOcs, kFirmware, kTraffic };
inline constexpr std::size_t kEventBlocks = 7;
// Its name in the JSON: "other", "router", "endpoint", "nic", "ocs", "firmware", "traffic".
const char* event_block_name(EventBlock b);

class EventTarget {
 public:
  explicit EventTarget(EventBlock block = EventBlock::kOther) : block_(block) {}
  virtual ~EventTarget() = default;
  // kind and arg are the target's own vocabulary; ptr usually a packet.
  virtual void on_event(std::uint32_t kind, std::uint32_t arg, void* ptr) = 0;
  EventBlock event_block() const { return block_; }

 private:
  EventBlock block_;
};

// kPrioSync: before everything else at its time; a partitioned run starts a
// window at every sync event's time (sim/window_runner.h), so it sees every
// message sent before it (phase boundaries, counter samples).
enum Priority : std::uint32_t { kPrioSync = 0, kPrioState = 1, kPrioDecide = 2, kPrioLast = 3 };

// An event's place among those at the same time: priority (2 bits), then the
// context (a port context sorts after the queue's own), then its sequence
// number within the context.
//   queue's own context:  prio << 62 | 0 << 61 | sequence (61 bits)
//   a port context:       prio << 62 | 1 << 61 | id << 38 | sequence (38 bits)
struct EventKey {
  static constexpr int kPrioShift = 62;
  static constexpr int kSeqBits = 38;
  static constexpr std::uint64_t kContextBit = std::uint64_t{1} << 61;
  static constexpr std::uint32_t kMaxContexts = 1u << 23;  // port contexts in one queue
  static std::uint32_t prio(std::uint64_t order) { return std::uint32_t(order >> kPrioShift); }
  static bool own_context(std::uint64_t order) { return !(order & kContextBit); }
};

// A context of its own for a block's port (see above). `next` is the next
// event's key without the priority bits.
struct EventContext {
  std::uint64_t next = 0;
};

struct Event {
  Time t;
  std::uint64_t order;  // EventKey: priority, context, sequence
  EventTarget* target;
  void* ptr;
  std::uint32_t kind;
  std::uint32_t arg;
};

// Storage: a timing wheel of kSlots slots, each `grain` picoseconds wide (set
// to the network clock period). An event whose time is exactly a slot's time
// goes into that slot's FIFO for its priority, so it needs no sorting:
// (time, priority, sequence) order falls out of FIFO order; an event between
// two slot times joins its slot's sorted list of such events. Lists are
// linked through one pool of nodes recycled last-in first-out, so the memory
// touched stays as small (and as warm in cache) as the events pending. Events
// beyond the wheel's horizon go to a binary heap; the next event is the
// earlier of the wheel's and the heap's. Scheduling on the grid is O(1);
// idle time is skipped via a bitmap of non-empty slots, so 10^9 idle cycles
// cost nothing.
class EventQueue {
 public:
  static constexpr std::size_t kSlots = 4096;

  explicit EventQueue(Time grain_ps = 1000);

  // The slot width; call before scheduling anything (ordering is exact for
  // any grain, only speed depends on it).
  void set_grain(Time grain_ps);
  Time now() const { return now_; }
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  Time next_time() const;
  // The earliest pending event of priority kPrioSync later than t (kNever: none).
  Time next_sync_time_after(Time t) const;
  std::uint64_t events_processed() const { return processed_; }
  // Of those, how many went to each kind of block (indexed by EventBlock).
  const std::array<std::uint64_t, kEventBlocks>& events_by_block() const { return by_block_; }

  // Schedule an event; a time in the past is taken as now.
  void at(Time t, Priority prio, EventTarget* target, std::uint32_t kind, std::uint32_t arg = 0,
          void* ptr = nullptr) {
    if (t < now_) t = now_;
    if (prio == kPrioSync) note_sync(t);
    push(Event{t, (std::uint64_t(prio) << EventKey::kPrioShift) | context_->next++, target, ptr, kind, arg});
  }

  // A new port context, numbered in the order they are made (a platform is
  // built in the same order by every process of a partitioned run).
  EventContext make_context();
  // Events scheduled while a Scope lives are in `c`'s context.
  class Scope {
   public:
    Scope(EventQueue& q, EventContext& c) : q_(q), saved_(q.context_) { q.context_ = &c; }
    ~Scope() { q_.context_ = saved_; }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    EventQueue& q_;
    EventContext* saved_;
  };

  // Run every event with time <= limit (sets now() as it goes), or only the
  // first `budget` of them; returns how many ran.
  std::uint64_t run_until(Time limit, std::uint64_t budget = ~std::uint64_t{0});
  // Run until empty or stop() is called.
  void run_direct();
  // Advance the clock without events (the SystemC bridge does this).
  void set_now(Time t) { now_ = t; }

  void stop() { stopped_ = true; }
  bool stopped() const { return stopped_; }

  // A large machine (its blocks' state far beyond the caches): while an
  // event runs, the first lines of the next one's target (and its packet)
  // are fetched. The order and results are the same either way; on a small
  // machine, whose state stays in the caches, it would only add instructions.
  void prefetch_targets(bool on) { prefetch_ = on; }
  static constexpr std::size_t kPrefetchFromNodes = 8192;

 private:
  static constexpr std::uint32_t kNil = ~std::uint32_t{0};
  struct Node {
    Event e;
    std::uint32_t next;
  };
  struct Fifo {
    std::uint32_t head = kNil, tail = kNil;
    bool empty() const { return head == kNil; }
  };
  // A slot's events: those exactly on its time, per priority one FIFO of the
  // queue's own context (its sequence only grows, so the FIFO is in order)
  // and one list of port contexts' events kept sorted by order, then those
  // later within the slot (off the grid: a DMA's end, say), in one list kept
  // sorted by (time, order). An event is placed by a short walk, bounded.
  // Into a later slot than the current one, an event that would need a
  // longer walk is appended, and the slot's lists are sorted once, when the
  // wheel moves on to it (`unsorted` has a bit per list appended to out of
  // order): on a large machine the ports of many routers schedule
  // into one instant in the order the routers act, not in the order of their
  // contexts. Into the current slot, it goes to the far heap instead. The lists are in the order they are
  // taken (own, ported, own, ported, ... by priority, then the off-grid list), and `live` has a bit per
  // non-empty list, so the next list is one count of trailing zeros.
  static constexpr std::uint32_t kOdd = 2 * (kPrioLast + 1);
  static std::uint32_t own_list(std::uint32_t prio) { return 2 * prio; }
  static std::uint32_t ported_list(std::uint32_t prio) { return 2 * prio + 1; }
  struct Slot {
    Fifo list[kOdd + 1];
    std::uint32_t live = 0;
    std::uint32_t unsorted = 0;
  };
  static constexpr int kMaxOddWalk = 32, kMaxLaterWalk = 8;
  static bool before(const Event& a, const Event& b) {
    return a.t < b.t || (a.t == b.t && a.order < b.order);
  }
  void push(const Event& e);
  void push_far(const Event& e);
  void note_sync(Time t);
  void took_sync();
  // Into a list kept sorted by (time, order); false if that would take a
  // longer walk than max_walk (the caller appends the event, or puts it on
  // the far heap).
  bool push_sorted(Fifo& f, const Event& e, int max_walk);
  // Into a list of a later slot: appended, and the list marked unsorted
  // when `e` is before its tail.
  void append(Slot& s, std::uint32_t list, const Event& e);
  // Puts a slot's unsorted lists in (time, order) order (peek, when the
  // wheel is to move on to the slot).
  [[gnu::noinline]] void sort_lists(Slot& s) const;
  std::uint32_t merge_runs(std::uint32_t a, std::uint32_t a_tail, std::uint32_t b, std::uint32_t b_tail,
                           std::uint32_t& tail) const;
  Event pop_far();
  // Where the next event is: a wheel FIFO (with its slot) or the far heap.
  struct Next {
    Fifo* fifo = nullptr;
    std::uint32_t list = 0;  // its index in the slot
    std::uint64_t slot = 0;
    const Event* event = nullptr;  // nullptr: queue empty
  };
  Next peek() const;
  Event take(const Next& n);
  std::uint32_t new_node(const Event& e);
  void set_bit(std::size_t i) { bits_[i >> 6] |= 1ULL << (i & 63); }
  void clear_bit(std::size_t i) { bits_[i >> 6] &= ~(1ULL << (i & 63)); }
  // Distance (in slots, 0..kSlots-1) from the current slot to the first
  // non-empty one, or kSlots if the wheel is empty.
  std::size_t first_nonempty_distance() const;

  // t / grain_ without a hardware divide on the scheduling path: multiply by
  // a precomputed reciprocal, then correct the (at most two) missing steps.
  std::uint64_t slot_of(Time t, Time* rem) const {
    std::uint64_t q = std::uint64_t((unsigned __int128)t * inv_grain_ >> 64);
    Time r = t - q * grain_;
    while (r >= grain_) ++q, r -= grain_;
    *rem = r;
    return q;
  }

  Time grain_;
  std::uint64_t inv_grain_ = 0;  // floor((2^64 - 1) / grain_)
  std::uint64_t cur_ = 0;        // absolute slot number of the current slot
  // Mutable: peek() sorts a list it is about to report (the order of the
  // pending events is the same either way).
  mutable std::vector<Slot> wheel_;
  mutable std::vector<Node> nodes_;
  mutable std::vector<std::uint32_t> scratch_;  // sort_lists' runs: first and last node of each
  std::uint32_t free_ = kNil;
  std::size_t wheel_count_ = 0;
  std::vector<std::uint64_t> bits_;
  std::vector<Event> far_;        // min-heap beyond the horizon
  std::vector<Time> sync_times_;  // min-heap: the times of pending kPrioSync events
  std::size_t size_ = 0;
  Time now_ = 0;
  EventContext own_;
  EventContext* context_ = &own_;
  std::uint32_t contexts_made_ = 0;
  std::uint64_t processed_ = 0;
  std::array<std::uint64_t, kEventBlocks> by_block_ = {};
  bool stopped_ = false;
  bool prefetch_ = false;
};

}  // namespace kairo::sim
