// The packet as the network sees it: a header (source, destination, size)
// plus the bookkeeping a packet-level model needs to be as exact as a
// flit-level one (when the tail arrives, when the head may be switched).
// Packets come from a pool and move by pointer; nothing on the hot path
// allocates.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "hw/common/coord.h"
#include "hw/common/vc_class.h"
#include "sim/time.h"

namespace kairo::hw {

struct Packet {
  std::uint64_t id = 0;
  // What a waveform shows for this packet (a router's `pkt`, docs/waveforms.md),
  // set by its sender: unique in the run and never 0 (0 is an idle link). The
  // NIC packs the operation log's packet id into it (observe/packet_label.h);
  // the traffic generator uses id + 1. The network only copies it.
  std::uint64_t label = 0;
  sim::Time created_ps = 0;   // creation at the source (latency starts here)
  sim::Time injected_ps = 0;  // head left the source NI
  sim::Time arrive_ps = 0;    // head fully received at the current holder
  sim::Time ready_ps = 0;     // route computed and allocators passed: may be switched
  sim::Time tail_ps = 0;      // tail fully received at the current holder
  NodeId src = 0, dst = 0;    // sources address nodes only
  Coord dst_coord{};          // mesh/torus: dst's coordinates, filled by the router it enters the network at
  std::uint32_t bytes = 0;    // bytes on the wire (header + payload)
  std::uint16_t flits = 1;
  std::uint16_t src_ni = 0, dst_ni = 0;
  std::uint16_t hops = 0;   // router-to-router links traversed
  std::int8_t in_dim = -1;  // dimension of the link it arrived on (-1: injected)
  VcClass vc_class = VcClass::kAny;
  std::int16_t out_port = -1;  // route computed at the current router
  VcClass out_class = VcClass::kAny;
  std::int8_t out_dim = -1;
  bool measured = false;      // created inside the measurement window
  std::int8_t eject_vc = -1;  // the ejection VC buffer it occupies (endpoints that consume later)
  bool adaptive = false;      // the current router may choose among several outputs (Routing::options)
  // Wormhole flow control (router.flow_control: wormhole): a packet crosses
  // the network as flits, each a Packet of one flit: the head flit (the
  // packet's own object, which the receiver gets back whole) routes, the
  // body flits follow it; worm_flits is the packet's length in flits.
  std::uint8_t worm = 0;  // 0: a whole packet; else kWormHead / kWormBody, | kWormTail on the last flit
  std::uint16_t worm_flits = 0;
  // Dragonfly, Valiant and UGAL routing: the intermediate group the packet
  // goes through (-1: none); set where it enters the network.
  std::int32_t via = -1;
  Packet* next = nullptr;  // intrusive FIFO link (VC buffer, source queue, free list)
  void* user = nullptr;    // owner's payload descriptor (NIC), untouched by the network
};

inline constexpr std::uint8_t kWormHead = 1, kWormBody = 2, kWormTail = 4;

// Intrusive FIFO of packets: a VC buffer or a source queue costs two pointers.
struct PacketFifo {
  Packet* head = nullptr;
  Packet* tail = nullptr;
  bool empty() const { return head == nullptr; }
  void push(Packet* p) {
    p->next = nullptr;
    if (tail)
      tail->next = p;
    else
      head = p;
    tail = p;
  }
  Packet* pop() {
    Packet* p = head;
    head = p->next;
    if (!head) tail = nullptr;
    p->next = nullptr;
    return p;
  }
  // Packets queued: a walk, for diagnostics only.
  std::size_t size() const {
    std::size_t n = 0;
    for (const Packet* p = head; p; p = p->next) ++n;
    return n;
  }
};

// A FIFO of packets kept by its tail alone: the tail's `next` is the head (a
// circular list), so the queue is one pointer. Each input VC of a router
// holds one: 8 bytes instead of 16 on each of a Tofu router's 56.
struct PacketRing {
  Packet* tail = nullptr;
  bool empty() const { return tail == nullptr; }
  Packet& front() const { return *tail->next; }  // not empty
  void push(Packet* p) {
    if (tail) {
      p->next = tail->next;
      tail->next = p;
    } else {
      p->next = p;
    }
    tail = p;
  }
  Packet* pop() {  // not empty
    Packet* h = tail->next;
    if (h == tail)
      tail = nullptr;
    else
      tail->next = h->next;
    h->next = nullptr;
    return h;
  }
  // Packets queued: a walk, for diagnostics only (the deadlock report).
  std::size_t size() const {
    std::size_t n = 0;
    if (tail)
      for (const Packet* p = tail->next;; p = p->next) {
        ++n;
        if (p == tail) break;
      }
    return n;
  }
};

// Packets are recycled, never freed during a run.
class PacketPool {
 public:
  Packet* get() {
    if (!free_) refill();
    Packet* p = free_;
    free_ = p->next;
    *p = Packet{};
    ++live_;
    return p;
  }
  void put(Packet* p) {
    p->next = free_;
    free_ = p;
    --live_;
  }
  std::uint64_t live() const { return live_; }

 private:
  void refill() {
    constexpr std::size_t kChunk = 4096;
    chunks_.push_back(std::make_unique<Packet[]>(kChunk));
    Packet* c = chunks_.back().get();
    for (std::size_t i = 0; i < kChunk; ++i) {
      c[i].next = free_;
      free_ = &c[i];
    }
  }
  std::vector<std::unique_ptr<Packet[]>> chunks_;
  Packet* free_ = nullptr;
  std::uint64_t live_ = 0;
};

}  // namespace kairo::hw
