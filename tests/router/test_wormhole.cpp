// Wormhole flow control (router.flow_control: wormhole): packets longer than
// a VC buffer cross meshes and tori as flits and drain, also far past
// saturation and under adaptive routing and the VC allocation stage; at zero
// load the flits pipeline so a packet takes what it takes under cut-through
// with room for it; a VC buffer never holds more flits than it has slots
// (credits per flit); head-of-line blocking shows as lower saturation than
// cut-through; RDMA runs deliver every byte; dragonflies run it too, fat
// trees refuse the key.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "hw/common/endpoint.h"
#include "platforms/partition.h"
#include "platforms/platform.h"
#include "tests/fst_rows.h"
#include "tests/test_support.h"
#include "tests/traffic_harness.h"

namespace kairo {
namespace {

nlohmann::json run(const std::string& platform, const std::string& pattern, double rate, int flits,
                   std::vector<std::string> sets, std::uint64_t measure = 6000) {
  return test::traffic_json(platform, pattern, rate, sets, measure, 9, flits);
}

using test::with;

// 16-flit packets, 8-flit VC buffers: a packet always spans two buffers.
const std::vector<std::string> kWorm = {"router.flow_control=wormhole", "router.vc_buffer_flits=8",
                                        "router.max_packet_flits=16"};
const std::vector<std::string> kBookSim = {"router.cable_latency=0ns", "router.host_latency=0ns",
                                           "router.allocator=islip", "router.islip_iterations=1"};

TEST(Wormhole, PacketsLongerThanABufferRunAndDrainFarPastSaturation) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"mesh-8x8", {}},
      {"torus-8x8", {}},
      {"mesh-8x8", {"router.routing=minimal_adaptive"}},
      {"torus-8x8",
       {"router.routing=minimal_adaptive", "router.vc_allocator=islip", "router.speculative=true"}},
      {"tofu-small", {"router.max_packet_flits=64"}}};  // room for the NIC's 63-flit packets
  for (const auto& [platform, extra] : cases) {
    const auto j = run(platform, "uniform", 0.9, 16, with(kWorm, extra), 3000);
    EXPECT_EQ(j["deadlock"], false) << platform;
    EXPECT_EQ(j["packets_lost"], 0) << platform;
    EXPECT_EQ(j["packets_created"], j["packets_delivered"]) << platform;
    EXPECT_GT(j["measured_packets"].get<std::uint64_t>(), 0u) << platform;
    // Hops count packets, not flits: the links a measured packet crossed.
    EXPECT_LT(j["avg_hops"].get<double>(), 10.0) << platform;
  }
}

// The dragonfly under wormhole (its phases' VC classes rise along every way,
// so the channel dependency graph is acyclic for flits as for packets:
// hw/router/dragonfly_routing.h): 16-flit packets in 8-flit buffers drain
// far past saturation under minimal, Valiant and UGAL routing, on uniform
// and adversarial traffic, with nothing lost.
TEST(Wormhole, DragonflyPacketsLongerThanABufferDrainUnderEveryRouting) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"minimal", "uniform"}, {"valiant", "uniform"}, {"ugal", "uniform"}, {"ugal", "bad_dragon"}};
  for (const auto& [routing, pattern] : cases) {
    const auto j = test::traffic_json_after("dragonfly-342", pattern, 0.9,
                                            with(kWorm, {"router.routing=" + routing}), 500, 1500, 9, 16);
    EXPECT_EQ(j["deadlock"], false) << routing << " " << pattern;
    EXPECT_EQ(j["packets_lost"], 0) << routing << " " << pattern;
    EXPECT_EQ(j["packets_created"], j["packets_delivered"]) << routing << " " << pattern;
    EXPECT_GT(j["measured_packets"].get<std::uint64_t>(), 0u) << routing << " " << pattern;
    // At most local, global, local twice (Valiant's two legs), plus the two host links.
    EXPECT_LE(j["avg_hops"].get<double>(), 8.0) << routing << " " << pattern;
  }
}

// On the dragonfly too, a lone packet's flits pipeline: wormhole with the
// platform's 256-flit buffers (more than a 100-cycle global channel's credit
// round trip) takes the cut-through time. With 8-flit buffers a 16-flit
// worm sends 8 flits onto a global channel and waits for the first credit,
// which comes back a round trip (2 x 100 cycles) after the first flit left:
// over 100 cycles later than cut-through.
TEST(Wormhole, DragonflyAtZeroLoadFlitsPipelineLikeCutThrough) {
  const std::vector<std::string> minimal = {"router.routing=minimal", "router.max_packet_flits=16"};
  auto latency = [&](const std::vector<std::string>& sets) {
    const auto j = test::traffic_json_after("dragonfly-342", "uniform", 0.002, sets, 500, 20000, 9, 16);
    EXPECT_GT(j["measured_packets"].get<std::uint64_t>(), 100u);
    return j["avg_packet_latency_cycles"].get<double>();
  };
  const double vct = latency(minimal);
  EXPECT_NEAR(latency(with(minimal, {"router.flow_control=wormhole"})), vct, 0.05);
  EXPECT_GT(latency(with(minimal, kWorm)), vct + 100);
}

// Alone in the network, a packet's flits follow its head one flit time apart
// through every router, exactly as a cut-through packet's do when the
// buffers hold it whole: the same latency.
TEST(Wormhole, AtZeroLoadFlitsPipelineLikeCutThrough) {
  const auto worm = run("mesh-8x8", "neighbor", 0.002, 16, with(kBookSim, kWorm), 20000);
  const auto vct = run("mesh-8x8", "neighbor", 0.002, 16,
                       with(kBookSim, {"router.vc_buffer_flits=16", "router.max_packet_flits=16"}), 20000);
  EXPECT_NEAR(worm["avg_packet_latency_cycles"].get<double>(), vct["avg_packet_latency_cycles"].get<double>(),
              0.05);
  EXPECT_EQ(worm["avg_hops"], vct["avg_hops"]);
}

// Head-of-line blocking: a blocked head holds VCs in two routers, so the
// network saturates lower than cut-through with room for whole packets.
TEST(Wormhole, HeadOfLineBlockingLowersSaturationBelowCutThrough) {
  const auto worm = run("mesh-8x8", "uniform", 0.6, 16, with(kBookSim, kWorm));
  const auto vct = run("mesh-8x8", "uniform", 0.6, 16,
                       with(kBookSim, {"router.vc_buffer_flits=16", "router.max_packet_flits=16"}));
  EXPECT_LT(worm["accepted_flits_per_node_cycle"].get<double>(),
            0.97 * vct["accepted_flits_per_node_cycle"].get<double>());
}

// Credits per flit: a traced router's input VCs never hold more flits than
// their 8 slots, and under load they fill up to them.
TEST(Wormhole, ABufferHoldsAtMostItsSlots) {
  const std::string dir = test::temp_dir();
  std::vector<std::string> args = {"traffic",         "mesh-8x8",     "--pattern",        "uniform",
                                   "--rate",          "0.6",          "--packet-flits",   "16",
                                   "--warmup-cycles", "300",          "--measure-cycles", "1500",
                                   "--trace-nodes",   "27,28,35,36",  "--trace-signals",  "vc",
                                   "--fst",           dir + "/w.fst", "--quiet"};
  for (const std::string& s : kWorm) args.insert(args.end(), {"--set", s});
  const auto res = test::run_kairo(args);
  ASSERT_EQ(res.exit_code, 0) << res.err;
  std::uint64_t most = 0;
  for (const auto& [t, signal, v] : test::read_fst(dir + "/w.fst"))
    if (signal.find("_occupancy") != std::string::npos) most = std::max(most, v);
  EXPECT_EQ(most, 8u);
}

TEST(Wormhole, RdmaRunsDeliverEveryByte) {
  const std::string dir = test::temp_dir();
  const auto res = test::run_kairo({"run", "tofu-small", "--workload", "alltoall", "--param", "algo=a2at",
                                    "--param", "size=2KiB", "--set", "router.flow_control=wormhole", "--json",
                                    dir + "/a.json", "--quiet"});
  ASSERT_EQ(res.exit_code, 0) << res.err;
  const auto j = nlohmann::json::parse(test::read_file(dir + "/a.json"));
  EXPECT_EQ(j["verified"], true);
}

// The endpoint sends a packet's body flits after its head flit has left, and
// the head flit may be gone by then: in a partitioned run the packet object
// that crossed to another process is recycled at the window's end and reused
// for another packet (a run split over processes stalled under load while
// the body flits copied a stranger's destination from it). A receiver that
// overwrites each head flit it takes must still get body flits of the head's
// packet. (The run itself: tests/parallel/parallel_runs.py, wormhole cases.)
struct ScribblingReceiver : hw::PacketSink {
  hw::Endpoint* ep = nullptr;
  std::vector<hw::Packet> flits;
  void accept(int, int vc, hw::Packet* p) override {
    flits.push_back(*p);
    // The slot frees at once: the next flit may follow.
    ep->return_credits(0, vc, p->flits, p->arrive_ps);
    if (p->worm & hw::kWormHead) {
      *p = hw::Packet{};  // recycled: another packet's fields
      p->id = 999, p->src = 7, p->dst = 5, p->created_ps = 1, p->injected_ps = 2;
    }
  }
};

struct IdleClient : hw::EndpointClient {
  void on_packet(int, hw::Packet*) override {}
  void on_send_ready(int) override {}
};

TEST(Wormhole, BodyFlitsTakeTheirPacketsFieldsNotTheHeadFlitsObject) {
  sim::EventQueue q(1000);
  hw::NetworkActivity act;
  hw::PacketPool flit_pool, pool;
  hw::Endpoint::Setup s;
  s.queue = &q;
  s.activity = &act;
  s.clock = sim::Clock{1000};
  s.vcs = 2;
  s.buffer_flits = 4;
  s.wormhole = true;
  s.flit_pool = &flit_pool;
  hw::Endpoint ep;
  IdleClient client;
  ep.init(s, &client, 0);
  ScribblingReceiver rx;
  rx.ep = &ep;
  ep.connect_to_router(&rx, 0, 2000, 1000, 4);
  hw::Packet* p = pool.get();
  p->id = 42, p->src = 3, p->dst = 11, p->src_ni = 0, p->dst_ni = 1, p->flits = 6, p->bytes = 192;
  p->created_ps = 500, p->measured = true;
  ASSERT_TRUE(ep.can_send(p->flits));
  ep.send(p);
  q.run_direct();
  ASSERT_EQ(rx.flits.size(), 6u);
  EXPECT_TRUE(rx.flits[0].worm & hw::kWormHead);
  const sim::Time injected = rx.flits[0].injected_ps;
  for (std::size_t k = 0; k < rx.flits.size(); ++k) {
    const hw::Packet& f = rx.flits[k];
    EXPECT_EQ(f.id, 42u) << "flit " << k;
    EXPECT_EQ(f.src, 3u) << "flit " << k;
    EXPECT_EQ(f.dst, 11u) << "flit " << k;
    EXPECT_EQ(f.dst_ni, 1) << "flit " << k;
    EXPECT_EQ(f.created_ps, 500) << "flit " << k;
    EXPECT_EQ(f.injected_ps, injected) << "flit " << k;
    EXPECT_TRUE(f.measured) << "flit " << k;
    EXPECT_EQ(f.worm_flits, 6) << "flit " << k;
    if (k > 0) EXPECT_TRUE(f.worm & hw::kWormBody) << "flit " << k;
  }
  EXPECT_TRUE(rx.flits.back().worm & hw::kWormTail);
  // Split over processes, a wormhole run is no longer refused.
  const auto plat = platforms::load_platform("mesh-8x8", kWorm);
  EXPECT_NO_THROW(platforms::partition_platform(plat, 3, platforms::PartitionMethod::kBlocks));
}

TEST(Wormhole, CutThroughStillRefusesPacketsLongerThanABufferAndFabricsRefuseTheKey) {
  EXPECT_THROW(
      platforms::load_platform("mesh-8x8", {"router.vc_buffer_flits=8", "router.max_packet_flits=16"}),
      std::exception);
  EXPECT_NO_THROW(platforms::load_platform("mesh-8x8", kWorm));
  try {
    platforms::load_platform("ib-qdr-16", {"router.flow_control=wormhole"});
    ADD_FAILURE() << "router.flow_control on a fat tree must be refused";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("router.flow_control"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace kairo
