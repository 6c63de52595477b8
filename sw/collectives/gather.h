// Gather, scatter and allgather of `size`-byte blocks. Block j lives at
// j x size: in the root's send region for scatter, in the root's receive
// region for gather, in every rank's receive region for allgather (each
// rank's own block is placed there before the collective, outside the
// network).
//   scatter linear ...... the root puts block j to rank j, all at once
//   gather linear ....... every rank puts its block to the root at once
//   gather limited ...... Matsuda et al.: at most `streams` senders at a time; the
//                         root lets the first `streams` go (a small put),
//                         then lets one more go each time a block lands
//   allgather ring ...... p - 1 steps: forward block (rank - i) to rank + 1,
//                         wait for block (rank - i - 1) from rank - 1
// The gather root receives the "go" tokens in its receive region's spare
// 8 bytes after the blocks (offset p x size).
#pragma once
#include "sw/collectives/schedule.h"

namespace kairo::coll {

inline constexpr std::uint64_t kTokenBytes = 8;

Schedule scatter_linear(int rank, int p, int root, std::uint64_t size, std::uint32_t tag_base);
Schedule gather_linear(int rank, int p, int root, std::uint64_t size, std::uint32_t tag_base);
Schedule gather_limited(int rank, int p, int root, std::uint64_t size, int streams, std::uint32_t tag_base);
Schedule allgather_ring(int rank, int p, std::uint64_t size, std::uint32_t tag_base);

}  // namespace kairo::coll
