// The router's input units (garnet's InputUnit): every input port's VC
// buffers, what allocation needs of the packet at the head of each, a bit
// per non-empty VC for the allocation rounds to scan, and the per-VC state
// a packet leaves behind (a wormhole packet's route for its body flits, the
// VC allocation stage's restart time).
//
// Input VCs are indexed port << vshift | vc (a power-of-two stride, so no
// division on the allocation path). Each is 24 bytes: its packet queue (kept
// by its tail: hw::PacketRing) and its head's allocation data, copied from
// the packet when it becomes head, so a round scans router memory only.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "hw/common/packet.h"
#include "hw/common/vc_class.h"
#include "sim/time.h"

namespace kairo::router {

// What allocation needs of the packet at the head of an input VC.
struct Head {
  sim::Time ready_ps;
  std::int16_t out_port;
  std::uint16_t need;  // credits it needs in a downstream VC (OutputUnit::credit_need)
  hw::VcClass out_class;
  std::int8_t chosen_vc;  // downstream VC picked this round (-1: none)
  bool adaptive;          // out_port/out_class are chosen each round among the routing's ways
  std::int8_t held_vc;    // VC allocation stage: the output VC granted to it (-1: none yet)
};

// Everything about one input VC in one place. An age-based allocator reads
// the head's age from the packet.
struct InputVc {
  hw::PacketRing fifo;
  Head head;
};
static_assert(sizeof(InputVc) == 24);

// Wormhole: where the packet whose flits an input VC is passing goes (set
// when its head flit leaves, cleared when its tail flit does). A body flit
// that becomes its VC's head takes this output and VC.
struct Worm {
  std::int16_t port = -1;
  std::int8_t vc = -1, dim = -1;
  hw::VcClass cls = hw::VcClass::kAny;
};

class InputUnit {
 public:
  InputUnit() = default;
  InputUnit(int ports, int vcs, bool wormhole, bool staged) { init(ports, vcs, wormhole, staged); }
  InputUnit(const InputUnit&) = delete;
  InputUnit& operator=(const InputUnit&) = delete;
  // wormhole: keep each VC's worm; staged: keep each VC's restart time.
  void init(int ports, int vcs, bool wormhole, bool staged);

  int index(int port, int vc) const { return (port << vshift_) | vc; }
  int port_of(int idx) const { return idx >> vshift_; }
  int vc_of(int idx) const { return idx & ((1 << vshift_) - 1); }
  int vshift() const { return vshift_; }
  // One input port's VC bits, at the bottom of a word.
  std::uint64_t port_mask() const { return (std::uint64_t{1} << (1 << vshift_)) - 1; }
  std::size_t size() const { return vcs_.size(); }

  InputVc& operator[](int idx) { return vcs_[std::size_t(idx)]; }
  const InputVc& operator[](int idx) const { return vcs_[std::size_t(idx)]; }
  hw::PacketRing& fifo(int port, int vc) { return vcs_[std::size_t(index(port, vc))].fifo; }
  const hw::PacketRing& fifo(int port, int vc) const { return vcs_[std::size_t(index(port, vc))].fifo; }

  // Buffer a packet in VC idx; true if it is the VC's head now.
  bool push(int idx, hw::Packet* p) {
    hw::PacketRing& q = vcs_[std::size_t(idx)].fifo;
    const bool was_empty = q.empty();
    q.push(p);
    set_occupied(idx, true);
    return was_empty;
  }
  // Take the head packet of VC idx out (its next packet, if any, is head).
  hw::Packet* pop(int idx) {
    hw::PacketRing& q = vcs_[std::size_t(idx)].fifo;
    hw::Packet* p = q.pop();
    if (q.empty()) set_occupied(idx, false);
    return p;
  }
  // Copy what allocation needs of p, the new head of VC idx. A body flit
  // keeps the output VC its head flit took.
  void set_head(int idx, const hw::Packet& p, std::uint16_t need) {
    vcs_[std::size_t(idx)].head =
        Head{p.ready_ps,
             p.out_port,
             need,
             p.out_class,
             -1,
             p.adaptive,
             std::int8_t(p.worm & hw::kWormBody ? worms_[std::size_t(idx)].vc : -1)};
  }

  // The non-empty VCs, 64 to a word (bit idx & 63 of word idx >> 6).
  int words() const { return occupied_words_; }
  std::uint64_t word(int w) const { return occupied_[w]; }

  // Wormhole: the route of the packet VC idx is passing (follow_worm gives
  // it to a body flit that becomes head).
  Worm& worm(int idx) { return worms_[std::size_t(idx)]; }
  void follow_worm(int idx, hw::Packet& p) const {
    const Worm& w = worms_[std::size_t(idx)];
    p.out_port = w.port;
    p.out_dim = w.dim;
    p.out_class = w.cls;
  }
  // VC allocation stage: when the last packet to leave VC idx had its last
  // flit switch-allocated; a head behind it is routed from then.
  sim::Time& front_free(int idx) { return front_free_[std::size_t(idx)]; }
  sim::Time front_free(int idx) const { return front_free_[std::size_t(idx)]; }

 private:
  void set_occupied(int idx, bool on) {
    if (on)
      occupied_[idx >> 6] |= 1ULL << (idx & 63);
    else
      occupied_[idx >> 6] &= ~(1ULL << (idx & 63));
  }

  std::vector<InputVc> vcs_;  // [port][vc]
  int vshift_ = 0;
  // The occupancy bits are kept inside the router object (no separate
  // allocation to miss): room for 256 input VCs, enough for every Tofu
  // router; a larger switch keeps its bits on the heap.
  static constexpr int kInlineWords = 4;
  int occupied_words_ = 0;
  std::uint64_t occupied_inline_[kInlineWords] = {};
  std::unique_ptr<std::uint64_t[]> occupied_heap_;
  std::uint64_t* occupied_ = occupied_inline_;
  std::vector<Worm> worms_;            // wormhole: per input VC
  std::vector<sim::Time> front_free_;  // VC allocation stage: per input VC
};

inline void InputUnit::init(int ports, int vcs, bool wormhole, bool staged) {
  while ((1 << vshift_) < vcs) ++vshift_;
  vcs_.resize(std::size_t(ports) << vshift_);
  occupied_words_ = int((vcs_.size() + 63) / 64);
  if (occupied_words_ > kInlineWords) {
    occupied_heap_ = std::make_unique<std::uint64_t[]>(std::size_t(occupied_words_));  // zeroed
    occupied_ = occupied_heap_.get();
  }
  if (wormhole) worms_.resize(vcs_.size());
  if (staged) front_free_.assign(vcs_.size(), 0);
}

}  // namespace kairo::router
