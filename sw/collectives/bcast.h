// Broadcast of `size` bytes from `root`, in every rank's receive region (the
// root's copy is the source).
//   binomial ... ceil(log2 p) rounds; in round k every rank whose distance v
//                from the root is below 2^k and that already holds the data
//                puts it to distance v + 2^k; a rank forwards only what has
//                arrived (from its receive region)
#pragma once
#include "sw/collectives/schedule.h"

namespace kairo::coll {

Schedule bcast_binomial(int rank, int p, int root, std::uint64_t size, std::uint32_t tag_base);

const std::vector<std::string>& bcast_algorithms();  // binomial
Schedule bcast(const std::string& algo, int rank, int p, int root, std::uint64_t size,
               std::uint32_t tag_base);

}  // namespace kairo::coll
