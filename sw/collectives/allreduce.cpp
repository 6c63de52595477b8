// Recursive-doubling allreduce and the ring reductions (sw/collectives/allreduce.h).
#include "sw/collectives/allreduce.h"

#include "sw/collectives/pieces.h"

namespace kairo::coll {

Schedule allreduce_recursive_doubling(const Reduction& c) {
  Schedule s;
  const int pow2 = 1 << log2_floor(c.p), extra = c.p - pow2, me = c.rank;
  const std::uint64_t n = c.size;
  const std::uint32_t pre = c.tag_base, post = c.tag_base + 1, round = c.tag_base + 2;
  if (me >= pow2) {  // hand my vector over, get the sum back into it
    s.push_back(Step{{Put{me - pow2, 0, 0, n, pre}}, {}, {}, "exchange"});
    s.push_back(Step{{}, {Wait{me - pow2, post}}, {}, "exchange"});
    return s;
  }
  if (me < extra)
    s.push_back(Step{{}, {Wait{me + pow2, pre}}, {Op{Op::Kind::kSum, 0, 0, n, false}}, "exchange"});
  for (int k = 0; (1 << k) < pow2; ++k) {
    const int partner = me ^ (1 << k);
    const std::uint64_t slot = std::uint64_t(k + 1) * n;
    s.push_back(Step{{Put{partner, 0, slot, n, round + std::uint32_t(k)}},
                     {Wait{partner, round + std::uint32_t(k)}},
                     {Op{Op::Kind::kSum, slot, 0, n, /*recv_first=*/partner < me}},
                     "exchange"});
  }
  if (me < extra) {
    Put back{me + pow2, 0, 0, n, post};
    back.to_send = true;
    s.push_back(Step{{back}, {}, {}, "exchange"});
  }
  return s;
}

Schedule allreduce_ring(const Reduction& c) {
  Schedule s;
  const Group g = Group::range(c.rank, 0, c.p);
  const Parts parts{c.size, c.p, 8};
  reduce_scatter_ring(s, g, parts, 0, c.tag_base, "reduce_scatter");
  allgather_ring(s, g, parts, Buf::kSend, 0, c.tag_base + std::uint32_t(c.p), "allgather");
  return s;
}

Schedule reduce_scatter_ring(const Reduction& c) {
  Schedule s;
  reduce_scatter_ring(s, Group::range(c.rank, 0, c.p), Parts{c.size, c.p, 8}, 0, c.tag_base,
                      "reduce_scatter");
  return s;
}

Schedule reduce_scatter_halving(const Reduction& c) {
  Schedule s;
  reduce_scatter_halving(s, Group::range(c.rank, 0, c.p), Parts{c.size, c.p, 8}, 0, c.tag_base,
                         "reduce_scatter");
  return s;
}

Schedule reduce_binomial(const Reduction& c) {
  Schedule s;
  reduce_binomial(s, Group::range(c.rank, 0, c.p, c.root), c.size, 0, c.tag_base, "reduce");
  return s;
}

}  // namespace kairo::coll
