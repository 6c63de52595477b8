// The bounds an all-to-all is measured against (analysis/bounds.h):
// formula (1), the busiest link under the platform's routing, and the RDMA
// engines' injection bound. The expected loads come from an independent
// walk of every pair of a whole mesh/torus in the test, never from kairo's
// routing code; the injection bound from its formula.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/bounds.h"
#include "platforms/platform.h"
#include "tests/test_support.h"

namespace kairo {
namespace {

enum class Tie { kPlus, kMinus, kBalanced, kHalf };

// Dimension-order routing over the whole machine, written out here: every
// pair (s, t), dimensions corrected in `order`, the shorter way round a
// ring, ties by `tie` (kHalf: half the pair each way, random's expectation).
// Returns the busiest directed link's load in pairs.
double busiest_link(const std::vector<int>& size, const std::vector<bool>& wrap,
                    const std::vector<int>& order, Tie tie) {
  const int n = int(size.size());
  int nodes = 1;
  for (int k : size) nodes *= k;
  auto coords = [&](int id) {
    std::vector<int> c(n);
    for (int d = 0; d < n; ++d) c[d] = id % size[d], id /= size[d];
    return c;
  };
  std::map<std::tuple<std::vector<int>, int, int>, double> load;  // (node, dim, dir) -> pairs
  auto walk = [&](std::vector<int> here, const std::vector<int>& dst, int first_dir_on_tie, double w) {
    for (int d : order) {
      const int k = size[d];
      bool first = true;
      while (here[d] != dst[d]) {
        int dir;
        if (!wrap[d] || k < 3) {
          dir = dst[d] > here[d] ? 1 : -1;
        } else {
          const int plus = (dst[d] - here[d] + k) % k, minus = k - plus;
          dir = plus < minus ? 1 : plus > minus ? -1 : first ? first_dir_on_tie : 1;
          if (plus == minus && !first) ADD_FAILURE() << "a tie after the first hop";
        }
        if (k == 2) dir = 1;  // one link between the two nodes
        load[{here, d, dir}] += w;
        here[d] = (here[d] + dir + k) % k;
        first = false;
      }
    }
  };
  for (int s = 0; s < nodes; ++s)
    for (int t = 0; t < nodes; ++t) {
      if (s == t) continue;
      const std::vector<int> src = coords(s), dst = coords(t);
      // The tie's direction for this pair, per ring it ties on: the rule
      // sees the coordinate the packet enters the ring from, which under
      // dimension order is the source's own.
      auto tie_dir = [&](int d, bool coin) {
        switch (tie) {
          case Tie::kPlus:
            return 1;
          case Tie::kMinus:
            return -1;
          case Tie::kBalanced:
            return src[d] % 2 == 0 ? 1 : -1;
          case Tie::kHalf:
            return coin ? 1 : -1;
        }
        return 1;
      };
      // Each dimension's segment on its own: it starts where the dims
      // routed before it already hold the destination's coordinates, and
      // its links depend only on its own tie (kHalf: both ways, half each).
      for (int d : order) {
        std::vector<int> here = src;
        for (int e : order) {  // coordinates of the dims routed before d are the destination's
          if (e == d) break;
          here[e] = dst[e];
        }
        std::vector<int> to = here;
        to[d] = dst[d];
        if (tie == Tie::kHalf) {
          walk(here, to, tie_dir(d, true), 0.5);
          walk(here, to, tie_dir(d, false), 0.5);
        } else {
          walk(here, to, tie_dir(d, false), 1.0);
        }
      }
    }
  double most = 0;
  for (const auto& [link, pairs] : load) most = std::max(most, pairs);
  return most;
}

platforms::Platform platform(const std::string& name, std::vector<std::string> sets = {}) {
  return platforms::load_platform(name, sets);
}

// One put of m bytes on the wire: ceil(m / mtu) packets, each header +
// payload rounded up to whole flits.
double wire_bytes(double m, double mtu, double header, double flit) {
  double w = 0;
  for (double left = m; left > 0; left -= mtu) w += std::ceil((std::min(left, mtu) + header) / flit) * flit;
  return w;
}

TEST(AlltoallBounds, BusiestLinkFollowsTheTieBreakOnEvenRings) {
  // An 8-ring: plus sends the 4 half-way pairs of every source + too, so a +
  // link carries 1 + 2 + 3 + 4 = 10 = k^2/8 + k/4 of one ring's pairs;
  // balanced and random split them, 8 = k^2/8, formula (1)'s own load.
  const std::vector<std::pair<std::string, double>> ring8 = {
      {"plus", 10}, {"minus", 10}, {"balanced", 8}, {"random", 8}};
  for (const auto& [tie, per_ring] : ring8) {
    auto p = platform("torus-8x8", {"router.tie_break=" + tie});
    EXPECT_DOUBLE_EQ(analysis::alltoall_busiest_link_pairs(p), 8 * per_ring) << tie;
  }
  // Against the whole-machine walk: rings of 6 and 10 (balanced is uneven
  // link by link when k is not a multiple of 4), meshes, size-2 dims, and
  // routing orders other than the declared one.
  struct Case {
    std::string base;
    std::vector<std::string> sets;
    std::vector<int> size;
    std::vector<bool> wrap;
    std::vector<int> order;
  };
  const std::vector<Case> cases = {
      {"torus-10x10x10",
       {"topology.dims.X.size=6", "topology.dims.Y.size=10", "topology.dims.Z.size=3"},
       {6, 10, 3},
       {true, true, true},
       {0, 1, 2}},
      {"torus-10x10x10",
       {"topology.dims.X.size=4", "topology.dims.Y.size=6", "topology.dims.Z.size=2",
        "router.routing_order=[Z,Y,X]"},
       {4, 6, 2},
       {true, true, true},
       {2, 1, 0}},
      {"mesh-10x10x10",
       {"topology.dims.X.size=5", "topology.dims.Y.size=4", "topology.dims.Z.size=3"},
       {5, 4, 3},
       {false, false, false},
       {0, 1, 2}},
      {"tofu-small", {}, {2, 2, 2, 2, 3, 2}, {true, true, true, false, true, false}, {0, 1, 2, 3, 5, 4}},
      {"tofu-small",
       {"topology.dims.X.size=4", "topology.dims.Z.size=6"},
       {4, 2, 6, 2, 3, 2},
       {true, true, true, false, true, false},
       {0, 1, 2, 3, 5, 4}}};
  const std::vector<std::pair<std::string, Tie>> ties = {
      {"plus", Tie::kPlus}, {"minus", Tie::kMinus}, {"balanced", Tie::kBalanced}, {"random", Tie::kHalf}};
  for (const auto& c : cases)
    for (const auto& [name, tie] : ties) {
      std::vector<std::string> sets = c.sets;
      sets.push_back("router.tie_break=" + name);
      EXPECT_DOUBLE_EQ(analysis::alltoall_busiest_link_pairs(platform(c.base, sets)),
                       busiest_link(c.size, c.wrap, c.order, tie))
          << c.base << " " << c.sets.size() << " sets, tie_break=" << name;
    }
}

TEST(AlltoallBounds, RoutingBoundIsTheBusiestLinksWireBytes) {
  // torus-8x8: 32B flits at 32 GB/s, 224B MTU behind a 32B header; 4 KiB
  // is 18 full packets of 8 flits and one of 96B (3 flits).
  const double m = 4096, w = wire_bytes(m, 224, 32, 32);
  ASSERT_DOUBLE_EQ(w, (18 * 8 + 3) * 32);
  const double B = 32e9 * 224 / 256;
  for (const auto& [tie, pairs] :
       std::vector<std::pair<std::string, double>>{{"plus", 80}, {"balanced", 64}}) {
    const auto b =
        analysis::alltoall_bounds(platform("torus-8x8", {"router.tie_break=" + tie}), std::uint64_t(m));
    EXPECT_NEAR(b.network_ns, 64 * m / B * 1e9, 1e-6) << "formula (1): 1/2 x 4 x 4 x 8 pairs";
    EXPECT_NEAR(b.routing_ns, pairs * w / 32e9 * 1e9, 1e-6) << tie;
    EXPECT_GE(b.routing_ns, b.network_ns) << "no routing beats formula (1)";
  }
}

TEST(AlltoallBounds, OneSlowTniMakesTheBookSimMeshInjectionBound) {
  // mesh-10x10x10 has no nic: section: one TNI at the default 2.8 GB/s
  // DMA moves 999 x 4 KiB in 1,461 us against formula (1)'s 365.7 us.
  const auto mesh = analysis::alltoall_bounds(platform("mesh-10x10x10"), 4096);
  EXPECT_NEAR(mesh.injection_ns, 999 * 4096 / 2.8e9 * 1e9, 1e-6);
  const double B = 32e9 * 224 / 256;
  EXPECT_NEAR(mesh.network_ns, 5 * 5 * 100 * 4096 / B * 1e9, 1e-6);
  EXPECT_EQ(mesh.binding, "injection");
  EXPECT_NE(mesh.note.find("cannot reach the network bound"), std::string::npos) << mesh.note;
  EXPECT_NE(mesh.note.find("1 TNI per node at 2.8 GB/s"), std::string::npos) << mesh.note;
  EXPECT_DOUBLE_EQ(mesh.largest_ns(), mesh.injection_ns);
  // tofu-small's four TNIs: 95 x 4 KiB over 4 x 2.8 GB/s, below its network bound.
  const auto tofu = analysis::alltoall_bounds(platform("tofu-small"), 4096);
  EXPECT_NEAR(tofu.injection_ns, 95 * 4096 / (4 * 2.8e9) * 1e9, 1e-6);
  EXPECT_LT(tofu.injection_ns, tofu.network_ns);
  EXPECT_TRUE(tofu.note.empty()) << tofu.note;
  // A port to the router slower than the DMA bounds each TNI at its payload rate,
  // and node memory (read and written) bounds them all.
  const auto port = analysis::alltoall_bounds(platform("tofu-small", {"router.host_bandwidth=1GB/s"}), 4096);
  EXPECT_NEAR(port.injection_ns, 95 * 4096 / (4 * 1e9 * 4096 / wire_bytes(4096, 1920, 96, 32)) * 1e9, 1e-6);
  const auto memory = analysis::alltoall_bounds(platform("tofu-small", {"nic.memory_bandwidth=4GB/s"}), 4096);
  EXPECT_NEAR(memory.injection_ns, 2 * 95 * 4096 / 4e9 * 1e9, 1e-6);
  EXPECT_NE(memory.note.find("node memory"), std::string::npos) << memory.note;
  // A switched fabric has only the injection bound.
  const auto tree = analysis::alltoall_bounds(platform("ib-qdr-16"), 4096);
  EXPECT_EQ(tree.network_ns, 0);
  EXPECT_EQ(tree.routing_ns, 0);
  EXPECT_EQ(tree.binding, "injection");
}

// `kairo check` prints them for any platform and size, without a run.
TEST(AlltoallBounds, CheckPrintsThemAndRefusesABadSize) {
  auto r = test::run_kairo({"check", "mesh-10x10x10", "--alltoall-size", "4KiB"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("all-to-all 4KiB per pair: network 365.7 us (formula (1))"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("injection 1.461 ms; injection binds"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cannot reach the network bound"), std::string::npos) << r.out;
  for (const char* bad : {"0", "4QB"}) {
    auto e = test::run_kairo({"check", "tofu-small", "--alltoall-size", bad});
    EXPECT_EQ(e.exit_code, 2) << bad;
    EXPECT_NE(e.err.find("--alltoall-size"), std::string::npos) << e.err;
    EXPECT_EQ(e.out, "") << "nothing half-printed";
  }
}

}  // namespace
}  // namespace kairo
