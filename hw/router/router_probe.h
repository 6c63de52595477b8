// What a router records into a waveform when it is traced (sim/trace.h).
// Per output port: `busy` (the link serializing a packet), `pkt` (the label
// its sender gave the packet on the link, hw::Packet::label; 0 between
// packets), `vc` (the downstream VC it took) and `credit_stall` (the
// output is free and a packet ready for it waits because no downstream VC of
// its class has credits for it: on from the allocation round that finds
// such a packet, or from the instant the output is free again after a
// departure while one found so still waits, off at the next departure). Per input VC: `vcN_occupancy`, the
// flits its buffer holds (a packet counts from its head's arrival to its tail's departure). Class "alloc", on
// routers that have the feature only: `route` (minimal adaptive routing: 1 the packet on the link took an
// adaptive VC, 2 an escape VC, 3 any VC: ejection), `vcs_held` (VC allocation stage: output VCs of this port
// held by packets) and `spec` (speculative switch allocation: a one-cycle
// pulse, 1 a grant used, 2 a grant lost for want of a VC). Class "credit",
// only when asked for: `vcN_credits` per output port and downstream VC, the
// free credits the sender holds (down at a VC grant, up when credits return).
// Ports or classes not selected keep kOff and record nothing.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/time.h"
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
  // credit_stall's state: per output the time from which it is on (kNever:
  // off) and the heads found short of credits for it that still wait; per
  // input VC whether its head is one of them.
  std::vector<sim::Time> stall_from;           // [port]
  std::vector<std::uint16_t> short_heads;      // [port]
  std::vector<std::uint8_t> short_of_credits;  // [port * vcs + vc]
  std::vector<sim::Trace::Signal> credits;     // [port * vcs + vc]: class "credit"
};

}  // namespace kairo::router
