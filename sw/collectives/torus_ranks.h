// Where the ranks of a collective sit on a mesh/torus, as plain data: the
// topology-aware schedules (alltoall.h: a2at, tofu) are computed from it
// without a network. The workload builds it from the platform's topology
// and rank map for an algorithm that needs_torus (sw/workloads/collective.cpp);
// tests build it directly.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace kairo::coll {

struct TorusRanks {
  // Dimension sizes; node ids are mixed-radix numbers with dimension 0 as
  // the fastest digit, as in hw::Topology.
  std::vector<int> sizes;
  // Dimensions in the order the routers route them (router.routing_order;
  // the declared order 0, 1, ... when empty).
  std::vector<int> routing_order;
  std::vector<std::uint32_t> node_of_rank;  // one rank per node: a permutation of the node ids
  std::vector<int> rank_of_node;            // its inverse
  // a2at's phases in the order they are posted (mirrored_phase_order); empty
  // = 1, 2, ..., p - 1.
  std::vector<std::uint32_t> phase_order;
};

// One rank on every node of a `sizes` mesh/torus, rank r on node r.
TorusRanks identity_torus_ranks(std::vector<int> sizes, std::vector<int> routing_order = {});

// Empty when `t` has one rank on every node and a routing order that is a
// permutation of the dimensions; otherwise what is wrong.
std::string check_torus_ranks(const TorusRanks& t);

// The translation of all-to-all phase i, 0 <= i < p (phase 0 is the null
// translation, a rank's own block). The mixed-radix digits a_0, a_1, ... of i
// are taken over the dimensions in `order` (a_0 the fastest, in radix
// sizes[order[0]]).
// With three or more dimensions of size > 1 they are mapped by a unimodular
// lower-triangular matrix and shifted by a stagger c_j = floor(j x
// sizes[order[j]] / n) for n dimensions:
//   o[order[j]] = (a_0 + ... + a_j + c_j) mod sizes[order[j]],
// except that phase 0 and the phase this sends to the null translation swap
// offsets. The map is a bijection (a_0 follows from o[order[0]], then each
// a_j from o[order[j]] and the digits before it; the swap keeps it one), so
// phases 1 .. p - 1 are the p - 1 non-null translations, each once.
// Consecutive phases move in every dimension at once, where plain numbering
// (o = the digits of i) would move only along order[0] for its first
// sizes[order[0]] - 1 phases; any run of sizes[order[0]] consecutive phases
// with the same higher digits visits every offset of every dimension once.
// The stagger keeps the dimensions' longest offsets (the most loaded links
// on a mesh) apart: without it phases sizes/2 - 1, sizes/2, ... peak in every
// dimension together.
// With one or two such dimensions the translations go in plain numbering,
// o[order[j]] = a_j: on 2D meshes and tori the mixed order measured slower
// than simple spread (mesh-16x16 at 4 KiB: 363 against 313 us) and plain
// numbering faster (308 us); on 3D meshes and on Tofu it is the other way
// round (docs/collectives.md, "All-to-all").
// Writes sizes.size() values to `o`.
void phase_offset(const std::vector<int>& sizes, const std::vector<int>& order, std::uint64_t i, int* o);

// Phases 1 .. p - 1 of phase_offset(sizes, {}, .) reordered so that each
// translation o is followed by its mirror -o (each dimension modulo its
// size), unless already posted: on a ring of size k, an offset below k/2
// goes + and its mirror - the same distance, so a TNI posting o and the
// next TNI posting -o load both directions of every ring at once, where
// the plain order (every node moving the same way) leaves the - links idle
// until the phases past k/2. Self-mirrored offsets (every component 0 or
// k/2) appear once. A permutation of 1 .. p - 1; computed once per run
// (O(p) memory), not per rank.
std::vector<std::uint32_t> mirrored_phase_order(const std::vector<int>& sizes);

}  // namespace kairo::coll
