// The command queue of an RDMA engine (Tofu TNI's descriptor queue), with
// the table of the operations its commands started and that have not yet
// completed.
//
// A posted command waits the node latency (doorbell, descriptor fetch,
// memory latency) and then becomes active; the engine works on one command
// at a time, in order, until its last packet is on its way. Starting checks
// the command (length, rank, TNI, local key; an optical engine's circuit): a
// command that fails completes at once with its status and sends nothing,
// one that passes becomes an operation in flight whose packets the transmit
// engine makes. Back-pressure, never a drop:
//   post() refuses when the queue is full; the firmware waits for space
//   a command starts only when the completion queue has room for its
//     completion counting the operations in flight (a reservation, like
//     hardware CQ credits): a full completion queue stalls the queue until
//     the owner polls a completion
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

#include "hw/nic/memory_registry.h"
#include "hw/nic/rdma_types.h"
#include "sim/ring.h"
#include "sim/time.h"

namespace kairo::nic {

class Tni;

// The engine's blocks work on the engine as a whole (`t`: its context,
// counters, probe and other blocks), which is passed in rather than kept, so
// that a block adds no pointers to each of a machine's many engines.
class CommandQueue {
 public:
  // An operation this engine started, until its completion.
  struct TxOp {
    Command cmd;
    std::uint64_t local_address = 0;
    std::uint64_t pieces = 0, pieces_done = 0;
  };

  // Queue a command; false (nothing queued) when the queue is full.
  bool post(Tni& t, const Command& c);
  // Schedules the front command's activation, unless a command is active or
  // its completion would have no room (then it stalls until resume()).
  void start_next(Tni& t);
  // The front command's node latency has passed (Tni::kActivate).
  void activate(Tni& t);
  // The active command's last packet is on its way: the next one may start.
  void command_sent(Tni& t) {
    busy_ = false;
    start_next(t);
  }
  // The owner polled a completion: a stalled command may start.
  void resume(Tni& t);

  bool stalled() const { return cq_stalled_; }  // on completion-queue room
  std::size_t size() const { return commands_.size(); }
  // Operation `id` (in flight).
  TxOp& operation(std::uint64_t id) { return ops_[std::size_t(id - first_op_)].op; }
  // The status operation `id` is to complete with: kOk unless part of a get's
  // answer failed (the data could not be read at the target or written here).
  RdmaStatus& status(std::uint64_t id) { return ops_[std::size_t(id - first_op_)].status; }
  // Operation `id` is over: forget it (before its completion is raised, so
  // that the room it reserved is free) and return its caller's handle.
  std::uint64_t retire(std::uint64_t id) {
    Slot& s = ops_[std::size_t(id - first_op_)];
    s.live = false;
    --live_ops_;
    const std::uint64_t handle = s.op.cmd.handle;
    while (!ops_.empty() && !ops_.front().live) ops_.pop_front(), ++first_op_;
    return handle;
  }

 private:
  bool completion_room(const Tni& t) const;
  RdmaStatus check(const Tni& t, const Command& c, Resolution* local) const;

  sim::Ring<std::pair<sim::Time, Command>> commands_;  // posted, with the time each becomes active
  // The operations in flight, as the engine's operation table: ids are
  // handed out in order, so the table is a ring from the oldest operation
  // still in flight (id first_op_) to the newest, indexed by id; one that
  // finishes before an older one stays as a hole until the older one is
  // over too. No hashing and no heap node per operation.
  struct Slot {
    TxOp op;
    bool live = false;
    RdmaStatus status = RdmaStatus::kOk;  // beside `live`: no room taken
  };
  sim::Ring<Slot> ops_;
  std::uint64_t first_op_ = 1;  // the id of ops_.front()
  std::uint64_t next_op_ = 1;
  std::uint32_t live_ops_ = 0;
  bool busy_ = false;  // a command is active
  bool activate_pending_ = false;
  bool cq_stalled_ = false;  // a command waits for completion-queue room
};

}  // namespace kairo::nic
