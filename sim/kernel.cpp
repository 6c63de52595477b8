#include "sim/kernel.h"

#include "sim/interrupt.h"

namespace kairo::sim {

namespace {
Time now_ps() { return Time(sc_core::sc_time_stamp().value()); }  // resolution is 1 ps
}  // namespace

Kernel::Kernel(sc_core::sc_module_name name, EventQueue& queue) : sc_module(name), queue_(queue) {
  SC_METHOD(step);
  sensitive << wake_event_;
  dont_initialize();
}

void Kernel::set_progress(std::function<void(double)> fn, double every_s) {
  progress_ = std::move(fn);
  progress_every_s_ = every_s;
}

void Kernel::start_of_simulation() { wake(); }

void Kernel::wake() {
  Time next = queue_.next_time();
  if (next == kNever || queue_.stopped() || next >= armed_at_) return;
  Time now = now_ps();
  armed_at_ = next;
  wake_event_.notify(sc_core::sc_time::from_value(next > now ? next - now : 0));
}

// One activation runs every queued event that no other SystemC process can
// interleave with: those at the current time and, while no other process has
// activity pending, every later one too (SystemC time then catches up at the
// next activation). The events run in the queue's own total order either
// way, so the result is the same as one activation per timestamp, without
// a SystemC timed notification for each of them.
void Kernel::step() {
  const Time now = now_ps();
  armed_at_ = kNever;
  if (queue_.stopped()) {  // the activation that brought SystemC's time to the stopping event
    sc_core::sc_stop();
    return;
  }
  queue_.set_now(now);
  const Time to_other = Time(sc_core::sc_time_to_pending_activity().value());
  const Time limit = to_other == 0 ? now : (now > kNever - to_other ? kNever : now + to_other - 1);
  for (;;) {
    // In chunks of 2^16 events: between them, a signal (sim/interrupt.h)
    // and the progress line.
    const std::uint64_t budget = next_check_ - std::min(next_check_, queue_.events_processed());
    queue_.run_until(limit, budget ? budget : 1);
    if (queue_.stopped()) {
      // SystemC's time follows to the stopping event's, then stops there.
      if (queue_.now() > now) return catch_up();
      sc_core::sc_stop();
      return;
    }
    if (queue_.events_processed() >= next_check_) {
      next_check_ = queue_.events_processed() + (1u << 16);
      if (interrupted()) {
        sc_core::sc_stop();
        return;
      }
      if (!progress_) continue;
      auto t = std::chrono::steady_clock::now();
      if (std::chrono::duration<double>(t - last_progress_).count() >= progress_every_s_) {
        last_progress_ = t;
        progress_(std::chrono::duration<double>(t - started_).count());
      }
      continue;
    }
    break;
  }
  if (queue_.empty() && queue_.now() > now) return catch_up();  // SystemC ends at the last event's time
  wake();
}

void Kernel::catch_up() {
  armed_at_ = queue_.now();
  wake_event_.notify(sc_core::sc_time::from_value(queue_.now() - now_ps()));
}

void Kernel::run() {
  // kairo reports how a run ended itself; SystemC's "stopped by user" note is noise.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  started_ = last_progress_ = std::chrono::steady_clock::now();
  {
    const InterruptibleScope scope;
    sc_core::sc_start();
  }
  throw_if_interrupted();
}

}  // namespace kairo::sim
