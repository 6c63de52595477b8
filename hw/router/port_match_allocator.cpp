// Port-level request lines and the VC choice after a port matching: see
// port_match_allocator.h.
#include "hw/router/port_match_allocator.h"

#include <stdexcept>
#include <string>

namespace kairo::router {

PortMatchAllocator::PortMatchAllocator(const char* name, int inputs, int vcs, int outputs)
    : Allocator(inputs, vcs, outputs),
      name_(name),
      in_words_(request_words(inputs)),
      out_words_(request_words(outputs)) {
  if (inputs < 1 || vcs < 1 || outputs < 1) {
    throw std::invalid_argument(std::string(name) +
                                " switch allocator needs at least one input, VC and output, got " +
                                shape_text(inputs, vcs, outputs));
  }
  const auto n_in = std::size_t(inputs), n_out = std::size_t(outputs);
  req_out_.assign(n_in * std::size_t(vcs), -1);
  reqs_.resize(req_out_.size());
  out_line_.assign(n_in * std::size_t(out_words_), 0);
  in_line_.assign(n_out * std::size_t(in_words_), 0);
  vc_ptr_.assign(n_in, 0);
  in_match_.assign(n_in, -1);
  out_match_.assign(n_out, -1);
  grant_vc_.assign(n_in, -1);
  matched_.assign(n_in, -1);
}

void PortMatchAllocator::forget_matches() {
  for (int k = 0; k < num_matched_; ++k) {
    const int i = matched_[k];
    out_match_[in_match_[i]] = -1;
    in_match_[i] = grant_vc_[i] = -1;
  }
  num_matched_ = 0;
}

void PortMatchAllocator::clear() {
  for (int k = 0; k < num_reqs_; ++k) {
    const Request r = reqs_[k];
    req_out_[r.input * vcs() + r.vc] = -1;
    out_line_[r.input * out_words_ + (r.output >> 6)] = 0;
    in_line_[r.output * in_words_ + (r.input >> 6)] = 0;
  }
  num_reqs_ = 0;
  forget_matches();
}

void PortMatchAllocator::add_request(int input, int vc, int output, std::uint64_t /*age*/) {
  if (input < 0 || input >= inputs() || vc < 0 || vc >= vcs() || output < 0 || output >= outputs()) {
    reject_request(name_, input, vc, output, false);
  }
  int& slot = req_out_[input * vcs() + vc];
  if (slot >= 0) reject_request(name_, input, vc, output, true);
  slot = output;
  out_line_[input * out_words_ + (output >> 6)] |= request_bit(output);
  in_line_[output * in_words_ + (input >> 6)] |= request_bit(input);
  reqs_[num_reqs_++] = Request{input, vc, output};
}

void PortMatchAllocator::allocate() {
  forget_matches();
  match();
  choose_vcs();
}

// Each matched input's VC arbiter: the first VC at or after the pointer among
// those requesting the matched output (a matched input has at least one).
void PortMatchAllocator::choose_vcs() {
  const int n_vc = vcs();
  for (int k = 0; k < num_matched_; ++k) {
    const int i = matched_[k], o = in_match_[i];
    const int* want = &req_out_[i * n_vc];
    int v = vc_ptr_[i];
    while (want[v] != o) v = v + 1 == n_vc ? 0 : v + 1;
    grant_vc_[i] = v;
    vc_ptr_[i] = v + 1 == n_vc ? 0 : v + 1;
  }
}

void PortMatchAllocator::match_single(int input, int vc, int output) {
  if (input < 0 || input >= inputs() || vc < 0 || vc >= vcs() || output < 0 || output >= outputs()) {
    reject_request(name_, input, vc, output, false);
  }
  clear();
  match_pair(input, output);
  grant_vc_[input] = vc;
  vc_ptr_[input] = vc + 1 == vcs() ? 0 : vc + 1;
}

}  // namespace kairo::router
