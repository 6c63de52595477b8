// Bubble flow control (router.flow_control: bubble): rings without dateline
// classes. Routing marks the hop that enters a ring; a packet takes a whole
// slot (router.max_packet_flits) of a VC between routers and enters a ring
// only into a VC with two free slots, while a mesh hop needs one; with one VC
// per port, tori stay deadlock-free far past saturation, under the VC
// allocation stage too and on the 6D Tofu; RDMA runs deliver every byte;
// inconsistent settings are refused, naming the key.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hw/router/routing.h"
#include "platforms/platform.h"
#include "tests/net_harness.h"
#include "tests/test_support.h"
#include "tests/traffic_harness.h"

namespace kairo {
namespace {

using hw::Coord;
using hw::VcClass;
using test::with;

// The classes dimension order gives each hop: entering a ring (from the NIC
// or from another dimension) is kRingEntry, going on round it kAny, and a
// mesh dimension is kAny throughout.
TEST(Bubble, RoutingMarksTheHopsThatEnterARing) {
  const auto p = platforms::load_platform("torus-8x8");
  const hw::Topology topo(p.dims);
  const router::DimensionOrderRouting dor(topo, {0, 1}, router::TieBreak::kBalanced,
                                          router::DatelineRule::kOnCrossing, /*bubble=*/true);
  // (0,0) -> (3,2): X+ three hops, then Y+ two hops.
  Coord here = {0, 0};
  const Coord dst = {3, 2};
  int in_dim = -1;
  VcClass in_class = VcClass::kAny;
  std::vector<VcClass> got;
  for (router::RouteDecision r; (r = dor.route(here, dst, in_dim, in_class)).port >= 0;) {
    got.push_back(r.vc_class);
    here = topo.coord_of(*topo.neighbor_via_port(topo.id_of(here), r.port));
    in_dim = r.dim;
    in_class = r.vc_class;
  }
  const std::vector<VcClass> want = {VcClass::kRingEntry, VcClass::kAny, VcClass::kAny, VcClass::kRingEntry,
                                     VcClass::kAny};
  EXPECT_EQ(got, want);

  // Without bubble the same way takes dateline classes, never kRingEntry.
  const router::DimensionOrderRouting dateline(topo, {0, 1});
  EXPECT_EQ(dateline.route({0, 0}, dst, -1, VcClass::kAny).vc_class, VcClass::kLow);

  // A mesh has no ring to enter.
  const auto m = platforms::load_platform("mesh-8x8");
  const hw::Topology mesh(m.dims);
  const router::DimensionOrderRouting mdor(mesh, {0, 1}, router::TieBreak::kBalanced,
                                           router::DatelineRule::kOnCrossing, true);
  EXPECT_EQ(mdor.route({0, 0}, {3, 2}, -1, VcClass::kAny).vc_class, VcClass::kAny);
  EXPECT_EQ(mdor.route({3, 0}, {3, 2}, 0, VcClass::kAny).vc_class, VcClass::kAny);
}

// Two 8-flit packets from one source to the node two hops along its row, one
// VC per port. Entering the ring takes two free slots: with a VC of two
// slots the second packet waits until the first has left the next router and
// its slot has come back; with three it follows the first back to back, one
// packet's serialization later. On a mesh a hop needs one slot, so two slots
// are enough to follow back to back.
sim::Time gap(const std::string& platform, int slots) {
  auto p = platforms::load_platform(
      platform, {"router.flow_control=bubble", "router.vcs=1", "router.max_packet_flits=8",
                 "router.vc_buffer_flits=" + std::to_string(8 * slots)});
  test::NetBench bench(p);
  bench.send(0, 2, 8, 0);
  bench.send(0, 2, 8, 0);
  bench.run();
  const auto& d = bench.deliveries();
  EXPECT_EQ(d.size(), 2u);
  return d.size() == 2 ? d[1].delivered_ps - d[0].delivered_ps : 0;
}

TEST(Bubble, EnteringARingTakesTwoFreeSlotsAMeshHopOne) {
  for (const std::string platform : {"torus-8x8", "mesh-8x8"}) {
    const auto p = platforms::load_platform(platform);
    const sim::Time serialization = 8 * p.router.flit_ps();  // 8 flits at the link's rate
    EXPECT_EQ(gap(platform, 3), serialization) << platform << ": room for two more, back to back";
    if (platform == "torus-8x8")
      EXPECT_GT(gap(platform, 2), serialization) << "one slot left: the ring entry must wait";
    else
      EXPECT_EQ(gap(platform, 2), serialization) << "a mesh hop needs one slot";
  }
}

// One VC per port (the dateline needs two) and two packet slots per VC, far
// past saturation: every packet arrives and the watchdog stays quiet. Short
// packets take a whole slot each, so they fill a ring as fast as long ones.
TEST(Bubble, ToriStayDeadlockFreeFarPastSaturationWithOneVc) {
  const std::vector<std::string> bubble = {"router.flow_control=bubble", "router.max_packet_flits=8"};
  const std::vector<std::tuple<std::string, std::string, int, std::vector<std::string>>> cases = {
      {"torus-8x8", "uniform", 8, {"router.vcs=1", "router.vc_buffer_flits=16"}},
      {"torus-8x8", "tornado", 8, {"router.vcs=1", "router.vc_buffer_flits=16"}},
      {"torus-8x8", "uniform", 2, {"router.vcs=1", "router.vc_buffer_flits=16"}},
      {"torus-8x8", "bitcomp", 8, {"router.vcs=2", "router.vc_buffer_flits=16", "router.tie_break=random"}},
      {"torus-8x8", "uniform", 8, {"router.vcs=2", "router.vc_buffer_flits=24", "router.vc_allocator=islip"}},
      // minimal adaptive routing over a one-VC bubble escape network (as Blue Gene/L's torus)
      {"torus-8x8",
       "uniform",
       8,
       {"router.vcs=2", "router.vc_buffer_flits=16", "router.routing=minimal_adaptive"}},
      {"torus-8x8",
       "tornado",
       4,
       {"router.vcs=2", "router.vc_buffer_flits=16", "router.routing=minimal_adaptive"}},
      {"torus-8x8",
       "bitcomp",
       8,
       {"router.vcs=3", "router.vc_buffer_flits=16", "router.routing=minimal_adaptive",
        "router.vc_allocator=islip", "router.speculative=true"}},
      // the NIC's 63-flit packets need 64-flit slots; 8-flit packets take one each
      {"tofu-small", "uniform", 8, {"router.max_packet_flits=64", "router.vc_buffer_flits=128"}}};
  for (const auto& [platform, pattern, flits, sets] : cases) {
    const auto j = test::traffic_json(platform, pattern, 0.95, with(bubble, sets), 4000, 5, flits);
    const std::string what = platform + " " + pattern + " " + std::to_string(flits) + " flits";
    EXPECT_EQ(j["deadlock"], false) << what;
    EXPECT_EQ(j["packets_lost"], 0) << what;
    EXPECT_EQ(j["packets_created"], j["packets_delivered"]) << what;
    EXPECT_GT(j["measured_packets"].get<std::uint64_t>(), 0u) << what;
  }
}

TEST(Bubble, RdmaRunsDeliverEveryByte) {
  const std::string dir = test::temp_dir();
  const auto res = test::run_kairo({"run", "tofu-small", "--workload", "alltoall", "--param", "algo=a2at",
                                    "--param", "size=8KiB", "--set", "router.flow_control=bubble", "--set",
                                    "router.vc_buffer_flits=128", "--set", "router.vcs=2", "--json",
                                    dir + "/a.json", "--quiet"});
  ASSERT_EQ(res.exit_code, 0) << res.err;
  const auto j = nlohmann::json::parse(test::read_file(dir + "/a.json"));
  EXPECT_EQ(j["verified"], true);
}

void expect_refused(const std::string& platform, const std::vector<std::string>& sets, const std::string& key,
                    const std::string& words) {
  try {
    platforms::load_platform(platform, sets);
    ADD_FAILURE() << platform << ": must be refused";
  } catch (const std::exception& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(key), std::string::npos) << m;
    EXPECT_NE(m.find(words), std::string::npos) << m;
  }
}

TEST(Bubble, InconsistentSettingsAreRefusedNamingTheKey) {
  // Room for two of the largest packets.
  expect_refused("torus-8x8", {"router.flow_control=bubble"}, "router.vc_buffer_flits",
                 "at least 2 x router.max_packet_flits (16)");
  EXPECT_NO_THROW(
      platforms::load_platform("torus-8x8", {"router.flow_control=bubble", "router.vc_buffer_flits=16"}));
  // A ring entry asks for two slots; the count must stay representable.
  expect_refused(
      "torus-8x8",
      {"router.flow_control=bubble", "router.max_packet_flits=40000", "router.vc_buffer_flits=80000"},
      "router.max_packet_flits", "at most 32767");
  // One VC is enough for bubble, not for the dateline.
  expect_refused("torus-8x8", {"router.vcs=1"}, "router.vcs", "two dateline VC classes");
  EXPECT_NO_THROW(platforms::load_platform(
      "torus-8x8", {"router.vcs=1", "router.flow_control=bubble", "router.vc_buffer_flits=16"}));
  // Minimal adaptive routing: one escape VC under bubble, two dateline ones without.
  EXPECT_NO_THROW(
      platforms::load_platform("torus-8x8", {"router.flow_control=bubble", "router.vc_buffer_flits=16",
                                             "router.vcs=2", "router.routing=minimal_adaptive"}));
  expect_refused("torus-8x8", {"router.vcs=2", "router.routing=minimal_adaptive"}, "router.vcs",
                 "integer >= 3");
  // Meshes and tori only.
  expect_refused("dragonfly-342", {"router.flow_control=bubble"}, "router.flow_control", "on a dragonfly");
  // From the command line: exit code 2, the key named.
  const auto res =
      test::run_kairo({"traffic", "torus-8x8", "--set", "router.flow_control=bubble", "--quiet"});
  EXPECT_EQ(res.exit_code, 2);
  EXPECT_NE(res.err.find("router.vc_buffer_flits"), std::string::npos) << res.err;
}

}  // namespace
}  // namespace kairo
