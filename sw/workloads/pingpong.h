// pingpong: put (or get) latency between two ranks, the way hardware vendors
// quote one-way latency: A puts `size` bytes to B; B, once the notice with
// A's tag is in, puts `size` bytes back; A waits for B's tag; the latency is
// half of that round trip. With op=get, A gets `size` bytes from B and the
// latency is the get's own time from post to completion.
//
// Parameters: op=put|get (put), size (8B, at most one descriptor), src (0),
// dst (1), tni (0).
// Buffers: each rank allocates and registers memid 1 with `size` bytes (the
// region A sends from, at address 0, and B receives into) and memid 2 (B's
// answer and A's landing zone).
#pragma once
#include "sw/workloads/workload.h"

namespace kairo::sw {

WorkloadInfo pingpong_workload();

}  // namespace kairo::sw
