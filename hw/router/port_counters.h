// Counters of one router port, per direction, as Tofu hardware counts them:
// packets/flits/bytes sent and received, cycles the output link was busy,
// cycles packets waited for this output (stall), and per VC the cycles the
// downstream VC had zero credits (Tofu's "VC full"). Times are kept in
// picoseconds and converted to cycles by the reader.
#pragma once
#include <array>
#include <cstdint>

#include "hw/common/link.h"
#include "sim/time.h"

namespace kairo::router {

struct LinkCounters {
  std::uint64_t packets_sent = 0, flits_sent = 0, bytes_sent = 0;
  std::uint64_t packets_received = 0, flits_received = 0, bytes_received = 0;
  sim::Time busy_ps = 0;   // output link serializing
  sim::Time stall_ps = 0;  // packet-time spent ready but waiting for this output
};

struct PortCounters : LinkCounters {
  std::array<sim::Time, hw::kMaxVcs> zero_credit_ps{};  // per downstream VC
};

// Per output port of a router whose allocation makes choices (adaptive
// routing, a dragonfly's Valiant or UGAL routing, a VC allocation stage),
// what it chose: the counter log's "alloc" table. Packets are counted once
// each (a wormhole packet by its head flit).
struct AllocCounters {
  std::uint64_t adaptive_packets = 0;    // minimal adaptive: packets that left on an adaptive VC
  std::uint64_t escape_packets = 0;      // and on an escape VC
  std::uint64_t nonminimal_packets = 0;  // dragonfly: packets on a Valiant way (UGAL chose it, or valiant)
  std::uint64_t vc_requests = 0;         // VC allocation rounds in which a head asked for this output's VCs
  std::uint64_t vc_grants = 0;           // of those, the rounds that granted it one
  std::uint64_t spec_hits = 0;           // speculative switch grants used (the VC was granted too)
  std::uint64_t spec_misses = 0;         // speculative switch grants lost (no VC)
};

}  // namespace kairo::router
