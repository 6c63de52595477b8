// Wavefront switch allocator (Tamir & Chi, "Symmetric crossbar arbiters for
// VLSI communication switches", IEEE TPDS 1993; Dally & Towles, sec. 19.4),
// as BookSim 2's "wavefront", on port-level requests.
//
// Hardware: an n x n array of cells, n = max(inputs, outputs), cell (i, o)
// holding the request line of input port i to output port o (port_match_
// allocator.h: raised when any of i's VCs requests o). Cells on one
// diagonal, (i + o) mod n constant, share no row and no column, so a whole
// diagonal is decided at once: a cell whose line is raised grants when no
// earlier diagonal has granted in its row or column. The wave starts at the
// priority diagonal and sweeps the n diagonals in turn:
//   cell (i, o) is reached in wave step (i + o - pri) mod n
// (BookSim's order: step p visits input (pri + p - o) mod n of each output
// o). Every requested cell is reached, and is granted unless its row or
// column already was, so the matching is maximal. The priority diagonal pri
// moves to the next one (pri + 1 mod n) after each round that had a request
// (BookSim leaves it where it is after a round without any).
//
// The matched input then sends a VC requesting the output (the VC pointer of
// port_match_allocator.h).
//
// Fairness: under full contention (all n inputs wanting one output) each
// wins once every n rounds. With fewer contenders it is only starvation-free
// (each wins at least once every n rounds): an input right after idle rows
// of the array wins on their diagonals too. BookSim's fair_wavefront and
// rr_wavefront exist for that; not modeled here.
//
// Cost per allocate(): O(n * outputs) cell checks + matched inputs * vcs; no
// heap allocation after construction.
#pragma once
#include <cstdint>

#include "hw/router/port_match_allocator.h"

namespace kairo::router {

class WavefrontAllocator final : public PortMatchAllocator {
 public:
  static constexpr const char* kName = "wavefront";

  // Throws std::invalid_argument unless inputs, vcs and outputs are all >= 1.
  WavefrontAllocator(int inputs, int vcs, int outputs);

  // The diagonal with the highest priority in the next round.
  int priority_diagonal() const { return pri_; }

  void allocate_single(int input, int vc, int output, std::uint64_t age) override;

 private:
  void match() override;

  int n_;        // side of the square cell array: max(inputs, outputs)
  int pri_ = 0;  // the priority diagonal, kept across rounds
};

}  // namespace kairo::router
