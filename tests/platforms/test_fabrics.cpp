// Switched fabrics (docs/fabrics.md): what `kairo check` counts equals the shape,
// a put across a fat tree takes the time the parameters give, streams
// share an oversubscribed uplink and a wide-area link as they should.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <regex>

#include "tests/nic_bench.h"
#include "tests/test_support.h"

namespace kairo {
namespace {

using hw::NodeId;
using sim::Time;
using test::NicBench;
using namespace kairo::nic;

std::uint64_t number_after(const std::string& text, const std::string& pattern) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(pattern))) return ~std::uint64_t(0);
  return std::stoull(m[1]);
}

// 1. Node and link counts from the shape, for every shipped platform.
TEST(Fabrics, CheckCountsNodesAndLinksAsTheShapeGives) {
  for (const auto& sp : platforms::shipped_platforms()) {
    SCOPED_TRACE(sp.name);
    auto p = platforms::load_platform(sp.name);
    auto r = test::run_kairo({"check", sp.name});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const int nis = p.router.network_interfaces;
    if (p.kind == platforms::FabricKind::kTorus) {
      std::uint64_t nodes = 1;
      for (const auto& d : p.dims) nodes *= std::uint64_t(d.size);
      std::uint64_t links = 0;  // unidirectional router-to-router
      for (const auto& d : p.dims) {
        const std::uint64_t lines = nodes / std::uint64_t(d.size);  // rows along this dimension
        if (d.size == 2)
          links += lines * 2;  // one cable, both ways
        else if (d.size > 2)
          links += lines * 2 * std::uint64_t(d.wrap ? d.size : d.size - 1);
      }
      EXPECT_EQ(number_after(r.out, R"(nodes +(\d+))"), nodes);
      EXPECT_EQ(number_after(r.out, R"(links +(\d+) unidirectional)"), links);
      EXPECT_EQ(number_after(r.out, R"((\d+) NI channel pairs)"), nodes * std::uint64_t(nis));
    } else if (p.kind == platforms::FabricKind::kDragonfly) {
      // a routers a group, all to all; one global link between every two groups.
      const auto& f = p.fabric;
      const std::uint64_t g = std::uint64_t(f.groups), a = std::uint64_t(f.group_routers);
      const std::uint64_t nodes = g * a * std::uint64_t(f.hosts_per_edge);
      EXPECT_EQ(number_after(r.out, R"(nodes +(\d+))"), nodes);
      EXPECT_EQ(number_after(r.out, R"(switches +(\d+))"), g * a);
      EXPECT_EQ(number_after(r.out, R"(links +(\d+) host)"), nodes * std::uint64_t(nis));
      EXPECT_EQ(number_after(r.out, R"((\d+) local \()"), g * a * (a - 1) / 2);
      EXPECT_EQ(number_after(r.out, R"((\d+) global \()"), g * (g - 1) / 2);
    } else {
      const auto& f = p.fabric;
      const bool tree = p.kind == platforms::FabricKind::kFatTree;
      const std::uint64_t nodes = std::uint64_t(f.edges) * std::uint64_t(f.hosts_per_edge);
      const std::uint64_t switches = tree ? std::uint64_t(f.edges + f.spines) : 2 * std::uint64_t(f.edges);
      const std::uint64_t up =
          tree ? std::uint64_t(f.edges) * std::uint64_t(f.uplinks_per_edge) : std::uint64_t(f.edges);
      const std::uint64_t wan = tree ? 0 : std::uint64_t(f.edges) * std::uint64_t(f.edges - 1) / 2;
      EXPECT_EQ(number_after(r.out, R"(nodes +(\d+))"), nodes);
      EXPECT_EQ(number_after(r.out, R"(switches +(\d+))"), switches);
      EXPECT_EQ(number_after(r.out, R"(links +(\d+) host)"), nodes * std::uint64_t(nis));
      EXPECT_EQ(number_after(r.out, R"((\d+) up \()"), up);
      EXPECT_EQ(number_after(r.out, R"((\d+) wide-area)"), wan);
    }
  }
}

Command put(NodeId dst, MemKey lk, MemKey rk, std::uint64_t len, std::uint64_t handle) {
  Command c;
  c.dst_node = dst;
  c.local_key = lk;
  c.remote_key = rk;
  c.length = len;
  c.tag = std::uint32_t(handle);
  c.handle = handle;
  return c;
}

// 2a. A 2MB put between nodes on different edge switches of ib-qdr-16,
// computed from the parameters: the DMA reads packet after packet; each
// packet crosses three cut-through switches (head: a flit and the cable per
// link, rounded up to the switch clock, plus the switching delay); the rx
// DMA writes each packet once its tail is in; the acknowledgement (one flit)
// goes back the same way once the last byte is written.
TEST(Fabrics, TwoMegabytePutAcrossTheTreeTakesTheModelledTime) {
  auto p = platforms::load_platform("ib-qdr-16");
  NicBench b(p, /*data=*/false);
  const NodeId src = 0, dst = 8;  // edge 0 and edge 1
  const std::uint64_t len = 2000000;
  auto lk = b.registries[src]->add(0, len).key;
  auto rk = b.registries[dst]->add(0, len).key;
  ASSERT_TRUE(b.tni(src).post(put(dst, lk, rk, len, 1)));
  b.queue.run_direct();
  auto c = b.tni(src).poll_completion();
  ASSERT_TRUE(c.has_value());
  ASSERT_EQ(c->status, RdmaStatus::kOk);

  const Time period = p.router.clock_period_ps();
  const Time flit = Time(std::llround(p.router.flit_bytes * 1e12 / p.fabric.host.bytes_per_s));
  const Time cable = p.fabric.host.latency_ps;  // host and up links alike here
  ASSERT_EQ(p.fabric.up.latency_ps, cable);
  const Time sw = test::ceil_to(p.router.switching_delay_ps, period);
  auto tail_in = [&](Time sent, std::uint64_t flits) {  // at the far endpoint
    Time start = sent;
    for (int hop = 0; hop < 3; ++hop) start = test::ceil_to(start + flit + cable, period) + sw;
    return start + Time(flits) * flit + cable;
  };
  const std::uint64_t mtu = p.nic.mtu_bytes, hdr = p.nic.header_bytes,
                      fb = std::uint64_t(p.router.flit_bytes);
  Time read_done = p.nic.node_latency_ps, written = 0;
  for (std::uint64_t off = 0; off < len; off += mtu) {
    const std::uint64_t piece = std::min(mtu, len - off);
    read_done += test::dma_ps(p.nic.dma_bytes_per_s, piece);
    const Time in = test::ceil_to(tail_in(read_done, (piece + hdr + fb - 1) / fb), period);
    written = std::max(in, written) + test::dma_ps(p.nic.dma_bytes_per_s, piece);
  }
  const Time acked = test::ceil_to(tail_in(written, 1), period);
  EXPECT_EQ(c->time_ps, acked);
  EXPECT_NEAR(double(c->time_ps) * 1e-12, 600e-9 + double(len) / 2.8e9, 5e-6)
      << "DMA-bound, as Susukita et al. 2016";
}

// 2b. eps-tree-128 is 5:1 oversubscribed: 32 hosts of one edge switch
// putting to 32 hosts of another share the 64Gbps uplink.
TEST(Fabrics, StreamsAcrossAnOversubscribedTreeShareTheUplink) {
  auto p = platforms::load_platform("eps-tree-128");
  NicBench b(p, /*data=*/false);
  const int H = p.fabric.hosts_per_edge;
  const std::uint64_t len = 1 << 20;
  for (int i = 0; i < H; ++i) {
    auto lk = b.registries[NodeId(i)]->add(0, len).key;
    auto rk = b.registries[NodeId(H + i)]->add(0, len).key;
    ASSERT_TRUE(b.tni(NodeId(i)).post(put(NodeId(H + i), lk, rk, len, std::uint64_t(i))));
  }
  b.queue.run_direct();
  Time last = 0;
  for (int i = 0; i < H; ++i) {
    auto c = b.tni(NodeId(i)).poll_completion();
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->status, RdmaStatus::kOk);
    last = std::max(last, c->time_ps);
  }
  const double flits = std::ceil(double(p.nic.mtu_bytes + p.nic.header_bytes) / p.router.flit_bytes);
  const double uplink_payload = p.fabric.up.bytes_per_s * p.nic.mtu_bytes / (flits * p.router.flit_bytes);
  const double aggregate = double(len) * H / (double(last) * 1e-12);
  EXPECT_NEAR(aggregate / uplink_payload, 1.0, 0.02) << aggregate / 1e9 << " GB/s";
}

// 3. grid-2x32: across the 10ms wide-area link, one put takes the latency
// plus its serialization on the 1Gbps host link; 32 streams at once share
// the 10Gbps link evenly.
TEST(Fabrics, WideAreaPutsPayTheLatencyAndShareTheLinkFairly) {
  auto p = platforms::load_platform("grid-2x32");
  p.fabric.wan_flow.loss = false;  // the lossless wide-area link (credit flow control)
  const int H = p.fabric.hosts_per_edge;
  const std::uint64_t len = 1 << 20;
  const double flits = std::ceil(double(p.nic.mtu_bytes + p.nic.header_bytes) / p.router.flit_bytes);
  const double wire = flits * p.router.flit_bytes / p.nic.mtu_bytes;  // wire bytes per payload byte
  const double wan_s = double(p.fabric.wan.latency_ps) * 1e-12;
  {
    NicBench b(p, /*data=*/false);
    auto lk = b.registries[0]->add(0, len).key;
    auto rk = b.registries[NodeId(H)]->add(0, len).key;
    ASSERT_TRUE(b.tni(0).post(put(NodeId(H), lk, rk, len, 1)));
    b.queue.run_direct();
    auto n = b.tni(NodeId(H)).poll_notice();
    ASSERT_TRUE(n.has_value());
    const double serialization = double(len) * wire / p.fabric.host.bytes_per_s;
    const double one_way = double(n->time_ps) * 1e-12;
    EXPECT_GE(one_way, wan_s + serialization);
    EXPECT_LT(one_way, (wan_s + serialization) * 1.02) << "little besides latency and serialization";
    auto c = b.tni(0).poll_completion();
    ASSERT_TRUE(c.has_value());
    EXPECT_GE(double(c->time_ps) * 1e-12, one_way + wan_s) << "the acknowledgement crosses back";
  }
  NicBench b(p, /*data=*/false);
  for (int i = 0; i < H; ++i) {
    auto lk = b.registries[NodeId(i)]->add(0, len).key;
    auto rk = b.registries[NodeId(H + i)]->add(0, len).key;
    ASSERT_TRUE(b.tni(NodeId(i)).post(put(NodeId(H + i), lk, rk, len, std::uint64_t(i))));
  }
  b.queue.run_direct();
  const double share = p.fabric.wan.bytes_per_s / wire / H;  // payload bytes/s per stream
  for (int i = 0; i < H; ++i) {
    auto n = b.tni(NodeId(H + i)).poll_notice();
    ASSERT_TRUE(n.has_value());
    const double rate = double(len) / (double(n->time_ps) * 1e-12 - wan_s);
    EXPECT_NEAR(rate / share, 1.0, 0.10) << "stream " << i << ": " << rate / 1e6 << " MB/s";
  }
}

// 5. The random ring runs and verifies on every shipped platform (tofu-k,
// the whole K computer, in its own test below).
void expect_random_ring(const std::string& platform, const std::string& size) {
  SCOPED_TRACE(platform);
  const std::string json = test::temp_dir() + "/rr.json";
  auto r = test::run_kairo(
      {"run", platform, "--workload", "random-ring", "--param", "size=" + size, "--json", json, "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string out = test::read_file(json);
  EXPECT_NE(out.find("\"verified\": true"), std::string::npos) << out;
}

TEST(Fabrics, RandomRingVerifiesOnEveryShippedPlatform) {
  for (const auto& sp : platforms::shipped_platforms())
    if (sp.name != "tofu-k") expect_random_ring(sp.name, "16KiB");
}

TEST(Fabrics, RandomRingVerifiesOnTheWholeKComputer) { expect_random_ring("tofu-k", "1KiB"); }

// A k-ary n-tree (Petrini and Vanneschi): k^(n-1) switches per level, k up
// links from each, and d-mod-k routing, which takes the destination's
// base-k digit l at level l. Its counts follow the shape, and the shift
// permutation (host i to host i + N/2) crosses the top without two streams
// sharing a link, so every stream runs at its DMA rate.
const char* kKaryTree = R"(name: kary-4-3
topology:
  fat_tree: {levels: 3, radix: 8}
router:
  clock: 1GHz
  flit_size: 64B
  vcs: 2
  vc_buffer_flits: 128
  max_packet_flits: 33
  switching_delay: 128ns
links:
  host: {bandwidth: 4GB/s, latency: 1ns}
  up: {bandwidth: 4GB/s, latency: 1ns}
nic: {mtu: 2048B, header_size: 42B}
)";

TEST(Fabrics, KaryNTreeHasItsShapeAndRoutesAShiftWithoutContention) {
  const std::string file = test::write_file(test::temp_dir(), "kary.yaml", kKaryTree);
  auto p = platforms::load_platform(file);
  const int k = 4, n = 3;
  const std::uint64_t W = 16, N = W * std::uint64_t(k);  // k^(n-1) switches per level, k hosts each
  auto r = test::run_kairo({"check", file});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(number_after(r.out, R"(nodes +(\d+))"), N);
  EXPECT_EQ(number_after(r.out, R"(switches +(\d+))"), std::uint64_t(n) * W);
  EXPECT_EQ(number_after(r.out, R"((\d+) up \()"), std::uint64_t(n - 1) * W * std::uint64_t(k));

  const std::uint64_t len = 512 * 1024;
  auto run = [&](NodeId first, NodeId last) {  // hosts [first, last) put to host + N/2 at once
    NicBench b(p, /*data=*/false);
    for (NodeId i = first; i < last; ++i) {
      const NodeId d = NodeId((i + N / 2) % N);
      auto lk = b.registries[i]->add(0, len).key;
      auto rk = b.registries[d]->add(1 << 20, len).key;
      EXPECT_TRUE(b.tni(i).post(put(d, lk, rk, len, i)));
    }
    b.queue.run_direct();
    std::vector<Time> done;
    for (NodeId i = first; i < last; ++i) {
      auto c = b.tni(i).poll_completion();
      done.push_back(c ? c->time_ps : 0);
    }
    return done;
  };
  const Time solo = run(0, 1)[0];  // one stream alone: DMA-bound, plus the path's latency
  EXPECT_NEAR(
      double(solo) * 1e-12 / (double(p.nic.node_latency_ps) * 1e-12 + double(len) / p.nic.dma_bytes_per_s),
      1.0, 0.02);
  const auto all = run(0, NodeId(N));
  for (NodeId i = 0; i < N; ++i)
    EXPECT_NEAR(double(all[i]) / double(solo), 1.0, 0.002) << "stream " << i << " met another on a link";
}

// links.ports gives one cable its own values: host 0's link at 1GB/s makes
// its put bound by that link, while its neighbours keep the class's 4GB/s.
TEST(Fabrics, APortOverrideChangesOnlyItsCable) {
  auto p =
      platforms::load_platform("ib-qdr-16", {"links.ports=[{switch: edge0, port: h0, bandwidth: 1GB/s}]"});
  ASSERT_EQ(p.fabric.ports.size(), 1u);
  NicBench b(p, /*data=*/false);
  const std::uint64_t len = 1 << 20;
  for (NodeId src : {NodeId(0), NodeId(2)}) {
    auto lk = b.registries[src]->add(0, len).key;
    auto rk = b.registries[src + 1]->add(0, len).key;
    ASSERT_TRUE(b.tni(src).post(put(src + 1, lk, rk, len, src)));
  }
  b.queue.run_direct();
  const double flits = std::ceil(double(p.nic.mtu_bytes + p.nic.header_bytes) / p.router.flit_bytes);
  const double wire = flits * p.router.flit_bytes / p.nic.mtu_bytes;
  const double L = double(p.nic.node_latency_ps) * 1e-12;
  auto c0 = b.tni(0).poll_completion();
  auto c2 = b.tni(2).poll_completion();
  ASSERT_TRUE(c0 && c2);
  EXPECT_NEAR(double(c0->time_ps) * 1e-12 / (L + double(len) * wire / 1e9), 1.0, 0.01)
      << "bound by its 1GB/s link";
  EXPECT_NEAR(double(c2->time_ps) * 1e-12 / (L + double(len) / p.nic.dma_bytes_per_s), 1.0, 0.01)
      << "its neighbour keeps 4GB/s and is DMA-bound";
  auto r = test::run_kairo({"check", "ib-qdr-16", "--ports", "--set",
                            "links.ports=[{switch: edge0, port: h0, bandwidth: 1GB/s}]"});
  EXPECT_NE(r.out.find(" h0(1GB/s"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" h1(4GB/s"), std::string::npos);
}

}  // namespace
}  // namespace kairo
