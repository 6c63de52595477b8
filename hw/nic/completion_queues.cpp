#include "hw/nic/completion_queues.h"

#include <algorithm>

#include "hw/nic/tni.h"

namespace kairo::nic {

void CompletionQueues::complete(Tni& t, std::uint64_t handle, RdmaStatus status) {
  completions_.push_back(Completion{handle, status, t.now()});
  if (t.probe_) t.probe_->add(t.probe_->completions, t.now(), 1);
  if (status != RdmaStatus::kOk) ++t.counters_.error_completions;
  t.counters_.completion_queue_high =
      std::max<std::uint32_t>(t.counters_.completion_queue_high, std::uint32_t(completions_.size()));
  if (t.listener_) t.listener_->tni_completion(t.listener_slot_);
}

void CompletionQueues::notice(Tni& t, const Notice& n) {
  notices_.push_back(n);
  if (t.probe_) t.probe_->add(t.probe_->notices, t.now(), 1);
  t.counters_.notice_queue_high =
      std::max<std::uint32_t>(t.counters_.notice_queue_high, std::uint32_t(notices_.size()));
  if (t.listener_) t.listener_->tni_notice(t.listener_slot_);
}

}  // namespace kairo::nic
