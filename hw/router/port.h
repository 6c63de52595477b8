// A router port's state (garnet's OutputUnit's, with its input's link state
// beside it): the output link, the downstream VCs' credits, the credits on
// their way back, the port's counters, and the input side's busy time and
// credit return upstream. Hot per-port state is kept compact: an event
// touches a few cache lines of one port. Per-VC zero-credit ("VC full") time
// is cold and lives apart (VcTime, one per output VC, made when a VC first
// runs out of credits). What the router does
// with them: hw/router/output_unit.h.
#pragma once
#include <cstdint>
#include <memory>

#include "hw/common/link.h"
#include "hw/router/port_counters.h"
#include "sim/event_queue.h"
#include "sim/time.h"

namespace kairo::router {

// Per output VC: how long the downstream VC has had no credits.
struct VcTime {
  sim::Time zero_since = sim::kNever;  // downstream VC without credits since
  sim::Time zero_ps = 0;
};

struct Port {
  hw::LinkOut out;
  sim::Time in_busy_until = 0;  // input side forwarding a packet (crossbar speedup 1)
  sim::Time run_start = 0;      // start of the output link's current stretch of back-to-back packets
  hw::CreditReturn upstream;
  hw::CreditPipe returning;  // credits on their way back from downstream
  LinkCounters counters;     // per-VC zero-credit time: VcTime
  // Events the neighbour's calls on this port schedule (accept, return_credits)
  // are in the port's own context (sim/event_queue.h: partitioned runs).
  sim::EventContext context;
  // The downstream VCs' credits follow the port in its block (PortBlock).
  std::int32_t* credits() { return reinterpret_cast<std::int32_t*>(this + 1); }
  const std::int32_t* credits() const { return reinterpret_cast<const std::int32_t*>(this + 1); }

  // Whether a head allocated at t finds the output link (or the input)
  // free by the time it has crossed the switch: `window` is the traversal
  // plus one cycle.
  bool output_free(sim::Time t, sim::Time window) const { return out.free_at < t + window; }
  bool input_free(sim::Time t, sim::Time window) const { return in_busy_until < t + window; }

  // Credits whose return time has come (the first of `returning` is due by
  // `now`: OutputUnit::apply_credits checks) become usable; a VC that had none
  // stops accruing zero-credit time at the credit's arrival. zero: this
  // port's VcTime per VC, null while no VC of the router has run out.
  void apply_due_credits(VcTime* zero, sim::Time now);
  // Downstream VC for a packet: among the VCs [first, last) with `need`
  // credits and not held, the one with the most free credits (lowest index
  // on a tie); -1 if none.
  int choose_vc(int need, int first, int last, std::uint32_t held) const {
    int best = -1, best_credits = need - 1;
    const std::int32_t* c = credits();
    for (int v = first; v < last; ++v) {
      if (c[v] > best_credits && !(held >> v & 1)) {
        best = v;
        best_credits = c[v];
      }
    }
    return best;
  }
  // A packet takes `charge` credits of downstream VC vc; true when that
  // leaves it none (its zero-credit time starts: OutputUnit::send).
  bool take_credits(int vc, int charge) { return (credits()[vc] -= charge) == 0; }
};

// The ports in one block, each followed by one credit count per VC the
// router has (not room for kMaxVcs): on the K computer's 4-VC routers that
// is 16 bytes a port instead of 64, and a port's credits share its lines.
class PortBlock {
 public:
  PortBlock() = default;
  PortBlock(const PortBlock&) = delete;
  PortBlock& operator=(const PortBlock&) = delete;
  ~PortBlock() {
    for (int i = 0; i < n_; ++i) (*this)[i].~Port();
  }
  void init(int ports, int vcs) {
    const std::size_t credit_bytes =
        (std::size_t(vcs) * sizeof(std::int32_t) + alignof(Port) - 1) & ~(alignof(Port) - 1);
    stride_ = std::uint32_t(sizeof(Port) + credit_bytes);
    n_ = ports;
    base_ = std::make_unique<unsigned char[]>(std::size_t(ports) * stride_);  // zeroed: no credits yet
    for (int i = 0; i < ports; ++i) ::new (base_.get() + std::size_t(i) * stride_) Port();
  }
  Port& operator[](int i) { return *reinterpret_cast<Port*>(base_.get() + std::size_t(i) * stride_); }
  const Port& operator[](int i) const {
    return *reinterpret_cast<const Port*>(base_.get() + std::size_t(i) * stride_);
  }
  int size() const { return n_; }

 private:
  std::unique_ptr<unsigned char[]> base_;
  std::uint32_t stride_ = 0;
  int n_ = 0;
};

}  // namespace kairo::router
