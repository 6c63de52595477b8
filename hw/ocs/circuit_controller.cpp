#include "hw/ocs/circuit_controller.h"

#include <fmt/format.h>

namespace kairo::ocs {

CircuitController::CircuitController(sim::EventQueue& q, OcsFabric& data, const ClosShape& shape,
                                     ClosMode mode, sim::Time reconfiguration_ps)
    : sim::EventTarget(sim::EventBlock::kOcs),
      q_(q),
      data_(data),
      clos_(shape, mode),
      delay_(reconfiguration_ps),
      generation_(std::size_t(data.ports()), 0) {
  if (clos_.endpoints() < data.ports())
    throw std::invalid_argument(fmt::format("ocs: the Clos fabric has {} ports for {} optical NICs",
                                            clos_.endpoints(), data.ports()));
  data_.on_up = [this](int in, sim::Time) { note(in, data_.output_of(in), "up"); };
}

void CircuitController::note(int in, int out, std::string what) {
  log_.push_back(CircuitEvent{q_.now(), in, out, std::move(what)});
}

// `in` goes dark now and comes up onto `out` after the delay.
void CircuitController::begin_setup(int in, int out, const char* what) {
  ++reconfigurations_;
  note(in, out, what);
  data_.set_state(in, PortState::kSettingUp, out);
  const std::uint64_t g = ++generation_[std::size_t(in)];
  q_.at(q_.now() + delay_, sim::kPrioState, this, kUpDue, std::uint32_t(in), reinterpret_cast<void*>(g));
}

std::string CircuitController::setup(int in, int out) { return place(in, out, false); }
std::string CircuitController::preset(int in, int out) { return place(in, out, true); }

std::string CircuitController::place(int in, int out, bool at_once) {
  if (in < 0 || in >= data_.ports() || out < 0 || out >= data_.ports()) {
    ++refused_;
    const std::string why = fmt::format("port {} -> {}: ports are 0 to {}", in, out, data_.ports() - 1);
    note(in, out, "refused: " + why);
    return why;
  }
  if (data_.state(in) == PortState::kTearingDown) {
    ++refused_;
    note(in, out, "refused: port is tearing down");
    return fmt::format("port {}: its circuit is still being torn down", in);
  }
  ConnectResult r = clos_.connect(in, out);
  if (!r) {
    ++refused_;
    note(in, out, "refused: " + r.reason);
    return r.reason;
  }
  for (const CircuitMove& m : r.moved) begin_setup(m.input, m.output, "moved");
  if (!at_once) {
    begin_setup(in, out, "setup");
  } else {
    note(in, out, "preset");
    data_.set_state(in, PortState::kUp, out);
  }
  return {};
}

std::string CircuitController::teardown(int in) {
  if (in < 0 || in >= data_.ports() || !clos_.output_of(in)) {
    ++refused_;
    note(in, -1, "refused: no circuit to tear down");
    return fmt::format("port {}: no circuit to tear down", in);
  }
  const int out = *clos_.output_of(in);
  ++reconfigurations_;
  note(in, out, "teardown");
  data_.set_state(in, PortState::kTearingDown, out);
  const std::uint64_t g = ++generation_[std::size_t(in)];
  q_.at(q_.now() + delay_, sim::kPrioState, this, kDarkDue, std::uint32_t(in), reinterpret_cast<void*>(g));
  return {};
}

void CircuitController::withdraw(int in, int out) {
  clos_.disconnect(in);
  ++generation_[std::size_t(in)];
  data_.set_state(in, PortState::kDark, -1);
  note(in, out, "setup withdrawn");
}

std::string CircuitController::pathway(int a, int b) { return both_ways(a, b, false); }
std::string CircuitController::preset_pathway(int a, int b) { return both_ways(a, b, true); }

// a -> b and b -> a, or neither: the fabric never keeps half a pathway.
std::string CircuitController::both_ways(int a, int b, bool at_once) {
  if (std::string why = place(a, b, at_once); !why.empty()) return why;
  if (std::string why = place(b, a, at_once); !why.empty()) {
    withdraw(a, b);
    return why;
  }
  return {};
}

void CircuitController::on_event(std::uint32_t kind, std::uint32_t arg, void* ptr) {
  const int in = int(arg);
  if (reinterpret_cast<std::uint64_t>(ptr) != generation_[std::size_t(in)]) return;  // superseded
  if (kind == kUpDue) {
    data_.set_state(in, PortState::kUp, data_.output_of(in));
  } else if (kind == kDarkDue) {
    clos_.disconnect(in);
    note(in, data_.output_of(in), "dark");
    data_.set_state(in, PortState::kDark, -1);
  }
}

}  // namespace kairo::ocs
