// The Clos OCS fabric of Takizawa et al. 2008 checked as circuit placement: the 3m-bank
// build accepts every permutation when it may move circuits (Slepian-Duguid),
// first-fit without moves blocks where the theory says it can, the cheaper
// build runs out of middle paths by counting, and bad requests are refused
// with reasons naming the port.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "hw/ocs/clos_fabric.h"

namespace kairo::ocs {
namespace {

using Perm = std::vector<int>;

// Fisher-Yates on mt19937's raw output, so a seed means the same permutation
// with every standard library.
Perm shuffled(int n, std::mt19937& rng) {
  Perm p(n);
  std::iota(p.begin(), p.end(), 0);
  for (int i = n - 1; i > 0; --i) std::swap(p[i], p[rng() % std::uint32_t(i + 1)]);
  return p;
}

std::vector<int> paths_of(const ClosFabric& f) {
  std::vector<int> v(f.endpoints());
  for (int in = 0; in < f.endpoints(); ++in) v[in] = f.middle_of(in).value_or(-1);
  return v;
}

// Connects in -> out, which must succeed; checks the fabric's invariants, that
// no existing circuit changed its output, and that the reported moves are
// exactly the circuits whose middle path changed. Returns the moves.
std::size_t connect_ok(ClosFabric& f, int in, int out) {
  const std::vector<int> before = paths_of(f);
  std::vector<int> outs(f.endpoints());
  for (int i = 0; i < f.endpoints(); ++i) outs[i] = f.output_of(i).value_or(-1);
  const ConnectResult r = f.connect(in, out);
  EXPECT_TRUE(r.ok) << "input " << in << " -> output " << out << " refused: " << r.reason;
  EXPECT_EQ(f.check(), "");
  EXPECT_EQ(f.output_of(in), out);
  EXPECT_EQ(f.input_of(out), in);
  EXPECT_EQ(f.middle_of(in), r.middle_path);
  const std::vector<int> after = paths_of(f);
  std::size_t changed = 0;
  for (int i = 0; i < f.endpoints(); ++i) {
    if (i == in) continue;
    EXPECT_EQ(f.output_of(i).value_or(-1), outs[i]) << "circuit from input " << i << " lost its output";
    if (before[i] != after[i]) ++changed;
  }
  EXPECT_EQ(r.moved.size(), changed) << "moved circuits not all reported";
  for (const CircuitMove& mv : r.moved) {
    EXPECT_EQ(before[mv.input], mv.from_path);
    EXPECT_EQ(after[mv.input], mv.to_path);
    EXPECT_EQ(outs[mv.input], mv.output);
  }
  return r.moved.size();
}

std::string shape_error(ClosShape s) {
  try {
    ClosFabric f(s, ClosMode::kRearrangeable);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(accepted)";
}

// An independent first-fit model: per bank a bit mask of used middle paths;
// a circuit takes the lowest path free at both banks. Returns the index in
// `order` of the first request it cannot place, or -1.
int first_fit_block(int n, int m, const Perm& perm, const Perm& order) {
  std::vector<std::uint64_t> ingress(m), egress(m);
  for (int k = 0; k < int(order.size()); ++k) {
    const int in = order[k], i = in / n, e = perm[in] / n;
    const std::uint64_t free = ~(ingress[i] | egress[e]) & ((std::uint64_t(1) << n) - 1);
    if (free == 0) return k;
    const std::uint64_t lowest = free & (~free + 1);
    ingress[i] |= lowest;
    egress[e] |= lowest;
  }
  return -1;
}

// Calls fn(perm, order) for every permutation of N=2, m=2's 4 endpoints,
// requested in every one of the 24 orders.
template <class Fn>
void every_permutation_in_every_order(Fn fn) {
  Perm perm = {0, 1, 2, 3};
  do {
    Perm order = {0, 1, 2, 3};
    do fn(perm, order);
    while (std::next_permutation(order.begin(), order.end()));
  } while (std::next_permutation(perm.begin(), perm.end()));
}

TEST(ClosFabric, RearrangeableAcceptsEveryPermutationInEveryOrder) {
  every_permutation_in_every_order([](const Perm& perm, const Perm& order) {
    ClosFabric f(ClosShape::full(2, 2), ClosMode::kRearrangeable);
    for (int in : order) connect_ok(f, in, perm[in]);
    for (int in = 0; in < 4; ++in) EXPECT_EQ(f.output_of(in), perm[in]);
    EXPECT_EQ(f.circuits(), 4);
  });
  // N=3, m=3: all 9! permutations, each in one random order. Unlike 2 x 2
  // (below), first fit does block here, so rearrangement is exercised.
  Perm perm(9);
  std::iota(perm.begin(), perm.end(), 0);
  std::mt19937 rng(3);
  std::size_t moves = 0;
  ClosFabric f(ClosShape::full(3, 3), ClosMode::kRearrangeable);
  do {
    for (int in = 0; in < 9; ++in) f.disconnect(in);
    for (int in : shuffled(9, rng)) {
      const ConnectResult r = f.connect(in, perm[in]);
      ASSERT_TRUE(r.ok) << r.reason;
      moves += r.moved.size();
    }
    ASSERT_EQ(f.check(), "");
    for (int in = 0; in < 9; ++in) ASSERT_EQ(f.output_of(in), perm[in]);
  } while (std::next_permutation(perm.begin(), perm.end()));
  EXPECT_GT(moves, 0u);
}

// N=2, m=2, no teardowns: first-fit never blocks. A block at request I -> E
// needs I's one circuit X and E's one circuit Y on different paths, with X
// going to the other egress bank E' and Y coming from the other ingress bank
// I'. The only other circuit possible is Z: I' -> E'. If Z came first it took
// path 0 at I' and E', pushing X and Y both to path 1; if Z came between, it
// took the other path than the first of X, Y at the bank they share, and the
// second took that first one's path again; if Z came last (or not yet), X and
// Y both took path 0. In every case X and Y share a path.
TEST(ClosFabric, FirstFitNeverBlocksTwoBanksOfTwoWithoutTeardowns) {
  every_permutation_in_every_order([](const Perm& perm, const Perm& order) {
    ClosFabric f(ClosShape::full(2, 2), ClosMode::kNonRearrangeable);
    for (int in : order) EXPECT_EQ(connect_ok(f, in, perm[in]), 0u);
  });
}

TEST(ClosFabric, RearrangeableAcceptsRandomPermutations) {
  struct Case {
    int n, m, trials;
  };
  // 32 x 4 is the seed's 128-node system (Table 1).
  for (const Case c : {Case{8, 4, 300}, Case{32, 4, 40}, Case{12, 3, 100}, Case{6, 6, 100}}) {
    std::mt19937 rng(1000 + c.n * 10 + c.m);
    std::size_t moves = 0;
    for (int t = 0; t < c.trials; ++t) {
      ClosFabric f(ClosShape::full(c.n, c.m), ClosMode::kRearrangeable);
      const Perm perm = shuffled(c.n * c.m, rng), order = shuffled(c.n * c.m, rng);
      for (int in : order) moves += connect_ok(f, in, perm[in]);
      for (int in = 0; in < c.n * c.m; ++in)
        ASSERT_EQ(f.output_of(in), perm[in]) << "N=" << c.n << " m=" << c.m;
    }
    EXPECT_GT(moves, 0u) << "N=" << c.n << " m=" << c.m << ": rearrangement never exercised";
  }
}

// Random connects and disconnects; a connect between an idle input and an idle
// output must always succeed. Returns the circuits moved.
std::size_t churn(ClosFabric& f, std::mt19937& rng, int ops) {
  const int ports = f.endpoints();
  std::size_t moves = 0;
  for (int k = 0; k < ops; ++k) {
    std::vector<int> idle_in, busy_in, idle_out;
    for (int p = 0; p < ports; ++p) {
      (f.output_of(p) ? busy_in : idle_in).push_back(p);
      if (!f.input_of(p)) idle_out.push_back(p);
    }
    if (!idle_in.empty() && (busy_in.empty() || rng() % 3 != 0)) {
      moves += connect_ok(f, idle_in[rng() % idle_in.size()], idle_out[rng() % idle_out.size()]);
    } else {
      EXPECT_TRUE(f.disconnect(busy_in[rng() % busy_in.size()]));
      EXPECT_EQ(f.check(), "");
    }
  }
  return moves;
}

TEST(ClosFabric, RearrangeableChurnNeverBlocks) {
  for (const ClosShape s : {ClosShape::full(8, 4), ClosShape::full(32, 4), ClosShape::full(2, 2)}) {
    std::mt19937 rng(77 + s.switch_ports);
    ClosFabric f(s, ClosMode::kRearrangeable);
    EXPECT_GT(churn(f, rng, 4000), 0u) << "rearrangement never exercised";
  }
}

// One ingress and one egress bank: every circuit uses the same path at both,
// so their used sets are equal and an idle input leaves a path free at both.
TEST(ClosFabric, SingleBankIsThreeCrossbarsInSeries) {
  ClosFabric f(ClosShape::full(5, 1), ClosMode::kNonRearrangeable);
  EXPECT_EQ(f.bank_count(), 3);
  std::mt19937 rng(5);
  EXPECT_EQ(churn(f, rng, 3000), 0u);
}

// Middle paths 2N (> 2N-1): an input's ingress bank and an output's egress
// bank hold at most N-1 other circuits each, so at most 2N-2 paths are taken
// and first-fit always finds one (Clos 1953, strictly non-blocking).
TEST(ClosFabric, DoubleMiddleStageNeverBlocksWithoutMoves) {
  ClosFabric f({4, 2, 4}, ClosMode::kNonRearrangeable);
  EXPECT_EQ(f.paths_per_bank(), 8);
  std::mt19937 rng(9);
  EXPECT_EQ(churn(f, rng, 5000), 0u);
}

// N=2, m=2: 2->3 takes path 0; 3->1 shares ingress bank 1 so takes path 1;
// 2->3 is torn down; 0->2 takes path 0. Now ingress bank 0 uses only path 0
// and egress bank 0 only path 1, so 1->0 has no path free at both.
// Paull: a = 1 (free at ingress 0), b = 0 (free at egress 0); the circuit on
// a at egress bank 0 is 3->1, which moves to 0; at its ingress bank 1 path 0
// is idle, so the chain ends and 1->0 takes path 1.
TEST(ClosFabric, NonRearrangeableBlocksWhereRearrangingSucceeds) {
  for (const ClosMode mode : {ClosMode::kNonRearrangeable, ClosMode::kRearrangeable}) {
    ClosFabric f(ClosShape::full(2, 2), mode);
    EXPECT_EQ(f.connect(2, 3).middle_path, 0);
    EXPECT_EQ(f.connect(3, 1).middle_path, 1);
    EXPECT_TRUE(f.disconnect(2));
    EXPECT_EQ(f.connect(0, 2).middle_path, 0);
    const ConnectResult r = f.connect(1, 0);
    EXPECT_EQ(f.check(), "");
    if (mode == ClosMode::kNonRearrangeable) {
      EXPECT_FALSE(r.ok);
      EXPECT_EQ(r.failure, ClosFailure::kBlocked);
      EXPECT_NE(
          r.reason.find("no middle path free between ingress bank 0 and egress bank 0 without rearranging"),
          std::string::npos)
          << r.reason;
      EXPECT_EQ(f.circuits(), 2);
      EXPECT_FALSE(f.output_of(1));
    } else {
      ASSERT_TRUE(r.ok) << r.reason;
      EXPECT_EQ(r.middle_path, 1);
      ASSERT_EQ(r.moved.size(), 1u);
      EXPECT_EQ(r.moved[0].input, 3);
      EXPECT_EQ(r.moved[0].output, 1);
      EXPECT_EQ(r.moved[0].from_path, 1);
      EXPECT_EQ(r.moved[0].to_path, 0);
      EXPECT_EQ(f.middle_of(3), 0);
      EXPECT_EQ(f.circuits(), 3);
    }
  }
}

// Why first-fit must fail on some random permutations of N=8, m=4: without
// moves a Clos network is strictly non-blocking only with 2n-1 middle paths
// (Clos 1953); here there are N = 8 for 8 ports per bank. Concretely, the
// last request of a full permutation finds 7 circuits at its ingress bank and
// 7 at its egress bank, each bank with exactly one of its 8 paths idle, and it
// fits only if that is the same path at both banks; the two banks were filled
// by circuits to and from three other banks each, in unrelated orders, so
// nothing makes the idle paths coincide. (The first-fit model above put the
// blocking rate near three quarters while this test was written; a zero count
// in 200 trials would need a rate far below 5%: 0.95^200 < 1e-4.)
// The fabric must block exactly where the independent model does. Up to that
// request the rearrangeable fabric is in the same state (first fit, nothing
// moved), so there it must move at least one circuit.
TEST(ClosFabric, NonRearrangeableFailsOnSomeRandomPermutations) {
  const int n = 8, m = 4, ports = n * m;
  std::mt19937 rng(2024);
  int failures = 0;
  for (int t = 0; t < 200; ++t) {
    const Perm perm = shuffled(ports, rng), order = shuffled(ports, rng);
    const int expected_block = first_fit_block(n, m, perm, order);
    ClosFabric fixed(ClosShape::full(n, m), ClosMode::kNonRearrangeable);
    ClosFabric moving(ClosShape::full(n, m), ClosMode::kRearrangeable);
    int blocked_at = -1;
    for (int k = 0; k < ports && blocked_at < 0; ++k) {
      const int in = order[k];
      const std::size_t moved = connect_ok(moving, in, perm[in]);
      const ConnectResult r = fixed.connect(in, perm[in]);
      EXPECT_EQ(fixed.check(), "");
      if (!r.ok) {
        blocked_at = k;
        EXPECT_EQ(r.failure, ClosFailure::kBlocked) << r.reason;
        EXPECT_GE(moved, 1u) << "rearrangeable fabric placed a request first-fit could not";
      } else {
        EXPECT_EQ(moved, 0u) << "rearrangeable fabric moved circuits although first fit had a path";
        EXPECT_EQ(r.middle_path, moving.middle_of(in));
      }
    }
    EXPECT_EQ(blocked_at, expected_block) << "trial " << t;
    if (blocked_at >= 0) ++failures;
  }
  EXPECT_GT(failures, 0) << "first fit never blocked on 200 random permutations of 32 endpoints";
}

// Cheaper build N=8, m=4, 2 middle banks: each ingress bank sees 2 * 8/4 = 4
// middle paths for its 8 inputs, so at most 4 of them carry circuits at once
// and no full permutation of the 32 endpoints fits, whatever the mode.
TEST(ClosFabric, CheaperBuildCannotFitAFullPermutation) {
  for (const ClosMode mode : {ClosMode::kNonRearrangeable, ClosMode::kRearrangeable}) {
    ClosFabric f({8, 4, 2}, mode);
    EXPECT_EQ(f.paths_per_bank(), 4);
    EXPECT_FALSE(f.rearrangeably_nonblocking());
    for (int in = 0; in < 4; ++in) connect_ok(f, in, in);
    const ConnectResult r = f.connect(4, 4);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.failure, ClosFailure::kNoPathAtIngress);
    EXPECT_NE(r.reason.find("no middle path free at ingress bank 0"), std::string::npos) << r.reason;
    EXPECT_NE(r.reason.find("input port 4"), std::string::npos) << r.reason;

    // The egress side counts the same way: four circuits into egress bank 1
    // from four different ingress banks fill its 4 paths.
    ClosFabric g({8, 4, 2}, mode);
    for (int k = 0; k < 4; ++k) connect_ok(g, 8 * k, 8 + k);
    EXPECT_EQ(g.connect(1, 12).failure, ClosFailure::kNoPathAtEgress);

    std::mt19937 rng(31);
    for (int t = 0; t < 50; ++t) {
      ClosFabric h({8, 4, 2}, mode);
      const Perm perm = shuffled(32, rng), order = shuffled(32, rng);
      int placed = 0;
      for (int in : order) placed += h.connect(in, perm[in]).ok;
      EXPECT_LE(placed, 4 * 4) << "more circuits than 4 banks x 4 middle paths";
      EXPECT_EQ(h.check(), "");
    }
  }
}

// Within its capacity the cheaper build is still a Clos(n = 4, k = 4, r = 4):
// Paull's method needs only a path idle at the ingress bank and one at the
// egress bank, so a request never fails while both banks hold fewer than 4.
TEST(ClosFabric, CheaperBuildRearrangesWithinItsCapacity) {
  ClosFabric f({8, 4, 2}, ClosMode::kRearrangeable);
  std::mt19937 rng(13);
  std::size_t moves = 0;
  for (int k = 0; k < 6000; ++k) {
    std::vector<int> load_in(4, 0), load_out(4, 0), busy, can_send, can_receive;
    for (int p = 0; p < 32; ++p) {
      if (f.output_of(p)) ++load_in[p / 8];
      if (f.input_of(p)) ++load_out[p / 8];
    }
    for (int p = 0; p < 32; ++p) {
      if (f.output_of(p))
        busy.push_back(p);
      else if (load_in[p / 8] < 4)
        can_send.push_back(p);
      if (!f.input_of(p) && load_out[p / 8] < 4) can_receive.push_back(p);
    }
    if (!can_send.empty() && !can_receive.empty() && (busy.empty() || rng() % 4 != 0)) {
      moves += connect_ok(f, can_send[rng() % can_send.size()], can_receive[rng() % can_receive.size()]);
    } else {
      EXPECT_TRUE(f.disconnect(busy[rng() % busy.size()]));
    }
  }
  EXPECT_GT(moves, 0u) << "rearrangement never exercised";
}

TEST(ClosFabric, RefusesAnOutputAlreadyInUseAndASecondCircuitFromOneInput) {
  ClosFabric f(ClosShape::full(4, 2), ClosMode::kRearrangeable);
  connect_ok(f, 1, 6);
  ConnectResult r = f.connect(2, 6);
  EXPECT_EQ(r.failure, ClosFailure::kOutputBusy);
  EXPECT_NE(r.reason.find("output port 6 already in use"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("input port 1"), std::string::npos) << r.reason;
  r = f.connect(1, 3);
  EXPECT_EQ(r.failure, ClosFailure::kInputBusy);
  EXPECT_NE(r.reason.find("input port 1 already has a circuit"), std::string::npos) << r.reason;
  EXPECT_EQ(f.output_of(1), 6);
  EXPECT_FALSE(f.output_of(2));
  EXPECT_EQ(f.circuits(), 1);
  EXPECT_FALSE(f.disconnect(2)) << "disconnecting an idle input";
  EXPECT_TRUE(f.disconnect(1));
  EXPECT_FALSE(f.input_of(6));
  connect_ok(f, 2, 6);
}

TEST(ClosFabric, RefusesPortsOutsideTheFabric) {
  ClosFabric f(ClosShape::full(4, 2), ClosMode::kNonRearrangeable);
  for (const auto& [in, out, side] :
       {std::tuple{8, 0, "input port 8"}, std::tuple{-1, 0, "input port -1"},
        std::tuple{0, 8, "output port 8"}, std::tuple{0, -3, "output port -3"}}) {
    const ConnectResult r = f.connect(in, out);
    EXPECT_EQ(r.failure, ClosFailure::kPortOutOfRange);
    EXPECT_NE(r.reason.find(std::string(side) + " is not an endpoint port (0..7)"), std::string::npos)
        << r.reason;
  }
  EXPECT_FALSE(f.disconnect(8));
  EXPECT_FALSE(f.output_of(-1));
  EXPECT_FALSE(f.input_of(8));
  EXPECT_FALSE(f.middle_of(100));
  EXPECT_EQ(f.circuits(), 0);
}

TEST(ClosFabric, RejectsImpossibleShapesNamingTheParameter) {
  EXPECT_NE(shape_error({0, 1, 1}).find("ocs.switch_ports = 0"), std::string::npos);
  EXPECT_NE(shape_error({4, 0, 1}).find("ocs.banks = 0"), std::string::npos);
  const std::string not_divisor = shape_error({8, 3, 3});
  EXPECT_NE(not_divisor.find("ocs.banks = 3 must divide ocs.switch_ports = 8"), std::string::npos)
      << not_divisor;
  EXPECT_NE(shape_error({8, 4, 0}).find("ocs.middle_banks = 0"), std::string::npos);
  EXPECT_NE(shape_error({8, 4, -2}).find("ocs.middle_banks = -2"), std::string::npos);
  EXPECT_NE(shape_error(ClosShape{}).find("ocs.switch_ports"), std::string::npos) << "an unset shape";
  EXPECT_NE(shape_error({1 << 20, 1 << 10, 1}).find("too large"), std::string::npos);
  EXPECT_EQ(shape_error({1, 1, 1}), "(accepted)");
}

TEST(ClosFabric, DescribesItsBanks) {
  // The seed's 128-node system: m = 4 banks of 32 ports, 3m = 12 banks.
  const ClosFabric seed(ClosShape::full(32, 4), ClosMode::kRearrangeable);
  EXPECT_EQ(seed.endpoints(), 128);
  EXPECT_EQ(seed.bank_count(), 12);
  EXPECT_EQ(seed.fibers_per_bank_pair(), 8);
  EXPECT_EQ(seed.paths_per_bank(), 32);
  EXPECT_TRUE(seed.rearrangeably_nonblocking());
  EXPECT_NE(seed.describe().find("4 ingress + 4 middle + 4 egress = 12 banks of 32x32"), std::string::npos)
      << seed.describe();
  EXPECT_NE(seed.describe().find("rearrangeably non-blocking"), std::string::npos);
  EXPECT_EQ(seed.middle_bank_of_path(17), 2);
  EXPECT_EQ(seed.fiber_of_path(17), 1);
  EXPECT_EQ(seed.ingress_bank_of(100), 3);

  const ClosFabric cheap({32, 4, 2}, ClosMode::kNonRearrangeable);
  EXPECT_EQ(cheap.bank_count(), 10);
  EXPECT_NE(cheap.describe().find("blocking (16 paths for 32 ports per bank)"), std::string::npos)
      << cheap.describe();
}

}  // namespace
}  // namespace kairo::ocs
