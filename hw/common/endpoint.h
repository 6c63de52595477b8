// The network side of one network interface: one injection channel into a
// router port and one ejection channel out of another. This is the narrow
// interface through which every NIC reaches the network (can_send, send,
// on_packet), so one NIC works on any fabric.
//
// Injection: the endpoint holds the credits of the router's input VCs and
// sends a packet only when one VC's credits cover it (virtual cut-through);
// the channel serializes packets at its flit rate.
// Ejection: the endpoint owns `vcs` receive buffers of `buffer_flits` each;
// a packet is handed to the client when its head has arrived. Its buffer
// slots free (credits go back to the router after the credit delay) once its
// tail is in. A client that consumes later (set_client(c, true)) gets the
// packet when its tail is in and frees its slots by calling consumed(p):
// until then the packet occupies the buffer and the network behind it is
// back-pressured.
#pragma once
#include <cstdint>
#include <memory>

#include "hw/common/link.h"
#include "hw/common/network_activity.h"
#include "hw/common/packet.h"
#include "sim/event_queue.h"

namespace kairo::hw {

class EndpointClient {
 public:
  virtual ~EndpointClient() = default;
  // A packet's head has arrived; its tail is fully in at p->tail_ps (>= now),
  // and a client acts on the packet from then. A client that consumes later
  // is called once the tail is in (now == clock.ceil(p->tail_ps)). The
  // client owns the packet from here on.
  virtual void on_packet(int ni, Packet* p) = 0;
  // The endpoint may be able to send again (a credit returned or the
  // channel freed) after a can_send() that returned false.
  virtual void on_send_ready(int ni) = 0;
};

class Endpoint : public sim::EventTarget, public PacketSink, public CreditSink {
 public:
  struct Setup {
    sim::EventQueue* queue = nullptr;
    NetworkActivity* activity = nullptr;
    sim::Clock clock;
    int vcs = 1;
    int buffer_flits = 1;
    sim::Time credit_delay_ps = 0;
    // Wormhole flow control: packets longer than one flit go as flits, the
    // body flits taken from (and returned to) this pool.
    bool wormhole = false;
    PacketPool* flit_pool = nullptr;
  };
  Endpoint() : sim::EventTarget(sim::EventBlock::kEndpoint) {}
  // `s` is kept by reference (network interfaces of one network share one):
  // it must outlive the endpoint.
  void init(const Setup& s, EndpointClient* client, int ni);
  void set_client(EndpointClient* client, bool consume_later = false) {
    client_ = client;
    consume_later_ = consume_later;
  }
  // A consume-later client has taken `p` out of the ejection buffer (now, at
  // or after its tail arrived): its credits go back.
  void consumed(Packet* p);
  // Injection channel to a router input port, with that port's VC credits.
  void connect_to_router(PacketSink* router, int port, sim::Time latency_ps, sim::Time flit_ps,
                         int credits_per_vc);
  // Where credits for ejected packets go (the router's ejection output port).
  void connect_from_router(CreditSink* router, int port, sim::Time credit_latency_ps);

  // True when a packet of `flits` could start now; otherwise the client gets
  // on_send_ready() once something changed.
  bool can_send(int flits);
  // Inject a packet (requires can_send). Returns when its tail leaves.
  sim::Time send(Packet* p);

  void on_event(std::uint32_t kind, std::uint32_t arg, void* ptr) override;
  void return_credits(int port, int vc, int flits, sim::Time at) override;
  // An ejected packet; handed to the client when its head has arrived.
  void accept(int port, int vc, Packet* p) override;

  std::uint64_t packets_sent() const { return sent_; }
  std::uint64_t packets_received() const { return received_; }

 private:
  enum OwnEvent : std::uint32_t { kRetry = kFirstOwnEvent, kTailIn };
  void apply_returned_credits();  // the credits whose return time has come
  // Inlined into its callers (all in endpoint.cpp), as it was when it was
  // one loop.
  [[gnu::always_inline]] inline int choose_vc(int flits);
  // choose_vc among VCs kInlineVcs and up, given the best of those below.
  [[gnu::noinline]] int choose_beyond_inline(int best, int best_credits) const;
  void retry_at(sim::Time t);
  // Wormhole: send the next flit of the packet being injected when the
  // channel and a credit of its VC allow (true when none is left); take a
  // flit that landed (true when it completed a packet, now in *whole).
  bool continue_worm();
  bool receive_flit(int vc, Packet* p, Packet** whole);
  sim::Time put_on_channel(Packet* p, int vc);

  // Credits of the router's input VC v: the first kInlineVcs in the
  // endpoint, any beyond on the heap (a Tofu node has four endpoints of four
  // VCs each: room for kMaxVcs in every one was 48 bytes apiece).
  static constexpr int kInlineVcs = 4;
  std::int32_t& credit(int vc) { return vc < kInlineVcs ? credits_[vc] : more_credits_[vc - kInlineVcs]; }

  const Setup* s_ = nullptr;
  EndpointClient* client_ = nullptr;
  int ni_ = 0;
  bool waiting_ = false;        // client was refused and wants on_send_ready
  bool credit_waiter_ = false;  // refused for credits with none on the way
  bool consume_later_ = false;  // the client returns ejection slots with consumed()
  LinkOut out_;
  CreditReturn back_;
  std::int32_t credits_[kInlineVcs] = {};
  std::unique_ptr<std::int32_t[]> more_credits_;  // VCs kInlineVcs and up, when the router has them
  CreditPipe returning_;
  sim::Time last_credit_ps_ = 0;      // consumed(): the latest credit return so far
  sim::Time retry_at_ = sim::kNever;  // a kRetry event is scheduled for then
  std::uint64_t sent_ = 0, received_ = 0;
  // Wormhole only (made by init; other endpoints keep no room for it).
  struct Worm {
    // The packet whose flits are being injected, as its head flit left: a
    // copy from the flit pool (the head flit itself travels on, and in a
    // partitioned run it is recycled once it crosses to another process).
    Packet* sending = nullptr;
    int vc = 0;
    std::uint16_t sent = 0;  // its flits sent so far
    // Per ejection VC, the head flit of the packet arriving.
    Packet* arriving[kMaxVcs] = {};
  };
  std::unique_ptr<Worm> worm_;
};

}  // namespace kairo::hw
