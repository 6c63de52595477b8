// The operations an RDMA engine started and that are not over yet, as the
// engine's operation table: an operation is known by its command's number
// (the K-th command posted on the engine, from 1), which its packets carry
// and its responses bring back. Commands start in order, so the table is a
// ring from the oldest operation still in flight to the newest, indexed by
// number; one that finishes before an older one stays as a hole until the
// older one is over too, and a command that failed its checks (no operation)
// leaves a hole of its own. No hashing and no heap node per operation.
#pragma once
#include <cstdint>

#include "hw/nic/rdma_types.h"
#include "sim/ring.h"

namespace kairo::nic {

class OperationTable {
 public:
  struct Entry {
    Command cmd;
    std::uint64_t local_address = 0;
    std::uint64_t pieces = 0, pieces_done = 0;  // a get's data packets, an atomic's one response
    // The status the operation completes with: kOk unless part of a get's
    // answer failed (the data could not be read at the target or written here).
    RdmaStatus status = RdmaStatus::kOk;
    bool completed = false;  // its completion is posted (a put's local completion), it is not over
    bool live = false;
  };

  // Operation `number` (above every number added before) has started.
  Entry& add(std::uint64_t number, const Command& c, std::uint64_t local_address, std::uint64_t pieces) {
    if (ops_.empty()) first_ = number;
    while (first_ + ops_.size() < number) ops_.push_back(Entry{});  // a failed command's hole
    ops_.push_back(Entry{c, local_address, pieces, 0, RdmaStatus::kOk, false, true});
    ++live_;
    return ops_.back();
  }
  // Operation `number` (in flight).
  Entry& operator[](std::uint64_t number) { return ops_[std::size_t(number - first_)]; }
  // Operation `number` is over: forget it.
  void retire(std::uint64_t number) {
    ops_[std::size_t(number - first_)].live = false;
    --live_;
    while (!ops_.empty() && !ops_.front().live) ops_.pop_front(), ++first_;
  }
  // Operations in flight.
  std::uint32_t live() const { return live_; }

 private:
  sim::Ring<Entry> ops_;
  std::uint64_t first_ = 1;  // the number of ops_.front()
  std::uint32_t live_ = 0;
};

}  // namespace kairo::nic
