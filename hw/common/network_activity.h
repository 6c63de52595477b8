// Run-wide activity of one network, shared by its routers and endpoints: what
// the deadlock watchdog watches and what the run's cost report counts.
#pragma once
#include <cstdint>

#include "sim/time.h"

namespace kairo::hw {

class Watchdog;

struct NetworkActivity {
  std::uint64_t in_network = 0;     // packets injected and not yet delivered
  sim::Time last_progress_ps = 0;   // last time a packet moved
  sim::Time progress_ahead_ps = 0;  // the latest move decided ahead of its time (Endpoint::consumed(p, at))
  std::uint64_t packet_hops = 0;    // router-to-router link traversals
  std::uint64_t flit_hops = 0;      // the same, weighted by packet flits
  std::uint64_t adaptive_hops = 0;  // minimal adaptive routing: hops taken on an adaptive VC
  std::uint64_t escape_hops = 0;    // and on an escape VC
  std::uint64_t vc_grants = 0;      // VC allocation stage: output VCs granted
  std::uint64_t speculative_hits = 0;    // speculative switch grants used (the VC was granted too)
  std::uint64_t speculative_misses = 0;  // speculative switch grants lost (no VC)
  std::uint64_t held = 0;                // packets a receiver holds unconsumed (back-pressure, not deadlock)
  Watchdog* watchdog = nullptr;          // armed when the network becomes non-empty

  // When a packet last moved, as the watchdog sees it: a move decided ahead
  // counts as made (it is at most one DMA write away, far less than the
  // watchdog's timeout).
  sim::Time progress_ps() const {
    return last_progress_ps > progress_ahead_ps ? last_progress_ps : progress_ahead_ps;
  }
};

}  // namespace kairo::hw
