// Simulated time. Everything inside kairo's network is kept in integer
// picoseconds so that serialization can be computed exactly and quantized
// to a block's clock only where the block owns one.
#pragma once
#include <cstdint>
#include <limits>

namespace kairo::sim {

using Time = std::uint64_t;  // picoseconds
inline constexpr Time kNever = std::numeric_limits<Time>::max();
inline constexpr Time kPs = 1;
inline constexpr Time kNs = 1000;
inline constexpr Time kUs = 1000 * kNs;
inline constexpr Time kMs = 1000 * kUs;
inline constexpr Time kSec = 1000 * kMs;

// A clock with an integer period in picoseconds. Events of the owning block
// happen on its edges: times are rounded up to the next edge. Rounding runs
// on every hop, so it multiplies by a precomputed reciprocal instead of
// dividing (then corrects the quotient, which is at most two short).
struct Clock {
  Time period_ps = 1000;
  std::uint64_t inv = ~std::uint64_t{0} / 1000;

  constexpr Clock() = default;
  constexpr explicit Clock(Time period)
      : period_ps(period ? period : 1), inv(~std::uint64_t{0} / period_ps) {}

  constexpr Time floor(Time t) const {
    std::uint64_t q = std::uint64_t((unsigned __int128)t * inv >> 64);
    Time r = t - q * period_ps;
    while (r >= period_ps) r -= period_ps;
    return t - r;
  }
  constexpr Time ceil(Time t) const {
    const Time f = floor(t);
    return f == t ? t : f + period_ps;
  }
  constexpr Time cycles(std::uint64_t n) const { return n * period_ps; }
  constexpr double to_cycles(Time t) const { return double(t) / double(period_ps); }
};

}  // namespace kairo::sim
