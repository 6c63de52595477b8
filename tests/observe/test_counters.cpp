// Counter logs (`kairo run --counters FILE --interval D`, platforms/
// counter_log.h): the intervals add up to the run's end-of-run totals, what
// one end of a link sent in an interval is what the other end received in
// it, a link is never busy longer than the interval, the CSV and the compact
// binary log hold the same rows, and bad options are refused.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "platforms/counter_log.h"
#include "tests/test_support.h"

namespace kairo::platforms {
namespace {

struct Logged {
  nlohmann::json summary;
  CounterLogData log;
};

Logged run_logged(const std::string& file, const std::vector<std::string>& extra = {}) {
  const std::string dir = test::temp_dir();
  std::vector<std::string> args = {"run",       "tofu-small",      "--workload",     "alltoall",   "--param",
                                   "size=4KiB", "--counters",      dir + "/" + file, "--interval", "5us",
                                   "--json",    dir + "/run.json", "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  auto r = test::run_kairo(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  Logged l;
  if (r.exit_code != 0) return l;
  l.summary = nlohmann::json::parse(test::read_file(dir + "/run.json"));
  l.log = read_counter_log(dir + "/" + file);
  return l;
}

TEST(Counters, IntervalsAddUpToTheEndOfRunTotals) {
  const Logged l = run_logged("c.kcl");
  ASSERT_FALSE(l.log.intervals.empty());
  EXPECT_EQ(l.log.interval_ps, 5000000u);
  std::uint64_t hops = 0, flit_hops = 0, commands = 0, dma_read = 0, dma_written = 0, tni_sent = 0;
  for (const auto& iv : l.log.intervals) {
    for (const auto& [i, f] : l.log.in(iv, "link"))
      if (l.log.rows("link")[i].dim != "ni") hops += f[0], flit_hops += f[1];  // router-to-router hops
    for (const auto& [i, f] : l.log.in(iv, "tni"))
      commands += f[0], dma_read += f[1], dma_written += f[2], tni_sent += f[3];
  }
  EXPECT_EQ(hops, l.summary["network"]["packet_hops"].get<std::uint64_t>());
  EXPECT_EQ(flit_hops, l.summary["network"]["flit_hops"].get<std::uint64_t>());
  const auto& nic = l.summary["nic_counters"];
  EXPECT_EQ(commands, nic["commands"].get<std::uint64_t>());
  EXPECT_EQ(dma_read, nic["dma_bytes_read"].get<std::uint64_t>());
  EXPECT_EQ(dma_written, nic["dma_bytes_written"].get<std::uint64_t>());
  EXPECT_EQ(tni_sent, nic["packets_sent"].get<std::uint64_t>());
  // Consecutive intervals of the stated length, from 0.
  sim::Time at = 0;
  for (const auto& iv : l.log.intervals) {
    EXPECT_EQ(iv.start, at);
    EXPECT_LE(iv.end - iv.start, l.log.interval_ps);
    at = iv.end;
  }
}

TEST(Counters, WhatOneEndSendsTheOtherReceivesInTheSameInterval) {
  const Logged l = run_logged("c.kcl");
  std::map<std::string, std::uint32_t> by_end;  // "router.port" -> link index
  for (std::uint32_t i = 0; i < l.log.rows("link").size(); ++i)
    by_end[l.log.rows("link")[i].unit + "." + l.log.rows("link")[i].port] = i;
  int checked = 0;
  for (const auto& iv : l.log.intervals) {
    std::map<std::uint32_t, const std::vector<std::uint64_t>*> row;
    for (const auto& [i, f] : l.log.in(iv, "link")) row[i] = &f;
    for (const auto& [i, f] : l.log.in(iv, "link")) {
      const CounterRow& link = l.log.rows("link")[i];
      if (link.dim == "ni") continue;
      auto peer = by_end.find(link.peer + "." + link.peer_port);
      ASSERT_NE(peer, by_end.end()) << link.peer << "." << link.peer_port;
      const auto it = row.find(peer->second);
      const std::uint64_t received = it == row.end() ? 0 : (*it->second)[5];
      EXPECT_EQ(f[2], received) << link.unit << "." << link.port << " -> " << link.peer << " in [" << iv.start
                                << ", " << iv.end << ")";
      EXPECT_LE(f[6], iv.end - iv.start) << "busy longer than the interval";
      ++checked;
    }
  }
  EXPECT_GT(checked, 100);
}

TEST(Counters, TheCsvAndTheBinaryLogHoldTheSameRows) {
  const Logged b = run_logged("c.kcl"), c = run_logged("c.csv");
  std::size_t busy_intervals = 0;  // the CSV has no row for an interval where nothing happened
  for (const auto& iv : b.log.intervals)
    busy_intervals += !b.log.in(iv, "link").empty() || !b.log.in(iv, "tni").empty();
  EXPECT_EQ(busy_intervals, c.log.intervals.size());
  EXPECT_EQ(b.log.vcs, c.log.vcs);
  EXPECT_EQ(b.log.clock_period_ps, c.log.clock_period_ps);
  auto rows = [](const CounterLogData& d) {
    std::map<std::tuple<sim::Time, std::string, std::string>, std::vector<std::uint64_t>> m;
    for (const auto& iv : d.intervals) {
      for (const auto& [i, f] : d.in(iv, "link"))
        m[{iv.end, d.rows("link")[i].unit, d.rows("link")[i].port}] = f;
      for (const auto& [i, f] : d.in(iv, "tni"))
        m[{iv.end, d.rows("tni")[i].unit, d.rows("tni")[i].port}] = f;
    }
    return m;
  };
  EXPECT_EQ(rows(b.log), rows(c.log));
}

// A traffic run resets the routers' counters at the warm-up's end (its JSON
// reports the measurement window); the log carries its totals across: over
// the whole run its link rows add up to the JSON's whole-run hop counts, and
// no interval, the one holding the reset (1 us, on an interval boundary)
// included, shows a link busier than the interval or a count that wrapped.
TEST(Counters, ATrafficRunsWarmupResetIsCarriedAcross) {
  const std::string dir = test::temp_dir();
  for (const std::string interval : {"200ns", "300ns"}) {  // the reset on a boundary, and inside an interval
    auto r = test::run_kairo({"traffic", "torus-8x8", "--rate", "0.3", "--warmup-cycles", "1000",
                              "--measure-cycles", "1000", "--counters", dir + "/w.kcl", "--interval",
                              interval, "--json", dir + "/w.json", "--quiet"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(test::read_file(dir + "/w.json"));
    const CounterLogData log = read_counter_log(dir + "/w.kcl");
    std::uint64_t hops = 0, flits = 0;
    for (const auto& iv : log.intervals)
      for (const auto& [i, f] : log.in(iv, "link")) {
        if (log.rows("link")[i].dim != "ni") hops += f[0], flits += f[1];
        EXPECT_LE(f[6], iv.end - iv.start) << interval << ": busy longer than the interval at " << iv.end;
        EXPECT_LE(f[1], (iv.end - iv.start) / 1000 + 4)
            << interval << ": more flits than cycles at " << iv.end;
      }
    EXPECT_EQ(hops, j["packet_hops"].get<std::uint64_t>()) << interval;
    EXPECT_EQ(flits, j["flit_hops"].get<std::uint64_t>()) << interval;
  }
}

// The reader names no table: a log with a table no block writes today
// ("widget", engine-shaped rows) reads back with its columns, rows and
// values, the same from both formats, written here by hand from
// docs/counters.md's schemas.
TEST(Counters, TheReaderTakesAnyTable) {
  const std::string dir = test::temp_dir();
  test::write_file(dir, "g.csv",
                   "# kairo counter log v1: interval_ps=1000 clock_period_ps=500 vcs=1\n"
                   "kind,interval_start_ps,interval_end_ps,unit,port,coord,peer,peer_port,dim,dir,"
                   "packets,zero_credit_ps_vc0,energy_fj\n"
                   "link,0,1000,r0,xp,x0,r1,xm,X,+,3,0,\n"
                   "widget,0,1000,w0,widget2,x0,,,,,,,42\n"
                   "widget,1000,2000,w0,widget2,x0,,,,,,,7\n");
  auto varint = [](std::string& b, std::uint64_t v) {
    for (; v >= 0x80; v >>= 7) b.push_back(char(v | 0x80));
    b.push_back(char(v));
  };
  const std::string header =
      R"({"format":"kairo counter log","version":1,"interval_ps":1000,"clock_period_ps":500,"vcs":1,)"
      R"("link_fields":["packets","zero_credit_ps_vc0"],"widget_fields":["energy_fj"],)"
      R"("links":[["r0","xp","x0","r1","xm","X","+"]],"widgets":[["w0","x0",2]]})";
  std::string b(kCounterLogMagic, 8);
  varint(b, header.size());
  b += header;
  b += 'I';
  for (std::uint64_t v : {0, 1000, /*link*/ 1, 0, 3, 0, /*widget*/ 1, 0, 42}) varint(b, v);
  b += 'I';
  for (std::uint64_t v : {1000, 2000, /*link*/ 0, /*widget*/ 1, 0, 7}) varint(b, v);
  b += 'E';
  test::write_file(dir, "g.kcl", b);
  for (const std::string file : {"g.csv", "g.kcl"}) {
    const CounterLogData d = read_counter_log(dir + "/" + file);
    ASSERT_EQ(d.tables.size(), 2u) << file;
    EXPECT_EQ(d.tables[0].name, "link") << file;
    EXPECT_EQ(d.tables[1].name, "widget") << file;
    EXPECT_EQ(d.tables[0].fields, (std::vector<std::string>{"packets", "zero_credit_ps_vc0"})) << file;
    ASSERT_NE(d.table("widget"), nullptr);
    EXPECT_EQ(d.table("widget")->field("energy_fj"), 0) << file;
    ASSERT_EQ(d.rows("widget").size(), 1u) << file;
    EXPECT_EQ(d.rows("widget")[0].unit, "w0") << file;
    EXPECT_EQ(d.rows("widget")[0].port, "widget2") << file;
    EXPECT_EQ(d.rows("link")[0].peer_port, "xm") << file;
    ASSERT_EQ(d.intervals.size(), 2u) << file;
    using Rows = CounterLogData::Rows;
    EXPECT_EQ(d.in(d.intervals[0], "link"), (Rows{{0, {3, 0}}})) << file;
    EXPECT_EQ(d.in(d.intervals[0], "widget"), (Rows{{0, {42}}})) << file;
    EXPECT_TRUE(d.in(d.intervals[1], "link").empty()) << file;
    EXPECT_EQ(d.in(d.intervals[1], "widget"), (Rows{{0, {7}}})) << file;
    EXPECT_TRUE(d.in(d.intervals[1], "alloc").empty()) << file;  // no such table
  }
  // A row with a value in another table's columns is refused, naming the column.
  test::write_file(dir, "x.csv",
                   "# kairo counter log v1: interval_ps=1000 clock_period_ps=500 vcs=1\n"
                   "kind,interval_start_ps,interval_end_ps,unit,port,coord,peer,peer_port,dim,dir,a,b\n"
                   "link,0,1000,r0,xp,x0,r1,xm,X,+,3,\n"
                   "link,1000,2000,r0,xp,x0,r1,xm,X,+,3,4\n");
  try {
    read_counter_log(dir + "/x.csv");
    ADD_FAILURE() << "accepted a value outside its table";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("column b"), std::string::npos) << e.what();
  }
}

TEST(Counters, BadOptionsAreRefused) {
  const std::string dir = test::temp_dir();
  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"--counters", dir + "/c.txt"},
        std::vector<std::string>{"--counters", dir + "/c.csv", "--interval", "0s"},
        std::vector<std::string>{"--counters", dir + "/c.csv", "--interval", "soon"},
        std::vector<std::string>{"--counters", "/nonexistent-dir/c.csv"}}) {
    std::vector<std::string> args = {"run", "tofu-small", "--workload", "pingpong", "--quiet"};
    args.insert(args.end(), bad.begin(), bad.end());
    auto r = test::run_kairo(args);
    EXPECT_EQ(r.exit_code, 2) << bad.back() << ": " << r.err;
    EXPECT_TRUE(r.err.find("--counters") != std::string::npos ||
                r.err.find("--interval") != std::string::npos)
        << r.err;
  }
}

}  // namespace
}  // namespace kairo::platforms
