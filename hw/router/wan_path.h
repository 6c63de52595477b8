// One direction of a wide-area path whose inter-cluster streams run a
// TCP-like loss-based window (links.wan.flow_control: loss), between the
// sending gateway's wide-area port and the receiving gateway.
//
// What it models, in the order a packet meets it:
//   1. the streams' senders: one stream per (source host, destination host)
//      pair; a stream sends a segment (one packet) while its congestion
//      window (router::TcpWindow) has room, paced at the hosts' access rate
//      (a host cannot send faster than its own port);
//   2. the bottleneck: a drop-tail FIFO of `queue_bytes` (the network
//      emulator's / switch's buffer) in front of the wide-area serializer; a
//      segment that does not fit is lost;
//   3. the wide-area link: serialization at its rate, then its propagation
//      delay, then the receiving gateway (credit flow control as on any link);
//   4. the ACK: it comes back over the link's propagation delay; three ACKs of
//      later segments reveal a loss (fast retransmit), or the retransmission
//      timer (`rto_ps`, counted from the lost transmission) does.
// A lost segment is sent again; nothing is lost from the run's results.
//
// Timing assumptions: the TCP endpoints sit at the gateways' ends of the
// path (the in-cluster part of the round trip, microseconds, is left out of
// the 2 x latency round trip); the sending gateway hands every packet to its
// stream at once (the stream's queue plays the host's socket buffer).
// Not modeled: ACK traffic on the reverse link, the receiver's reordering
// (a segment after a hole is handed on when it arrives; a put completes on
// its last byte either way), several wide-area VCs (one FIFO).
#pragma once
#include <cstdint>
#include <deque>
#include <unordered_map>

#include "hw/common/link.h"
#include "hw/common/network_activity.h"
#include "hw/common/packet.h"
#include "hw/router/tcp_window.h"
#include "sim/event_queue.h"
#include "sim/ring.h"

namespace kairo::router {

// The path's timing and the loss model's values; the platform gives them
// all (links.wan.*, whose defaults are declared in platforms/link_params.h).
struct WanPathParams {
  sim::Time flit_ps = 0;             // one flit's serialization on the wide-area link
  sim::Time latency_ps = 0;          // propagation delay, each way
  sim::Time access_flit_ps = 0;      // one flit at the senders' access rate (pacing)
  std::uint64_t queue_bytes = 0;     // the bottleneck's drop-tail buffer
  sim::Time rto_ps = 0;              // retransmission timeout, from the lost transmission
  std::uint32_t initial_window = 0;  // segments (at least 1 is used)
  sim::Time credit_delay_ps = 0;     // credits back to the sending gateway
};

class WanPath final : public sim::EventTarget, public hw::PacketSink, public hw::CreditSink {
 public:
  struct Stats {
    std::uint64_t sent = 0;  // transmissions, retransmissions included
    std::uint64_t delivered = 0;
    std::uint64_t drops = 0;
    std::uint64_t fast_retransmits = 0;
    std::uint64_t timeouts = 0;
    std::uint64_t peak_queue_bytes = 0;
  };

  WanPath(sim::EventQueue& queue, hw::NetworkActivity& activity, const WanPathParams& p);

  // `up`: the sending gateway's credits; `down`: the receiving gateway's
  // input port, with `down_credits` flits of buffer.
  void connect(hw::CreditSink* up, int up_port, hw::PacketSink* down, int down_port, int down_credits);

  void accept(int port, int vc, hw::Packet* p) override;
  void return_credits(int port, int vc, int flits, sim::Time at) override;
  void on_event(std::uint32_t kind, std::uint32_t arg, void* ptr) override;

  const Stats& stats() const { return stats_; }
  std::uint64_t queued_bytes() const { return queued_; }
  // The window of the stream from `src` to `dst` (nullptr: it never sent).
  const TcpWindow* window(hw::NodeId src, hw::NodeId dst) const;

 private:
  enum Kind : std::uint32_t { kArrive = hw::kFirstOwnEvent, kPace, kAck, kRto, kLinkFree, kCredit };
  struct Flow {
    explicit Flow(std::uint32_t iw) : win(iw) {}
    TcpWindow win;
    hw::PacketFifo waiting, retx, lost;  // not yet sent; to send again; lost, not yet detected
    std::uint32_t in_flight = 0;         // sent, not ACKed, not known lost
    std::uint32_t lost_count = 0;
    std::uint32_t tx_seq = 0;  // transmissions so far (the last one's number)
    std::uint32_t first_lost_seq = 0;
    std::uint32_t dupacks = 0;
    std::uint32_t lost_gen = 0;  // retransmission timers of older losses are stale
    sim::Time next_send = 0;     // pacing at the access rate
    bool pace_pending = false;
  };
  struct Queued {  // one segment in the bottleneck FIFO
    hw::Packet* p;
    Flow* f;
    std::uint32_t seq;
  };

  Flow& flow_of(const hw::Packet& p);
  void pump(Flow& f);
  void enqueue(Flow& f, hw::Packet* p, std::uint32_t seq);
  void serve();
  void ack(Flow& f, std::uint32_t seq);
  void recover(Flow& f, bool timeout);

  sim::EventQueue& q_;
  hw::NetworkActivity& act_;
  WanPathParams p_;
  sim::EventContext context_;
  hw::CreditSink* up_ = nullptr;
  int up_port_ = 0;
  hw::PacketSink* down_ = nullptr;
  int down_port_ = 0;
  std::int64_t credits_ = 0;
  std::deque<Flow> flows_;  // stable addresses: events point at them
  std::unordered_map<std::uint64_t, Flow*> index_;
  sim::Ring<Queued> fifo_;    // the bottleneck FIFO: grows only while warming up
  std::uint64_t queued_ = 0;  // bytes in the FIFO, the segment on the wire included
  std::uint32_t on_wire_bytes_ = 0;
  bool busy_ = false;
  sim::Time free_at_ = 0;
  Stats stats_;
};

}  // namespace kairo::router
