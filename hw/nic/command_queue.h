// The command queue of an RDMA engine (Tofu TNI's descriptor queue).
//
// A posted command gets its number (the K-th command posted here, from 1:
// the operation's id in the operation log) and waits the node latency
// (doorbell, descriptor fetch, memory latency); then it becomes active. The
// engine works on one command at a time, in order, until its last packet is
// on its way. Starting checks the command (length, rank, TNI, local key; an
// optical engine's circuit): a command that fails completes at once with its
// status and sends nothing, one that passes becomes an operation in flight
// whose handler (operation.h) makes its packets. Back-pressure, never a drop:
//   post() refuses when the queue is full; the firmware waits for space
//   a command starts only when the completion queue has room for its
//     completion counting the operations in flight (a reservation, like
//     hardware CQ credits): a full completion queue stalls the queue until
//     the owner polls a completion
// A command with the fence flag starts only once every earlier command of
// the queue has completed: it starts at the later of its node latency's end
// and the last of those completions.
#pragma once
#include <cstddef>
#include <cstdint>

#include "hw/nic/memory_registry.h"
#include "hw/nic/rdma_types.h"
#include "sim/ring.h"
#include "sim/time.h"

namespace kairo::nic {

struct Engine;

class CommandQueue {
 public:
  // Queue a command; false (nothing queued) when the queue is full.
  bool post(Engine& e, const Command& c);
  // Schedules the front command's activation, unless a command is active or
  // its completion would have no room (then it stalls until resume()).
  void start_next(Engine& e);
  // The front command's node latency has passed (kActivate).
  void activate(Engine& e);
  // The active command's last packet is on its way: the next one may start.
  void command_sent(Engine& e) {
    busy_ = false;
    start_next(e);
  }
  // An operation this queue started has completed: a fence may hold no more.
  void operation_completed(Engine& e);
  // The owner polled a completion: a stalled command may start.
  void resume(Engine& e);

  bool stalled() const { return cq_stalled_; }  // on completion-queue room
  std::size_t size() const { return commands_.size(); }

 private:
  bool completion_room(const Engine& e) const;
  RdmaStatus check(const Engine& e, const Command& c, Resolution* local) const;
  void log_start(const Engine& e, std::uint64_t number, const Command& c, RdmaStatus s,
                 const Resolution& local) const;

  struct Posted {
    sim::Time active_at = 0;  // when its node latency is over
    std::uint64_t number = 0;
    Command cmd;
  };
  sim::Ring<Posted> commands_;
  std::uint64_t next_number_ = 1;
  std::uint32_t incomplete_ = 0;  // operations started and not yet completed
  bool busy_ = false;             // a command is active
  bool activate_pending_ = false;
  bool cq_stalled_ = false;  // a command waits for completion-queue room
  bool fence_wait_ = false;  // the front command is a fence waiting for earlier completions
};

}  // namespace kairo::nic
