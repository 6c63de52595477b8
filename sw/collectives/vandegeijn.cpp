// van de Geijn's bcast and Matsuda et al.'s extension (sw/collectives/bcast.h).
#include "sw/collectives/bcast.h"
#include "sw/collectives/pieces.h"

namespace kairo::coll {

namespace {
// The allgather that follows a scatter: recursive doubling on a power-of-two group, a ring otherwise.
void allgather(Schedule& s, const Group& g, const Parts& parts, std::uint32_t tag) {
  if (is_pow2(g.size()))
    allgather_doubling(s, g, parts, Buf::kRecv, tag, "allgather");
  else
    allgather_ring(s, g, parts, Buf::kRecv, 0, tag, "allgather");
}
}  // namespace

Schedule bcast_vandegeijn(int rank, int p, int root, std::uint64_t size, std::uint32_t tag_base) {
  Schedule s;
  const Group g = Group::range(rank, 0, p, root);
  const Parts parts{size, p};
  scatter_binomial(s, g, parts, Buf::kRecv, tag_base, "scatter");
  allgather(s, g, parts, tag_base + 64);
  return s;
}

Schedule bcast_vandegeijn_ext(int rank, int p, int root, std::uint64_t size, int streams,
                              std::uint32_t tag_base) {
  Schedule s;
  const int h = p / 2, root_half = root / h, local = root % h;
  const Group a = Group::range(rank, root_half * h, h, root_half * h + local);
  const Group b = Group::range(rank, (1 - root_half) * h, h, (1 - root_half) * h + local);
  const Parts parts{size, h};
  scatter_binomial(s, a, parts, Buf::kRecv, tag_base, "scatter");
  counter_copy(s, a, b, parts, Buf::kRecv, streams, tag_base + 64, "counter_copy");
  allgather(s, a.me >= 0 ? a : b, parts, tag_base + 64 + 3 * std::uint32_t(h));
  return s;
}

}  // namespace kairo::coll
