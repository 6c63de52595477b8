// Separable input-first allocator: see round_robin_allocator.h for the
// arbiter structure. Each round-robin arbiter is evaluated as "the requester
// with the smallest distance from the pointer", which is what the hardware's
// thermometer-masked priority encoder computes.
#include "hw/router/round_robin_allocator.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace kairo::router {
namespace {

// Rank of requester `index` in a round-robin arbiter of `size` requesters whose
// pointer is at `ptr`: rank 0 (the pointer itself) beats everyone.
inline int rr_rank(int index, int ptr, int size) { return index >= ptr ? index - ptr : index - ptr + size; }

// `index` in [0, 2*size) folded back into [0, size).
inline int wrap(int index, int size) { return index >= size ? index - size : index; }

std::string shape_text(int inputs, int vcs, int outputs) {
  return std::to_string(inputs) + " inputs x " + std::to_string(vcs) + " VCs x " + std::to_string(outputs) +
         " outputs";
}

}  // namespace

RoundRobinAllocator::RoundRobinAllocator(int inputs, int vcs, int outputs) : Allocator(inputs, vcs, outputs) {
  if (inputs < 1 || vcs < 1 || outputs < 1) {
    throw std::invalid_argument("round_robin switch allocator needs at least one input, VC and output, got " +
                                shape_text(inputs, vcs, outputs));
  }
  vc_ptr_.assign(std::size_t(inputs), 0);
  in_ptr_.assign(std::size_t(outputs), 0);
  req_out_.assign(std::size_t(inputs) * std::size_t(vcs), -1);
  reqs_.resize(req_out_.size());
  stage1_rank_.assign(std::size_t(inputs), vcs);
  stage2_rank_.assign(std::size_t(outputs), inputs);
  grant_vc_.assign(std::size_t(inputs), -1);
  grant_out_.assign(std::size_t(inputs), -1);
}

void RoundRobinAllocator::clear() {
  for (int k = 0; k < num_reqs_; ++k) req_out_[reqs_[k].input * vcs() + reqs_[k].vc] = -1;
  num_reqs_ = 0;
  std::fill(grant_vc_.begin(), grant_vc_.end(), -1);
  std::fill(grant_out_.begin(), grant_out_.end(), -1);
}

void RoundRobinAllocator::add_request(int input, int vc, int output, std::uint64_t /*age*/) {
  if (input < 0 || input >= inputs() || vc < 0 || vc >= vcs() || output < 0 || output >= outputs()) {
    throw std::out_of_range("round_robin switch allocator: request from input " + std::to_string(input) + " VC " +
                            std::to_string(vc) + " to output " + std::to_string(output) + " is outside its " +
                            shape_text(inputs(), vcs(), outputs()));
  }
  int& slot = req_out_[input * vcs() + vc];
  if (slot >= 0) {
    throw std::logic_error("round_robin switch allocator: input " + std::to_string(input) + " VC " +
                           std::to_string(vc) + " requested twice in one round; call clear() between rounds");
  }
  slot = output;
  reqs_[num_reqs_++] = Request{input, vc};
}

void RoundRobinAllocator::allocate() {
  const int n_in = inputs(), n_vc = vcs();
  std::fill(grant_vc_.begin(), grant_vc_.end(), -1);
  std::fill(grant_out_.begin(), grant_out_.end(), -1);

  // Stage 1: each input's VC arbiter picks its requesting VC nearest at or
  // after its pointer (smallest rank; rank n_vc = no request).
  std::fill(stage1_rank_.begin(), stage1_rank_.end(), n_vc);
  for (int k = 0; k < num_reqs_; ++k) {
    const Request r = reqs_[k];
    int& best = stage1_rank_[r.input];
    best = std::min(best, rr_rank(r.vc, vc_ptr_[r.input], n_vc));
  }

  // Stage 2: each output's input arbiter picks, among the inputs whose stage-1
  // winner requests it, the one nearest at or after its pointer.
  std::fill(stage2_rank_.begin(), stage2_rank_.end(), n_in);
  for (int i = 0; i < n_in; ++i) {
    const int rank = stage1_rank_[i];
    if (rank == n_vc) continue;
    const int v = wrap(vc_ptr_[i] + rank, n_vc);
    stage1_rank_[i] = v;  // from here on: the stage-1 winner VC
    const int o = req_out_[i * n_vc + v];
    int& best = stage2_rank_[o];
    best = std::min(best, rr_rank(i, in_ptr_[o], n_in));
  }

  // Final grants. Only now do the two arbiters on a granted path move their
  // pointers past the winner; a stage-1 winner that lost stage 2 keeps its
  // priority at its input for the next cycle.
  for (int o = 0; o < outputs(); ++o) {
    const int rank = stage2_rank_[o];
    if (rank == n_in) continue;
    const int i = wrap(in_ptr_[o] + rank, n_in);
    const int v = stage1_rank_[i];
    grant_vc_[i] = v;
    grant_out_[i] = o;
    vc_ptr_[i] = wrap(v + 1, n_vc);
    in_ptr_[o] = wrap(i + 1, n_in);
  }
}

}  // namespace kairo::router
