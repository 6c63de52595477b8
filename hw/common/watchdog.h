// Deadlock watchdog: while packets are in the network, if nothing has moved
// for `timeout`, the run stops and reports every blocked port and VC. It is
// armed only while packets are in flight, so an idle network schedules
// nothing and a run still ends when its events run out. While a receiver
// holds packets it has not consumed (a NIC whose notice queue is full), the
// network is back-pressured, not deadlocked: the watchdog waits another
// timeout as long as anything else is still scheduled that could make the
// receiver consume; when nothing is, it stops watching and the run ends (a
// receiver that never consumes shows up as unfinished ranks, not as a hang).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "hw/common/network_activity.h"
#include "sim/event_queue.h"

namespace kairo::hw {

class Watchdog : public sim::EventTarget {
 public:
  // `report` collects the blocked ports and VCs when the watchdog fires.
  Watchdog(sim::EventQueue& q, NetworkActivity& act, sim::Time timeout_ps,
           std::function<std::vector<std::string>()> report)
      : q_(q), act_(act), timeout_(timeout_ps), report_(std::move(report)) {}

  // Called when the network goes from empty to non-empty.
  void arm() {
    if (armed_ || external_) return;
    armed_ = true;
    q_.at(q_.now() + timeout_, sim::kPrioLast, this, 0);
  }
  void on_event(std::uint32_t, std::uint32_t, void*) override {
    armed_ = false;
    if (act_.in_network == 0) return;
    const sim::Time now = q_.now();
    if (act_.last_progress_ps + timeout_ > now) {
      armed_ = true;
      q_.at(act_.last_progress_ps + timeout_, sim::kPrioLast, this, 0);
      return;
    }
    if (act_.held > 0) {
      if (q_.empty()) return;  // nothing left that could ever consume: let the run end
      armed_ = true;
      q_.at(now + timeout_, sim::kPrioLast, this, 0);
      return;
    }
    fired_ = true;
    blocked_ = report_();
    q_.stop();
  }

  // A partitioned run watches the whole network between windows instead
  // (sim::StillnessWatch): this watchdog schedules nothing, and the run
  // reports what it found through fire().
  void set_external() { external_ = true; }
  void fire(std::vector<std::string> blocked) {
    fired_ = true;
    blocked_ = std::move(blocked);
  }
  std::vector<std::string> report() const { return report_(); }

  bool fired() const { return fired_; }
  bool armed() const { return armed_; }  // it has an event pending
  const std::vector<std::string>& blocked() const { return blocked_; }
  sim::Time timeout_ps() const { return timeout_; }

 private:
  sim::EventQueue& q_;
  NetworkActivity& act_;
  sim::Time timeout_;
  std::function<std::vector<std::string>()> report_;
  bool armed_ = false, fired_ = false, external_ = false;
  std::vector<std::string> blocked_;
};

}  // namespace kairo::hw
