// The deadlock watchdog: when packets are in the network and nothing moves
// for the configured time, the run stops and names the blocked ports and VCs.
#include <gtest/gtest.h>

#include "platforms/platform.h"
#include "tests/net_harness.h"

namespace kairo {
namespace {

// A downstream block that takes packets and never frees its buffer: the
// upstream VCs fill and then wait for credits forever.
class StuckReceiver : public hw::PacketSink {
 public:
  void accept(int, int, hw::Packet*) override { ++swallowed; }
  int swallowed = 0;
};

TEST(Watchdog, StopsTheRunAndNamesTheBlockedPortsAndVcs) {
  auto p = platforms::load_platform("mesh-8x8", {"router.watchdog_cycles=2000"});
  test::NetBench bench(p);
  auto& net = bench.net();
  const int xp = net.topology().port_of(0, +1);
  StuckReceiver stuck;
  net.router(1).connect_output(xp, &stuck, 0, 1000, p.router.flit_ps(), p.router.vc_buffer_flits);
  for (int i = 0; i < 40; ++i) bench.send(0, 3, 4, 0);
  bench.run();  // must return: the watchdog stops the queue

  EXPECT_TRUE(net.watchdog().fired());
  // 4 VCs x 8 flits of credits = 8 packets of 4 flits swallowed, then nothing moves.
  EXPECT_EQ(stuck.swallowed, 4 * 8 / 4);
  bool named = false;
  for (const auto& line : net.watchdog().blocked())
    named |= line.find("rtr_x1y0") != std::string::npos && line.find("output xp") != std::string::npos &&
             line.find("credits") != std::string::npos;
  EXPECT_TRUE(named) << "the report must name router x1y0, its output xp and the missing credits";
  // It fired after the timeout, not before.
  EXPECT_GE(bench.queue().now(), net.activity().last_progress_ps + 2000 * p.router.clock_period_ps());
}

TEST(Watchdog, StaysQuietWhileTheNetworkIsIdle) {
  auto p = platforms::load_platform("mesh-8x8", {"router.watchdog_cycles=100"});
  test::NetBench bench(p);
  bench.send(0, 63, 4, 0);
  bench.send(63, 0, 4, sim::Time(1000000) * p.router.clock_period_ps());
  bench.run();
  EXPECT_FALSE(bench.net().watchdog().fired()) << "an empty network is not a deadlock";
  EXPECT_EQ(bench.deliveries().size(), 2u);
}

}  // namespace
}  // namespace kairo
