// Common part of the switch allocators that work, as BookSim 2's do, on the
// port-level request matrix and choose the VC afterwards.
//
// Request lines: input port i raises one line to output port o when any of
// its VCs requests o, however many of them do (BookSim's allocators see one
// request per input-output pair). A subclass matches input ports to output
// ports on these lines (match()), each input to at most one output and each
// output to at most one input, and keeps its own arbiter state.
//
// VC choice: each matched input then sends one of its VCs requesting the
// matched output, the first at or after the input's VC pointer, which moves
// one past the VC sent. This is BookSim's input-queued router: of an input's
// VCs requesting one output, the request presented to the switch allocator
// is the one nearest the input's round-robin offset (sw_rr_offset), which
// moves one past the VC granted. With all requests at equal priority (the
// router has no packet priorities) the two are the same choice.
//
// Request lines are bit vectors, as the wires into the arbiters are: per
// input the outputs it requests, per output the inputs requesting it.
// clear() is O(requests + matched inputs); no heap allocation after
// construction.
#pragma once
#include <cstdint>
#include <vector>

#include "hw/router/allocator.h"
#include "hw/router/round_robin_allocator.h"  // round_robin_arbitrate, request_words, request_bit

namespace kairo::router {

class PortMatchAllocator : public Allocator {
 public:
  void clear() override;
  // Throws std::out_of_range for an index outside the allocator and
  // std::logic_error for a second request from the same VC in one round.
  void add_request(int input, int vc, int output, std::uint64_t age) override;
  void allocate() final;
  int grant_vc(int input) const override { return grant_vc_[input]; }
  int grant_output(int input) const override { return in_match_[input]; }

 protected:
  // Throws std::invalid_argument unless inputs, vcs and outputs are all >= 1;
  // `name` (a string literal) names the allocator in messages.
  PortMatchAllocator(const char* name, int inputs, int vcs, int outputs);

  // Match input ports to output ports on the request lines with match_pair(),
  // moving the subclass's arbiter pointers as its algorithm says.
  virtual void match() = 0;

  // For a subclass's allocate_single: checks the request, clears the round
  // and matches input to output sending `vc`, as a full round with that one
  // request would. The subclass then moves its own pointers.
  void match_single(int input, int vc, int output);

  void match_pair(int input, int output) {
    in_match_[input] = output;
    out_match_[output] = input;
    matched_[num_matched_++] = input;
  }
  bool input_matched(int input) const { return in_match_[input] >= 0; }
  bool output_matched(int output) const { return out_match_[output] >= 0; }
  // The request lines: bit o of outputs_of(i) (out_words() words) is set when
  // input i requests output o; bit i of inputs_of(o) (in_words() words) when
  // output o is requested by input i.
  const std::uint64_t* outputs_of(int input) const { return &out_line_[std::size_t(input) * out_words_]; }
  const std::uint64_t* inputs_of(int output) const { return &in_line_[std::size_t(output) * in_words_]; }
  int in_words() const { return in_words_; }
  int out_words() const { return out_words_; }
  int num_requests() const { return num_reqs_; }

 private:
  struct Request {
    int input, vc, output;
  };
  void forget_matches();
  void choose_vcs();

  const char* name_;
  int in_words_, out_words_;

  // This round's requests: req_out_[input * vcs + vc] is the requested output
  // or -1; reqs_[0, num_reqs_) lists them so clear() touches only those.
  std::vector<int> req_out_;
  std::vector<Request> reqs_;
  int num_reqs_ = 0;
  std::vector<std::uint64_t> out_line_;  // [input * out_words_ + w]
  std::vector<std::uint64_t> in_line_;   // [output * in_words_ + w]

  std::vector<int> vc_ptr_;  // per input: the VC with the highest priority, kept across rounds

  std::vector<int> in_match_, out_match_, grant_vc_;
  std::vector<int> matched_;  // inputs matched this round, to forget them cheaply
  int num_matched_ = 0;
};

}  // namespace kairo::router
