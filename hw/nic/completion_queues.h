// The two queues an RDMA engine fills for its owner: the completion queue
// (one entry per operation this engine started, when it is over, with its
// status) and the notice queue (one entry per put with a notice that landed
// here: tag, source, length). Each appended entry is told to the listener
// (the firmware's rank) at once; the high-water marks go to the counters.
// Neither queue ever drops: the command queue reserves completion room
// before it starts a command, and the receive engine waits for notice room
// (CommandQueue, ReceiveEngine).
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>

#include "hw/nic/rdma_types.h"
#include "sim/ring.h"

namespace kairo::nic {

struct Engine;

class CompletionQueues {
 public:
  // Operation `number` (of kind `op`, the caller's `handle`) is over with `status`.
  void complete(Engine& e, std::uint64_t number, Op op, std::uint64_t handle, RdmaStatus status);
  void notice(Engine& e, const Notice& n);

  // The owner takes the oldest entry (the engine then resumes what waited for room).
  std::optional<Completion> poll_completion() {
    if (completions_.empty()) return std::nullopt;
    Completion c = completions_.front();
    completions_.pop_front();
    return c;
  }
  std::optional<Notice> poll_notice() {
    if (notices_.empty()) return std::nullopt;
    Notice n = notices_.front();
    notices_.pop_front();
    return n;
  }

  std::size_t completions() const { return completions_.size(); }
  std::size_t notices() const { return notices_.size(); }

 private:
  sim::Ring<Completion> completions_;
  sim::Ring<Notice> notices_;
};

}  // namespace kairo::nic
