// The partitioner of partitioned runs (docs/parallel.md): owners,
// cut links, the lookahead and the balance, each against a value the test
// computes from the platform's parameters or from the owners themselves.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "hw/common/topology.h"
#include "platforms/partition.h"
#include "platforms/partition_graph.h"
#include "platforms/platform.h"
#include "tests/test_support.h"

namespace kairo {
namespace {

using platforms::Partition;
using platforms::PartitionMethod;
using platforms::Platform;
using sim::Time;

// The hop's fixed part from the router's parameters, as docs/parallel.md
// states it: min(pipeline + traversal, traversal + credit delay), in cycles
// of the router clock on a mesh/torus; on a switched fabric with a
// switching delay, the delay (rounded up to the clock) is the pipeline and
// there is no traversal.
Time fixed_part(const Platform& p) {
  const Time period = Time(std::llround(1e12 / p.router.clock_hz));
  const auto& r = p.router;
  Time pipeline = Time(r.routing_cycles + r.vc_alloc_cycles + r.sw_alloc_cycles) * period;
  Time traversal = Time(r.switch_traversal_cycles) * period;
  if (r.switching_delay_ps > 0) {
    pipeline = (r.switching_delay_ps + period - 1) / period * period;
    if (p.kind != platforms::FabricKind::kTorus) traversal = 0;
  }
  return std::min(pipeline + traversal, traversal + Time(r.credit_delay_cycles) * period);
}

std::uint64_t nodes_of(const Platform& p) {
  std::uint64_t n = 1;
  for (const auto& d : p.dims) n *= std::uint64_t(d.size);
  return n;
}

// Cables between routers of different owners, counted from the owners alone.
std::uint64_t count_cut(const Platform& p, const std::vector<int>& owner) {
  const hw::Topology topo(p.dims);
  std::set<std::pair<std::uint64_t, std::uint64_t>> cables;
  for (hw::NodeId a = 0; a < topo.num_nodes(); ++a)
    for (int d = 0; d < topo.num_dims(); ++d)
      for (int dir : {1, -1})
        if (auto b = topo.neighbor(a, d, dir); b && owner[a] != owner[*b])
          cables.insert({std::min<std::uint64_t>(a, *b), std::max<std::uint64_t>(a, *b)});
  return cables.size();
}

// 1-3. Tofu: ABC groups stay whole, only X/Y/Z cables are cut, the lookahead
// is the 10ns cable plus the fixed part, the blocks are contiguous boxes
// whose sizes follow the factorisation.
TEST(Partition, TofuBlocksKeepAbcGroupsWholeAndCutOnlyXyz) {
  for (const std::string name : {"tofu-small", "tofu-k"})
    for (int n : {2, 4, 8})
      for (PartitionMethod m : {PartitionMethod::kAuto, PartitionMethod::kBlocks}) {
        SCOPED_TRACE(name + " N=" + std::to_string(n));
        const Platform p = platforms::load_platform(name);
        const hw::Topology topo(p.dims);
        const Partition r = platforms::partition_platform(p, n, m);
        EXPECT_EQ(r.method, PartitionMethod::kBlocks);
        ASSERT_EQ(r.owner.size(), topo.num_nodes());
        // Every node with the same XYZ has the owner of its group's (a, b, c) = 0 node.
        for (hw::NodeId id = 0; id < topo.num_nodes(); ++id) {
          hw::Coord c = topo.coord_of(id);
          ASSERT_GE(r.owner[id], 0);
          ASSERT_LT(r.owner[id], n);
          c[3] = c[4] = c[5] = 0;
          ASSERT_EQ(r.owner[id], r.owner[topo.id_of(c)]) << topo.coord_string(topo.coord_of(id));
        }
        // Only X, Y, Z cables, each between neighbours differing in that coordinate alone.
        ASSERT_FALSE(r.cut.empty());
        for (const auto& l : r.cut) {
          const std::string cls = r.classes[std::size_t(l.cls)];
          ASSERT_TRUE(cls == "X" || cls == "Y" || cls == "Z") << cls;
          const auto ca = topo.coord_of(l.a), cb = topo.coord_of(l.b);
          for (int d = 0; d < 6; ++d)
            if (p.dims[std::size_t(d)].name != cls) ASSERT_EQ(ca[d], cb[d]);
          ASSERT_EQ(l.latency_ps, Time(10000));
        }
        EXPECT_EQ(r.cut.size(), count_cut(p, r.owner));
        const Time fixed = fixed_part(p);
        EXPECT_EQ(fixed, Time(2 * 3200));  // traversal + credit delay: 2 cycles of 3.2ns
        EXPECT_EQ(r.hop_fixed_ps, fixed);
        EXPECT_EQ(r.lookahead_ps, p.router.cable_ps[0] + fixed);
        // Factorisation: only X, Y, Z blocked, their product N.
        ASSERT_EQ(r.blocks.size(), 6u);
        EXPECT_EQ(r.blocks[3] * r.blocks[4] * r.blocks[5], 1);
        EXPECT_EQ(r.blocks[0] * r.blocks[1] * r.blocks[2], n);
        // Each process owns a box of contiguous coordinates, of the sizes the factorisation gives.
        std::vector<std::vector<std::set<int>>> proj(std::size_t(n), std::vector<std::set<int>>(6));
        for (hw::NodeId id = 0; id < topo.num_nodes(); ++id) {
          const auto c = topo.coord_of(id);
          for (int d = 0; d < 6; ++d) proj[std::size_t(r.owner[id])][std::size_t(d)].insert(c[d]);
        }
        for (int o = 0; o < n; ++o) {
          std::uint64_t box = 1;
          for (int d = 0; d < 6; ++d) {
            const auto& s = proj[std::size_t(o)][std::size_t(d)];
            ASSERT_EQ(*s.rbegin() - *s.begin() + 1, int(s.size())) << "not contiguous in " << d;
            const int size = p.dims[std::size_t(d)].size, k = r.blocks[std::size_t(d)];
            ASSERT_TRUE(int(s.size()) == size / k || int(s.size()) == (size + k - 1) / k);
            box *= s.size();
          }
          EXPECT_EQ(r.parts[std::size_t(o)].routers, box);
          EXPECT_EQ(r.parts[std::size_t(o)].hosts, box);
        }
      }
}

// tofu-k at N = 2: the cheapest single cut is Y (a mesh of 18: 82944 / 18
// cables), not X or Z (rings: twice 82944 / 24 and 82944 / 16).
TEST(Partition, TofuKTwoProcessesCutTheCheapestDimension) {
  const Platform p = platforms::load_platform("tofu-k");
  const Partition r = platforms::partition_platform(p, 2, PartitionMethod::kBlocks);
  const std::uint64_t nodes = nodes_of(p);
  const std::uint64_t x = 2 * nodes / 24, y = nodes / 18, z = 2 * nodes / 16;
  EXPECT_EQ(r.cut.size(), std::min({x, y, z}));
  EXPECT_EQ(r.blocks[1], 2);
  EXPECT_DOUBLE_EQ(r.imbalance, 1.0);
}

// 4. mesh-8x8: two halves cut 8 cables; four quadrants cut 8 + 8.
TEST(Partition, Mesh8x8BlocksCutTheExpectedCables) {
  const Platform p = platforms::load_platform("mesh-8x8");
  for (auto [n, expected] : {std::pair{2, 8u}, std::pair{4, 16u}}) {
    const Partition r = platforms::partition_platform(p, n, PartitionMethod::kBlocks);
    EXPECT_EQ(r.cut.size(), expected) << n;
    EXPECT_EQ(count_cut(p, r.owner), expected) << n;
    for (const auto& l : r.parts) EXPECT_EQ(l.routers, 64u / std::uint64_t(n));
    EXPECT_EQ(r.lookahead_ps, p.router.cable_ps[0] + fixed_part(p));
  }
  // One process: nothing cut, an infinite lookahead.
  const Partition one = platforms::partition_platform(p, 1, PartitionMethod::kAuto);
  EXPECT_TRUE(one.cut.empty());
  EXPECT_EQ(one.lookahead_ps, sim::kNever);
  EXPECT_EQ(one.parts.at(0).routers, 64u);
}

// 5. grid-2x32: two processes cut the wide-area link and nothing else.
TEST(Partition, GridTwoProcessesCutOnlyTheWan) {
  Platform p = platforms::load_platform("grid-2x32");
  p.fabric.wan_flow.loss = false;  // lossless: the split keeps credit flow control
  for (PartitionMethod m : {PartitionMethod::kAuto, PartitionMethod::kBlocks, PartitionMethod::kMetis}) {
    const Partition r = platforms::partition_platform(p, 2, m);
    ASSERT_EQ(r.cut.size(), 1u);
    EXPECT_EQ(r.classes[std::size_t(r.cut[0].cls)], "links.wan");
    EXPECT_EQ(r.lookahead_ps, p.fabric.wan.latency_ps + fixed_part(p));
    EXPECT_EQ(fixed_part(p), Time(1000));  // the 1-cycle credit delay, below the 1us switching delay
    for (std::uint64_t h = 0; h < 64; ++h)
      EXPECT_EQ(r.owner_of_host(h), int(h / 32) == 0 ? r.owner_of_host(0) : r.owner_of_host(32));
    EXPECT_NE(r.owner_of_host(0), r.owner_of_host(32));
  }
}

// 6. Fat trees: blocks keep each host with its edge switch (leaf groups);
// metis is balanced and deterministic.
TEST(Partition, FatTreeBlocksAreLeafGroupsAndMetisIsBalancedAndDeterministic) {
  for (const std::string name : {"ib-qdr-16", "eps-tree-128", "ib-qdr-256"}) {
    const Platform p = platforms::load_platform(name);
    const auto& f = p.fabric;
    for (int n = 2; n <= f.edges; n *= 2) {
      SCOPED_TRACE(name + " N=" + std::to_string(n));
      const Partition r = platforms::partition_platform(p, n, PartitionMethod::kBlocks);
      for (std::uint64_t h = 0; h < p.nodes(); ++h)
        ASSERT_EQ(r.owner_of_host(h), r.owner[std::size_t(h / std::uint64_t(f.hosts_per_edge))]);
      for (const auto& l : r.cut) EXPECT_EQ(r.classes[std::size_t(l.cls)], "links.up");
      for (const auto& l : r.parts) EXPECT_EQ(l.hosts, p.nodes() / std::uint64_t(n));
      EXPECT_EQ(r.lookahead_ps, f.up.latency_ps + fixed_part(p));
    }
  }
  const Platform p = platforms::load_platform("ib-qdr-256");
  for (int n : {2, 4, 8, 16}) {
    const Partition a = platforms::partition_platform(p, n, PartitionMethod::kMetis);
    const Partition b = platforms::partition_platform(p, n, PartitionMethod::kMetis);
    EXPECT_EQ(a.method, PartitionMethod::kMetis);
    EXPECT_EQ(a.owner, b.owner) << n;
    EXPECT_LE(a.imbalance, 1.05) << n;
    for (const auto& l : a.parts) EXPECT_GT(l.routers, 0u) << n;
  }
}

// The switched graph has the netlist's cables: counts by shape, and a
// links.ports latency lands on its cable.
TEST(Partition, SwitchGraphHasTheShapesCablesAndPortLatencies) {
  const Platform q = platforms::load_platform("ib-qdr-256");
  EXPECT_EQ(platforms::detail::switch_graph(q).edges.size(),
            std::size_t(q.fabric.edges) * std::size_t(q.fabric.uplinks_per_edge));
  const Platform g = platforms::load_platform("grid-2x32");
  EXPECT_EQ(platforms::detail::switch_graph(g).edges.size(), 2u + 1u);
  const Platform p =
      platforms::load_platform("ib-qdr-16", {"links.ports=[{switch: edge0, port: up3, latency: 50ns}]"});
  int found = 0;
  for (const auto& e : platforms::detail::switch_graph(p).edges) {
    const bool it =
        e.a == 0 && e.b == std::uint32_t(p.fabric.edges + 3 % p.fabric.spines) && e.latency_ps == Time(50000);
    found += it;
    if (!it) EXPECT_EQ(e.latency_ps, p.fabric.up.latency_ps);
  }
  EXPECT_EQ(found, 1);
}

// 7. Errors: too many processes (naming the maximum), fewer than one, a zero lookahead.
TEST(Partition, ErrorsNameTheMaximumAndTheZeroLookahead) {
  auto message = [](const Platform& p, int n, PartitionMethod m) -> std::string {
    try {
      platforms::partition_platform(p, n, m);
    } catch (const std::exception& e) {
      return e.what();
    }
    return "";
  };
  const Platform small = platforms::load_platform("tofu-small");
  EXPECT_NE(message(small, 9, PartitionMethod::kBlocks).find("at most 8 "), std::string::npos);
  EXPECT_NE(message(small, 97, PartitionMethod::kAuto).find("at most 96,"), std::string::npos);
  EXPECT_NE(message(small, 0, PartitionMethod::kAuto).find("1 or more"), std::string::npos);
  EXPECT_NE(message(platforms::load_platform("tofu-k"), 6913, PartitionMethod::kBlocks).find("at most 6912 "),
            std::string::npos);
  EXPECT_NE(message(platforms::load_platform("mesh-8x8"), 11, PartitionMethod::kBlocks).find("cannot split"),
            std::string::npos);
  EXPECT_NE(message(platforms::load_platform("eps-tree-128"), 5, PartitionMethod::kBlocks).find("at most 4 "),
            std::string::npos);
  // A cable of 0ns with a nonzero fixed part still has a lookahead: the fixed part.
  const std::string torus =
      "name: zero\ntopology:\n  dims:\n    - {name: X, size: 4, wrap: true}\n    - {name: Y, size: 4, wrap: "
      "true}\nrouter:\n  clock: 1GHz\n  cable_latency: 0ns\n";
  const Platform z1 = platforms::parse_platform(torus, "zero.yaml");
  const Partition r1 = platforms::partition_platform(z1, 2, PartitionMethod::kBlocks);
  EXPECT_EQ(r1.lookahead_ps, fixed_part(z1));
  EXPECT_GT(r1.lookahead_ps, 0u);
  // With no traversal and no credit delay either, the cut cannot be made.
  const Platform z0 = platforms::parse_platform(
      torus, "zero.yaml", {"router.switch_traversal_cycles=0", "router.credit_delay_cycles=0"});
  const std::string why = message(z0, 2, PartitionMethod::kBlocks);
  EXPECT_NE(why.find("lookahead is 0"), std::string::npos) << why;
  EXPECT_NE(why.find("(router.cable_latency.Y) is 0ns"), std::string::npos)
      << why;  // ties: Y, the first found
  EXPECT_THROW(platforms::partition_platform(z0, 2, PartitionMethod::kBlocks), platforms::ConfigError);
  EXPECT_NO_THROW(platforms::partition_platform(z0, 1, PartitionMethod::kBlocks));
}

// 8. The command line.
TEST(Partition, CheckPrintsThePartitionAndRefusesBadCounts) {
  auto r = test::run_kairo({"check", "tofu-small", "--processes", "4"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Platform p = platforms::load_platform("tofu-small");
  const double ns = double(p.router.cable_ps[0] + fixed_part(p)) / 1000.0;
  std::ostringstream want;
  want << "lookahead  " << ns << "ns";
  EXPECT_NE(r.out.find(want.str()), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("partition  blocks over 4 processes"), std::string::npos) << r.out;
  auto big = test::run_kairo({"check", "tofu-small", "--processes", "100000"});
  EXPECT_EQ(big.exit_code, 2);
  EXPECT_NE(big.err.find("at most 96"), std::string::npos) << big.err;
  EXPECT_EQ(big.out, "");  // refused before anything is printed
  EXPECT_EQ(test::run_kairo({"check", "tofu-small", "--processes", "0"}).exit_code, 2);
  EXPECT_EQ(test::run_kairo({"check", "tofu-small", "--processes", "2", "--partition", "bogus"}).exit_code,
            2);
  EXPECT_EQ(test::run_kairo({"check", "tofu-small", "--partition", "metis"}).exit_code, 2);
  auto grid = test::run_kairo({"check", "grid-2x32", "--processes", "2", "--partition", "metis", "--set",
                               "links.wan.flow_control=credit"});
  auto lossy = test::run_kairo({"check", "grid-2x32", "--processes", "2"});  // the loss model stays whole
  EXPECT_EQ(lossy.exit_code, 2);
  EXPECT_NE(lossy.err.find("links.wan.flow_control"), std::string::npos) << lossy.err;
  EXPECT_EQ(grid.exit_code, 0) << grid.err;
  EXPECT_NE(grid.out.find("links.wan 1"), std::string::npos) << grid.out;
}

}  // namespace
}  // namespace kairo
