// Rabenseifner's allreduce and reduce, and Matsuda et al.'s extended allreduce
// (sw/collectives/allreduce.h).
#include "sw/collectives/allreduce.h"
#include "sw/collectives/pieces.h"

namespace kairo::coll {

namespace {
// Reduce-scatter over the largest power of two of the ranks counted from
// the root; the others first hand their vector to (their index - 2^k).
// Returns the group; `extra_partner` is set for the ranks outside it or
// that serve one of them (-1 otherwise).
Group halving_core(Schedule& s, const Reduction& c, bool& outside, int& partner) {
  const int pow2 = 1 << log2_floor(c.p), v = (c.rank - c.root + c.p) % c.p, extra = c.p - pow2;
  auto rank_of = [&](int i) { return (c.root + i) % c.p; };
  outside = v >= pow2;
  partner = outside ? rank_of(v - pow2) : v < extra ? rank_of(v + pow2) : -1;
  Group g;
  for (int i = 0; i < pow2; ++i) g.members.push_back(rank_of(i));
  g.me = outside ? -1 : v;
  if (outside) {
    s.push_back(Step{{Put{partner, 0, 0, c.size, c.tag_base}}, {}, {}, "reduce_scatter"});
    return g;
  }
  if (partner >= 0)
    s.push_back(
        Step{{}, {Wait{partner, c.tag_base}}, {Op{Op::Kind::kSum, 0, 0, c.size, false}}, "reduce_scatter"});
  reduce_scatter_halving(s, g, Parts{c.size, pow2, 8}, c.size, c.tag_base + 2, "reduce_scatter");
  return g;
}
}  // namespace

Schedule allreduce_rabenseifner(const Reduction& c) {
  Schedule s;
  bool outside = false;
  int partner = -1;
  const Group g = halving_core(s, c, outside, partner);
  if (outside) {
    s.push_back(Step{{}, {Wait{partner, c.tag_base + 1}}, {}, "allgather"});
    return s;
  }
  allgather_doubling(s, g, Parts{c.size, g.size(), 8}, Buf::kSend, c.tag_base + 40, "allgather");
  if (partner >= 0) {
    Put back{partner, 0, 0, c.size, c.tag_base + 1};
    back.to_send = true;
    s.push_back(Step{{back}, {}, {}, "allgather"});
  }
  return s;
}

Schedule reduce_rabenseifner(const Reduction& c) {
  Schedule s;
  bool outside = false;
  int partner = -1;
  const Group g = halving_core(s, c, outside, partner);
  if (!outside) gather_binomial(s, g, Parts{c.size, g.size(), 8}, Buf::kSend, c.tag_base + 40, "gather");
  return s;
}

Schedule allreduce_rabenseifner_ext(const Reduction& c) {
  Schedule s;
  const int h = c.p / 2;
  const Group a = Group::range(c.rank, 0, h), b = Group::range(c.rank, h, h);
  const Group& mine = a.me >= 0 ? a : b;
  const Parts parts{c.size, h, 8};
  reduce_scatter_halving(s, mine, parts, 0, c.tag_base, "reduce_scatter");
  counter_reduce(s, a, b, parts, c.streams, std::uint64_t(log2_floor(h)) * c.size, c.tag_base + 64,
                 "counter_reduce");
  allgather_doubling(s, mine, parts, Buf::kSend, c.tag_base + 64 + 6 * std::uint32_t(h), "allgather");
  return s;
}

}  // namespace kairo::coll
