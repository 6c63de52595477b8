// What a router records into a waveform when it is traced (sim/trace.h).
// Per output port: `busy` (the link serializing a packet), `pkt` (the
// operation id + 1 of the packet on the link, 0 between packets), `vc` (the downstream VC it
// took) and `credit_stall` (a packet ready for this output waits because no
// downstream VC of its class has credits for it). Per input VC:
// `vcN_occupancy`, the flits its buffer holds (a packet counts from its head's
// arrival to its tail's departure). Ports or classes not selected keep
// kOff and record nothing.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/trace.h"

namespace kairo::router {

struct RouterProbe {
  static constexpr sim::Trace::Signal kOff = ~sim::Trace::Signal(0);
  struct Out {
    sim::Trace::Signal busy = kOff, pkt = kOff, vc = kOff, stall = kOff;
  };
  sim::Trace* trace = nullptr;
  std::vector<Out> out;                       // [port]
  std::vector<sim::Trace::Signal> occupancy;  // [port * vcs + vc]
  std::vector<std::uint8_t> stalled;          // [port]: credit_stall's current value
};

}  // namespace kairo::router
