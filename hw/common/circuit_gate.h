// A network interface whose channel goes through an optical circuit
// (hw/ocs) instead of a packet switch: it reaches only the node its circuit
// leads to, and only while that circuit is up. The RDMA engine asks before
// it starts a command or sends a packet; a circuit that is down, still being
// set up or being torn down is either waited for or reported as an error
// (CircuitPolicy), never a packet lost on a dark fibre.
#pragma once
#include <cstdint>
#include <functional>

namespace kairo::hw {

enum class CircuitPolicy : std::uint8_t {
  kHold,   // commands and packets wait for the circuit
  kError,  // a command whose circuit is not up completes with an error;
           // packets of an operation already started still wait
};

class CircuitGate {
 public:
  virtual ~CircuitGate() = default;
  // True when this port's circuit is up and leads to `node`.
  virtual bool open_to(std::uint32_t node) const = 0;
  // `wake` runs (at the time of the change) whenever this port's circuit
  // changes state. One listener per port.
  virtual void on_change(std::function<void()> wake) = 0;
  virtual CircuitPolicy policy() const = 0;
};

}  // namespace kairo::hw
