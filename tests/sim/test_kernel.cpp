// The SystemC bridge: network events run under SystemC's kernel, one process
// activation per distinct timestamp, and idle time between them is skipped.
// SystemC elaborates once per process, so this executable holds one run.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include "platforms/platform.h"
#include "sim/kernel.h"
#include "tests/net_harness.h"

namespace kairo {
namespace {

TEST(Kernel, TwoPacketsABillionCyclesApartRunThroughSystemCWithoutTickingIdleCycles) {
  auto p = platforms::load_platform("mesh-8x8");
  const sim::Time period = p.router.clock_period_ps();
  const sim::Time gap = sim::Time(1000000000) * period;

  // Reference: the direct driver.
  sim::Time direct_second = 0;
  {
    test::NetBench ref(p);
    ref.send(0, 63, 4, 0);
    ref.send(63, 0, 4, gap);
    ref.run();
    ASSERT_EQ(ref.deliveries().size(), 2u);
    direct_second = ref.deliveries()[1].delivered_ps;
  }

  test::NetBench bench(p);
  bench.send(0, 63, 4, 0);
  bench.send(63, 0, 4, gap);
  sim::Kernel kernel("kernel", bench.queue());
  kernel.run();  // sc_start() until the queue drains
  ASSERT_EQ(bench.deliveries().size(), 2u);
  EXPECT_EQ(bench.deliveries()[1].delivered_ps, direct_second) << "SystemC and direct drivers must agree";
  EXPECT_GE(sim::Time(sc_core::sc_time_stamp().value()), direct_second)
      << "SystemC time followed the network";
  EXPECT_LT(bench.queue().events_processed(), 200u) << "idle cycles must not become events";
}

// Every test executable treats a SystemC warning as a failure
// (tests/test_support.cpp installs the report handler).
TEST(Kernel, SystemCWarningsFailTheTestThatRaisesThem) {
  EXPECT_NONFATAL_FAILURE(SC_REPORT_WARNING("kairo/test", "a deliberate warning"),
                          "SystemC warning kairo/test");
}

}  // namespace
}  // namespace kairo
