// Separable input-first switch allocator with round-robin arbiters, the
// allocator of most textbook VC routers (Dally & Towles, ch. 19; BookSim's
// "separable_input_first" with round-robin arbiters).
//
// Hardware: two ranks of arbiters.
//   Stage 1 (input rank): one vcs-input round-robin arbiter per input port
//   picks one of that port's requesting VCs. Only the winner's output request
//   goes forward, so an input that loses stage 2 gets nothing this cycle even
//   if another of its VCs wanted an idle output.
//   Stage 2 (output rank): one inputs-input round-robin arbiter per output port
//   picks one of the input ports whose stage-1 winner requests it.
// Each arbiter keeps a priority pointer (the index that wins ties) and moves it
// to one past the winner only when that winner receives the final grant; a
// stage-1 winner that loses stage 2 keeps its priority for the next cycle,
// which is what makes the pair of arbiters starvation-free.
//
// The result is a matching but not necessarily a maximal one: two inputs whose
// stage-1 winners collide on one output leave the loser unmatched even if it
// has another VC requesting a free output.
//
// Cost per allocate(): O(requests + inputs + outputs); no heap allocation after
// construction.
#pragma once
#include <cstdint>
#include <vector>

#include "hw/router/allocator.h"

namespace kairo::router {

class RoundRobinAllocator final : public Allocator {
 public:
  static constexpr const char* kName = "round_robin";

  // Throws std::invalid_argument unless inputs, vcs and outputs are all >= 1.
  RoundRobinAllocator(int inputs, int vcs, int outputs);

  void clear() override;
  // Throws std::out_of_range for an index outside the allocator and
  // std::logic_error for a second request from the same VC in one round.
  void add_request(int input, int vc, int output, std::uint64_t age) override;
  void allocate() override;
  int grant_vc(int input) const override { return grant_vc_[input]; }
  int grant_output(int input) const override { return grant_out_[input]; }

 private:
  struct Request {
    int input, vc;
  };

  // Arbiter state, kept across rounds.
  std::vector<int> vc_ptr_;   // per input: VC with highest stage-1 priority
  std::vector<int> in_ptr_;   // per output: input with highest stage-2 priority

  // This round's requests: req_out_[input * vcs + vc] is the requested output
  // or -1; reqs_[0, num_reqs_) lists the set entries so clear() touches only them.
  std::vector<int> req_out_;
  std::vector<Request> reqs_;
  int num_reqs_ = 0;

  std::vector<int> stage1_rank_;  // per input: rank of the stage-1 winner (vcs = none)
  std::vector<int> stage2_rank_;  // per output: rank of the stage-2 winner (inputs = none)
  std::vector<int> grant_vc_, grant_out_;
};

}  // namespace kairo::router
