// The shared vocabulary of a link between two blocks (router-router or
// NI-router): the events that cross it and the sender's view of it.
//
// A link carries packets one after another at its flit rate; the receiver
// owns per-VC buffers; the sender holds one credit per free flit slot of each
// downstream VC and sends a packet only when the chosen VC's credits cover the
// whole packet (virtual cut-through). Credits come back over the same cable
// after the receiver's credit delay.
#pragma once
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <memory>
#include <vector>

#include "sim/event_queue.h"
#include "sim/time.h"

namespace kairo::hw {

enum LinkEvent : std::uint32_t {
  kHeadArrive = 1,  // arg = port | vc << 16 ; ptr = Packet*
  kFirstOwnEvent = 16,
};

inline std::uint32_t pack_port_vc(int port, int vc) { return std::uint32_t(port) | std::uint32_t(vc) << 16; }
inline int arg_port(std::uint32_t a) { return int(a & 0xfff); }
inline int arg_vc(std::uint32_t a) { return int((a >> 16) & 0xffff); }

inline constexpr int kMaxVcs = 16;

// Credits travel back to the sender with a known arrival time. Rather than an
// event per return, the sender keeps them in a per-port pipe and applies those
// whose time has come whenever it looks at its credits; it asks for a wake-up
// only while a packet is actually waiting for credits on that port. Timing is
// the same as with an event per credit, at a fraction of the events.
class CreditSink {
 public:
  virtual ~CreditSink() = default;
  // `flits` slots of `vc` behind `port` are free again from time `at`.
  virtual void return_credits(int port, int vc, int flits, sim::Time at) = 0;
};

struct PendingCredit {
  sim::Time at;
  std::uint16_t vc;
  std::uint16_t flits;
};

// FIFO of credits in flight back to one output port. Return times on one
// port never decrease (tails leave a buffer in order, plus a fixed delay), so
// a FIFO is exact. The first two entries live inside the port (no separate
// allocation to miss in cache); it grows on the heap only if more are ever
// outstanding, and never shrinks: no allocation once warm.
class CreditPipe {
 public:
  CreditPipe() = default;
  CreditPipe(const CreditPipe& o) : head_(o.head_), tail_(o.tail_), mask_(o.mask_) {
    std::copy(std::begin(o.inline_), std::end(o.inline_), std::begin(inline_));
    if (o.heap_) {
      heap_ = std::make_unique<PendingCredit[]>(std::size_t(mask_) + 1);
      std::copy(o.heap_.get(), o.heap_.get() + mask_ + 1, heap_.get());
    }
  }
  CreditPipe& operator=(const CreditPipe&) = delete;

  bool empty() const { return head_ == tail_; }
  const PendingCredit& front() const { return data()[head_ & mask_]; }
  void pop() { ++head_; }
  void push(const PendingCredit& c) {
    if (tail_ - head_ == mask_ + 1) grow();
    data()[tail_++ & mask_] = c;
  }
  template <class F>
  void for_each(F f) const {  // oldest first
    for (std::uint32_t i = head_; i != tail_; ++i) f(data()[i & mask_]);
  }

 private:
  static constexpr std::uint32_t kInline = 2;  // a power of two
  PendingCredit* data() { return heap_ ? heap_.get() : inline_; }
  const PendingCredit* data() const { return heap_ ? heap_.get() : inline_; }
  void grow() {
    const std::uint32_t cap = (mask_ + 1) * 2;
    auto n = std::make_unique<PendingCredit[]>(cap);
    for (std::uint32_t i = head_; i != tail_; ++i) n[i - head_] = data()[i & mask_];
    tail_ -= head_;
    head_ = 0;
    heap_ = std::move(n);
    mask_ = cap - 1;
  }
  // 56 bytes; a router port and a network interface each hold one. Positions
  // count modulo 2^32 (only their difference and their low bits matter).
  PendingCredit inline_[kInline] = {};
  std::unique_ptr<PendingCredit[]> heap_;
  std::uint32_t head_ = 0, tail_ = 0, mask_ = kInline - 1;
};

struct Packet;

// The receiving side of a link. The sender hands a packet over when its head
// starts onto the link, with p->arrive_ps (head fully received) and p->tail_ps
// (tail fully received) already set: the receiver's buffer slots were
// reserved by the sender's credits, and the receiver acts on the packet only
// from arrive_ps on. This costs no event for the crossing itself.
class PacketSink {
 public:
  virtual ~PacketSink() = default;
  virtual void accept(int port, int vc, Packet* p) = 0;
};

// The sending side of a link.
struct LinkOut {
  PacketSink* dst = nullptr;   // receiver (nullptr: not connected)
  std::uint16_t dst_port = 0;  // receiver's input port index
  sim::Time latency_ps = 0;    // cable (propagation) latency
  sim::Time flit_ps = 0;       // one flit's serialization time
  sim::Time free_at = 0;       // when the last tail finished leaving (exact)
  bool connected() const { return dst != nullptr; }
};

// The receiving side's view of who to return credits to.
struct CreditReturn {
  CreditSink* src = nullptr;
  std::uint16_t src_port = 0;
  sim::Time latency_ps = 0;  // credit delay + cable back to the sender
};

}  // namespace kairo::hw
