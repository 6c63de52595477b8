// Takizawa et al. 2008 §3.2: grouping MPI processes under edge switches and assigning the
// few optical circuits ("pathways") between them.
//
// Switch Partitioning (SP) keeps the system's rank -> node map and gives
// pathways to the node pairs that communicate across edge switches. Communication
// Partitioning (CP) first re-places ranks so that heavy partners share an edge
// switch (a METIS min-cut partition), then runs SP on the new map.
//
// Hardware assumptions (§2): each node has at most one optical NIC, so it
// ends at most one pathway; a pathway is one bidirectional circuit; one
// process runs on each node.
#pragma once
#include <cstdint>
#include <vector>

#include "sw/hybrid/pattern.h"

namespace kairo::hybrid {

// One bidirectional optical circuit between nodes a and b. As SP returns it,
// a is the node under the lower-numbered edge switch.
struct Pathway {
  std::uint32_t a = 0, b = 0;
  bool operator==(const Pathway&) const = default;
};

// Rank r on node r: the system's own order (Takizawa et al. 2008 Figure 4, used for SP).
std::vector<std::uint32_t> sequential_placement(int ranks);

// Bytes a rank pair exchanges that count for the OCS: the sum of the two
// directions whose per-iteration bytes exceed the threshold (0: not a pair).
std::uint64_t ocs_pair_bytes(const Pattern& p, int r, int s, std::uint64_t threshold_bytes);

// Takizawa et al. 2008 Tables 2 and 3: element [i * edges + j] counts the node pairs under
// edge switches i and j that communicate (ocs_pair_bytes > 0); the diagonal
// counts pairs within one switch. Symmetric.
std::vector<int> switch_pair_table(const EpsShape& shape, const Pattern& p,
                                   const std::vector<std::uint32_t>& node_of_rank,
                                   std::uint64_t threshold_bytes);
// The sum of the table above the diagonal: node pairs that talk across switches.
int inter_switch_pairs(const EpsShape& shape, const std::vector<int>& table);

// Switch Partitioning. Candidates are rank pairs with ocs_pair_bytes > 0 whose
// nodes sit under different edge switches and both have an optical NIC.
// Switch pairs (i < j) are visited round robin in lexicographic order,
// (0,1), (0,2), ..., (1,2), ...; each visit gives one pathway to the best
// candidate of that switch pair whose two nodes are still free: most bytes
// first, ties to the smaller "edge process" (the smaller rank of the pair),
// then to the smaller other rank. Rounds repeat ("a second round", §3.2)
// until `pathways` are assigned or no switch pair has a free candidate, so
// fewer than `pathways` may come back. Deterministic.
// Throws std::invalid_argument when the map is not one rank per distinct node
// of the shape or `optical` is not one flag per node.
std::vector<Pathway> assign_sp(const EpsShape& shape, const Pattern& p,
                               const std::vector<std::uint32_t>& node_of_rank, int pathways,
                               std::uint64_t threshold_bytes, const std::vector<bool>& optical);

// The edge switch CP gives each rank: exactly hosts_per_edge ranks per switch,
// minimizing the bytes that cross switches (edge weight = bytes both ways,
// all sizes). METIS_PartGraphRecursive with fixed options (see the .cpp) is
// run with random seeds 1..8; each answer gets a deterministic repair if
// METIS left a part over- or under-full (move the rank whose move raises the
// cut least); the answer with the least cut is kept, equal cuts going to the
// one with fewer ranks talking to two or more other switches (one optical
// NIC per node: such a rank cannot have a circuit to every partner), then to
// the lower seed. Parts are renumbered in order of their smallest rank.
// Needs ranks == shape.nodes().
std::vector<int> cp_switch_of_rank(const EpsShape& shape, const Pattern& p);

struct Placement {
  std::vector<std::uint32_t> node_of_rank;
  std::vector<Pathway> pathways;
};

// Communication Partitioning: ranks of switch k (from cp_switch_of_rank) on
// its hosts k * hosts_per_edge + 0, 1, ... in ascending rank order, then SP on
// that map.
Placement assign_cp(const EpsShape& shape, const Pattern& p, int pathways, std::uint64_t threshold_bytes,
                    const std::vector<bool>& optical);

}  // namespace kairo::hybrid
