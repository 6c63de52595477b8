// Separable input-first switch allocator on port-level requests, with
// round-robin arbiters: BookSim 2's "separable_input_first" with
// arb_type = round_robin (Dally & Towles, sec. 19.3).
//
// Hardware: two ranks of round-robin arbiters on the request lines of
// port_match_allocator.h (input i requests output o when any of its VCs does).
//   Stage 1 (input rank): one outputs-wide arbiter per input port picks one
//   of the outputs that input requests; only that request goes forward.
//   Stage 2 (output rank): one inputs-wide arbiter per output port picks one
//   of the inputs whose stage-1 choice it is. The pair is matched.
// Both arbiters on a matched pair move their pointer one past the winner;
// an input whose stage-1 choice lost keeps its pointer. The matched input
// then sends a VC requesting the output (the VC pointer of
// port_match_allocator.h).
//
// How this differs from "round_robin" (round_robin_allocator.h, kairo's
// first allocator): there the stage-1 arbiter of an input is over its VCs
// (vcs wide, one pointer over VC indices) and forwards the chosen VC's
// output; here it is over output ports (outputs wide) and the VC is chosen
// only after the match. They are the same allocator only with one VC per
// port. With fresh pointers, input 0 VC 0 -> output 1, VC 1 -> output 0 and
// input 1 VC 0 -> output 1: round_robin forwards input 0's VC 0, both
// inputs then want output 1 and one pair is matched (output 0 idles); this
// allocator forwards output 0 for input 0 and matches both inputs. The unit
// tests work this case out.
//
// Not maximal: an input whose stage-1 choice loses gets nothing this cycle
// even when another output it requests stays idle.
//
// The implementation, shared with the other order: separable_allocator.h.
#pragma once
#include "hw/router/separable_allocator.h"

namespace kairo::router {

using SeparableInputFirstAllocator = SeparableAllocator<true>;

}  // namespace kairo::router
