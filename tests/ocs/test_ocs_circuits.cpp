// Optical circuits on the hybrid EPS+OCS platform, end to end through the
// RDMA engines: a put over a circuit that is up takes the optical link's
// timing; a circuit set up at t carries nothing before t + the
// reconfiguration delay (held or refused, as configured, and counted); a
// circuit being torn down refuses new traffic at once; the Clos fabric's
// and the platform's bad requests get clear errors.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "platforms/hybrid_netlist.h"
#include "tests/nic_bench.h"

namespace kairo::nic {
namespace {

using hw::NodeId;
using sim::Time;
using test::NicBench;

constexpr Time kNs = 1000;
constexpr Time kMs = 1000000000;

platforms::Platform hybrid(std::vector<std::string> sets = {}) {
  return platforms::load_platform("hybrid-eps-ocs-128", sets);
}

platforms::HybridNetlist& hybrid_of(NicBench& b) { return dynamic_cast<platforms::HybridNetlist&>(b.net); }

// An 8-byte put from node `src` to `dst` on TNI `tni`, posted now.
void put8(NicBench& b, NodeId src, NodeId dst, int tni, std::uint64_t handle) {
  const MemKey lk = b.registries[src]->add(0x1000, 4096).key;
  const MemKey rk = b.registries[dst]->add(0x8000, 4096).key;
  b.write(src, 0x1000, {1, 2, 3, 4, 5, 6, 7, 8});
  Command c;
  c.dst_node = std::uint32_t(dst);
  c.dst_tni = std::uint16_t(tni);
  c.local_key = lk;
  c.remote_key = rk;
  c.length = 8;
  c.tag = 9;
  c.handle = handle;
  ASSERT_TRUE(b.tni(src, tni).post(c));
}

// Timing of an 8-byte put over an optical circuit (Table 1 and the platform
// file): the DMA reads 8 B at 4 GB/s (2 ns) after the 700 ns node latency;
// the packet (32 B header + 8 B, one 64 B flit) takes 16 ns at 32 Gbps and
// 80 ns of propagation; the target writes 8 B (2 ns) and raises the notice;
// the header-only acknowledgement (one flit) comes back the same way.
struct PutTimes {
  Time notice, completion;
};
PutTimes optical_put8(Time start) {
  const Time dma = 2 * kNs, flit = 16 * kNs, fibre = 80 * kNs;
  const Time notice = start + dma + flit + fibre + dma;
  return {notice, notice + flit + fibre};
}

TEST(Ocs, PutOverAnUpCircuitTakesTheOpticalLinkTiming) {
  NicBench b(hybrid());
  platforms::HybridNetlist& net = hybrid_of(b);
  const NodeId src = 0, dst = 40;  // edge switches 0 and 1
  ASSERT_EQ(net.preset_pathway(src, dst), "");
  put8(b, src, dst, 1, 5);
  b.queue.run_direct();
  const PutTimes want = optical_put8(700 * kNs);
  auto n = b.tni(dst, 1).poll_notice();
  ASSERT_TRUE(n.has_value());
  EXPECT_EQ(n->time_ps, want.notice);
  EXPECT_EQ(b.read(dst, 0x8000, 8), (std::vector<unsigned char>{1, 2, 3, 4, 5, 6, 7, 8}));
  auto c = b.tni(src, 1).poll_completion();
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->status, RdmaStatus::kOk);
  EXPECT_EQ(c->time_ps, want.completion);
  EXPECT_EQ(b.tni(src, 1).counters().circuit_waits, 0u);
  const auto port = net.ocs().counters(net.port_of(src), b.queue.now());
  EXPECT_EQ(port.packets_sent, 1u);
  EXPECT_EQ(port.bytes_sent, 40u);
  EXPECT_EQ(net.eps().activity().packet_hops, 0u) << "nothing crossed the electronic switches";
}

// Must-show 1, hold: requested at 0, the circuit is up at 10 ms; the put
// posted at 0 waits in its engine and carries its first byte only then.
TEST(Ocs, CircuitSetUpAtTCarriesItsFirstByteNoEarlierThanTPlusTheDelay) {
  NicBench b(hybrid());
  platforms::HybridNetlist& net = hybrid_of(b);
  const NodeId src = 3, dst = 100;
  ASSERT_EQ(net.controller().pathway(net.port_of(src), net.port_of(dst)), "");
  put8(b, src, dst, 1, 6);
  b.queue.run_direct();
  const Time delay = 10 * kMs;
  const PutTimes want = optical_put8(delay);
  auto n = b.tni(dst, 1).poll_notice();
  ASSERT_TRUE(n.has_value());
  EXPECT_EQ(n->time_ps, want.notice) << "the first byte left at the delay, not before";
  auto c = b.tni(src, 1).poll_completion();
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->status, RdmaStatus::kOk);
  EXPECT_EQ(c->time_ps, want.completion);
  const TniCounters& tc = b.tni(src, 1).counters();
  EXPECT_EQ(tc.circuit_waits, 1u);
  EXPECT_EQ(tc.circuit_wait_ps, delay - 700 * kNs) << "from the command's activation to the circuit";
  EXPECT_EQ(tc.circuit_refusals, 0u);
  const auto port = net.ocs().counters(net.port_of(src), b.queue.now());
  EXPECT_EQ(port.reconfigurations, 1u);
  EXPECT_EQ(port.reconfiguring_ps, delay);
  EXPECT_EQ(net.controller().reconfigurations(), 2u) << "one circuit each way";
  // The log: requested at 0, up at the delay, for both directions.
  int ups = 0;
  for (const auto& e : net.controller().log())
    if (e.what == "up") {
      ++ups;
      EXPECT_EQ(e.time_ps, delay);
    }
  EXPECT_EQ(ups, 2);
}

// Must-show 1, error: the same put refused at its activation with
// kCircuitDown, nothing sent, nothing written, and the counters say so;
// once the circuit is up the same command goes through.
TEST(Ocs, CommandBeforeTheCircuitIsUpCompletesWithAnErrorWhenConfigured) {
  NicBench b(hybrid({"ocs.on_circuit_down=error"}));
  platforms::HybridNetlist& net = hybrid_of(b);
  const NodeId src = 3, dst = 100;
  ASSERT_EQ(net.controller().pathway(net.port_of(src), net.port_of(dst)), "");
  put8(b, src, dst, 1, 7);
  b.queue.run_until(1 * kMs);
  auto c = b.tni(src, 1).poll_completion();
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->status, RdmaStatus::kCircuitDown);
  EXPECT_EQ(c->time_ps, 700 * kNs);
  EXPECT_EQ(b.tni(src, 1).counters().circuit_refusals, 1u);
  EXPECT_FALSE(b.tni(dst, 1).poll_notice().has_value());
  EXPECT_EQ(b.read(dst, 0x8000, 8), std::vector<unsigned char>(8, 0)) << "target untouched";
  EXPECT_EQ(net.ocs().counters(net.port_of(src), b.queue.now()).packets_sent, 0u);
  b.queue.run_until(11 * kMs);
  const Time posted = b.queue.now();
  ASSERT_GE(posted, 10 * kMs);
  put8(b, src, dst, 1, 8);
  b.queue.run_direct();
  c = b.tni(src, 1).poll_completion();
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->status, RdmaStatus::kOk);
  EXPECT_EQ(c->time_ps, optical_put8(posted + 700 * kNs).completion);
}

// Tear-down refuses new traffic at once (error policy) and frees the
// output for another circuit only after the delay.
TEST(Ocs, TeardownClosesTheCircuitAtOnceAndFreesItsOutputAfterTheDelay) {
  NicBench b(hybrid({"ocs.on_circuit_down=error"}));
  platforms::HybridNetlist& net = hybrid_of(b);
  const int a = net.port_of(1), c = net.port_of(70), d = net.port_of(90);
  ASSERT_EQ(net.preset_pathway(1, 70), "");
  ASSERT_EQ(net.controller().teardown(a), "");
  put8(b, 1, 70, 1, 9);
  b.queue.run_until(1 * kMs);
  auto done = b.tni(1, 1).poll_completion();
  ASSERT_TRUE(done.has_value());
  EXPECT_EQ(done->status, RdmaStatus::kCircuitDown);
  EXPECT_EQ(net.ocs().state(a), ocs::PortState::kTearingDown);
  EXPECT_NE(net.controller().setup(d, c), "") << "70's receive port is still held by the old circuit";
  b.queue.run_until(10 * kMs + 1);
  EXPECT_EQ(net.ocs().state(a), ocs::PortState::kDark);
  EXPECT_EQ(net.controller().setup(d, c), "") << "free once the mirrors have moved";
}

// Must-show 5: a circuit to a port already in use, a node without an optical
// NIC, and platform files asking for the impossible.
TEST(Ocs, BadRequestsGetClearErrors) {
  NicBench b(hybrid({"ocs.optical_nics=0-63"}));
  platforms::HybridNetlist& net = hybrid_of(b);
  ASSERT_EQ(net.preset_pathway(0, 40), "");
  const std::string busy = net.controller().setup(net.port_of(5), net.port_of(40));
  EXPECT_NE(busy.find("already in use"), std::string::npos) << busy;
  EXPECT_NE(net.preset_pathway(1, 100).find("node 100 has no optical NIC"), std::string::npos);
  EXPECT_EQ(net.controller().requests_refused(), 1u);
  // TNI 1 of a node without an optical NIC refuses, whatever the policy.
  put8(b, 100, 1, 1, 3);
  b.queue.run_direct();
  auto c = b.tni(100, 1).poll_completion();
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->status, RdmaStatus::kCircuitDown);

  auto bad = [](std::vector<std::string> sets, std::vector<std::string> words) {
    try {
      hybrid(sets);
      ADD_FAILURE() << "accepted " << sets.front();
    } catch (const platforms::ConfigError& e) {
      for (const auto& w : words) EXPECT_NE(std::string(e.what()).find(w), std::string::npos) << e.what();
    }
  };
  bad({"ocs.pathways=65"}, {"ocs.pathways", "at most 64 pathways"});
  bad({"ocs.optical_nics=0-9", "ocs.pathways=6"}, {"ocs.pathways", "at most 5"});
  bad({"ocs.optical_nics=[3, 4, 3]"},
      {"ocs.optical_nics", "node 3 is listed twice", "at most one optical NIC"});
  bad({"ocs.optical_nics=0-200"}, {"ocs.optical_nics", "node 128 does not exist"});
  bad({"ocs.switch_ports=16"}, {"128 optical NICs need 128 OCS ports", "4 x 16"});
  bad({"ocs.mode=blocking"}, {"ocs.mode", "rearrangeable or non_rearrangeable"});
  bad({"router.network_interfaces=2"}, {"router.network_interfaces", "TNI 1"});
}

}  // namespace
}  // namespace kairo::nic
