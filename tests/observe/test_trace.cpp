// The waveform recorder (sim/trace.h): changes recorded out of time order
// are written in order with the last one at a time winning, delta signals
// integrate, the window gives initial values; and the VCD and the FST of one
// recording hold the same value changes, read back through GTKWave's own
// code: its FST reader (fstapi, as Debian's verilator ships it) for the FST,
// and its VCD parser (vcd2fst, Debian's gtkwave package) for the VCD.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <tuple>

#include "sim/trace.h"
#include "tests/fst_rows.h"
#include "tests/test_support.h"

namespace kairo::sim {
namespace {

using Row = test::FstRow;
using test::read_fst;

std::vector<Row> rows(const Trace& t) {
  std::vector<Row> r;
  for (const auto& e : t.emitted()) r.emplace_back(e.t, t.name(e.s), e.v);
  return r;
}

TEST(Trace, OutOfOrderChangesAreWrittenInTimeOrderAndTheLastAtATimeWins) {
  Trace t;
  const auto busy = t.add("rtr_x0.xp.busy", 1), pkt = t.add("rtr_x0.xp.pkt", 16);
  t.set(busy, 100, 1);  // a packet's head leaves at 100, its tail at 300
  t.set(pkt, 100, 7);
  t.set(busy, 300, 0);
  t.set(pkt, 300, 0);
  t.set(busy, 300, 1);  // the next packet follows back to back: recorded later, it wins
  t.set(pkt, 300, 8);
  t.set(busy, 500, 0);
  t.set(pkt, 500, 0);
  t.set(busy, 50, 0);  // recorded late, earlier in time: a no-op (already 0)
  const std::vector<Row> want = {{0, "rtr_x0.xp.busy", 0},   {0, "rtr_x0.xp.pkt", 0},
                                 {100, "rtr_x0.xp.busy", 1}, {100, "rtr_x0.xp.pkt", 7},
                                 {300, "rtr_x0.xp.pkt", 8},  {500, "rtr_x0.xp.busy", 0},
                                 {500, "rtr_x0.xp.pkt", 0}};
  EXPECT_EQ(rows(t), want);
}

TEST(Trace, DeltaSignalsIntegrateInTimeOrder) {
  Trace t;
  const auto occ = t.add("rtr.xm.vc0_occupancy", 8, /*delta=*/true);
  t.add_delta(occ, 200, -4);  // the first packet leaves (recorded when it departs)
  t.add_delta(occ, 100, +4);  // ... but it arrived earlier
  t.add_delta(occ, 150, +6);
  t.add_delta(occ, 250, -6);
  t.add_delta(occ, 250, +2);  // another arrives at the same time: net -4
  const std::vector<Row> want = {{0, "rtr.xm.vc0_occupancy", 0},
                                 {100, "rtr.xm.vc0_occupancy", 4},
                                 {150, "rtr.xm.vc0_occupancy", 10},
                                 {200, "rtr.xm.vc0_occupancy", 6},
                                 {250, "rtr.xm.vc0_occupancy", 2}};
  EXPECT_EQ(rows(t), want);
}

TEST(Trace, TheWindowStartsFromTheValuesReachedAndEndsOnTime) {
  Trace t;
  t.set_window(1000, 2000);
  const auto s = t.add("a.s", 4), d = t.add("a.d", 8, true);
  t.set(s, 10, 3);
  t.add_delta(d, 20, 5);
  t.set(s, 1500, 9);
  t.set(s, 2500, 1);  // after the window: not recorded
  EXPECT_EQ(t.num_changes(), 3u);
  const std::vector<Row> want = {{1000, "a.d", 5}, {1000, "a.s", 3}, {1500, "a.s", 9}};
  std::vector<Row> got = rows(t);
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, want);
}

TEST(Trace, VcdAndFstHoldTheSameValueChangesAsGtkwaveReadsThem) {
  Trace t;
  const auto busy = t.add("rtr_x1y0.xp.busy", 1), pkt = t.add("rtr_x1y0.xp.pkt", 32),
             occ = t.add("rtr_x1y0.ni0.vc2_occupancy", 8, true), depth = t.add("nic_x1y0.tni0.cmdq_depth", 6);
  for (int k = 0; k < 200; ++k) {
    const Time at = Time(k) * 1337 + 5;
    t.set(busy, at, 1);
    t.set(pkt, at, std::uint64_t(k) * 77 + 1);
    t.set(busy, at + 900, 0);
    t.set(pkt, at + 900, 0);
    t.add_delta(occ, at + 50, 3);
    t.add_delta(occ, at + 700, -3);
    t.set(depth, at + 11, std::uint64_t(k % 40));
  }
  const std::string dir = test::temp_dir(), vcd = dir + "/t.vcd", fst = dir + "/t.fst", conv = dir + "/c.fst";
  t.write_vcd(vcd);
  t.write_fst(fst);
  std::vector<Row> want = rows(t);
  std::sort(want.begin(), want.end());
  EXPECT_EQ(read_fst(fst), want) << "the FST";
  const std::string cmd = "vcd2fst " + vcd + " " + conv + " > " + dir + "/vcd2fst.log 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0)
      << "GTKWave's vcd2fst could not convert the VCD: " << test::read_file(dir + "/vcd2fst.log");
  EXPECT_EQ(read_fst(conv), want) << "the VCD, parsed by GTKWave";
}

}  // namespace
}  // namespace kairo::sim
