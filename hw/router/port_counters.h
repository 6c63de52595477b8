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

}  // namespace kairo::router
