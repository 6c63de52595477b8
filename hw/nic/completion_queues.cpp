#include "hw/nic/completion_queues.h"

#include <algorithm>

#include "hw/nic/engine.h"

namespace kairo::nic {

void CompletionQueues::complete(Engine& e, std::uint64_t number, Op op, std::uint64_t handle,
                                RdmaStatus status) {
  completions_.push_back(Completion{handle, status, e.now(), op, number});
  if (e.logging()) {
    observe::OpRecord r = e.record(observe::OpEvent::kComplete);
    r.op.number = number;
    r.kind = operation_kind(op);
    r.status = std::uint8_t(status);
    e.log(r);
  }
  if (e.probe) e.probe->add(e.probe->completions, e.now(), 1);
  if (status != RdmaStatus::kOk) ++e.counters.error_completions;
  e.counters.completion_queue_high =
      std::max<std::uint32_t>(e.counters.completion_queue_high, std::uint32_t(completions_.size()));
  if (e.listener) e.listener->tni_completion(e.listener_slot);
}

void CompletionQueues::notice(Engine& e, const Notice& n) {
  notices_.push_back(n);
  if (e.logging()) {
    observe::OpRecord r = e.record(observe::OpEvent::kNotice);
    r.op = {n.src_node, n.src_tni, n.op};
    r.tag = n.tag;
    r.bytes = n.length;
    r.peer = n.src_node;
    e.log(r);
  }
  if (e.probe) e.probe->add(e.probe->notices, e.now(), 1);
  e.counters.notice_queue_high =
      std::max<std::uint32_t>(e.counters.notice_queue_high, std::uint32_t(notices_.size()));
  if (e.listener) e.listener->tni_notice(e.listener_slot);
}

}  // namespace kairo::nic
