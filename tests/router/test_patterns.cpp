// BookSim 2's synthetic traffic patterns (src/traffic.cpp of commit 28f4329,
// the one tests/validation/booksim_reference/ ran): each destination
// checked against its definition written out here independently (bit strings,
// base-8 digits, offsets), the random ones by their frequencies over fixed
// seeds with tolerances a wrong definition fails; and the patterns that need
// a power-of-two or 64 nodes refused otherwise, in the library and through
// the command line.
#include <gtest/gtest.h>

#include <algorithm>
#include <bitset>
#include <cmath>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>

#include "hw/common/topology.h"
#include "tests/test_support.h"
#include "traffic/pattern.h"

namespace kairo {
namespace {

using hw::NodeId;
using traffic::DestinationPicker;
using traffic::Pattern;

hw::Topology grid8(bool wrap) { return hw::Topology({{"X", 8, wrap}, {"Y", 8, wrap}}); }

Pattern pattern(const std::string& name) {
  auto p = traffic::parse_pattern(name);
  EXPECT_TRUE(p.has_value()) << name;
  return *p;
}

// The 6-bit id as a string, most significant bit first, and back.
std::string bits6(NodeId i) { return std::bitset<6>(i).to_string(); }
NodeId from_bits(const std::string& s) { return NodeId(std::stoul(s, nullptr, 2)); }

// BookSim numbers the nodes of a k-ary n-cube with dimension 0 as the lowest
// base-k digit: digit d of node i is (i / k^d) mod k. kairo's ids count
// dimension 0 (X) fastest: the same number for the same coordinates.
TEST(Patterns, KairoIdsOn8x8AreBookSimsNodeNumbers) {
  for (bool wrap : {false, true}) {
    const auto topo = grid8(wrap);
    for (NodeId i = 0; i < 64; ++i) {
      const auto c = topo.coord_of(i);
      EXPECT_EQ(c[0], int(i % 8)) << i;
      EXPECT_EQ(c[1], int(i / 8 % 8)) << i;
    }
  }
}

// bitrev: the 6 bits of the id reversed, on the mesh, the torus and the
// host ring of a switched fabric alike (it never looks at coordinates).
TEST(Patterns, BitrevReversesTheBitsOfTheId) {
  const auto mesh = grid8(false), torus = grid8(true);
  sim::Rng rng(1, 1);
  for (const hw::Topology* t : {&mesh, &torus, static_cast<const hw::Topology*>(nullptr)}) {
    DestinationPicker p(64, t, pattern("bitrev"), 1);
    EXPECT_TRUE(p.is_permutation());
    for (NodeId i = 0; i < 64; ++i) {
      std::string s = bits6(i);
      std::reverse(s.begin(), s.end());
      EXPECT_EQ(p.pick(i, rng), from_bits(s)) << "node " << i << " (" << bits6(i) << ")";
    }
  }
  // Two cases by hand: 000001 -> 100000, 110100 -> 001011.
  DestinationPicker p(64, nullptr, pattern("bitrev"), 1);
  EXPECT_EQ(p.pick(1, rng), 32u);
  EXPECT_EQ(p.pick(52, rng), 11u);
}

// shuffle: the id rotated left by one bit (the top bit comes round to the
// bottom), on 64 nodes and on a ring of 16 hosts.
TEST(Patterns, ShuffleRotatesTheIdLeftByOneBit) {
  const auto mesh = grid8(false);
  sim::Rng rng(1, 1);
  DestinationPicker p(64, &mesh, pattern("shuffle"), 1);
  for (NodeId i = 0; i < 64; ++i) {
    std::string s = bits6(i);
    std::rotate(s.begin(), s.begin() + 1, s.end());
    EXPECT_EQ(p.pick(i, rng), from_bits(s)) << "node " << i << " (" << bits6(i) << ")";
  }
  DestinationPicker ring(16, nullptr, pattern("shuffle"), 1);
  for (NodeId i = 0; i < 16; ++i) {
    std::string s = std::bitset<4>(i).to_string();
    std::rotate(s.begin(), s.begin() + 1, s.end());
    EXPECT_EQ(ring.pick(i, rng), from_bits(s)) << "host " << i;
  }
}

// A node count that is not a power of two is refused by the picker, naming
// the pattern, the need and the count (tofu-small has 96 nodes, the 10x10x10
// shapes 1000); taper64 wants exactly 64.
TEST(Patterns, BitPatternsNeedAPowerOfTwoAndTaper64NeedsSixtyFour) {
  for (std::string name : {"bitrev", "shuffle"}) {
    for (NodeId n : {NodeId(96), NodeId(1000), NodeId(63)}) {
      try {
        DestinationPicker p(n, nullptr, pattern(name), 1);
        FAIL() << name << " accepted " << n << " nodes";
      } catch (const std::invalid_argument& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find(name), std::string::npos) << what;
        EXPECT_NE(what.find("power-of-two"), std::string::npos) << what;
        EXPECT_NE(what.find(std::to_string(n)), std::string::npos) << what;
      }
    }
    for (NodeId n : {NodeId(1), NodeId(2), NodeId(64), NodeId(1024)})
      EXPECT_NO_THROW(DestinationPicker(n, nullptr, pattern(name), 1)) << name << " " << n;
  }
  for (NodeId n : {NodeId(63), NodeId(128)})
    EXPECT_THROW(DestinationPicker(n, nullptr, pattern("taper64"), 1), std::invalid_argument) << n;
  EXPECT_THROW(DestinationPicker(1, nullptr, pattern("asymmetric"), 1), std::invalid_argument);
}

// diagonal (BookSim: RandomInt(2) == 0 ? next : self, RandomInt(2) being one
// of 0, 1, 2): the next node by id, wrapping, one time in three; the source
// itself otherwise. 64 x 3000 draws: the share's standard deviation is
// 0.0011, so 0.006 is over five of them; a coin (1/2) fails by 0.17.
TEST(Patterns, DiagonalSendsOneThirdToTheNextNodeAndTwoThirdsToItself) {
  const auto torus = grid8(true);
  DestinationPicker p(64, &torus, pattern("diagonal"), 1);
  EXPECT_FALSE(p.is_permutation());
  std::uint64_t next = 0, self = 0, total = 0;
  for (NodeId i = 0; i < 64; ++i) {
    sim::Rng rng(5, i);
    std::uint64_t next_here = 0;
    for (int k = 0; k < 3000; ++k, ++total) {
      const NodeId d = p.pick(i, rng);
      if (d == (i + 1) % 64)
        ++next, ++next_here;
      else if (d == i)
        ++self;
      else
        ADD_FAILURE() << "node " << i << " sent to " << d;
    }
    EXPECT_GT(next_here, 0u) << "node " << i;
  }
  EXPECT_EQ(next + self, total);
  EXPECT_NEAR(double(next) / double(total), 1.0 / 3, 0.006);
}

// asymmetric: node i sends to i mod h or to i mod h + h, h = floor(N/2),
// half and half (64 x 2000 draws: standard deviation 0.0014). On an odd
// count the last node receives nothing.
TEST(Patterns, AsymmetricSendsToTheLowerHalfsMatchOrItsPartnerHalfAndHalf) {
  for (NodeId n : {NodeId(64), NodeId(63)}) {
    DestinationPicker p(n, nullptr, pattern("asymmetric"), 1);
    const NodeId h = n / 2;
    std::uint64_t upper = 0, total = 0;
    std::set<NodeId> reached;
    for (NodeId i = 0; i < n; ++i) {
      sim::Rng rng(3, i);
      for (int k = 0; k < 2000; ++k, ++total) {
        const NodeId d = p.pick(i, rng);
        reached.insert(d);
        if (d == i % h + h)
          ++upper;
        else if (d != i % h)
          ADD_FAILURE() << n << " nodes: node " << i << " sent to " << d;
      }
    }
    EXPECT_NEAR(double(upper) / double(total), 0.5, 0.007) << n;
    EXPECT_EQ(reached.size(), std::size_t(2 * h)) << n;
    EXPECT_EQ(reached.count(n - 1), n % 2 ? 0u : 1u) << n << " nodes: the last one";
  }
}

// Pearson's statistic of the counts against expected counts.
double chi2(const std::vector<double>& observed, const std::vector<double>& expected) {
  double s = 0;
  for (std::size_t i = 0; i < observed.size(); ++i)
    if (expected[i] > 0) s += (observed[i] - expected[i]) * (observed[i] - expected[i]) / expected[i];
  return s;
}

// Counts of the offset (destination - source) mod 64 over `draws` packets of
// each of the 64 nodes, each node with its own stream.
std::vector<double> offsets64(const DestinationPicker& p, int draws) {
  std::vector<double> count(64, 0.0);
  for (NodeId i = 0; i < 64; ++i) {
    sim::Rng rng(11, i);
    for (int k = 0; k < draws; ++k) count[(p.pick(i, rng) + 64 - i) % 64] += 1;
  }
  return count;
}

// uniform_self (BookSim's uniform) draws every node, the source included,
// with probability 1/N; kairo's uniform never the source, the others 1/(N-1).
// 64 x 1000 draws; with 63 degrees of freedom the statistic stays below 110
// but for about one seed in 4,000 (p = 2.3e-4); a uniform that left out the source would add
// 1000 to it.
TEST(Patterns, UniformSelfIncludesTheSourceAndUniformDoesNot) {
  const auto mesh = grid8(false);
  auto with_self = offsets64(DestinationPicker(64, &mesh, pattern("uniform_self"), 1), 1000);
  EXPECT_LT(chi2(with_self, std::vector<double>(64, 1000.0)), 110.0);
  auto other = offsets64(DestinationPicker(64, &mesh, pattern("uniform"), 1), 1000);
  EXPECT_EQ(other[0], 0.0);
  std::vector<double> expected(64, 64000.0 / 63);
  expected[0] = 0;
  EXPECT_LT(chi2(other, expected), 110.0);
}

// taper64: half the packets go to node i + 8 dy + dx mod 64 (dy, dx each -1,
// 0, +1: a 3x3 window in ids, wrapping through the id space), the other half
// anywhere (source included). The offset o has probability
// [o in window] / 18 + 1/128.
TEST(Patterns, Taper64MixesAThreeByThreeWindowWithUniformHalfAndHalf) {
  std::set<int> window;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) window.insert(((8 * dy + dx) % 64 + 64) % 64);
  ASSERT_EQ(window.size(), 9u);
  const int draws = 2000;
  std::vector<double> expected(64);
  for (int o = 0; o < 64; ++o) expected[o] = 64.0 * draws * ((window.count(o) ? 1.0 / 18 : 0.0) + 1.0 / 128);
  auto got = offsets64(DestinationPicker(64, nullptr, pattern("taper64"), 1), draws);
  EXPECT_LT(chi2(got, expected), 110.0);
  double in_window = 0;
  for (int o : window) in_window += got[o];
  EXPECT_NEAR(in_window / (64.0 * draws), 0.5 + 9.0 / 128, 0.01);
}

// The patterns kairo had before, on an 8x8 mesh and torus, against BookSim's
// own formulas on node numbers (k = 8, n = 2): transpose swaps the upper and
// lower 3 bits, bitcomp complements all 6, tornado adds (k+1)/2 - 1 = 3 to
// each base-8 digit and neighbor 1, mod 8.
TEST(Patterns, PermutationsOn8x8AgreeWithBookSimsFormulas) {
  auto digits = [](NodeId i, int add) { return NodeId((i % 8 + add) % 8 + 8 * ((i / 8 + add) % 8)); };
  std::map<std::string, std::function<NodeId(NodeId)>> booksim = {
      {"transpose", [](NodeId i) { return NodeId(((i >> 3) & 7) | ((i << 3) & 56)); }},
      {"bitcomp", [](NodeId i) { return NodeId(~i & 63); }},
      {"tornado", [&](NodeId i) { return digits(i, (8 + 1) / 2 - 1); }},
      {"neighbor", [&](NodeId i) { return digits(i, 1); }},
  };
  sim::Rng rng(1, 1);
  for (bool wrap : {false, true}) {
    const auto topo = grid8(wrap);
    for (const auto& [name, f] : booksim) {
      DestinationPicker p(64, &topo, pattern(name), 1);
      for (NodeId i = 0; i < 64; ++i) EXPECT_EQ(p.pick(i, rng), f(i)) << name << " wrap " << wrap << " " << i;
    }
  }
}

// randperm: a permutation fixed by the seed (BookSim's is one too, from its
// perm_seed; the two draw different ones); hotspot with fraction 1 and one
// hotspot node is BookSim's hotspot(h): every packet to h.
TEST(Patterns, RandpermIsAPermutationFixedByTheSeedAndHotspotAtOneIsBookSims) {
  sim::Rng rng(1, 1);
  auto perm = [&](std::uint64_t seed) {
    DestinationPicker p(64, nullptr, pattern("randperm"), seed);
    std::vector<NodeId> d(64);
    for (NodeId i = 0; i < 64; ++i) d[i] = p.pick(i, rng);
    return d;
  };
  auto a = perm(7);
  EXPECT_EQ(std::set<NodeId>(a.begin(), a.end()).size(), 64u);
  EXPECT_EQ(a, perm(7));
  EXPECT_NE(a, perm(8));
  DestinationPicker hot(64, nullptr, pattern("hotspot"), 1, {37}, 1.0);
  for (NodeId i = 0; i < 64; ++i) EXPECT_EQ(hot.pick(i, rng), 37u);
}

// bad_dragon with g hosts per group: every destination lies in the next
// group, (i / g + 1) mod groups, the last group sending to group 0, and each
// of its g nodes is drawn with probability 1/g. Each source draws K times, so
// a destination node's count is binomial (g K draws of probability 1/g: mean
// K, sd sqrt(K (1 - 1/g))); five sd bound every node's count (all 342 + 72
// inside but for about one seed in 4,000), and Pearson's statistic over the
// N nodes (N - groups degrees of freedom: each group's total is fixed at
// g K) stays under its 1e-4 quantile (Wilson-Hilferty: 426.2 for 323, 113.7
// for 63). A pattern that drew one node of the group twice as often as the
// others fails both (that node's count near 1.9 K). Without the group size (not a dragonfly), or with one
// that does not divide the nodes, the picker refuses.
TEST(Patterns, BadDragonSendsToAUniformNodeOfTheNextGroup) {
  const int K = 2000;
  for (const auto& [n, g, quantile] :
       {std::tuple{NodeId(342), NodeId(18), 426.2}, {NodeId(72), NodeId(8), 113.7}}) {
    DestinationPicker p(n, nullptr, pattern("bad_dragon"), 1, {0}, 0.2, g);
    EXPECT_FALSE(p.is_permutation());
    const NodeId groups = n / g;
    std::vector<double> count(n, 0.0);
    for (NodeId i = 0; i < n; ++i) {
      sim::Rng rng(7, i);
      const NodeId next = (i / g + 1) % groups;
      for (int k = 0; k < K; ++k) {
        const NodeId d = p.pick(i, rng);
        ASSERT_LT(d, n);
        ASSERT_EQ(d / g, next) << "node " << i << " of group " << i / g << " sent to " << d;
        count[d] += 1;
      }
    }
    // The last group's nodes send to group 0.
    sim::Rng rng(3, 0);
    EXPECT_LT(p.pick(n - 1, rng), g);
    const double sd = std::sqrt(K * (1 - 1.0 / double(g)));
    for (NodeId d = 0; d < n; ++d) EXPECT_NEAR(count[d], K, 5 * sd) << n << " nodes: node " << d;
    EXPECT_LT(chi2(count, std::vector<double>(n, double(K))), quantile) << n << " nodes";
  }
  for (NodeId g : {NodeId(0), NodeId(20)}) {
    try {
      DestinationPicker p(342, nullptr, pattern("bad_dragon"), 1, {0}, 0.2, g);
      FAIL() << "bad_dragon accepted a group of " << g << " of 342 nodes";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("dragonfly"), std::string::npos) << e.what();
    }
  }
}

// The random patterns draw from the source's stream only: the same stream
// gives the same destinations.
TEST(Patterns, RandomPatternsAreDeterministicPerStream) {
  for (std::string name : {"diagonal", "asymmetric", "uniform_self", "taper64"}) {
    DestinationPicker p(64, nullptr, pattern(name), 1);
    sim::Rng a(9, 4), b(9, 4);
    for (int k = 0; k < 200; ++k) ASSERT_EQ(p.pick(4, a), p.pick(4, b)) << name;
  }
}

// End to end: shuffle on mesh-8x8 delivers every packet, and its average
// hop count is the mean Manhattan distance from each node to its shuffle
// (weighted by each node's packets, so within 0.1: about five standard
// deviations of that weighting at 64 x 250 packets).
TEST(Patterns, ShuffleRunsEndToEndOnMesh8x8WithTheHopsOfItsDestinations) {
  auto r = test::run_kairo({"traffic", "mesh-8x8", "--pattern", "shuffle", "--rate", "0.05",
                            "--warmup-cycles", "200", "--measure-cycles", "20000", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["pattern"], "shuffle");
  EXPECT_EQ(j["packets_created"], j["packets_delivered"]);
  EXPECT_EQ(j["packets_lost"], 0);
  double hops = 0;
  for (NodeId i = 0; i < 64; ++i) {
    std::string s = bits6(i);
    std::rotate(s.begin(), s.begin() + 1, s.end());
    const NodeId d = from_bits(s);
    hops += std::abs(int(i % 8) - int(d % 8)) + std::abs(int(i / 8) - int(d / 8));
  }
  EXPECT_NEAR(j["avg_hops"].get<double>(), hops / 64, 0.1);
}

}  // namespace
}  // namespace kairo
