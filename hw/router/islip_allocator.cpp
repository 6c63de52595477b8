// iSLIP: see islip_allocator.h for the request-grant-accept structure.
#include "hw/router/islip_allocator.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace kairo::router {

IslipAllocator::IslipAllocator(int inputs, int vcs, int outputs, int iterations)
    : Allocator(inputs, vcs, outputs),
      iterations_(iterations),
      in_words_(request_words(inputs)),
      out_words_(request_words(outputs)),
      vc_words_(request_words(vcs)) {
  if (inputs < 1 || vcs < 1 || outputs < 1) {
    throw std::invalid_argument("islip switch allocator needs at least one input, VC and output, got " +
                                shape_text(inputs, vcs, outputs));
  }
  if (iterations < 1) {
    throw std::invalid_argument("islip switch allocator needs at least one iteration, got " +
                                std::to_string(iterations));
  }
  const auto n_in = std::size_t(inputs), n_out = std::size_t(outputs);
  grant_ptr_.assign(n_out, 0);
  accept_ptr_.assign(n_in, 0);
  vc_ptr_.assign(n_in, 0);
  req_out_.assign(n_in * std::size_t(vcs), -1);
  reqs_.resize(req_out_.size());
  line_.assign(n_out * std::size_t(in_words_), 0);
  vc_line_.assign(n_in * n_out * std::size_t(vc_words_), 0);
  free_in_.assign(std::size_t(in_words_), 0);
  granted_.assign(n_in * std::size_t(out_words_), 0);
  in_match_.assign(n_in, -1);
  out_match_.assign(n_out, -1);
  grant_vc_.assign(n_in, -1);
}

void IslipAllocator::clear() {
  for (int k = 0; k < num_reqs_; ++k) {
    const Request r = reqs_[k];
    req_out_[r.input * vcs() + r.vc] = -1;
    line_[r.output * in_words_ + (r.input >> 6)] = 0;
    vc_line_[(r.input * outputs() + r.output) * vc_words_ + (r.vc >> 6)] = 0;
  }
  num_reqs_ = 0;
  std::fill(in_match_.begin(), in_match_.end(), -1);
  std::fill(grant_vc_.begin(), grant_vc_.end(), -1);
}

void IslipAllocator::add_request(int input, int vc, int output, std::uint64_t /*age*/) {
  if (input < 0 || input >= inputs() || vc < 0 || vc >= vcs() || output < 0 || output >= outputs()) {
    reject_request(kName, input, vc, output, false);
  }
  int& slot = req_out_[input * vcs() + vc];
  if (slot >= 0) reject_request(kName, input, vc, output, true);
  slot = output;
  line_[output * in_words_ + (input >> 6)] |= request_bit(input);
  vc_line_[(input * outputs() + output) * vc_words_ + (vc >> 6)] |= request_bit(vc);
  reqs_[num_reqs_++] = Request{input, vc, output};
}

void IslipAllocator::allocate() {
  std::fill(in_match_.begin(), in_match_.end(), -1);
  std::fill(out_match_.begin(), out_match_.end(), -1);
  std::fill(grant_vc_.begin(), grant_vc_.end(), -1);
  std::fill(free_in_.begin(), free_in_.end(), ~std::uint64_t{0});
  if (inputs() & 63) free_in_.back() = request_bit(inputs()) - 1;
  for (int it = 0; it < iterations_; ++it) {
    if (!iterate(it == 0)) break;
  }
  choose_vcs();
}

bool IslipAllocator::iterate(bool first) {
  const int n_in = inputs(), n_out = outputs();

  // Grant: each unmatched output's arbiter sees the request lines of the
  // unmatched inputs (an input drives one line per output, however many of
  // its VCs want that output) and grants one.
  bool granted_any = false;
  for (int o = 0; o < n_out; ++o) {
    if (out_match_[o] >= 0) continue;
    const std::uint64_t* line = &line_[o * in_words_];
    const std::uint64_t* free_in = free_in_.data();
    const int i =
        round_robin_arbitrate(in_words_, grant_ptr_[o], [=](int w) { return line[w] & free_in[w]; });
    if (i < 0) continue;
    granted_[i * out_words_ + (o >> 6)] |= request_bit(o);
    granted_any = true;
  }
  if (!granted_any) return false;

  // Accept: each input that received grants accepts one; the pair is
  // matched. Pointers move only for first-iteration accepts.
  for (int i = 0; i < n_in; ++i) {
    if (in_match_[i] >= 0) continue;
    std::uint64_t* grants = &granted_[i * out_words_];
    const int o = round_robin_arbitrate(out_words_, accept_ptr_[i], [grants](int w) { return grants[w]; });
    if (o < 0) continue;
    std::fill(grants, grants + out_words_, 0);
    in_match_[i] = o;
    out_match_[o] = i;
    free_in_[i >> 6] &= ~request_bit(i);
    if (first) {
      grant_ptr_[o] = i + 1 == n_in ? 0 : i + 1;
      accept_ptr_[i] = o + 1 == n_out ? 0 : o + 1;
    }
  }
  return true;
}

void IslipAllocator::choose_vcs() {
  const int n_vc = vcs();
  for (int i = 0; i < inputs(); ++i) {
    const int o = in_match_[i];
    if (o < 0) continue;
    const std::uint64_t* want = &vc_line_[(i * outputs() + o) * vc_words_];
    const int v = round_robin_arbitrate(vc_words_, vc_ptr_[i], [want](int w) { return want[w]; });
    grant_vc_[i] = v;
    vc_ptr_[i] = v + 1 == n_vc ? 0 : v + 1;
  }
}

}  // namespace kairo::router
