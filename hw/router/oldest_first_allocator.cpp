// Oldest-first greedy allocation: see oldest_first_allocator.h.
#include "hw/router/oldest_first_allocator.h"

#include <algorithm>
#include <array>
#include <map>
#include <stdexcept>
#include <string>

namespace kairo::router {

OldestFirstAllocator::Round::Round(int inputs, int vcs, int outputs)
    : reqs(std::size_t(inputs) * std::size_t(vcs)),
      requested(reqs.size(), 0),
      output_busy(std::size_t(outputs), 0),
      grant_vc(std::size_t(inputs), -1),
      grant_out(std::size_t(inputs), -1) {}

OldestFirstAllocator::Round* OldestFirstAllocator::shared_round(int inputs, int vcs, int outputs) {
  static std::map<std::array<int, 3>, std::unique_ptr<Round>> rounds;
  auto& r = rounds[{inputs, vcs, outputs}];
  if (!r) r = std::make_unique<Round>(inputs, vcs, outputs);
  return r.get();
}

OldestFirstAllocator::OldestFirstAllocator(int inputs, int vcs, int outputs, bool shared_rounds)
    : Allocator(inputs, vcs, outputs) {
  uses_age_ = true;
  if (inputs < 1 || vcs < 1 || outputs < 1) {
    throw std::invalid_argument(
        "oldest_first switch allocator needs at least one input, VC and output, got " +
        shape_text(inputs, vcs, outputs));
  }
  if (shared_rounds) {
    r_ = shared_round(inputs, vcs, outputs);
  } else {
    own_ = std::make_unique<Round>(inputs, vcs, outputs);
    r_ = own_.get();
  }
}

void OldestFirstAllocator::clear() {
  Round& r = *r_;
  for (int k = 0; k < r.num_reqs; ++k) r.requested[std::size_t(r.reqs[std::size_t(k)].slot)] = 0;
  r.num_reqs = 0;
  std::fill(r.grant_vc.begin(), r.grant_vc.end(), -1);
  std::fill(r.grant_out.begin(), r.grant_out.end(), -1);
}

void OldestFirstAllocator::add_request(int input, int vc, int output, std::uint64_t age) {
  if (input < 0 || input >= inputs() || vc < 0 || vc >= vcs() || output < 0 || output >= outputs()) {
    reject_request(kName, input, vc, output, false);
  }
  Round& r = *r_;
  char& seen = r.requested[std::size_t(input * vcs() + vc)];
  if (seen) reject_request(kName, input, vc, output, true);
  seen = 1;
  r.reqs[std::size_t(r.num_reqs++)] = Request{age, input * vcs() + vc, output};
}

void OldestFirstAllocator::allocate() {
  Round& rd = *r_;
  std::fill(rd.grant_vc.begin(), rd.grant_vc.end(), -1);
  std::fill(rd.grant_out.begin(), rd.grant_out.end(), -1);
  std::fill(rd.output_busy.begin(), rd.output_busy.end(), 0);

  // Rank: older first; equal ages resolved by the lower input, then the lower
  // VC, so the outcome never depends on the order requests were raised in.
  // (input, vc) is unique per round, so the order is total.
  std::sort(rd.reqs.begin(), rd.reqs.begin() + rd.num_reqs, [](const Request& a, const Request& b) {
    return a.age != b.age ? a.age < b.age : a.slot < b.slot;
  });

  // Greedy scan: a request wins if neither its input port nor its output port
  // has been taken by an older request.
  for (int k = 0; k < rd.num_reqs; ++k) {
    const Request& r = rd.reqs[std::size_t(k)];
    const int input = r.slot / vcs();
    if (rd.grant_out[std::size_t(input)] >= 0 || rd.output_busy[std::size_t(r.output)]) continue;
    rd.grant_vc[std::size_t(input)] = r.slot - input * vcs();
    rd.grant_out[std::size_t(input)] = r.output;
    rd.output_busy[std::size_t(r.output)] = 1;
  }
}

}  // namespace kairo::router
