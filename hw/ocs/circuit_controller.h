// The circuit controller of an OCS fabric (Takizawa et al. 2008 §2): takes set-up and
// tear-down requests (from the platform before the run, or from firmware
// during it), places circuits in the Clos fabric (hw/ocs/clos_fabric.h),
// and applies them to the data plane (hw/ocs/ocs_fabric.h) after the MEMS
// reconfiguration delay:
//   setup(in, out) at t ..... port `in` is kSettingUp from t, kUp from
//                             t + delay (once drained); a request the Clos
//                             fabric refuses (a busy port, or blocking in
//                             the non-rearrangeable mode) changes nothing and
//                             is reported, with the reason, in the result
//                             and the log
//   rearrangement ........... every circuit Paull's algorithm moves to another
//                             middle path goes dark for the delay too
//                             (kSettingUp from t, kUp from t + delay)
//   teardown(in) at t ....... kTearingDown from t (traffic refused at once),
//                             kDark from t + delay, when the output is free
//                             for another circuit
//   pathway(a, b) ........... the two circuits a -> b and b -> a
// The log lists every request and every state change with its time, for the
// run's results and tests.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "hw/ocs/clos_fabric.h"
#include "hw/ocs/ocs_fabric.h"
#include "sim/event_queue.h"

namespace kairo::ocs {

struct CircuitEvent {
  sim::Time time_ps = 0;
  int in = -1, out = -1;
  std::string what;  // "setup requested", "up", "moved", "teardown requested", "dark", "refused: ..."
};

class CircuitController : public sim::EventTarget {
 public:
  CircuitController(sim::EventQueue& q, OcsFabric& data, const ClosShape& shape, ClosMode mode,
                    sim::Time reconfiguration_ps);

  // Empty on success; otherwise why nothing was done.
  std::string setup(int in, int out);
  std::string teardown(int in);
  std::string pathway(int a, int b);  // both directions, or neither
  // A circuit configured before the run: up at once, no delay, not counted
  // as a reconfiguration. Only before the run starts.
  std::string preset(int in, int out);
  std::string preset_pathway(int a, int b);  // both directions, or neither

  const ClosFabric& clos() const { return clos_; }
  sim::Time reconfiguration_ps() const { return delay_; }
  const std::vector<CircuitEvent>& log() const { return log_; }
  std::uint64_t requests_refused() const { return refused_; }
  // Circuit set-ups, moves and tear-downs begun, and the port-time they
  // took in total (each costs the reconfiguration delay).
  std::uint64_t reconfigurations() const { return reconfigurations_; }

  void on_event(std::uint32_t kind, std::uint32_t arg, void* ptr) override;

 private:
  enum Kind : std::uint32_t { kUpDue = 1, kDarkDue = 2 };
  void begin_setup(int in, int out, const char* what);
  std::string place(int in, int out, bool at_once);
  void withdraw(int in, int out);
  std::string both_ways(int a, int b, bool at_once);
  void note(int in, int out, std::string what);

  sim::EventQueue& q_;
  OcsFabric& data_;
  ClosFabric clos_;
  sim::Time delay_;
  std::vector<std::uint64_t> generation_;  // per input: stale due events are ignored
  std::vector<CircuitEvent> log_;
  std::uint64_t refused_ = 0, reconfigurations_ = 0;
};

}  // namespace kairo::ocs
