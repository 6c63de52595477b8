// All-to-all: every rank sends block j (`size` bytes at j x size in its send
// region) to rank j, which keeps it at (sender x size) in its receive region.
// The rank's own block is not sent (a local copy, outside the network).
//   a2a ........ simple spread (seed 000): one step posting the puts to
//                rank + 1, rank + 2, ... (mod p) in that order, then waiting
//                for all p - 1 arrivals; TNIs taken in turn
//   pairwise ... p - 1 steps; in step i a rank exchanges with rank xor i
//                when p is a power of two, otherwise it puts to rank + i and
//                waits for rank - i (mod p)
#pragma once
#include "sw/collectives/schedule.h"

namespace kairo::coll {

Schedule alltoall_a2a(int rank, int p, std::uint64_t size, std::uint32_t tag_base);
Schedule alltoall_pairwise(int rank, int p, std::uint64_t size, std::uint32_t tag_base);

const std::vector<std::string>& alltoall_algorithms();  // a2a, pairwise
Schedule alltoall(const std::string& algo, int rank, int p, std::uint64_t size, std::uint32_t tag_base);

}  // namespace kairo::coll
