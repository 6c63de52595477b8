// kairo plot and --plot (docs/plots.md), through the binary: the SVG's
// curves, read back through the axes' own ticks, give the JSON's figures;
// the saturation ring sits where docs/traffic.md's rule puts it; log axes
// have decade ticks; a run's --plot is the same bytes as `kairo plot` on its
// JSON; bad input exits 2 naming the file or option.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>

#include "tests/test_support.h"

namespace kairo {
namespace {

using nlohmann::json;
using test::run_kairo;

struct Pt {
  double x, y;
};

// One axis of the SVG: its labelled ticks (value, position in user units).
struct AxisTicks {
  std::vector<std::pair<double, double>> ticks;
  // Data value at position p, interpolated between the end ticks (log10 of
  // the values on a log axis).
  double value_at(double p, bool log) const {
    const auto& [v0, p0] = ticks.front();
    const auto& [v1, p1] = ticks.back();
    const double f = (p - p0) / (p1 - p0);
    return log ? std::pow(10.0, std::log10(v0) + f * (std::log10(v1) - std::log10(v0))) : v0 + f * (v1 - v0);
  }
  double user_units_per_value(bool log) const {
    return std::abs(ticks.back().second - ticks.front().second) /
           (log ? std::log10(ticks.back().first / ticks.front().first)
                : ticks.back().first - ticks.front().first);
  }
};

std::string group(const std::string& svg, const std::string& open) {
  const auto b = svg.find(open);
  if (b == std::string::npos) return "";
  const auto e = svg.find("\n</g>\n", b);  // inner groups close on their own line's end
  return svg.substr(b, e == std::string::npos ? std::string::npos : e - b);
}

AxisTicks axis(const std::string& svg, char which) {
  const std::string g = group(svg, std::string("<g class=\"axis ") + which + "\">");
  AxisTicks a;
  const std::regex tick(which == 'x' ? R"re(data-value="([^"]+)"><line x1="([-0-9.]+)")re"
                                     : R"re(data-value="([^"]+)"><line x1="[-0-9.]+" y1="([-0-9.]+)")re");
  for (std::sregex_iterator it(g.begin(), g.end(), tick), end; it != end; ++it)
    a.ticks.emplace_back(std::stod((*it)[1]), std::stod((*it)[2]));
  return a;
}

struct SvgSeries {
  std::string label;
  std::vector<Pt> points;
  std::vector<Pt> marks;  // ring marks (cx, cy)
};

std::vector<SvgSeries> series(const std::string& svg) {
  std::vector<SvgSeries> out;
  const std::regex head(R"re(<g class="series" data-label="([^"]*)">\n<polyline points="([^"]*)")re");
  const std::regex pt(R"re(([-0-9.]+),([-0-9.]+))re");
  const std::regex mark(R"re(<circle class="mark"[^>]* cx="([-0-9.]+)" cy="([-0-9.]+)")re");
  for (std::sregex_iterator it(svg.begin(), svg.end(), head), end; it != end; ++it) {
    SvgSeries s{(*it)[1], {}, {}};
    const std::string pts = (*it)[2];
    for (std::sregex_iterator p(pts.begin(), pts.end(), pt); p != end; ++p)
      s.points.push_back({std::stod((*p)[1]), std::stod((*p)[2])});
    const auto from = std::size_t(it->position());
    const std::string body = svg.substr(from, svg.find("</g>", from) - from);
    for (std::sregex_iterator m(body.begin(), body.end(), mark); m != end; ++m)
      s.marks.push_back({std::stod((*m)[1]), std::stod((*m)[2])});
    out.push_back(s);
  }
  return out;
}

std::vector<std::string> legend(const std::string& svg) {
  const std::string g = group(svg, "<g class=\"legend\"");
  std::vector<std::string> out;
  const std::regex entry(R"re(<text [^>]*font-size="11">([^<]*)</text>)re");
  for (std::sregex_iterator it(g.begin(), g.end(), entry), end; it != end; ++it) out.push_back((*it)[1]);
  return out;
}

// docs/traffic.md: the first rate whose accepted throughput is below 0.95 x
// offered or whose average latency exceeds 3 x the lowest rate's; -1 if none.
int saturation(const json& sweep) {
  const double zero_load = sweep[0]["avg_packet_latency_cycles"];
  for (std::size_t i = 0; i < sweep.size(); ++i) {
    const double off = sweep[i]["offered_flits_per_node_cycle"],
                 acc = sweep[i]["accepted_flits_per_node_cycle"];
    if (acc < 0.95 * off || sweep[i]["avg_packet_latency_cycles"].get<double>() > 3 * zero_load)
      return int(i);
  }
  return -1;
}

const std::vector<std::string> kAllocators = {"round_robin", "islip", "oldest_first"};
const std::vector<std::string> kRates = {"0.05", "0.2", "0.4", "0.5"};

// Three allocators' sweeps on an 8x8 mesh (the first also with --plot),
// once for every test of this file.
class PlotSweeps : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = test::temp_dir();
    for (const auto& alloc : kAllocators) {
      std::vector<std::string> args = {"traffic",
                                       "mesh-8x8",
                                       "--sweep",
                                       "0.05,0.2,0.4,0.5",
                                       "--warmup-cycles",
                                       "300",
                                       "--measure-cycles",
                                       "1000",
                                       "--set",
                                       "router.allocator=" + alloc,
                                       "--quiet",
                                       "--json",
                                       dir_ + "/" + alloc + ".json",
                                       "--csv",
                                       dir_ + "/" + alloc + ".csv"};
      if (alloc == kAllocators[0]) {
        args.push_back("--plot");
        args.push_back(dir_ + "/run.svg");
      }
      if (alloc == kAllocators[1]) {  // the other kind a sweep draws
        args.insert(args.end(), {"--plot", dir_ + "/run_thr.svg", "--plot-kind", "throughput"});
      }
      const auto r = run_kairo(args);
      ASSERT_EQ(r.exit_code, 0) << r.err;
    }
  }
  static json sweep_of(const std::string& alloc) {
    return json::parse(test::read_file(dir_ + "/" + alloc + ".json"))["sweep"];
  }
  static std::vector<std::string> inputs() {
    std::vector<std::string> v;
    for (const auto& a : kAllocators) v.push_back(dir_ + "/" + a + ".json");
    return v;
  }
  static std::string plot(std::vector<std::string> args, const std::string& name) {
    args.insert(args.begin(), "plot");
    args.push_back("--out");
    args.push_back(dir_ + "/" + name);
    const auto r = run_kairo(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return test::read_file(dir_ + "/" + name);
  }
  static std::string dir_;
};
std::string PlotSweeps::dir_;

TEST_F(PlotSweeps, LatencyCurvesReadBackToTheSweepLatencies) {
  const std::string svg = plot(inputs(), "latency.svg");
  const auto s = series(svg);
  ASSERT_EQ(s.size(), kAllocators.size()) << svg;
  const AxisTicks xa = axis(svg, 'x'), ya = axis(svg, 'y');
  ASSERT_GE(xa.ticks.size(), 3u);
  ASSERT_GE(ya.ticks.size(), 3u);
  // Coordinates carry two decimals: a hundredth of a unit in data terms.
  const double tol_x = 0.01 / xa.user_units_per_value(false), tol_y = 0.01 / ya.user_units_per_value(false);
  for (std::size_t c = 0; c < kAllocators.size(); ++c) {
    const json sw = sweep_of(kAllocators[c]);
    ASSERT_EQ(s[c].points.size(), kRates.size()) << "a point per swept rate, " << kAllocators[c];
    for (std::size_t i = 0; i < kRates.size(); ++i) {
      EXPECT_NEAR(xa.value_at(s[c].points[i].x, false), sw[i]["offered_flits_per_node_cycle"].get<double>(),
                  tol_x);
      EXPECT_NEAR(ya.value_at(s[c].points[i].y, false), sw[i]["avg_packet_latency_cycles"].get<double>(),
                  tol_y)
          << kAllocators[c] << " at rate " << kRates[i];
    }
  }
  std::vector<std::string> expected;
  for (const auto& a : kAllocators) expected.push_back("router.allocator=" + a);
  std::vector<std::string> entries = legend(svg);
  entries.resize(std::min(entries.size(), expected.size()));
  EXPECT_EQ(entries, expected) << "the legend names what differs between the runs";
  EXPECT_NE(svg.find(">offered load (flits/node/cycle)</text>"), std::string::npos);
  EXPECT_NE(svg.find(">average packet latency (cycles)</text>"), std::string::npos);
  EXPECT_NE(svg.find("mesh-8x8, uniform traffic"), std::string::npos)
      << "the title names platform and pattern";
  EXPECT_NE(svg.find("viewBox=\"0 0 640 "), std::string::npos)
      << "640 wide (its height: test_plot_layout.cpp)";
  EXPECT_EQ(svg.find("<script"), std::string::npos);
  EXPECT_EQ(svg.find("@import"), std::string::npos);
}

TEST_F(PlotSweeps, SaturationRingSitsWhereTheDocumentedRulePutsIt) {
  std::vector<std::string> args = inputs();
  args.push_back("--kind");
  args.push_back("throughput");
  const std::string svg = plot(args, "throughput.svg");
  const auto s = series(svg);
  ASSERT_EQ(s.size(), kAllocators.size()) << svg;
  const AxisTicks xa = axis(svg, 'x'), ya = axis(svg, 'y');
  const double tol_x = 0.01 / xa.user_units_per_value(false), tol_y = 0.01 / ya.user_units_per_value(false);
  int saturated = 0;
  for (std::size_t c = 0; c < kAllocators.size(); ++c) {
    const json sw = sweep_of(kAllocators[c]);
    for (std::size_t i = 0; i < kRates.size(); ++i)
      EXPECT_NEAR(ya.value_at(s[c].points[i].y, false), sw[i]["accepted_flits_per_node_cycle"].get<double>(),
                  tol_y);
    const int sat = saturation(sw);
    if (sat < 0) {
      EXPECT_TRUE(s[c].marks.empty()) << kAllocators[c] << " does not saturate within the sweep";
      continue;
    }
    ++saturated;
    ASSERT_EQ(s[c].marks.size(), 1u) << kAllocators[c];
    EXPECT_NEAR(xa.value_at(s[c].marks[0].x, false), sw[sat]["offered_flits_per_node_cycle"].get<double>(),
                tol_x);
    EXPECT_NEAR(ya.value_at(s[c].marks[0].y, false), sw[sat]["accepted_flits_per_node_cycle"].get<double>(),
                tol_y);
  }
  // 0.5 flits/node/cycle is above the 8x8 mesh's bisection bound (0.49).
  EXPECT_EQ(saturated, int(kAllocators.size()));
  EXPECT_NE(svg.find("class=\"diagonal\""), std::string::npos) << "the y = x line";
  EXPECT_NE(svg.find(">accepted throughput (flits/node/cycle)</text>"), std::string::npos);
  EXPECT_NE(svg.find("0.95 x offered"), std::string::npos) << "the caption states the rule";
}

TEST_F(PlotSweeps, RunPlotIsTheSameBytesAsPlottingItsJson) {
  const std::string again = plot({dir_ + "/round_robin.json"}, "again.svg");
  EXPECT_EQ(test::read_file(dir_ + "/run.svg"), again);
  EXPECT_EQ(plot({dir_ + "/round_robin.json"}, "again2.svg"), again) << "deterministic bytes";
}

TEST_F(PlotSweeps, PlotKindThroughputIsTheSameBytesAsPlottingItsJsonSo) {
  EXPECT_EQ(test::read_file(dir_ + "/run_thr.svg"),
            plot({dir_ + "/" + kAllocators[1] + ".json", "--kind", "throughput"}, "again_thr.svg"));
  EXPECT_NE(test::read_file(dir_ + "/run_thr.svg"), plot({dir_ + "/" + kAllocators[1] + ".json"}, "lat.svg"));
  for (const std::string kind : {"time-size", "pie"}) {
    const auto r = run_kairo(
        {"traffic", "mesh-8x8", "--sweep", "0.1", "--plot", dir_ + "/k.svg", "--plot-kind", kind, "--quiet"});
    EXPECT_EQ(r.exit_code, 2) << kind;
    EXPECT_NE(r.err.find("--plot-kind"), std::string::npos) << r.err;
  }
}

TEST_F(PlotSweeps, CsvTableGivesTheSameCurveAsTheJson) {
  const auto from_csv = series(plot({dir_ + "/islip.csv"}, "csv.svg"));
  const auto from_json = series(plot({dir_ + "/islip.json"}, "json.svg"));
  ASSERT_EQ(from_csv.size(), 1u);
  ASSERT_EQ(from_json.size(), 1u);
  ASSERT_EQ(from_csv[0].points.size(), from_json[0].points.size());
  for (std::size_t i = 0; i < from_csv[0].points.size(); ++i) {
    // The table rounds to 6 and 3 decimals: well under a unit.
    EXPECT_NEAR(from_csv[0].points[i].x, from_json[0].points[i].x, 0.05);
    EXPECT_NEAR(from_csv[0].points[i].y, from_json[0].points[i].y, 0.05);
  }
}

TEST_F(PlotSweeps, YMaxEndsTheAxisAndCutsOffWhatLiesAbove) {
  std::vector<std::string> args = inputs();
  args.insert(args.end(), {"--y-max", "100"});
  const std::string svg = plot(args, "ymax.svg");
  const AxisTicks ya = axis(svg, 'y');
  ASSERT_GE(ya.ticks.size(), 2u);
  EXPECT_EQ(ya.ticks.back().first, 100);
  EXPECT_NE(svg.find("<g clip-path=\"url(#plot-area)\">"), std::string::npos);
  // The points below 100 cycles still read back.
  const auto s = series(svg);
  ASSERT_EQ(s.size(), kAllocators.size());
  const json sw = sweep_of(kAllocators[0]);
  EXPECT_NEAR(ya.value_at(s[0].points[0].y, false), sw[0]["avg_packet_latency_cycles"].get<double>(),
              0.01 / ya.user_units_per_value(false));
}

TEST_F(PlotSweeps, LabelsReplaceTheLegendEntries) {
  const std::string svg =
      plot({dir_ + "/islip.json", dir_ + "/oldest_first.json", "--label", "iSLIP", "--label", "age-based"},
           "l.svg");
  const auto s = series(svg);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].label, "iSLIP");
  EXPECT_EQ(s[1].label, "age-based");
}

// A size sweep of an all-to-all: log-log, a tick per decade, every point
// back at its size and latency; --plot equals kairo plot on the JSON.
TEST(Plot, TimeAgainstSizeHasDecadeTicks) {
  const std::string dir = test::temp_dir();
  const auto r = run_kairo({"run", "tofu-small", "--workload", "alltoall", "--param", "sizes=64B,1KiB,16KiB",
                            "--quiet", "--json", dir + "/a.json", "--plot", dir + "/run.svg"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto p = run_kairo({"plot", dir + "/a.json", "--out", dir + "/a.svg"});
  ASSERT_EQ(p.exit_code, 0) << p.err;
  const std::string svg = test::read_file(dir + "/a.svg");
  EXPECT_EQ(test::read_file(dir + "/run.svg"), svg);
  const json runs = json::parse(test::read_file(dir + "/a.json"))["sweep"];
  ASSERT_EQ(runs.size(), 3u);
  const AxisTicks xa = axis(svg, 'x'), ya = axis(svg, 'y');
  for (const AxisTicks* a : {&xa, &ya}) {
    ASSERT_GE(a->ticks.size(), 2u);
    for (std::size_t i = 0; i < a->ticks.size(); ++i) {
      const double k = std::log10(a->ticks[i].first);
      EXPECT_NEAR(k, std::round(k), 1e-12) << "a tick per power of ten";
      if (i > 0) {
        EXPECT_NEAR(k - std::log10(a->ticks[i - 1].first), 1, 1e-12) << "one decade apart";
        if (i > 1) {  // evenly spaced
          EXPECT_NEAR(a->ticks[i].second - a->ticks[i - 1].second,
                      a->ticks[i - 1].second - a->ticks[i - 2].second, 0.02);
        }
      }
    }
  }
  EXPECT_LE(xa.ticks.front().first, 64);
  EXPECT_GE(xa.ticks.back().first, 16384);
  const auto s = series(svg);
  ASSERT_EQ(s.size(), 1u);
  ASSERT_EQ(s[0].points.size(), runs.size());
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const double size = runs[i]["params"]["size"], t = runs[i]["latency_ns"];
    // two decimals of a unit on a log axis: a relative error of about 0.01 / units per decade x ln 10
    EXPECT_NEAR(xa.value_at(s[0].points[i].x, true) / size, 1, 1e-3);
    EXPECT_NEAR(ya.value_at(s[0].points[i].y, true) / t, 1, 1e-3);
  }
  EXPECT_NE(svg.find(">message size (bytes)</text>"), std::string::npos);
  EXPECT_NE(svg.find(">latency (ns)</text>"), std::string::npos);
  EXPECT_NE(svg.find(">1k</text>"), std::string::npos) << "decades labelled with SI prefixes";
}

// --compare with sizes: a curve per compared value, named by it.
TEST(Plot, CompareAtSeveralSizesDrawsACurvePerValue) {
  const std::string dir = test::temp_dir();
  const auto r =
      run_kairo({"run", "tofu-small", "--workload", "alltoall", "--compare", "algo=a2a,pairwise", "--param",
                 "sizes=64B,4KiB", "--quiet", "--json", dir + "/c.json", "--plot", dir + "/run.svg"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto p = run_kairo({"plot", dir + "/c.json", "--out", dir + "/c.svg"});
  ASSERT_EQ(p.exit_code, 0) << p.err;
  const std::string svg = test::read_file(dir + "/c.svg");
  EXPECT_EQ(test::read_file(dir + "/run.svg"), svg);
  const json j = json::parse(test::read_file(dir + "/c.json"));
  const auto s = series(svg);
  ASSERT_EQ(s.size(), 2u);
  const AxisTicks ya = axis(svg, 'y');
  for (std::size_t v = 0; v < 2; ++v) {
    const std::string value = j["values"][v];
    EXPECT_EQ(s[v].label, "algo=" + value);
    ASSERT_EQ(s[v].points.size(), 2u);
    for (std::size_t i = 0; i < 2; ++i)
      EXPECT_NEAR(ya.value_at(s[v].points[i].y, true) / j["runs"][value][i]["latency_ns"].get<double>(), 1,
                  1e-3);
  }
  EXPECT_NE(svg.find("tofu-small, alltoall"), std::string::npos) << "what the curves share is in the title";
}

void expect_refused(const test::CommandResult& r, const std::vector<std::string>& mention) {
  EXPECT_EQ(r.exit_code, 2) << r.err;
  for (const auto& m : mention)
    EXPECT_NE(r.err.find(m), std::string::npos) << "missing '" << m << "' in: " << r.err;
}

TEST_F(PlotSweeps, BadInputExitsTwoNamingTheFileOrOption) {
  const std::string out = dir_ + "/bad.svg";
  expect_refused(run_kairo({"plot", dir_ + "/none.json", "--out", out}), {"none.json", "cannot read"});
  const std::string single =
      test::write_file(dir_, "single.json", R"({"platform": "mesh-8x8", "rate": 0.1})");
  expect_refused(run_kairo({"plot", single, "--out", out}), {"single.json", "no sweep points"});
  const std::string empty = test::write_file(dir_, "empty.json", R"({"sweep": []})");
  expect_refused(run_kairo({"plot", empty, "--out", out}), {"empty.json", "no points"});
  const std::string broken = test::write_file(dir_, "broken.json", "{\"sweep\": [");
  expect_refused(run_kairo({"plot", broken, "--out", out}), {"broken.json", "JSON"});
  const std::string sizes = test::write_file(
      dir_, "sizes.json", R"({"sweep": [{"platform": "p", "params": {"size": 64}, "latency_ns": 100.0}]})");
  expect_refused(run_kairo({"plot", dir_ + "/islip.json", sizes, "--out", out}), {"sizes.json", "--kind"});
  expect_refused(run_kairo({"plot", sizes, "--kind", "latency", "--out", out}),
                 {"sizes.json", "--kind latency"});
  expect_refused(run_kairo({"plot", sizes, "--kind", "scatter", "--out", out}), {"--kind", "scatter"});
  expect_refused(run_kairo({"plot", sizes, "--label", "a", "--label", "b", "--out", out}), {"--label"});
  expect_refused(run_kairo({"plot", sizes, "--out", dir_ + "/no/such/dir/p.svg"}), {"--out", "no/such/dir"});
  EXPECT_FALSE(std::filesystem::exists(out)) << "nothing written on bad input";
  expect_refused(run_kairo({"traffic", "mesh-8x8", "--rate", "0.1", "--plot", out, "--quiet"}),
                 {"--plot", "--sweep"});
  expect_refused(
      run_kairo({"traffic", "mesh-8x8", "--sweep", "0.1", "--plot", dir_ + "/no/p.svg", "--quiet"}),
      {"--plot", "no/p.svg"});
  expect_refused(run_kairo({"run", "tofu-small", "--workload", "alltoall", "--plot", out, "--quiet"}),
                 {"--plot", "--compare"});
  EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace
}  // namespace kairo
