// iSLIP switch allocator (McKeown, "The iSLIP scheduling algorithm for
// input-queued switches", IEEE/ACM ToN 1999), run at port level, followed by
// a VC choice inside each matched input.
//
// Hardware: one round-robin grant arbiter per output and one round-robin
// accept arbiter per input, iterating request-grant-accept:
//   Request: every unmatched input requests every output that any of its VCs
//            wants (one request line per input-output pair, not per VC).
//   Grant:   every unmatched output grants the requesting unmatched input
//            nearest at or after its grant pointer.
//   Accept:  every input that received grants accepts the output nearest at
//            or after its accept pointer; the pair is matched.
// Unmatched inputs and outputs repeat the three steps, up to `iterations`
// times (stopping early once an iteration adds no match). Pointers move only
// for first-iteration accepts: grant pointer to one past the accepted input,
// accept pointer to one past the accepted output. Moving pointers only on
// accepts desynchronizes the output arbiters under load, which is what lets
// iSLIP reach full throughput under uniform saturation; freezing them in later
// iterations is what keeps it starvation-free.
//
// VC choice: a matched input sends one of its VCs requesting the matched
// output, chosen by a per-input round-robin VC arbiter whose pointer moves to
// one past the chosen VC whenever it is granted (in any iteration).
//
// The matching is maximal once iterations >= min(inputs, outputs) (each
// iteration of a non-maximal matching adds at least one pair); with fewer
// iterations it may not be.
//
// Request lines and grants are bit vectors, as the wires into the arbiters
// are, so each arbitration is a masked find-first-set. Cost per allocate():
// O(iterations * (outputs * ceil(inputs/64) + inputs * ceil(outputs/64)) +
// inputs * ceil(vcs/64)); clear() is O(requests + inputs). No heap allocation
// after construction.
#pragma once
#include <cstdint>
#include <vector>

#include "hw/router/allocator.h"
#include "hw/router/round_robin_allocator.h"  // round_robin_arbitrate

namespace kairo::router {

class IslipAllocator final : public Allocator {
 public:
  static constexpr const char* kName = "islip";
  static constexpr int kDefaultIterations = kDefaultIslipIterations;

  // Throws std::invalid_argument unless inputs, vcs, outputs and iterations
  // are all >= 1.
  IslipAllocator(int inputs, int vcs, int outputs, int iterations = kDefaultIterations);

  int iterations() const { return iterations_; }

  void clear() override;
  // Throws std::out_of_range for an index outside the allocator and
  // std::logic_error for a second request from the same VC in one round.
  void add_request(int input, int vc, int output, std::uint64_t age) override;
  void allocate() override;
  int grant_vc(int input) const override { return grant_vc_[input]; }
  int grant_output(int input) const override { return in_match_[input]; }

 private:
  struct Request {
    int input, vc, output;
  };

  // Runs one request-grant-accept iteration; returns whether it matched a pair.
  bool iterate(bool first);
  // Picks the VC of each matched input (round-robin among those requesting
  // the matched output).
  void choose_vcs();

  int iterations_;
  int in_words_, out_words_, vc_words_;  // words per input / output / VC bit vector

  // Arbiter state, kept across rounds.
  std::vector<int> grant_ptr_;   // per output: input with highest grant priority
  std::vector<int> accept_ptr_;  // per input: output with highest accept priority
  std::vector<int> vc_ptr_;      // per input: VC with highest priority

  // This round's requests: req_out_[input * vcs + vc] is the requested output
  // or -1; reqs_[0, num_reqs_) lists them so clear() touches only those.
  std::vector<int> req_out_;
  std::vector<Request> reqs_;
  int num_reqs_ = 0;

  // Request vectors: the input request lines into each output's grant
  // arbiter, and the VCs of each input that want each output (into the
  // input's VC arbiter).
  std::vector<std::uint64_t> line_;     // [output * in_words_ + w]
  std::vector<std::uint64_t> vc_line_;  // [(input * outputs + output) * vc_words_ + w]

  // Per round: unmatched inputs, and per iteration the grants each input
  // received (consumed by its accept arbiter).
  std::vector<std::uint64_t> free_in_;  // [w]
  std::vector<std::uint64_t> granted_;  // [input * out_words_ + w]

  std::vector<int> in_match_;   // per input: matched output or -1
  std::vector<int> out_match_;  // per output: matched input or -1
  std::vector<int> grant_vc_;   // per input: VC sent or -1
};

}  // namespace kairo::router
