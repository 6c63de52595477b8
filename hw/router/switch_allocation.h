// The switch allocation stage (garnet's SwitchAllocator; router.vc_allocator:
// none, the default): one round per decision instant in which every eligible
// head whose input, output link and a downstream VC are available requests
// its output, the switch allocator (router.allocator, hw/router/allocator.h)
// picks a matching, and the winners cross. The downstream VC is chosen in
// the same round (OutputUnit::head_vc); an adaptive head first picks its way
// (WaySelection). It reads the input units and output units and changes only
// the heads' chosen VCs and the outputs' credit waiters; the router moves the
// winners (the `depart` a round is given). With a VC allocation stage the
// rounds are VcAllocation's (vc_allocation.h), which uses this stage's
// allocator for its switch rounds.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "hw/router/allocator.h"
#include "hw/router/input_unit.h"
#include "hw/router/output_unit.h"
#include "hw/router/router_config.h"
#include "hw/router/router_trace.h"
#include "hw/router/way_selection.h"
#include "sim/time.h"

namespace kairo::router {

class SwitchAllocation {
 public:
  // Throws std::invalid_argument for an unknown router.allocator.
  SwitchAllocation(const RouterConfig& cfg, InputUnit& inputs, OutputUnit& outputs, WaySelection& ways,
                   const RouterTrace& trace);

  Allocator& allocator() { return *allocator_; }
  // One round at t: depart(input port, input VC, downstream VC) for each
  // winner, input by input (a winner's departure changes only its own
  // input). Returns the earliest time a head that did not request could be
  // allocated (kNever: none can until a credit comes back to an output
  // marked a credit waiter).
  template <class Depart>
  sim::Time round(sim::Time t, Depart&& depart);
  // After the round at t, when heads remain: `wake` lowered to the earliest
  // time a head that requested (a loser, or a winner's successor) could be.
  sim::Time requesters_wake(sim::Time t, sim::Time wake);
  // The earliest time any waiting head could be allocated, every head looked
  // at in the state after the round at t (kNever as for round).
  sim::Time next_wake(sim::Time t);

 private:
  struct Request {
    int input, vc, output;
    std::uint64_t age;
  };
  // This round's requests, into requests_; how many. The heads that do not
  // request lower `wake` to when they could.
  int request(sim::Time t, sim::Time& wake);
  // When the head of input VC idx could be allocated, from the state at t.
  sim::Time head_wake(int idx, sim::Time t);
  // The first cycle at which a packet allocated would find a unit busy until
  // `busy_until` free once through the switch.
  sim::Time free_from(sim::Time busy_until) const { return cfg_.clock.floor(busy_until - cfg_.traversal_ps); }
  // A head short of credits on output `port`: the next credit on its way
  // there, or kNever with the output marked a credit waiter.
  sim::Time credit_wake(Port& out, int port) {
    if (!out.returning.empty()) return out.returning.front().at;
    outputs_.wait_for_credits(port);
    return sim::kNever;
  }
  int chosen_vc(int in, int vc) const { return inputs_[inputs_.index(in, vc)].head.chosen_vc; }

  const RouterConfig& cfg_;
  InputUnit& inputs_;
  OutputUnit& outputs_;
  WaySelection& ways_;
  const RouterTrace& trace_;
  std::unique_ptr<Allocator> allocator_;
  // This round's requests: one array for every router (rounds never overlap:
  // the simulation runs on one thread), sized for the largest.
  static inline std::vector<Request> requests_;
  static inline int requested_ = 0;  // the last round's requests
};

// A head that did not request keeps the wake the scan gave it: a departure
// only makes an input or output busier or takes credits, so the time stays a
// lower bound of when it can go, and a round that finds it still waiting
// looks again. The heads that requested are looked at after the departures
// (requesters_wake: a loser may find its input or output taken; a winner's VC
// has a new head). The exception, a wormhole tail letting its downstream VC
// go, makes the router look at every head again (next_wake).
template <class Depart>
inline sim::Time SwitchAllocation::round(sim::Time t, Depart&& depart) {
  sim::Time wake = sim::kNever;
  const int n = requested_ = request(t, wake);
  if (n == 1) {
    const Request& r = requests_[0];
    allocator_->allocate_single(r.input, r.vc, r.output, r.age);
    depart(r.input, r.vc, chosen_vc(r.input, r.vc));
  } else if (n > 1) {
    Allocator& a = *allocator_;
    a.clear();
    for (int k = 0; k < n; ++k)
      a.add_request(requests_[k].input, requests_[k].vc, requests_[k].output, requests_[k].age);
    a.allocate();
    for (int in = 0, np = outputs_.size(); in < np; ++in) {
      const int vc = a.grant_vc(in);
      if (vc >= 0) depart(in, vc, chosen_vc(in, vc));
    }
  }
  return wake;
}

inline sim::Time SwitchAllocation::requesters_wake(sim::Time t, sim::Time wake) {
  for (int k = 0; k < requested_; ++k) {
    const int idx = inputs_.index(requests_[k].input, requests_[k].vc);
    if (!inputs_[idx].fifo.empty()) {
      const sim::Time when = head_wake(idx, t);
      if (when < wake) wake = when;
    }
  }
  return wake;
}

}  // namespace kairo::router
