// VC allocation as its own stage (router.vc_allocator) and speculative switch
// allocation (router.speculative): the zero-load pipeline from the stage
// counts (unchanged without speculation, one cycle less per router with it),
// one VC grant per packet per router, speculation that hits at low load and misses under contention, no
// deadlock far past saturation, and the bad combination refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "platforms/platform.h"
#include "tests/fst_rows.h"
#include "tests/net_harness.h"
#include "tests/test_support.h"
#include "tests/traffic_harness.h"

namespace kairo {
namespace {

nlohmann::json run(const std::string& platform, const std::string& pattern, double rate,
                   std::vector<std::string> sets, std::uint64_t measure = 6000) {
  return test::traffic_json(platform, pattern, rate, sets, measure, 5);
}

using sim::Time;
using test::with;

const std::vector<std::string> kBookSim = {"router.cable_latency=0ns", "router.host_latency=0ns",
                                           "router.allocator=islip"};
const std::vector<std::string> kStage = {"router.vc_allocator=islip"};
const std::vector<std::string> kSpec = {"router.vc_allocator=islip", "router.speculative=true"};

// Neighbor traffic at a very low rate on mesh-8x8: every packet alone in the
// network. The stage keeps routing + VA + SA cycles before the switch, so the
// latency does not move; speculation overlaps VA and SA (1 cycle each), one
// cycle less in each router a packet crosses: links + 1 routers.
TEST(VcAllocation, ZeroLoadPipelineFollowsTheStageCycles) {
  const auto none = run("mesh-8x8", "neighbor", 0.002, kBookSim, 20000);
  const auto stage = run("mesh-8x8", "neighbor", 0.002, with(kBookSim, kStage), 20000);
  const auto spec = run("mesh-8x8", "neighbor", 0.002, with(kBookSim, kSpec), 20000);
  EXPECT_DOUBLE_EQ(stage["avg_packet_latency_cycles"].get<double>(),
                   none["avg_packet_latency_cycles"].get<double>());
  const double routers = spec["avg_hops"].get<double>() + 1;
  EXPECT_NEAR(
      none["avg_packet_latency_cycles"].get<double>() - spec["avg_packet_latency_cycles"].get<double>(),
      routers, 0.02);
  // Two VC-allocation cycles and one of switch allocation: speculation saves one.
  const auto slow = run("mesh-8x8", "neighbor", 0.002, with(kBookSim, {"router.vc_alloc_cycles=2"}), 20000);
  const auto slow_spec =
      run("mesh-8x8", "neighbor", 0.002, with(kBookSim, with(kSpec, {"router.vc_alloc_cycles=2"})), 20000);
  EXPECT_NEAR(
      slow["avg_packet_latency_cycles"].get<double>() - slow_spec["avg_packet_latency_cycles"].get<double>(),
      routers, 0.02);
}

// Every packet is granted an output VC once in every router it leaves: once
// per link and once more into its destination's ejection port.
TEST(VcAllocation, OneVcGrantPerPacketPerRouterEvenPastSaturation) {
  for (const std::string& platform : {"mesh-8x8", "torus-8x8"}) {
    const auto j = run(platform, "uniform", 0.9, kSpec);
    EXPECT_EQ(j["packets_created"], j["packets_delivered"]) << platform;
    EXPECT_EQ(j["vc_grants"].get<std::uint64_t>(),
              j["packet_hops"].get<std::uint64_t>() + j["packets_delivered"].get<std::uint64_t>())
        << platform;
    EXPECT_LE(j["speculative_hits"].get<std::uint64_t>(), j["vc_grants"].get<std::uint64_t>());
    EXPECT_GT(j["speculative_misses"].get<std::uint64_t>(), 0u)
        << platform << ": past saturation some speculative switch grants find no VC";
  }
}

// At a low load a head finds a free VC and a free switch in the same round:
// (almost) every grant is a speculative hit, and none is lost.
TEST(VcAllocation, SpeculationHitsAtLowLoad) {
  const auto j = run("mesh-8x8", "uniform", 0.02, with(kBookSim, kSpec));
  const double hits = j["speculative_hits"], misses = j["speculative_misses"], grants = j["vc_grants"];
  EXPECT_GT(hits, 0.97 * grants);
  EXPECT_LT(misses, 0.01 * grants);
}

TEST(VcAllocation, NoDeadlockFarPastSaturationWithEveryRouting) {
  for (const std::string& routing : {"dimension_order", "minimal_adaptive"}) {
    for (const std::string& platform : {"mesh-8x8", "torus-8x8", "tofu-small"}) {
      const auto j = run(platform, "uniform", 0.95, with(kSpec, {"router.routing=" + routing}), 3000);
      EXPECT_EQ(j["deadlock"], false) << platform << " " << routing;
      EXPECT_EQ(j["packets_created"], j["packets_delivered"]) << platform << " " << routing;
    }
    // A VC count that is not a power of two (input VCs are indexed with room for 4 per port).
    const auto j =
        run("torus-8x8", "uniform", 0.95, with(kSpec, {"router.routing=" + routing, "router.vcs=3"}), 3000);
    EXPECT_EQ(j["packets_created"], j["packets_delivered"]) << routing << " with 3 VCs";
  }
}

// The waveform shows the stage: on a traced router, `vcs_held` counts the
// output VCs held (never more than the port has), `spec` pulses 1 for a used
// speculative grant and 2 for a lost one (as many as the run's totals
// allow), and `route` says which VCs a packet on the link took. A router
// without the features has none of these signals.
TEST(VcAllocation, WaveformsShowHeldVcsSpeculationAndAdaptiveChoices) {
  const std::string dir = test::temp_dir();
  auto res = test::run_kairo({"traffic",
                              "mesh-8x8",
                              "--pattern",
                              "uniform",
                              "--rate",
                              "0.6",
                              "--packet-flits",
                              "4",
                              "--warmup-cycles",
                              "300",
                              "--measure-cycles",
                              "1000",
                              "--set",
                              "router.vc_allocator=islip",
                              "--set",
                              "router.speculative=true",
                              "--set",
                              "router.routing=minimal_adaptive",
                              "--trace-nodes",
                              "27,28",
                              "--trace-signals",
                              "alloc",
                              "--fst",
                              dir + "/a.fst",
                              "--json",
                              dir + "/a.json",
                              "--quiet"});
  ASSERT_EQ(res.exit_code, 0) << res.err;
  const auto rows = test::read_fst(dir + "/a.fst");
  std::map<std::string, std::set<std::uint64_t>> values;
  for (const auto& [t, signal, v] : rows) values[signal.substr(signal.rfind('.') + 1)].insert(v);
  ASSERT_TRUE(values.count("vcs_held") && values.count("spec") && values.count("route"));
  EXPECT_LE(*values["vcs_held"].rbegin(), 4u) << "4 VCs per port";
  EXPECT_GT(*values["vcs_held"].rbegin(), 0u);
  EXPECT_TRUE(values["spec"].count(1)) << "speculative grants used";
  EXPECT_TRUE(values["route"].count(1)) << "adaptive hops";
  EXPECT_TRUE(values["route"].count(3)) << "ejections";
  for (std::uint64_t v : values["spec"]) EXPECT_LE(v, 2u);
  // Without the features the class holds nothing to trace: refused as an empty selection.
  auto plain = test::run_kairo({"traffic", "mesh-8x8", "--pattern", "uniform", "--rate", "0.1",
                                "--warmup-cycles", "100", "--measure-cycles", "200", "--trace-nodes", "27",
                                "--trace-signals", "alloc", "--fst", dir + "/b.fst", "--quiet"});
  EXPECT_EQ(plain.exit_code, 2) << plain.err;
}

// One node (1,1) of mesh-8x8 sends 40 4-flit packets at once, to its +X and
// +Y neighbours in turn: one after another through its injection port, each
// output taking every other packet (so an output VC's turnaround, 6 cycles,
// never binds), with 64-flit buffers (the input VC stays backlogged). The
// gap between the deliveries of packets k and k + 1 (equal paths) is the
// input VC's period. With the VC allocation stage and one VC per port, the
// packet behind one that leaves starts routing when its last flit has left:
// period = flits + routing + VC allocation + switch allocation cycles - 1
// (the last flit's switch allocation is flits - 1 cycles after the head's).
// Speculation overlaps VC and switch allocation: one cycle less. With two
// VCs the other VC fills those cycles, and without the stage nothing models
// the restart: one packet per serialization, `flits` cycles.
std::vector<Time> delivery_gaps(const std::vector<std::string>& sets) {
  const auto p = platforms::load_platform(
      "mesh-8x8", with(kBookSim, with({"router.vc_buffer_flits=64", "router.islip_iterations=1"}, sets)));
  test::NetBench bench(p);
  const hw::NodeId src = 9, east = 10, north = 17;  // (1,1), (2,1), (1,2)
  for (int k = 0; k < 40; ++k) bench.send(src, k % 2 ? north : east, 4, 0);
  bench.run();
  std::vector<test::Delivery> d = bench.deliveries();
  EXPECT_EQ(d.size(), 40u);
  std::sort(d.begin(), d.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  std::vector<Time> gaps;
  for (std::size_t k = 1; k < d.size(); ++k) gaps.push_back(d[k].delivered_ps - d[k - 1].delivered_ps);
  return gaps;
}

TEST(VcAllocation, AnInputVcRestartsRoutingAndVcAllocationForEveryPacket) {
  const Time cycle = platforms::load_platform("mesh-8x8").router.clock_period_ps();
  struct Case {
    std::vector<std::string> sets;
    Time period_cycles;
    std::size_t from = 0;  // the first gap checked (steady state)
  };
  const std::vector<Case> cases = {
      {{"router.vcs=1", "router.vc_allocator=islip"}, 4 + 1 + 1 + 1 - 1},
      {{"router.vcs=1", "router.vc_allocator=islip", "router.vc_alloc_cycles=2"}, 4 + 1 + 2 + 1 - 1},
      {{"router.vcs=1", "router.vc_allocator=islip", "router.routing_cycles=3"}, 4 + 3 + 1 + 1 - 1},
      // Speculation: VC and switch allocation in one round, max(1, 1) cycles.
      {{"router.vcs=1", "router.vc_allocator=islip", "router.speculative=true"}, 4 + 1 + 1 - 1},
      // With two VCs the source's choice of VC settles after a few packets.
      {{"router.vcs=2", "router.vc_allocator=islip"}, 4, 8},
      {{"router.vcs=1"}, 4},
  };
  for (const Case& c : cases) {
    const auto gaps = delivery_gaps(c.sets);
    ASSERT_EQ(gaps.size(), 39u);
    for (std::size_t k = c.from; k < gaps.size(); ++k)
      EXPECT_EQ(gaps[k], c.period_cycles * cycle)
          << "packets " << k << " and " << k + 1 << " with " << c.sets.back();
  }
}

TEST(VcAllocation, SpeculationWithoutAVcAllocatorIsRefusedNamingTheKey) {
  try {
    platforms::load_platform("mesh-8x8", {"router.speculative=true"});
    ADD_FAILURE() << "speculation needs a VC allocation stage";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("router.speculative"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("router.vc_allocator"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace kairo
