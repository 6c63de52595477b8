// Separable output-first switch allocator on port-level requests, with
// round-robin arbiters: BookSim 2's "separable_output_first" with
// arb_type = round_robin (Dally & Towles, sec. 19.3).
//
// Hardware: the two ranks of round-robin arbiters of the input-first
// allocator, in the other order, on the request lines of
// port_match_allocator.h (input i requests output o when any of its VCs does).
//   Stage 1 (output rank): one inputs-wide arbiter per output port grants
//   one of the inputs requesting it.
//   Stage 2 (input rank): one outputs-wide arbiter per input port accepts
//   one of the outputs that granted it. The pair is matched.
// Both arbiters on a matched pair move their pointer one past the winner; an
// output whose grant was not accepted keeps its pointer. The matched input
// then sends a VC requesting the output (the VC pointer of
// port_match_allocator.h).
//
// Input-first vs output-first: input-first loses a pair when two inputs
// choose the same output, output-first when two outputs grant the same
// input. With fresh pointers, input 0 requesting outputs 0 and 1 and input 1
// only output 1 match two pairs input-first (input 0 chooses output 0) but
// one output-first (both outputs grant input 0); input 0 requesting only
// output 0 and input 1 both outputs is the mirror image, two pairs
// output-first and one input-first. The unit tests work both out.
//
// This is exactly single-iteration iSLIP (islip_allocator.h with
// router.islip_iterations = 1): grant, accept, pointers moved on accepts.
// BookSim's results for the two coincide too (its group g, mesh 8x8
// uniform: saturation 0.4089 for both).
//
// Not maximal: an output whose grant is declined idles this cycle even when
// another input requests it.
//
// The implementation, shared with the other order: separable_allocator.h.
#pragma once
#include "hw/router/separable_allocator.h"

namespace kairo::router {

using SeparableOutputFirstAllocator = SeparableAllocator<false>;

}  // namespace kairo::router
