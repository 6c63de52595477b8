// Recursive-doubling allreduce and the reductions' registry (sw/collectives/allreduce.h).
#include "sw/collectives/allreduce.h"

#include <stdexcept>
#include <string>

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

const std::vector<std::string>& reduction_algorithms(ReductionKind k) {
  static const std::vector<std::string> all = {"recursive-doubling", "ring", "rabenseifner",
                                               "rabenseifner-ext", "twotier"};
  static const std::vector<std::string> rs = {"ring", "halving"};
  static const std::vector<std::string> red = {"binomial", "rabenseifner"};
  return k == ReductionKind::kAllreduce ? all : k == ReductionKind::kReduceScatter ? rs : red;
}

Schedule reduction(ReductionKind k, const std::string& algo, const Reduction& c) {
  auto need = [&](bool ok, const char* what) {
    if (!ok)
      throw std::invalid_argument("--param algo=" + algo + " needs " + what + ", got " + std::to_string(c.p) +
                                  " ranks");
  };
  need(c.p >= 2, "at least 2 ranks");
  if (c.size % 8) throw std::invalid_argument("--param size: expected a multiple of 8 bytes (doubles)");
  if (algo == "rabenseifner-ext" || algo == "twotier") {
    need(c.p % 2 == 0 && is_pow2(c.p / 2), "two clusters of a power of two ranks each (2 x 2^k)");
    if (c.streams < 1 || c.streams > c.p / 2)
      throw std::invalid_argument("--param streams: expected 1.." + std::to_string(c.p / 2) +
                                  " (ranks per cluster), got " + std::to_string(c.streams));
  }
  if (k == ReductionKind::kAllreduce) {
    if (algo == "recursive-doubling") return allreduce_recursive_doubling(c);
    if (algo == "ring") return allreduce_ring(c);
    if (algo == "rabenseifner") return allreduce_rabenseifner(c);
    if (algo == "rabenseifner-ext") return allreduce_rabenseifner_ext(c);
    if (algo == "twotier") return allreduce_twotier(c);
  } else if (k == ReductionKind::kReduceScatter) {
    if (algo == "ring") return reduce_scatter_ring(c);
    if (algo == "halving") {
      need(is_pow2(c.p), "a power-of-two rank count");
      return reduce_scatter_halving(c);
    }
  } else {
    if (algo == "binomial") return reduce_binomial(c);
    if (algo == "rabenseifner") return reduce_rabenseifner(c);
  }
  throw std::invalid_argument("unknown algorithm '" + algo + "'");
}

}  // namespace kairo::coll
