// iSLIP: see islip_allocator.h for the request-grant-accept structure. Each
// round-robin arbiter is evaluated as "the requester with the smallest
// distance from the pointer", which is what the hardware's programmable
// priority encoder computes.
#include "hw/router/islip_allocator.h"

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

IslipAllocator::IslipAllocator(int inputs, int vcs, int outputs, int iterations)
    : Allocator(inputs, vcs, outputs), iterations_(iterations) {
  if (inputs < 1 || vcs < 1 || outputs < 1) {
    throw std::invalid_argument("islip switch allocator needs at least one input, VC and output, got " +
                                shape_text(inputs, vcs, outputs));
  }
  if (iterations < 1) {
    throw std::invalid_argument("islip switch allocator needs at least one iteration, got " +
                                std::to_string(iterations));
  }
  grant_ptr_.assign(std::size_t(outputs), 0);
  accept_ptr_.assign(std::size_t(inputs), 0);
  vc_ptr_.assign(std::size_t(inputs), 0);
  req_out_.assign(std::size_t(inputs) * std::size_t(vcs), -1);
  reqs_.resize(req_out_.size());
  in_match_.assign(std::size_t(inputs), -1);
  out_match_.assign(std::size_t(outputs), -1);
  grant_rank_.assign(std::size_t(outputs), inputs);
  accept_rank_.assign(std::size_t(inputs), outputs);
  grant_vc_.assign(std::size_t(inputs), -1);
}

void IslipAllocator::clear() {
  for (int k = 0; k < num_reqs_; ++k) req_out_[reqs_[k].input * vcs() + reqs_[k].vc] = -1;
  num_reqs_ = 0;
  std::fill(in_match_.begin(), in_match_.end(), -1);
  std::fill(grant_vc_.begin(), grant_vc_.end(), -1);
}

void IslipAllocator::add_request(int input, int vc, int output, std::uint64_t /*age*/) {
  if (input < 0 || input >= inputs() || vc < 0 || vc >= vcs() || output < 0 || output >= outputs()) {
    throw std::out_of_range("islip switch allocator: request from input " + std::to_string(input) + " VC " +
                            std::to_string(vc) + " to output " + std::to_string(output) + " is outside its " +
                            shape_text(inputs(), vcs(), outputs()));
  }
  int& slot = req_out_[input * vcs() + vc];
  if (slot >= 0) {
    throw std::logic_error("islip switch allocator: input " + std::to_string(input) + " VC " +
                           std::to_string(vc) + " requested twice in one round; call clear() between rounds");
  }
  slot = output;
  reqs_[num_reqs_++] = Request{input, vc, output};
}

void IslipAllocator::allocate() {
  std::fill(in_match_.begin(), in_match_.end(), -1);
  std::fill(out_match_.begin(), out_match_.end(), -1);
  std::fill(grant_vc_.begin(), grant_vc_.end(), -1);
  for (int it = 0; it < iterations_; ++it) {
    if (!iterate(it == 0)) break;
  }
  choose_vcs();
}

bool IslipAllocator::iterate(bool first) {
  const int n_in = inputs(), n_out = outputs();

  // Grant: each unmatched output's arbiter picks among the unmatched inputs
  // with a request line to it (smallest rank from its grant pointer; rank
  // n_in = no grant). Several VCs of one input drive the same request line,
  // so seeing a line twice changes nothing.
  std::fill(grant_rank_.begin(), grant_rank_.end(), n_in);
  for (int k = 0; k < num_reqs_; ++k) {
    const Request r = reqs_[k];
    const bool free_pair = in_match_[r.input] < 0 && out_match_[r.output] < 0;
    const int rank = free_pair ? rr_rank(r.input, grant_ptr_[r.output], n_in) : n_in;
    grant_rank_[r.output] = std::min(grant_rank_[r.output], rank);
  }

  // Accept: each input's arbiter picks among the outputs that granted it
  // (smallest rank from its accept pointer; rank n_out = none).
  std::fill(accept_rank_.begin(), accept_rank_.end(), n_out);
  for (int o = 0; o < n_out; ++o) {
    if (grant_rank_[o] == n_in) continue;
    const int i = wrap(grant_ptr_[o] + grant_rank_[o], n_in);
    accept_rank_[i] = std::min(accept_rank_[i], rr_rank(o, accept_ptr_[i], n_out));
  }

  // Commit the accepted pairs; pointers move only in the first iteration.
  bool matched = false;
  for (int i = 0; i < n_in; ++i) {
    if (accept_rank_[i] == n_out) continue;
    const int o = wrap(accept_ptr_[i] + accept_rank_[i], n_out);
    in_match_[i] = o;
    out_match_[o] = i;
    matched = true;
    if (first) {
      grant_ptr_[o] = wrap(i + 1, n_in);
      accept_ptr_[i] = wrap(o + 1, n_out);
    }
  }
  return matched;
}

void IslipAllocator::choose_vcs() {
  const int n_vc = vcs();
  for (int i = 0; i < inputs(); ++i) {
    const int o = in_match_[i];
    if (o < 0) continue;
    const int* row = &req_out_[i * n_vc];
    for (int k = 0, v = vc_ptr_[i]; k < n_vc; ++k, v = wrap(v + 1, n_vc)) {
      if (row[v] != o) continue;
      grant_vc_[i] = v;
      vc_ptr_[i] = wrap(v + 1, n_vc);
      break;
    }
  }
}

}  // namespace kairo::router
