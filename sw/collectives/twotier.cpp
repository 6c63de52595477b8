// The twotier allreduce of Matsuda et al. §3.6 (sw/collectives/allreduce.h).
#include "sw/collectives/allreduce.h"
#include "sw/collectives/pieces.h"

namespace kairo::coll {

Schedule allreduce_twotier(const Reduction& c) {
  Schedule s;
  const int h = c.p / 2;
  const Group a = Group::range(c.rank, 0, h), b = Group::range(c.rank, h, h);
  const bool in_a = a.me >= 0;
  const Group& mine = in_a ? a : b;
  const Group& other = in_a ? b : a;
  const Parts parts{c.size, h, 8};
  // Reduce to the cluster's first member: reduce-scatter, then gather.
  reduce_scatter_halving(s, mine, parts, 0, c.tag_base, "reduce");
  gather_binomial(s, mine, parts, Buf::kSend, c.tag_base + 32, "reduce");
  // The two first members exchange their clusters' sums.
  if (mine.me == 0) {
    const std::uint64_t slot = std::uint64_t(log2_floor(h)) * c.size;
    s.push_back(Step{{Put{other.members[0], 0, slot, c.size, c.tag_base + 64}},
                     {Wait{other.members[0], c.tag_base + 64}},
                     {Op{Op::Kind::kSum, slot, 0, c.size, /*recv_first=*/!in_a}},  // A's sum first
                     "wide_area"});
  }
  // Broadcast in the cluster: scatter, then allgather.
  scatter_binomial(s, mine, parts, Buf::kSend, c.tag_base + 65, "bcast");
  allgather_doubling(s, mine, parts, Buf::kSend, c.tag_base + 100, "bcast");
  return s;
}

}  // namespace kairo::coll
