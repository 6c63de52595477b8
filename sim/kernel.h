// The bridge between SystemC's kernel and kairo's event queue. One SC_METHOD
// wakes at each distinct timestamp that holds network events, drains them, and
// re-arms itself for the next one: idle time between events costs nothing.
// Other SystemC processes (NIC firmware threads, TLM targets) that schedule
// network events call wake() so the bridge re-arms for an earlier time.
#pragma once
#include <chrono>
#include <functional>
#include <systemc>

#include "sim/event_queue.h"

namespace kairo::sim {

class Kernel : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Kernel);
  Kernel(sc_core::sc_module_name name, EventQueue& queue);

  // Re-arm for the queue's earliest event (call after scheduling from a
  // SystemC process other than the bridge).
  void wake();
  // Called roughly every `every_s` wall seconds while running, for progress.
  void set_progress(std::function<void(double wall_s)> fn, double every_s = 2.0);

  // Run the simulation until the queue drains or stop() is called on it.
  void run();

 private:
  void start_of_simulation() override;
  void step();
  void catch_up();  // one more activation, at the queue's time

  EventQueue& queue_;
  sc_core::sc_event wake_event_;
  Time armed_at_ = kNever;
  std::function<void(double)> progress_;
  double progress_every_s_ = 2.0;
  std::chrono::steady_clock::time_point started_, last_progress_;
  std::uint64_t next_check_ = 1u << 16;  // events processed at the next look at signals and progress
};

}  // namespace kairo::sim
