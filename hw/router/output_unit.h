// The router's output units (garnet's OutputUnit): every port's state
// (hw/router/port.h) and what a packet does to an output. Credits returned
// from downstream come due (apply_credits); a head is offered the downstream
// VC it may take (choose_vc, head_vc: the one with the most credits, unless
// a packet holds it); a leaving packet takes its credits and its times on
// the next link (send). Under bubble flow control a packet takes a whole
// slot of a VC between routers and needs two to enter a ring
// (credit_charge, credit_need). Everything the allocation rounds call per
// head is inline here.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "hw/common/packet.h"
#include "hw/router/crossbar.h"
#include "hw/router/input_unit.h"
#include "hw/router/port.h"
#include "hw/router/router_config.h"
#include "sim/time.h"

namespace kairo::router {

class OutputUnit {
 public:
  static constexpr int kMaxPorts = 12 + 64;  // 6 dims x 2 links + network interfaces
  static constexpr int kPortWords = (kMaxPorts + 63) / 64;

  explicit OutputUnit(const RouterConfig& cfg);
  OutputUnit(const OutputUnit&) = delete;
  OutputUnit& operator=(const OutputUnit&) = delete;
  // Downstream VC `vc` of every output starts with `dst_credits_per_vc`.
  void connect(int port, hw::PacketSink* dst, int dst_port, sim::Time latency_ps, sim::Time flit_ps,
               int dst_credits_per_vc);

  Port& operator[](int port) { return ports_[port]; }
  const Port& operator[](int port) const { return ports_[port]; }
  int size() const { return ports_.size(); }
  // Per output VC, how long its downstream VC has had no credits: made when
  // one first runs out (most routers of a large machine never see it), so
  // null until then, and every VC's time is then zero.
  const VcTime* vc_times(int port) const {
    return vc_time_ ? &vc_time_[std::size_t(port) * cfg_.vcs] : nullptr;
  }
  VcTime* vc_times(int port) { return vc_time_ ? &vc_time_[std::size_t(port) * cfg_.vcs] : nullptr; }
  VcTime& vc_time(int port, int vc) {  // made if need be
    if (!vc_time_) make_vc_times();
    return vc_time_[std::size_t(port) * cfg_.vcs + vc];
  }

  // Credits of `port` due by `now` become usable.
  void apply_credits(Port& out, int port, sim::Time now) {
    if (!out.returning.empty() && out.returning.front().at <= now) out.apply_due_credits(vc_times(port), now);
  }
  // Flits the downstream buffers of `port` hold or will hold, all VCs
  // together (BookSim's GetUsedCredit): what UGAL compares.
  int used_credits(int port, sim::Time now);

  // Credits a packet takes from a downstream VC on `port`: its flits, or
  // under bubble flow control a packet slot on a link between routers.
  int credit_charge(int port, const hw::Packet& p) const {
    return __builtin_expect(bubble_flits_ > 0, 0) && port < link_ports_ ? bubble_flits_ : p.flits;
  }
  // Credits it needs there to go: its charge, and under bubble flow control
  // a second slot when it enters a ring (so every ring keeps a free slot).
  std::uint16_t credit_need(const hw::Packet& p) const {
    if (__builtin_expect(bubble_flits_ == 0, 1)) return p.flits;
    return credit_need(p.out_port, p, p.out_class);
  }
  // The same for a way the packet may take (adaptive routing's options).
  std::uint16_t credit_need(int port, const hw::Packet& p, hw::VcClass cls) const {
    const int c = credit_charge(port, p);
    return std::uint16_t(hw::enters_ring(cls) ? 2 * c : c);
  }

  // Output VCs of `port` held by a packet (VC allocation stage, wormhole):
  // not free for another.
  std::uint32_t held(int port) const { return held_.empty() ? 0 : held_[std::size_t(port)]; }
  void hold(int port, int vc) { held_[std::size_t(port)] |= 1u << vc; }
  void release(int port, int vc) { held_[std::size_t(port)] &= ~(1u << vc); }

  // Downstream VC for a packet: among its class's VCs on `out` with credits
  // for the whole packet and not in `held`, the one with the most free
  // credits (lowest index on a tie); -1 if none.
  int choose_vc(const Port& out, int need, hw::VcClass cls, std::uint32_t held = 0) const {
    return out.choose_vc(need, cfg_.class_first(cls), cfg_.class_last(cls), held);
  }
  // The VC a head may take on `out`: its own (a body flit's, or one granted
  // by VC allocation) if it has credits for it, else the best free one.
  int head_vc(const Head& h, const Port& out) const {
    if (h.held_vc >= 0) return out.credits()[h.held_vc] >= h.need ? h.held_vc : -1;
    return choose_vc(out, h.need, h.out_class, held(h.out_port));
  }
  // Whether a head allocated at t finds the output link (or the input)
  // free by the time it has crossed the switch.
  bool output_free(const Port& out, sim::Time t) const { return out.output_free(t, window_); }
  bool input_free(const Port& in, sim::Time t) const { return in.input_free(t, window_); }

  // A bit per output with a head waiting for credits not yet on their way:
  // the next credit returned there schedules a round.
  void clear_credit_waiters() {
    for (auto& w : credit_waiters_) w = 0;
  }
  void wait_for_credits(int port) { credit_waiters_[port >> 6] |= 1ULL << (port & 63); }
  bool waits_for_credits(int port) const { return credit_waiters_[port >> 6] >> (port & 63) & 1; }
  // When a head that needs a VC of class cls with `flits` credits on `port`
  // could get one (the output aside): next cycle if a free VC has credits (it
  // lost allocation), at the next credit on its way if not, or when a held
  // VC's packet has left (release_at[port * vcs + vc], VC allocation stage;
  // null without one); never if every VC is held by a packet still here (its
  // departure, a round of this router, looks again) or if no credit is on
  // its way (the output is marked a credit waiter).
  sim::Time vc_wake(int port, int flits, hw::VcClass cls, sim::Time t, const sim::Time* release_at);

  // Packet p, granted downstream VC out_vc at t, crosses from input port
  // in_port to its output: the crossbar's times (crossbar.h), the `charge`
  // credits it takes downstream, and its header's times on the next link.
  [[gnu::always_inline]] Crossing send(int in_port, hw::Packet& p, int out_vc, int charge, sim::Time t) {
    Port& out = ports_[p.out_port];
    const Crossing x = cross(ports_[in_port], out, p, t, cfg_.traversal_ps, cfg_.store_and_forward);
    if (out.take_credits(out_vc, charge)) [[unlikely]]
      vc_time(p.out_port, out_vc).zero_since = t;
    leave(p, out, x);
    return x;
  }

 private:
  // A hop between routers moves the packet's link of arrival and class on; a
  // hop into a network interface leaves them (the endpoint reads neither).
  void leave(hw::Packet& p, const Port& out, const Crossing& x) const {
    if (p.out_dim >= 0) {
      p.hops += !(p.worm & hw::kWormBody);
      p.in_dim = p.out_dim;
      p.vc_class = p.out_class;
    }
    p.tail_ps = x.tail_leaves + out.out.latency_ps;
    p.arrive_ps = cfg_.clock.ceil(x.start + out.out.flit_ps + out.out.latency_ps);
  }

  [[gnu::noinline, gnu::cold]] void make_vc_times();

  const RouterConfig& cfg_;
  PortBlock ports_;
  std::unique_ptr<VcTime[]> vc_time_;  // [output port][vc], made when first needed
  int bubble_flits_ = 0;               // cfg_.bubble_flits, kept beside the hot fields
  int link_ports_ = 0;
  sim::Time window_ = 0;  // switch traversal plus one cycle
  std::array<std::uint64_t, kPortWords> credit_waiters_{};
  std::vector<std::uint32_t> held_;     // per port; empty unless a packet may hold a VC
  std::vector<std::int32_t> capacity_;  // UGAL: credits per VC of each output's receiver
};

}  // namespace kairo::router
