// Separable input-first allocator: see round_robin_allocator.h for the
// arbiter structure.
#include "hw/router/round_robin_allocator.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace kairo::router {

RoundRobinAllocator::RoundRobinAllocator(int inputs, int vcs, int outputs)
    : Allocator(inputs, vcs, outputs), vc_words_(request_words(vcs)), in_words_(request_words(inputs)) {
  if (inputs < 1 || vcs < 1 || outputs < 1) {
    throw std::invalid_argument("round_robin switch allocator needs at least one input, VC and output, got " +
                                shape_text(inputs, vcs, outputs));
  }
  const std::size_t in = std::size_t(inputs), out = std::size_t(outputs), iv = in * std::size_t(vcs);
  const std::size_t words64 = in * std::size_t(vc_words_) + out * std::size_t(in_words_);
  const std::size_t ints = in /*vc_ptr*/ + out /*in_ptr*/ + iv /*req_out*/ + 2 * iv /*reqs*/ + 4 * in;
  arena_.assign(words64 + (ints + 1) / 2, 0);
  vc_req_ = arena_.data();
  out_req_ = vc_req_ + in * std::size_t(vc_words_);
  int* p = reinterpret_cast<int*>(arena_.data() + words64);
  auto take = [&p](std::size_t n, int fill) {
    int* a = p;
    std::fill(a, a + n, fill);
    p += n;
    return a;
  };
  vc_ptr_ = take(in, 0);
  in_ptr_ = take(out, 0);
  req_out_ = take(iv, -1);
  reqs_ = reinterpret_cast<Request*>(take(2 * iv, -1));
  stage1_vc_ = take(in, -1);
  grant_vc_ = take(in, -1);
  grant_out_ = take(in, -1);
  granted_ = take(in, -1);
}

void RoundRobinAllocator::clear() {
  for (int k = 0; k < num_reqs_; ++k) {
    const Request r = reqs_[k];
    req_out_[r.input * vcs() + r.vc] = -1;
    vc_req_[r.input * vc_words_ + (r.vc >> 6)] = 0;
  }
  num_reqs_ = 0;
  forget_grants();
}

void RoundRobinAllocator::add_request(int input, int vc, int output, std::uint64_t /*age*/) {
  if (input < 0 || input >= inputs() || vc < 0 || vc >= vcs() || output < 0 || output >= outputs()) {
    reject_request(kName, input, vc, output, false);
  }
  int& slot = req_out_[input * vcs() + vc];
  if (slot >= 0) reject_request(kName, input, vc, output, true);
  slot = output;
  vc_req_[input * vc_words_ + (vc >> 6)] |= request_bit(vc);
  reqs_[num_reqs_++] = Request{input, vc};
}

void RoundRobinAllocator::allocate() {
  const int n_in = inputs(), n_vc = vcs();
  forget_grants();

  // Stage 1: each input's VC arbiter picks one requesting VC; its output
  // request is raised on that output's stage-2 request vector.
  for (int i = 0; i < n_in; ++i) {
    const std::uint64_t* req = &vc_req_[i * vc_words_];
    const int v = round_robin_arbitrate(vc_words_, vc_ptr_[i], [req](int w) { return req[w]; });
    stage1_vc_[i] = v;
    if (v >= 0) out_req_[req_out_[i * n_vc + v] * in_words_ + (i >> 6)] |= request_bit(i);
  }

  // Stage 2: each output's input arbiter picks one of those inputs. Only a
  // final grant moves pointers, at both arbiters on the granted path; a
  // stage-1 winner that lost here keeps its priority at its input.
  for (int o = 0; o < outputs(); ++o) {
    std::uint64_t* req = &out_req_[o * in_words_];
    const int i = round_robin_arbitrate(in_words_, in_ptr_[o], [req](int w) { return req[w]; });
    std::fill(req, req + in_words_, 0);
    if (i < 0) continue;
    const int v = stage1_vc_[i];
    grant_vc_[i] = v;
    grant_out_[i] = o;
    granted_[num_granted_++] = i;
    vc_ptr_[i] = v + 1 == n_vc ? 0 : v + 1;
    in_ptr_[o] = i + 1 == n_in ? 0 : i + 1;
  }
}

// One request: both arbiters on its path see a single requester, grant it and
// move their pointers one past it, exactly as a full round would.
void RoundRobinAllocator::allocate_single(int input, int vc, int output, std::uint64_t /*age*/) {
  if (input < 0 || input >= inputs() || vc < 0 || vc >= vcs() || output < 0 || output >= outputs()) {
    reject_request(kName, input, vc, output, false);
  }
  clear();
  grant_vc_[input] = vc;
  grant_out_[input] = output;
  granted_[num_granted_++] = input;
  vc_ptr_[input] = vc + 1 == vcs() ? 0 : vc + 1;
  in_ptr_[output] = input + 1 == inputs() ? 0 : input + 1;
}

}  // namespace kairo::router
