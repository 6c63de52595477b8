// Synthetic traffic patterns (the classic set of Dally & Towles, as BookSim
// names them), defined on coordinates so they apply to any mesh/torus shape.
//   uniform    a random node other than the source
//   transpose  coordinates reversed: (c0, c1, ..., cn-1) -> (cn-1, ..., c0);
//              needs size(d) == size(n-1-d)
//   bitcomp    every coordinate complemented: c -> size-1-c (bit complement
//              when sizes are powers of two)
//   tornado    every coordinate moved (ceil(size/2) - 1) forward, wrapping
//   neighbor   every coordinate moved one forward, wrapping
//   hotspot    with probability `hotspot_fraction` one of the hotspot nodes
//              (uniformly), otherwise uniform
//   randperm   a random permutation of the nodes, fixed by the seed
// Permutations may map a node to itself; such packets go through the local
// router only.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "hw/common/topology.h"
#include "sim/random.h"

namespace kairo::traffic {

enum class Pattern { kUniform, kTranspose, kBitcomp, kTornado, kNeighbor, kHotspot, kRandperm };

std::optional<Pattern> parse_pattern(const std::string& name);
const std::vector<std::string>& pattern_names();

class DestinationPicker {
 public:
  // Throws std::invalid_argument when the pattern does not fit the shape.
  DestinationPicker(const router::Topology& topo, Pattern p, std::uint64_t seed,
                    std::vector<router::NodeId> hotspots = {0}, double hotspot_fraction = 0.2);
  router::NodeId pick(router::NodeId src, sim::Rng& rng) const;
  // Fixed destination of a permutation pattern (not uniform/hotspot).
  bool is_permutation() const { return !perm_.empty(); }

 private:
  router::NodeId uniform_other(router::NodeId src, sim::Rng& rng) const;

  const router::Topology& topo_;
  Pattern pattern_;
  std::vector<router::NodeId> perm_;  // fixed-destination patterns, precomputed
  std::vector<router::NodeId> hotspots_;
  double hotspot_fraction_;
};

}  // namespace kairo::traffic
