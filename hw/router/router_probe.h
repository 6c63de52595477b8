// What a router records into a waveform when it is traced (sim/trace.h).
// Per output port: `busy` (the link serializing a packet), `pkt` (the label
// its sender gave the packet on the link, hw::Packet::label; 0 between
// packets), `vc` (the downstream VC it took) and `credit_stall` (a packet
// ready for this output waits because no downstream VC of its class has
// credits for it). Per input VC: `vcN_occupancy`, the flits its buffer holds
// (a packet counts from its head's arrival to its tail's departure). Class
// "alloc", on routers that have the feature only: `route` (minimal adaptive
// routing: 1 the packet on the link took an adaptive VC, 2 an escape VC, 3
// any VC: ejection), `vcs_held` (VC allocation stage: output VCs of this port
// held by packets) and `spec` (speculative switch allocation: a one-cycle
// pulse, 1 a grant used, 2 a grant lost for want of a VC). Class "credit",
// only when asked for: `vcN_credits` per output port and downstream VC, the
// free credits the sender holds (down at a VC grant, up when credits return).
// Ports or classes not selected keep kOff and record nothing.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/trace.h"

namespace kairo::router {

struct RouterProbe {
  static constexpr sim::Trace::Signal kOff = ~sim::Trace::Signal(0);
  struct Out {
    sim::Trace::Signal busy = kOff, pkt = kOff, vc = kOff, stall = kOff;
    sim::Trace::Signal route = kOff, held = kOff, spec = kOff;
  };
  sim::Trace* trace = nullptr;
  std::vector<Out> out;                       // [port]
  std::vector<sim::Trace::Signal> occupancy;  // [port * vcs + vc]
  std::vector<std::uint8_t> stalled;          // [port]: credit_stall's current value
  std::vector<sim::Trace::Signal> credits;    // [port * vcs + vc]: class "credit"
};

}  // namespace kairo::router
