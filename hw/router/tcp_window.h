// The congestion window of one TCP-like stream, in segments (one segment =
// one network packet: the NIC cuts messages at its MTU, which plays the MSS).
// Reno/NewReno as RFC 5681 and RFC 6582 describe it, at the level a
// wide-area bottleneck needs:
//   - slow start: below ssthresh, each ACK adds a segment (the window
//     doubles per round trip);
//   - congestion avoidance: at or above ssthresh, cwnd ACKs add one segment
//     (one segment per round trip);
//   - a loss found by three duplicate ACKs (fast retransmit): ssthresh and
//     cwnd become half the window, once per window of data (NewReno's
//     recovery ends when the highest segment sent at the loss is ACKed);
//   - a retransmission timeout: ssthresh half the segments in flight, cwnd
//     the loss window of one segment, slow start again.
// Not modeled: delayed ACKs (each segment is ACKed), the receive window
// (assumed tuned to the path), slow start restart after idle, RTO backoff,
// window inflation during recovery (the halved window applies at once, as
// proportional rate reduction approaches it).
#pragma once
#include <algorithm>
#include <cstdint>

namespace kairo::router {

class TcpWindow {
 public:
  // `initial_window` segments (links.wan.initial_window), at least 1.
  explicit TcpWindow(std::uint32_t initial_window) : cwnd_(std::max<std::uint32_t>(initial_window, 1)) {}

  std::uint32_t cwnd() const { return cwnd_; }
  std::uint32_t ssthresh() const { return ssthresh_; }
  bool in_recovery() const { return in_recovery_; }
  bool slow_start() const { return cwnd_ < ssthresh_; }
  // May a new segment go while `in_flight` are unacknowledged?
  bool can_send(std::uint32_t in_flight) const { return in_flight < cwnd_; }

  // The ACK of the segment sent as number `seq` (numbers count every
  // transmission of the stream, retransmissions included).
  void on_ack(std::uint64_t seq) {
    if (in_recovery_) {
      if (seq < recover_) return;  // the window stays halved until the recovery point is ACKed
      in_recovery_ = false;
    }
    if (cwnd_ < ssthresh_) {
      ++cwnd_;
    } else if (++acked_ >= cwnd_) {
      acked_ = 0;
      ++cwnd_;
    }
  }
  // Three duplicate ACKs told of a loss; `highest_sent` is the number of the
  // last segment sent so far. Halves the window unless this window's loss
  // already did.
  void on_fast_retransmit(std::uint64_t highest_sent) {
    if (in_recovery_) return;
    ssthresh_ = std::max<std::uint32_t>(cwnd_ / 2, 2);
    cwnd_ = ssthresh_;
    acked_ = 0;
    in_recovery_ = true;
    recover_ = highest_sent;
  }
  // The retransmission timer expired with `in_flight` segments outstanding.
  void on_timeout(std::uint32_t in_flight) {
    ssthresh_ = std::max<std::uint32_t>(in_flight / 2, 2);
    cwnd_ = 1;
    acked_ = 0;
    in_recovery_ = false;
  }

 private:
  std::uint32_t cwnd_;
  std::uint32_t ssthresh_ = 0xffffffffu;  // no limit until the first loss
  std::uint32_t acked_ = 0;               // ACKs toward the next +1 in congestion avoidance
  bool in_recovery_ = false;
  std::uint64_t recover_ = 0;
};

}  // namespace kairo::router
