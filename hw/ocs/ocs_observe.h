// What an optical circuit switch (hw/ocs/ocs_fabric.h) reports about each
// port: its counters in the counter log's link columns (stall_ps is the time
// its circuit was not up; an optical port has no VCs of its own, so its
// zero-credit times read 0), their state for a split run's transfer, and its
// waveform signals (OcsProbe) with the recording that attaches them.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hw/ocs/ocs_fabric.h"
#include "observe/registry.h"

namespace kairo::ocs {

// A port's counters, with `vcs` zero-credit columns (the network's widest
// router) so its rows share the routers' link table.
std::vector<observe::Counter> port_counters(int vcs);
// Port `port`'s running totals at `now` into out (port_counters(vcs) order).
void read_port(const OcsFabric& f, int port, sim::Time now, int vcs, std::uint64_t* out);

// Per port, class "ocs": state (PortState: 0 dark, 1 setting up, 2 up, 3
// tearing down) and peer (the output port its circuit leads to, plus one).
inline constexpr const char* kOcsClass = "ocs";
inline constexpr sim::Trace::State kCircuitStateNames[] = {
    {0, "dark"}, {1, "setting up"}, {2, "up"}, {3, "tearing down"}};
inline constexpr sim::Trace::States kCircuitStates = {"circuit", kCircuitStateNames, 4};
using PortSignal = observe::Signal<OcsProbe, std::vector<sim::Trace::Signal>>;
inline constexpr PortSignal kPortSignals[] = {
    {"state", 2, false, kOcsClass, &OcsProbe::state, kCircuitStates},
    {"peer", 16, false, kOcsClass, &OcsProbe::peer},
};

// The fabric's waveform recording: the signals `sel` selects of each port
// whose node it selects, under scope(port) ("ocs.p3_x3y0."); null when that
// is nothing.
std::unique_ptr<observe::Recording> record(OcsFabric& f, const observe::TraceFilter& sel, sim::Trace& trace,
                                           const std::function<std::string(int port)>& scope);

}  // namespace kairo::ocs
