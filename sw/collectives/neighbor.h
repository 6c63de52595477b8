// Neighbor exchange on a periodic r-dimensional process grid (Morie and Nanri 2013):
// every rank sends `size` bytes to each of its 2r neighbors (message k to
// the neighbor in direction k: dimension k / 2, + for even k, - for odd k)
// and receives one from each, over n NICs.
//   native ..... whole messages, one per NIC per step: ceil(2r / n) steps
//                (6 neighbors on 4 NICs: 4, then 2 with two NICs idle)
//   fragment ... with d = gcd(2r, n), every message cut into n / d
//                fragments and n fragments sent per step, one per NIC,
//                every message's first fragment before any second one:
//                2r / d steps with every NIC busy in each and no two
//                fragments of one message in a step (6 neighbors on 4
//                NICs: 3 steps of half messages)
// A NIC transfer longer than `max_descriptor` bytes (the NIC's largest
// command, nic.max_descriptor_size) goes as consecutive puts of at most that
// many bytes on the same NIC, each with its own tag, as a library over the
// extended RDMA interface has to post it (FJMPI_Rdma_put takes one
// descriptor's length).
// Layout: message k at k x size in the send region; the message that came
// from direction k (sent by the neighbor opposite, as its message k) at
// k x size in the receive region.
#pragma once
#include <cstdint>
#include <limits>
#include <vector>

#include "hw/common/topology.h"
#include "sw/collectives/schedule.h"

namespace kairo::coll {

struct Grid {
  std::vector<int> dims;  // sizes, each >= 3 (periodic, distinct neighbors)
  // Where the grid's positions (mixed radix, dimension 0 fastest) sit:
  // rank_at[position] is the rank there, position_of its inverse. Empty:
  // position r is rank r.
  std::vector<int> rank_at, position_of;
  int ranks() const;
  // The rank one step from `rank` in direction k (dimension k / 2, sign by parity).
  int neighbor(int rank, int k) const;
};

// The process grid a mesh/torus offers, placed so that every grid neighbor
// is one hop away, as MPI_Cart_create with reorder or Fujitsu's 3D rank map
// would place it: a 3-dimensional topology is its own grid; a 6-dimensional
// one (Tofu: X, Y, Z, A, B, C) is the 3D torus of the pairs (X, A), (Y, B),
// (Z, C), each pair's nodes in a cycle of single hops (the 3D torus view of
// Tofu that Ajima et al. 2009 describe). rank_of_node maps a node to the rank on it. Empty dims when the
// topology has another number of dimensions, a virtual side is below 3, or
// a pair has no cycle of single hops (a mesh ring of 3 or more).
Grid topology_grid(const hw::Topology& t, const std::vector<int>& rank_of_node);

// One cycle through a `outer` x `inner` grid of nodes where consecutive
// entries (and the last and the first) are one hop apart, given which sides
// wrap; as (outer, inner) coordinate pairs. Empty when there is none this
// construction finds.
std::vector<std::pair<int, int>> pair_cycle(int outer, bool outer_wraps, int inner, bool inner_wraps);

constexpr std::uint64_t kNoDescriptorLimit = std::numeric_limits<std::uint64_t>::max();

Schedule neighbor_native(const Grid& g, int rank, int nics, std::uint64_t size, std::uint32_t tag_base,
                         std::uint64_t max_descriptor = kNoDescriptorLimit);
Schedule neighbor_fragment(const Grid& g, int rank, int nics, std::uint64_t size, std::uint32_t tag_base,
                           std::uint64_t max_descriptor = kNoDescriptorLimit);

}  // namespace kairo::coll
