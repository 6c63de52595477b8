// Neighbor exchange on a periodic r-dimensional process grid (Morie and Nanri 2013):
// every rank sends `size` bytes to each of its 2r neighbors (message k to
// the neighbor in direction k: dimension k / 2, + for even k, - for odd k)
// and receives one from each, over n NICs.
//   native ..... whole messages, one per NIC per step: ceil(2r / n) steps
//                (6 neighbors on 4 NICs: 4, then 2 with two NICs idle)
//   fragment ... with d = gcd(2r, n), every message cut into n / d
//                fragments and n fragments sent per step, one per NIC:
//                2r / d steps with every NIC busy in each (6 neighbors on 4
//                NICs: 3 steps of half messages)
// Layout: message k at k x size in the send region; the message that came
// from direction k (sent by the neighbor opposite, as its message k) at
// k x size in the receive region.
#pragma once
#include <vector>

#include "sw/collectives/schedule.h"

namespace kairo::coll {

struct Grid {
  std::vector<int> dims;  // sizes, each >= 3 (periodic, distinct neighbors)
  int ranks() const;
  // The rank one step from `rank` in direction k (dimension k / 2, sign by parity).
  int neighbor(int rank, int k) const;
};

Schedule neighbor_native(const Grid& g, int rank, int nics, std::uint64_t size, std::uint32_t tag_base);
Schedule neighbor_fragment(const Grid& g, int rank, int nics, std::uint64_t size, std::uint32_t tag_base);

}  // namespace kairo::coll
