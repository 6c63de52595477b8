// Synthetic traffic patterns: BookSim 2's catalogue (src/traffic.cpp), with
// its names. On a mesh/torus the digit patterns are defined on coordinates,
// so they apply to any shape; on a switched fabric (fat tree, clusters, the
// hybrid network's packet switches) the hosts 0..N-1 count as one ring. The
// bit patterns and the random ones act on node ids, which on a mesh/torus
// count dimension 0 fastest, as BookSim numbers a k-ary n-cube.
//   uniform      a random node other than the source                 (any)
//   transpose    coordinates reversed: (c0, c1, ..., cn-1) -> (cn-1, ..., c0);
//                needs size(d) == size(n-1-d)                    (mesh/torus)
//   bitcomp      every coordinate complemented: c -> size-1-c, which is node
//                N-1-i (bit complement when N is a power of two)     (any)
//   tornado      every coordinate moved (ceil(size/2) - 1) forward, wrapping;
//                switched fabrics: host i -> i + ceil(N/2) - 1 mod N (any)
//   neighbor     every coordinate moved one forward, wrapping;
//                switched fabrics: host i -> i + 1 mod N            (any)
//   hotspot      with probability `hotspot_fraction` one of the hotspot nodes
//                (uniformly), otherwise uniform                      (any)
//   randperm     a random permutation of the nodes, fixed by the seed (any)
//   bitrev       the b bits of the id reversed (N = 2^b)    (N a power of two)
//   shuffle      the id rotated left by one bit: 2i mod N, plus 1 when
//                i >= N/2                               (N a power of two)
//   diagonal     i + 1 mod N with probability 1/3, else i itself    (any)
//   asymmetric   (i mod N/2) + N/2 with probability 1/2, else i mod N/2,
//                with N/2 rounded down                         (N >= 2)
//   uniform_self any node, the source included, equally likely (BookSim's
//                uniform)                                            (any)
//   taper64      with probability 1/2 node i + 8 dy + dx mod 64, dy and dx
//                each -1, 0 or +1 equally likely; otherwise uniform_self
//                                                        (exactly 64 nodes)
//   bad_dragon   with g hosts per dragonfly group (hosts numbered group by
//                group), node i sends to (i / g + 1) g + r mod N, r uniform
//                in [0, g): a random node of the next group   (dragonfly)
// Permutations may map a node to itself, and diagonal, uniform_self and
// taper64 address the source on purpose; such packets go through the local
// router (or edge switch) only.
//
// Extending: a pattern that needs more of the fabric than its node count and
// mesh/torus shape takes that from the platform, as bad_dragon takes the
// dragonfly's group size, states its need in the constructor, and draws in
// pick().
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "hw/common/topology.h"
#include "sim/random.h"

namespace kairo::traffic {

// In the order of pattern_names().
enum class Pattern {
  kUniform,
  kTranspose,
  kBitcomp,
  kTornado,
  kNeighbor,
  kHotspot,
  kRandperm,
  kBitrev,
  kShuffle,
  kDiagonal,
  kAsymmetric,
  kUniformSelf,
  kTaper64,
  kBadDragon
};

std::optional<Pattern> parse_pattern(const std::string& name);
const std::vector<std::string>& pattern_names();
// True when the pattern is defined only on a mesh/torus shape (coordinates).
bool needs_torus(Pattern p);
// What the pattern needs of the number of nodes, when `nodes` does not have
// it ("a power-of-two number of nodes ..."); empty when it fits.
std::string node_count_need(Pattern p, std::uint64_t nodes);

class DestinationPicker {
 public:
  // `nodes` hosts; `torus` the mesh/torus shape, or null on a switched
  // fabric; `group_nodes` the hosts of a dragonfly group (0: not a
  // dragonfly). Throws std::invalid_argument when the pattern does not fit.
  DestinationPicker(hw::NodeId nodes, const hw::Topology* torus, Pattern p, std::uint64_t seed,
                    std::vector<hw::NodeId> hotspots = {0}, double hotspot_fraction = 0.2,
                    hw::NodeId group_nodes = 0);
  // Draws from `rng` (the source's own stream) for the random patterns only.
  hw::NodeId pick(hw::NodeId src, sim::Rng& rng) const;
  // Fixed destination of a permutation pattern (not uniform/hotspot).
  bool is_permutation() const { return !perm_.empty(); }

 private:
  hw::NodeId uniform_other(hw::NodeId src, sim::Rng& rng) const;
  void permute_coordinates(const hw::Topology& topo);
  void permute_ring();
  void permute_bits();

  hw::NodeId nodes_;
  Pattern pattern_;
  std::vector<hw::NodeId> perm_;  // fixed-destination patterns, precomputed
  std::vector<hw::NodeId> hotspots_;
  double hotspot_fraction_;
  hw::NodeId group_nodes_;
};

}  // namespace kairo::traffic
