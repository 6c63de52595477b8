// What a router (hw/router/router.h) reports about each of its ports: the
// link counters (PortCounters) as the counter log's link columns, the
// dimension a port runs along, and its waveform signals (RouterProbe).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "hw/router/router.h"
#include "hw/router/topology.h"
#include "observe/registry.h"

namespace kairo::router {

// A port's counters with `vcs` zero-credit times (the widest router's VCs).
std::vector<observe::Counter> port_counters(int vcs);
// Port `port`'s running totals at `now` into out (port_counters(vcs) order);
// VCs the router does not have read 0.
void read_port(Router& r, int port, sim::Time now, int vcs, std::uint64_t* out);
// The dimension a port runs along: "ni" for a network interface, the
// topology's name on a mesh/torus ("X"), the port name's prefix on a switch
// ("up", "down", "wan").
std::string port_dim_name(const Router& r, int port, const Topology* topo);

// Per output port, class "link": busy (the link serializing a packet), pkt
// (operation id + 1 of the packet on the link), vc (the downstream VC it
// took), credit_stall (a ready packet waits for downstream credits).
inline constexpr observe::Signal<RouterProbe::Out> kPortSignals[] = {
    {"busy", 1, false, "link", &RouterProbe::Out::busy},
    {"pkt", 32, false, "link", &RouterProbe::Out::pkt},
    {"vc", 4, false, "link", &RouterProbe::Out::vc},
    {"credit_stall", 1, false, "link", &RouterProbe::Out::stall},
};
// Per input VC, class "vc": the flits its buffer holds.
inline constexpr const char* kOccupancyClass = "vc";
inline constexpr int kOccupancyWidth = 16;
std::string occupancy_signal(int vc);  // "vc2_occupancy"

}  // namespace kairo::router
