// The crossbar and the output link (garnet's CrossbarSwitch and its link):
// when a packet granted at t crosses the switch and leaves, and how long
// its input and the output link stay busy. Timing only: the router takes
// the credits, counts and traces around it.
//
// The head leaves at max(t + traversal, link free, input free); the link
// serializes the packet at its flit rate; the tail leaves flits * flit time
// after the head, never before it arrived here. The next packet for an
// output is allocated during the current tail, so packets follow back to
// back and the link's bandwidth is exact even when a flit time is not a
// whole number of cycles.
#pragma once
#include <algorithm>

#include "hw/common/packet.h"
#include "hw/router/port.h"
#include "sim/time.h"

namespace kairo::router {

struct Crossing {
  sim::Time start;        // the head starts onto the output link
  sim::Time tail_leaves;  // the tail has left (the link is free again)
  sim::Time input_done;   // the input has passed the whole packet on
};

// Moves p from input `in` to output `out`, granted at t: marks the link and
// the input busy and returns the times.
inline Crossing cross(Port& in, Port& out, const hw::Packet& p, sim::Time t, sim::Time traversal_ps,
                      bool store_and_forward) {
  Crossing x;
  x.start = std::max({t + traversal_ps, out.out.free_at, in.in_busy_until});
  x.tail_leaves = std::max(x.start + sim::Time(p.flits) * out.out.flit_ps, p.tail_ps + out.out.flit_ps);
  if (x.start > out.out.free_at) out.run_start = x.start;  // a gap: a new stretch of busy time
  out.out.free_at = x.tail_leaves;
  // Cut-through: the input streams the packet out at the output's pace.
  // Store-and-forward: the whole packet is in, and the crossbar moves it to
  // the output at the faster of the two links' rates (the output link then
  // drains it), so a slow output does not hold a fast input.
  x.input_done = store_and_forward ? x.start + sim::Time(p.flits) * std::min(in.out.flit_ps, out.out.flit_ps)
                                   : x.tail_leaves;
  in.in_busy_until = x.input_done;
  return x;
}

}  // namespace kairo::router
