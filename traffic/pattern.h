// Synthetic traffic patterns (the classic set of Dally & Towles, as BookSim
// names them). On a mesh/torus they are defined on coordinates, so they apply
// to any shape; on a switched fabric (fat tree, clusters, the hybrid
// network's packet switches) the hosts 0..N-1 count as one ring.
//   uniform    a random node other than the source                 (any)
//   transpose  coordinates reversed: (c0, c1, ..., cn-1) -> (cn-1, ..., c0);
//              needs size(d) == size(n-1-d)                      (mesh/torus)
//   bitcomp    every coordinate complemented: c -> size-1-c, which is node
//              N-1-i (bit complement when N is a power of two)     (any)
//   tornado    every coordinate moved (ceil(size/2) - 1) forward, wrapping;
//              switched fabrics: host i -> i + ceil(N/2) - 1 mod N (any)
//   neighbor   every coordinate moved one forward, wrapping;
//              switched fabrics: host i -> i + 1 mod N            (any)
//   hotspot    with probability `hotspot_fraction` one of the hotspot nodes
//              (uniformly), otherwise uniform                      (any)
//   randperm   a random permutation of the nodes, fixed by the seed (any)
// Permutations may map a node to itself; such packets go through the local
// router (or edge switch) only.
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
// True when the pattern is defined only on a mesh/torus shape (coordinates).
bool needs_torus(Pattern p);

class DestinationPicker {
 public:
  // `nodes` hosts; `torus` the mesh/torus shape, or null on a switched
  // fabric. Throws std::invalid_argument when the pattern does not fit.
  DestinationPicker(router::NodeId nodes, const router::Topology* torus, Pattern p, std::uint64_t seed,
                    std::vector<router::NodeId> hotspots = {0}, double hotspot_fraction = 0.2);
  router::NodeId pick(router::NodeId src, sim::Rng& rng) const;
  // Fixed destination of a permutation pattern (not uniform/hotspot).
  bool is_permutation() const { return !perm_.empty(); }

 private:
  router::NodeId uniform_other(router::NodeId src, sim::Rng& rng) const;
  void permute_coordinates(const router::Topology& topo);
  void permute_ring();

  router::NodeId nodes_;
  Pattern pattern_;
  std::vector<router::NodeId> perm_;  // fixed-destination patterns, precomputed
  std::vector<router::NodeId> hotspots_;
  double hotspot_fraction_;
};

}  // namespace kairo::traffic
