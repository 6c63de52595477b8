// What a node's host (the firmware's rank) sees of one RDMA engine: the
// doorbell of its command queue, its completion and notice queues, and who
// is told when they change. The engine (hw/nic/tni.h) implements it; firmware
// and workloads know engines only through this interface and the plain data
// of rdma_types.h.
#pragma once
#include <optional>

#include "hw/nic/rdma_types.h"

namespace kairo::nic {

// Who hears of an engine's completions, notices and command-queue space (the
// firmware runtime's rank), with the slot it gave.
class TniListener {
 public:
  virtual ~TniListener() = default;
  virtual void tni_completion(int slot) = 0;
  virtual void tni_notice(int slot) = 0;
  virtual void tni_command_space(int slot) = 0;
};

class HostInterface {
 public:
  virtual ~HostInterface() = default;
  // Queue a command; false (nothing queued) when the command queue is full.
  virtual bool post(const Command& c) = 0;
  // The oldest entry of each queue, taken out (the engine then resumes what waited for room).
  virtual std::optional<Completion> poll_completion() = 0;
  virtual std::optional<Notice> poll_notice() = 0;
  // Told (synchronously) when an entry is appended, or a command leaves a
  // full queue: lets firmware wake. `slot` is echoed back.
  virtual void set_listener(TniListener* l, int slot) = 0;
  virtual const TniCounters& counters() const = 0;
};

}  // namespace kairo::nic
