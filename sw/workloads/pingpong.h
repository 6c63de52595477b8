// pingpong: put (or get) latency between two ranks, the way hardware vendors
// quote one-way latency: A puts `size` bytes to B; B, once the notice with
// A's tag is in, puts `size` bytes back; A waits for B's tag; the latency is
// half of that round trip. With op=get, A gets `size` bytes from B and the
// latency is the get's own time from post to completion.
#pragma once
#include <cstdint>

#include "firmware/rank.h"

namespace kairo::sw {

struct PingpongParams {
  bool get = false;
  std::uint64_t size = 8;
  int src = 0, dst = 1;
  int tni = 0;
};

struct PingpongResult {
  sim::Time start_ps = 0, end_ps = 0;  // A's first post .. A sees the answer
  bool ok = true;                      // every completion reported success
};

// Buffers: each rank registers memid 1 at address 0 with `size` bytes (the
// region A sends from and B receives into) and memid 2 at 1 MiB (B's answer
// and A's landing zone).
fw::Task pingpong(fw::Rank& r, PingpongParams p, PingpongResult* out);

}  // namespace kairo::sw
