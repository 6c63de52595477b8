// Run-wide activity of one network, shared by its routers and endpoints: what
// the deadlock watchdog watches and what the run's cost report counts.
#pragma once
#include <cstdint>

#include "sim/time.h"

namespace kairo::hw {

class Watchdog;

struct NetworkActivity {
  std::uint64_t in_network = 0;          // packets injected and not yet delivered
  sim::Time last_progress_ps = 0;        // last time a packet moved
  std::uint64_t packet_hops = 0;         // router-to-router link traversals
  std::uint64_t flit_hops = 0;           // the same, weighted by packet flits
  std::uint64_t adaptive_hops = 0;       // minimal adaptive routing: hops taken on an adaptive VC
  std::uint64_t escape_hops = 0;         // and on an escape VC
  std::uint64_t vc_grants = 0;           // VC allocation stage: output VCs granted
  std::uint64_t speculative_hits = 0;    // speculative switch grants used (the VC was granted too)
  std::uint64_t speculative_misses = 0;  // speculative switch grants lost (no VC)
  std::uint64_t held = 0;                // packets a receiver holds unconsumed (back-pressure, not deadlock)
  Watchdog* watchdog = nullptr;          // armed when the network becomes non-empty
};

}  // namespace kairo::hw
