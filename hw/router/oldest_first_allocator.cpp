// Oldest-first greedy allocation: see oldest_first_allocator.h.
#include "hw/router/oldest_first_allocator.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace kairo::router {

OldestFirstAllocator::OldestFirstAllocator(int inputs, int vcs, int outputs)
    : Allocator(inputs, vcs, outputs) {
  uses_age_ = true;
  if (inputs < 1 || vcs < 1 || outputs < 1) {
    throw std::invalid_argument(
        "oldest_first switch allocator needs at least one input, VC and output, got " +
        shape_text(inputs, vcs, outputs));
  }
  reqs_.resize(std::size_t(inputs) * std::size_t(vcs));
  requested_.assign(reqs_.size(), 0);
  output_busy_.assign(std::size_t(outputs), 0);
  grant_vc_.assign(std::size_t(inputs), -1);
  grant_out_.assign(std::size_t(inputs), -1);
}

void OldestFirstAllocator::clear() {
  for (int k = 0; k < num_reqs_; ++k) requested_[reqs_[k].slot] = 0;
  num_reqs_ = 0;
  std::fill(grant_vc_.begin(), grant_vc_.end(), -1);
  std::fill(grant_out_.begin(), grant_out_.end(), -1);
}

void OldestFirstAllocator::add_request(int input, int vc, int output, std::uint64_t age) {
  if (input < 0 || input >= inputs() || vc < 0 || vc >= vcs() || output < 0 || output >= outputs()) {
    reject_request(kName, input, vc, output, false);
  }
  char& seen = requested_[input * vcs() + vc];
  if (seen) reject_request(kName, input, vc, output, true);
  seen = 1;
  reqs_[num_reqs_++] = Request{age, input * vcs() + vc, output};
}

void OldestFirstAllocator::allocate() {
  std::fill(grant_vc_.begin(), grant_vc_.end(), -1);
  std::fill(grant_out_.begin(), grant_out_.end(), -1);
  std::fill(output_busy_.begin(), output_busy_.end(), 0);

  // Rank: older first; equal ages resolved by the lower input, then the lower
  // VC, so the outcome never depends on the order requests were raised in.
  // (input, vc) is unique per round, so the order is total.
  std::sort(reqs_.begin(), reqs_.begin() + num_reqs_, [](const Request& a, const Request& b) {
    return a.age != b.age ? a.age < b.age : a.slot < b.slot;
  });

  // Greedy scan: a request wins if neither its input port nor its output port
  // has been taken by an older request.
  for (int k = 0; k < num_reqs_; ++k) {
    const Request& r = reqs_[k];
    const int input = r.slot / vcs();
    if (grant_out_[input] >= 0 || output_busy_[r.output]) continue;
    grant_vc_[input] = r.slot - input * vcs();
    grant_out_[input] = r.output;
    output_busy_[r.output] = 1;
  }
}

}  // namespace kairo::router
