// What a router (hw/router/router.h) reports about each of its ports: the
// link counters (PortCounters) as the counter log's link columns, their
// state for a split run's transfer, the dimension a port runs along, and its
// waveform signals (RouterProbe) with the recording that attaches them.
#pragma once
#include <cstdint>
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
std::string port_dim_name(const Router& r, int port, const hw::Topology* topo);

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

// Router r's waveform recording of what `f` selects, under r.name(): its
// allocator's own wires (class "rtl", an allocator that has any: the
// Verilated RTL), and the signals of its connected ports along the selected
// dimensions (`topo` names them; null on a switched fabric); the "alloc"
// signals only where the router has the feature. `packets`, when given,
// names the values of each port's `pkt` (an RDMA machine's packet labels).
// Null when the selection leaves the router nothing. At elaboration only.
std::unique_ptr<observe::Recording> record(Router& r, const hw::Topology* topo, const observe::TraceFilter& f,
                                           sim::Trace& trace, const sim::Trace::States* packets);

// A port's state for another process's copy of the router (observe::State):
// whether it carried a packet, and its counters with what reading them needs.
bool port_touched(const Router& r, int port);
void save_port(const Router& r, int port, sim::ByteWriter& w);
void load_port(Router& r, int port, sim::ByteReader& in);

}  // namespace kairo::router
