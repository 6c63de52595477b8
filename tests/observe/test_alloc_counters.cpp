// The counter log's "alloc" table (docs/counters.md): per router port, the
// allocation's choices (adaptive or escape VC, a dragonfly's Valiant way, VC
// allocation requests and grants, speculation hits and misses). Its rows add
// up to the traffic JSON's totals, which the router counts on another path;
// on a link port every packet of minimal adaptive routing left on an
// adaptive or an escape VC, so those two add up to the link table's packets;
// Valiant routing sends the fraction of packets the formula gives a
// non-minimal way; both formats hold the same rows; and a platform whose
// routers make no such choice has no table (its logs keep their bytes).
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>

#include "platforms/counter_log.h"
#include "tests/fst_rows.h"
#include "tests/test_support.h"

namespace kairo::platforms {
namespace {

struct Logged {
  nlohmann::json summary;
  CounterLogData log;
};

// `kairo traffic` with a counter log of 500 ns intervals, no warm-up (the
// JSON's totals then cover the run the log covers).
Logged traffic_logged(const std::string& platform, const std::string& pattern, double rate,
                      const std::string& file, const std::vector<std::string>& sets) {
  const std::string dir = test::temp_dir();
  std::vector<std::string> args = {
      "traffic",         platform, "--pattern",        pattern,         "--rate",     std::to_string(rate),
      "--warmup-cycles", "0",      "--measure-cycles", "3000",          "--counters", dir + "/" + file,
      "--interval",      "500ns",  "--json",           dir + "/t.json", "--quiet"};
  for (const std::string& s : sets) args.insert(args.end(), {"--set", s});
  auto r = test::run_kairo(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  Logged l;
  if (r.exit_code != 0) return l;
  l.summary = nlohmann::json::parse(test::read_file(dir + "/t.json"));
  l.log = read_counter_log(dir + "/" + file);
  return l;
}

const std::vector<std::string> kAdaptiveStaged = {"router.routing=minimal_adaptive",
                                                  "router.vc_allocator=islip", "router.speculative=true"};

const std::vector<std::string>& alloc_fields(const CounterLogData& d) {
  static const std::vector<std::string> none;
  const CounterTable* t = d.table("alloc");
  return t ? t->fields : none;
}

int field(const CounterLogData& d, const std::string& name) {
  const int k = d.table("alloc") ? d.table("alloc")->field(name) : -1;
  if (k < 0) ADD_FAILURE() << "no alloc field " << name;
  return std::max(k, 0);
}

TEST(AllocCounters, RowsAddUpToTheRunsTotals) {
  const Logged l = traffic_logged("mesh-8x8", "transpose", 0.25, "a.kcl", kAdaptiveStaged);
  ASSERT_EQ(alloc_fields(l.log).size(), 7u);  // docs/counters.md: the alloc table's seven columns
  ASSERT_FALSE(l.log.rows("alloc").empty());
  std::map<std::string, std::uint64_t> sum;
  for (const auto& iv : l.log.intervals)
    for (const auto& [i, f] : l.log.in(iv, "alloc")) {
      for (std::size_t k = 0; k < f.size(); ++k) sum[alloc_fields(l.log)[k]] += f[k];
      EXPECT_LE(f[std::size_t(field(l.log, "vc_grants"))], f[std::size_t(field(l.log, "vc_requests"))]);
    }
  const nlohmann::json& j = l.summary;
  EXPECT_EQ(sum["adaptive_packets"], j["adaptive_hops"].get<std::uint64_t>());
  EXPECT_EQ(sum["escape_packets"], j["escape_hops"].get<std::uint64_t>());
  EXPECT_EQ(sum["vc_grants"], j["vc_grants"].get<std::uint64_t>());
  EXPECT_EQ(sum["spec_hits"], j["speculative_hits"].get<std::uint64_t>());
  EXPECT_EQ(sum["spec_misses"], j["speculative_misses"].get<std::uint64_t>());
  EXPECT_EQ(sum["nonminimal_packets"], 0u);  // no Valiant way on a mesh
  // Transpose at 0.25 contends: some rounds lose, both ways are taken.
  EXPECT_GT(sum["vc_requests"], sum["vc_grants"]);
  EXPECT_GT(sum["adaptive_packets"], 0u);
  EXPECT_GT(sum["escape_packets"], 0u);
  EXPECT_GT(sum["spec_hits"], 0u);
}

TEST(AllocCounters, EveryPacketOnALinkTookAnAdaptiveOrAnEscapeVc) {
  const Logged l = traffic_logged("mesh-8x8", "transpose", 0.25, "a.kcl", kAdaptiveStaged);
  std::map<std::pair<sim::Time, std::string>, std::uint64_t> sent;  // (interval end, router.port)
  for (const auto& iv : l.log.intervals)
    for (const auto& [i, f] : l.log.in(iv, "link"))
      if (l.log.rows("link")[i].dim != "ni")
        sent[{iv.end, l.log.rows("link")[i].unit + "." + l.log.rows("link")[i].port}] = f[0];
  const int adaptive = field(l.log, "adaptive_packets"), escape = field(l.log, "escape_packets");
  std::size_t checked = 0;
  for (const auto& iv : l.log.intervals)
    for (const auto& [i, f] : l.log.in(iv, "alloc")) {
      const CounterRow& p = l.log.rows("alloc")[i];
      const std::uint64_t both = f[std::size_t(adaptive)] + f[std::size_t(escape)];
      if (p.dim == "ni") {
        EXPECT_EQ(both, 0u) << "ejection is neither way";
        continue;
      }
      const auto it = sent.find({iv.end, p.unit + "." + p.port});
      EXPECT_EQ(both, it == sent.end() ? 0 : it->second) << p.unit << "." << p.port << " at " << iv.end;
      ++checked;
    }
  EXPECT_GT(checked, 200u);
}

// Valiant on a dragonfly of g groups: a packet injected outside its
// destination's group goes by a random intermediate group, minimally when
// that is its own group (probability 1/g). bad_dragon sends every packet to
// the next group, so a fraction (g - 1) / g is delivered by a Valiant way.
TEST(AllocCounters, ValiantSendsTheFormulasShareOfPacketsNonMinimally) {
  const Logged l = traffic_logged("dragonfly-342", "bad_dragon", 0.05, "d.csv", {"router.routing=valiant"});
  const int nonmin = field(l.log, "nonminimal_packets");
  std::map<std::pair<sim::Time, std::string>, std::uint64_t> ejected;
  for (const auto& iv : l.log.intervals)
    for (const auto& [i, f] : l.log.in(iv, "link"))
      if (l.log.rows("link")[i].dim == "ni")
        ejected[{iv.end, l.log.rows("link")[i].unit + "." + l.log.rows("link")[i].port}] = f[0];
  std::uint64_t delivered = 0, by_valiant = 0;
  for (const auto& [k, n] : ejected) delivered += n;
  for (const auto& iv : l.log.intervals)
    for (const auto& [i, f] : l.log.in(iv, "alloc")) {
      const CounterRow& p = l.log.rows("alloc")[i];
      if (p.dim != "ni") continue;
      by_valiant += f[std::size_t(nonmin)];
      const auto it = ejected.find({iv.end, p.unit + "." + p.port});
      EXPECT_LE(f[std::size_t(nonmin)], it == ejected.end() ? 0 : it->second);
    }
  ASSERT_GT(delivered, 5000u);
  const double g = 19, share = double(by_valiant) / double(delivered);
  const double sigma = std::sqrt((g - 1) / g / g / double(delivered));
  EXPECT_NEAR(share, (g - 1) / g, 4 * sigma) << by_valiant << " of " << delivered;
}

// The waveform's `route` shows a Valiant way as 4 on exactly the ports whose
// alloc rows count non-minimal packets (UGAL on bad_dragon takes both ways).
TEST(AllocCounters, DragonflyWaveformsShowTheValiantWaysTheLogCounts) {
  const std::string dir = test::temp_dir();
  auto r = test::run_kairo({"traffic", "dragonfly-342", "--pattern", "bad_dragon", "--rate", "0.1",
                            "--warmup-cycles", "0", "--measure-cycles", "1500", "--trace-signals", "alloc",
                            "--fst", dir + "/d.fst", "--counters", dir + "/d.kcl", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const CounterLogData log = read_counter_log(dir + "/d.kcl");
  const int nonmin = field(log, "nonminimal_packets");
  std::set<std::string> counted, shown;
  std::set<std::uint64_t> values;
  for (const auto& iv : log.intervals)
    for (const auto& [i, f] : log.in(iv, "alloc"))
      if (f[std::size_t(nonmin)] > 0)
        counted.insert(log.rows("alloc")[i].unit + "." + log.rows("alloc")[i].port);
  for (const auto& [t, signal, v] : test::read_fst(dir + "/d.fst")) {
    const std::size_t end = signal.rfind(".route");
    if (end == std::string::npos || end + 6 != signal.size()) continue;
    values.insert(v);
    const std::size_t port = signal.rfind('.', end - 1), router = signal.rfind('.', port - 1);
    if (v == 4) shown.insert(signal.substr(router == std::string::npos ? 0 : router + 1, end - router - 1));
  }
  EXPECT_TRUE(values.count(3)) << "minimal ways";
  EXPECT_TRUE(values.count(4)) << "Valiant ways";
  EXPECT_FALSE(values.count(1) || values.count(2)) << "no adaptive or escape VC on a dragonfly";
  EXPECT_GT(counted.size(), 50u);
  EXPECT_EQ(shown, counted);
}

TEST(AllocCounters, TheCsvAndTheBinaryLogHoldTheSameRows) {
  const Logged b = traffic_logged("mesh-8x8", "transpose", 0.25, "a.kcl", kAdaptiveStaged);
  const Logged c = traffic_logged("mesh-8x8", "transpose", 0.25, "a.csv", kAdaptiveStaged);
  EXPECT_EQ(alloc_fields(b.log), alloc_fields(c.log));
  auto rows = [](const CounterLogData& d) {
    std::map<std::tuple<sim::Time, std::string, std::string>, std::vector<std::uint64_t>> m;
    for (const auto& iv : d.intervals)
      for (const auto& [i, f] : d.in(iv, "alloc"))
        m[{iv.end, d.rows("alloc")[i].unit, d.rows("alloc")[i].port}] = f;
    return m;
  };
  const auto rb = rows(b.log);
  EXPECT_GT(rb.size(), 100u);
  EXPECT_EQ(rb, rows(c.log));
}

TEST(AllocCounters, RoutersWithoutChoicesLogNoTable) {
  for (const std::string file : {"m.csv", "m.kcl"}) {
    const Logged l = traffic_logged("mesh-8x8", "uniform", 0.1, file, {});
    EXPECT_TRUE(alloc_fields(l.log).empty()) << file;
    EXPECT_TRUE(l.log.rows("alloc").empty()) << file;
    EXPECT_FALSE(l.log.rows("link").empty()) << file;
  }
  const std::string dir = test::temp_dir();
  auto r = test::run_kairo({"traffic", "mesh-8x8", "--pattern", "uniform", "--rate", "0.1", "--warmup-cycles",
                            "0", "--measure-cycles", "500", "--counters", dir + "/m.csv", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(test::read_file(dir + "/m.csv").find("vc_requests"), std::string::npos);
}

}  // namespace
}  // namespace kairo::platforms
