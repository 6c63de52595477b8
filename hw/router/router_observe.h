// What a router (hw/router/router.h) reports about each of its ports: the
// link counters (PortCounters) as the counter log's link columns, the
// dimension a port runs along, and its waveform signals (RouterProbe).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hw/common/topology.h"
#include "hw/router/router.h"
#include "observe/registry.h"

namespace kairo::router {

// A port's counters with `vcs` zero-credit times (the widest router's VCs).
std::vector<observe::Counter> port_counters(int vcs);
// Port `port`'s running totals at `now` into out (port_counters(vcs) order);
// VCs the router does not have read 0.
void read_port(Router& r, int port, sim::Time now, int vcs, std::uint64_t* out);
// The "alloc" table's counters (AllocCounters), and port `port`'s running
// totals in that order.
std::vector<observe::Counter> alloc_counters();
void read_alloc(const Router& r, int port, std::uint64_t* out);
// The dimension a port runs along: "ni" for a network interface, the
// topology's name on a mesh/torus ("X"), the port name's prefix on a switch
// ("up", "down", "wan").
std::string port_dim_name(const Router& r, int port, const Topology* topo);

// Per output port, class "link": busy (the link serializing a packet), pkt
// (the label of the packet on the link, hw::Packet::label, 0 between
// packets), vc (the downstream VC it took), credit_stall (a ready packet
// waits for downstream credits).
inline constexpr const char* kLinkClass = "link";
inline constexpr observe::Signal<RouterProbe::Out> kPortSignals[] = {
    {"busy", 1, false, kLinkClass, &RouterProbe::Out::busy},
    {"pkt", 64, false, kLinkClass, &RouterProbe::Out::pkt},
    {"vc", 4, false, kLinkClass, &RouterProbe::Out::vc},
    {"credit_stall", 1, false, kLinkClass, &RouterProbe::Out::stall},
};
// Per input VC, class "vc": vcN_occupancy, the flits its buffer holds.
inline constexpr const char* kOccupancyClass = "vc";
// A router whose allocator is the Verilated RTL, class "rtl": its wires
// (RtlSeparableAllocator::trace) under <router>.alloc.
inline constexpr const char* kAllocatorClass = "rtl";
// Class "alloc": route (adaptive routing, a dragonfly's Valiant or UGAL),
// vcs_held and spec (VC allocation stage), registered only on routers that
// have the feature.
inline constexpr const char* kAllocationClass = "alloc";
// The values of `route` and `spec`, by name.
inline constexpr sim::Trace::State kRouteStateNames[] = {
    {0, "none"}, {1, "adaptive"}, {2, "escape"}, {3, "minimal"}, {4, "valiant"}};
inline constexpr sim::Trace::States kRouteStates = {"route", kRouteStateNames, 5};
inline constexpr sim::Trace::State kSpecStateNames[] = {{0, "none"}, {1, "used"}, {2, "lost"}};
inline constexpr sim::Trace::States kSpecStates = {"spec", kSpecStateNames, 3};
// Class "credit", traced only when --trace-signals names it (so a default
// selection's waveform keeps its bytes): per output port and downstream VC,
// vcN_credits, the free credits (flits) the sender holds for that VC: down
// by a packet's flits when it is granted the VC, up when the credits come
// back from downstream.
inline constexpr const char* kCreditClass = "credit";

// A probe for `r` recording into `trace`, every signal off.
std::unique_ptr<RouterProbe> new_probe(const Router& r, sim::Trace& trace);
// Adds port `port`'s signals of the selected classes under `scope`
// ("rtr_x0y0.xp.") and points `probe` at them (its out and occupancy sized
// for the router); true if any was added. At elaboration only. The "alloc"
// signals only where the router has the feature (`adaptive`: adaptive or
// non-minimal routing; a VC allocation stage; speculation).
bool add_port_signals(sim::Trace& trace, const std::string& scope, RouterProbe& probe, int port, int vcs,
                      const std::function<bool(const char*)>& selected, bool adaptive = false,
                      bool staged = false, bool speculative = false);

// Class "credit": port `port`'s vcN_credits under `scope`, each starting at
// the router's free credits now (the receiver's buffer per VC, before the
// run) and as wide as that count needs. At elaboration only.
void add_credit_signals(sim::Trace& trace, const std::string& scope, RouterProbe& probe, const Router& r,
                        int port);

}  // namespace kairo::router
