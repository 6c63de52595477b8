// What an RDMA engine (hw/nic/tni.h) reports about itself: its counters, in
// the one order every output uses (the counter log, --tni-counters, the JSON
// summary's nic_counters), their state for a split run's transfer, and its
// waveform signals (TniProbe) with the recording that attaches them.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hw/nic/tni.h"
#include "observe/packet_label.h"
#include "observe/registry.h"

namespace kairo::nic {

// The engine's counters, read by read_counters().
const std::vector<observe::Counter>& tni_counters();
// `t`'s values in tni_counters() order into out; `now` closes a circuit wait still open.
void read_counters(const Tni& t, sim::Time now, std::uint64_t* out);

// cmdq_depth (commands posted and not yet taken), tx_dma and rx_dma (0 idle,
// 1 reading memory, 2 writing it), tx_dma_pkt and rx_dma_pkt (the packet
// whose payload that DMA moves), tx_pkt (the packet being injected), each
// packet by its label (observe/packet_label.h, named by kPacketStates; 0
// idle), and the running counts doorbells, notices and completions. All of
// class "tni".
inline constexpr const char* kTniClass = "tni";
inline constexpr sim::Trace::State kDmaStateNames[] = {{0, "idle"}, {1, "read"}, {2, "write"}};
inline constexpr sim::Trace::States kDmaStates = {"dma", kDmaStateNames, 3};
inline constexpr sim::Trace::State kIdlePacket[] = {{0, "idle"}};
inline constexpr sim::Trace::States kPacketStates = {"packet", kIdlePacket, 1, &observe::packet_label_text};
inline constexpr observe::Signal<TniProbe> kTniSignals[] = {
    {"cmdq_depth", 16, true, kTniClass, &TniProbe::cmdq},
    {"tx_dma", 2, false, kTniClass, &TniProbe::tx_dma, kDmaStates},
    {"rx_dma", 2, false, kTniClass, &TniProbe::rx_dma, kDmaStates},
    {"tx_dma_pkt", 64, false, kTniClass, &TniProbe::tx_dma_pkt, kPacketStates},
    {"rx_dma_pkt", 64, false, kTniClass, &TniProbe::rx_dma_pkt, kPacketStates},
    {"tx_pkt", 64, false, kTniClass, &TniProbe::tx_pkt, kPacketStates},
    {"doorbells", 32, true, kTniClass, &TniProbe::doorbells},
    {"notices", 32, true, kTniClass, &TniProbe::notices},
    {"completions", 32, true, kTniClass, &TniProbe::completions},
};

// Engine t's waveform recording of its signals under `scope`
// ("nic_x0y0.tni1."); null when `f` does not select class "tni".
std::unique_ptr<observe::Recording> record(Tni& t, const std::string& scope, const observe::TraceFilter& f,
                                           sim::Trace& trace);

// Whether the engine did anything: took a command, received a packet or
// completed one with an error.
bool active(const Tni& t);
// Its counters for another process's copy of it (observe::State).
void save(const Tni& t, sim::ByteWriter& w);
void load(Tni& t, sim::ByteReader& in);

}  // namespace kairo::nic
