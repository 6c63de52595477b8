// Oldest-first (age-based) switch allocator: a greedy matching in global age
// order, the policy used where starvation freedom and bounded latency matter
// more than arbiter area.
//
// Hardware view: every request carries an age stamp (smaller is older). The
// requests are ranked by (age, input, VC) -- the input and VC indices break
// ties the way a fixed-priority comparator tree would -- and granted in that
// order when both the request's input port and its output port are still
// free. The result is a maximal matching, and the oldest request in the
// router is always granted, so no request waits behind a younger one forever
// as long as new requests are stamped younger than waiting ones.
//
// Stateless between rounds: no priority pointers.
// not modeled: the sorting network's latency; allocation is instantaneous.
//
// Cost per allocate(): O(R log R) for R requests (at most inputs * vcs), in
// place; no heap allocation after construction.
//
// Stateless between rounds, so with shared_rounds every allocator of one
// shape works in the same arrays (a router's switch allocator does this, as
// RoundRobinAllocator's does: on the K computer the arrays would otherwise be
// 1.1 KiB per router). The grants are then valid until the next round of any
// allocator of the shape.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "hw/router/allocator.h"

namespace kairo::router {

class OldestFirstAllocator final : public Allocator {
 public:
  static constexpr const char* kName = "oldest_first";

  // Throws std::invalid_argument unless inputs, vcs and outputs are all >= 1.
  OldestFirstAllocator(int inputs, int vcs, int outputs, bool shared_rounds = false);
  OldestFirstAllocator(const OldestFirstAllocator&) = delete;  // r_ may point into a shared round
  OldestFirstAllocator& operator=(const OldestFirstAllocator&) = delete;

  void clear() override;
  // Throws std::out_of_range for an index outside the allocator and
  // std::logic_error for a second request from the same VC in one round.
  void add_request(int input, int vc, int output, std::uint64_t age) override;
  void allocate() override;
  int grant_vc(int input) const override { return r_->grant_vc[std::size_t(input)]; }
  int grant_output(int input) const override { return r_->grant_out[std::size_t(input)]; }

 private:
  struct Request {
    std::uint64_t age;
    int slot;  // input * vcs + vc: ranks ties by input, then VC
    int output;
  };

  // A round's working arrays. reqs holds its requests in arrival order,
  // [0, num_reqs) of a buffer sized for every VC of every input; `requested`
  // (per input*vcs + vc) catches a VC requesting twice.
  struct Round {
    Round(int inputs, int vcs, int outputs);
    std::vector<Request> reqs;
    int num_reqs = 0;
    std::vector<char> requested;
    std::vector<char> output_busy;  // per output: already granted this round
    std::vector<int> grant_vc, grant_out;
  };
  static Round* shared_round(int inputs, int vcs, int outputs);

  std::unique_ptr<Round> own_;  // unless shared
  Round* r_;
};

}  // namespace kairo::router
