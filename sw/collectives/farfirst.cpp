// The farfirst bcast of Matsuda et al. §3.4 (sw/collectives/bcast.h).
#include "sw/collectives/bcast.h"
#include "sw/collectives/pieces.h"

namespace kairo::coll {

Schedule bcast_farfirst(int rank, int p, int root, std::uint64_t size, std::uint32_t tag_base) {
  Schedule s;
  const int h = p / 2, root_half = root / h, local = root % h;
  const Group a = Group::range(rank, root_half * h, h, root_half * h + local);
  const Group b = Group::range(rank, (1 - root_half) * h, h, (1 - root_half) * h + local);
  Step wide;
  wide.phase = "wide_area";
  wide.complete_puts = false;  // the root goes on with its own half meanwhile
  if (a.me == 0) {
    Put put{b.members[0], 0, 0, size, tag_base};
    put.from_recv = true;
    wide.puts.push_back(put);
  }
  if (b.me == 0) wide.waits.push_back(Wait{a.members[0], tag_base});
  if (!wide.puts.empty() || !wide.waits.empty()) s.push_back(wide);
  const Group& mine = a.me >= 0 ? a : b;
  const Parts parts{size, h};
  scatter_binomial(s, mine, parts, Buf::kRecv, tag_base + 1, "scatter");
  if (is_pow2(h))
    allgather_doubling(s, mine, parts, Buf::kRecv, tag_base + 64, "allgather");
  else
    allgather_ring(s, mine, parts, Buf::kRecv, 0, tag_base + 64, "allgather");
  return s;
}

}  // namespace kairo::coll
