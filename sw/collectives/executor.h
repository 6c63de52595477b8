// Runs one rank's schedule through the firmware API: each step posts its
// puts (on the TNIs they name), waits for the step's arrivals by tag, then
// for its own puts' completions, so the next step may reuse the buffers and
// the completion queue never fills.
#pragma once
#include <vector>

#include "firmware/rank.h"
#include "sw/collectives/schedule.h"

namespace kairo::coll {

// `send`: this rank's key for its send region; `recv_memid`: the memid every
// rank registered its receive region under (the destination's key is looked
// up with it). `step_end`, if given, gets the time each step ended.
fw::Task run_schedule(fw::Rank& r, const Schedule& s, nic::MemKey send, int recv_memid,
                      std::vector<sim::Time>* step_end = nullptr, bool* ok = nullptr);

}  // namespace kairo::coll
