// Separable input-first allocator: see round_robin_allocator.h for the
// arbiter structure.
#include "hw/router/round_robin_allocator.h"

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>

namespace kairo::router {

RoundRobinAllocator::Round::Round(int inputs, int vcs, int outputs, int vc_words, int in_words) {
  const std::size_t in = std::size_t(inputs), out = std::size_t(outputs), iv = in * std::size_t(vcs);
  const std::size_t words64 = in * std::size_t(vc_words) + out * std::size_t(in_words);
  const std::size_t ints = iv /*req_out*/ + 2 * iv /*reqs*/ + 4 * in;
  arena.assign(words64 + (ints + 1) / 2, 0);
  vc_req = arena.data();
  out_req = vc_req + in * std::size_t(vc_words);
  int* p = reinterpret_cast<int*>(arena.data() + words64);
  auto take = [&p](std::size_t n, int fill) {
    int* a = p;
    std::fill(a, a + n, fill);
    p += n;
    return a;
  };
  req_out = take(iv, -1);
  reqs = reinterpret_cast<Request*>(take(2 * iv, -1));
  stage1_vc = take(in, -1);
  grant_vc = take(in, -1);
  grant_out = take(in, -1);
  granted = take(in, -1);
}

RoundRobinAllocator::Round* RoundRobinAllocator::shared_round(int inputs, int vcs, int outputs, int vc_words,
                                                              int in_words) {
  static std::map<std::array<int, 3>, std::unique_ptr<Round>> rounds;
  auto& r = rounds[{inputs, vcs, outputs}];
  if (!r) r = std::make_unique<Round>(inputs, vcs, outputs, vc_words, in_words);
  return r.get();
}

RoundRobinAllocator::RoundRobinAllocator(int inputs, int vcs, int outputs, bool shared_rounds)
    : Allocator(inputs, vcs, outputs), vc_words_(request_words(vcs)), in_words_(request_words(inputs)) {
  if (inputs < 1 || vcs < 1 || outputs < 1) {
    throw std::invalid_argument("round_robin switch allocator needs at least one input, VC and output, got " +
                                shape_text(inputs, vcs, outputs));
  }
  ptrs_.assign(std::size_t(inputs) + std::size_t(outputs), 0);
  vc_ptr_ = ptrs_.data();
  in_ptr_ = ptrs_.data() + inputs;
  if (shared_rounds) {
    r_ = shared_round(inputs, vcs, outputs, vc_words_, in_words_);
  } else {
    own_ = std::make_unique<Round>(inputs, vcs, outputs, vc_words_, in_words_);
    r_ = own_.get();
  }
}

void RoundRobinAllocator::clear() {
  Round& r = *r_;
  for (int k = 0; k < r.num_reqs; ++k) {
    const Request q = r.reqs[k];
    r.req_out[q.input * vcs() + q.vc] = -1;
    r.vc_req[q.input * vc_words_ + (q.vc >> 6)] = 0;
  }
  r.num_reqs = 0;
  r.forget_grants();
}

void RoundRobinAllocator::add_request(int input, int vc, int output, std::uint64_t /*age*/) {
  if (input < 0 || input >= inputs() || vc < 0 || vc >= vcs() || output < 0 || output >= outputs()) {
    reject_request(kName, input, vc, output, false);
  }
  Round& r = *r_;
  int& slot = r.req_out[input * vcs() + vc];
  if (slot >= 0) reject_request(kName, input, vc, output, true);
  slot = output;
  r.vc_req[input * vc_words_ + (vc >> 6)] |= request_bit(vc);
  r.reqs[r.num_reqs++] = Request{input, vc};
}

void RoundRobinAllocator::allocate() {
  const int n_in = inputs(), n_vc = vcs();
  Round& r = *r_;
  r.forget_grants();

  // Stage 1: each input's VC arbiter picks one requesting VC; its output
  // request is raised on that output's stage-2 request vector.
  for (int i = 0; i < n_in; ++i) {
    const std::uint64_t* req = &r.vc_req[i * vc_words_];
    const int v = round_robin_arbitrate(vc_words_, vc_ptr_[i], [req](int w) { return req[w]; });
    r.stage1_vc[i] = v;
    if (v >= 0) r.out_req[r.req_out[i * n_vc + v] * in_words_ + (i >> 6)] |= request_bit(i);
  }

  // Stage 2: each output's input arbiter picks one of those inputs. Only a
  // final grant moves pointers, at both arbiters on the granted path; a
  // stage-1 winner that lost here keeps its priority at its input.
  for (int o = 0; o < outputs(); ++o) {
    std::uint64_t* req = &r.out_req[o * in_words_];
    const int i = round_robin_arbitrate(in_words_, in_ptr_[o], [req](int w) { return req[w]; });
    std::fill(req, req + in_words_, 0);
    if (i < 0) continue;
    const int v = r.stage1_vc[i];
    r.grant_vc[i] = v;
    r.grant_out[i] = o;
    r.granted[r.num_granted++] = i;
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
  Round& r = *r_;
  r.grant_vc[input] = vc;
  r.grant_out[input] = output;
  r.granted[r.num_granted++] = input;
  vc_ptr_[input] = vc + 1 == vcs() ? 0 : vc + 1;
  in_ptr_[output] = input + 1 == inputs() ? 0 : input + 1;
}

}  // namespace kairo::router
