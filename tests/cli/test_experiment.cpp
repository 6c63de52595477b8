// kairo experiment and kairo traffic --compare/--saturation/--seeds
// (docs/experiments.md), through the binary: a grid is the cartesian product
// in the order written; every point is the single run `kairo traffic` gives
// for the same settings; means and 95% intervals follow Student's t (the
// quantiles from a printed table); the saturation search brackets the
// documented rule to the precision asked; an interrupted experiment resumes
// without redoing or losing a finished run; bad experiment files exit 2
// naming FILE:LINE and the key.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/test_support.h"

namespace kairo {
namespace {

using nlohmann::json;
using test::run_kairo;
namespace fs = std::filesystem;

const std::vector<std::string> kShort = {"--warmup-cycles", "300", "--measure-cycles", "1500"};

json read_json(const std::string& path) { return json::parse(test::read_file(path)); }

// The one run `kairo traffic` makes for these settings.
json single_run(const std::vector<std::string>& extra, bool short_phases = true) {
  std::vector<std::string> args = {"traffic", "mesh-8x8", "--quiet"};
  if (short_phases) args.insert(args.end(), kShort.begin(), kShort.end());
  args.insert(args.end(), extra.begin(), extra.end());
  const auto r = run_kairo(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return json::parse(r.out);
}

std::string fmt_rate(double r) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", r);
  return buf;
}

const char* kGrid = R"(platform: mesh-8x8
traffic:
  warmup_cycles: 300
  measure_cycles: 1500
grid:
  router.vcs: [4, 2]
  pattern: [uniform, transpose]
measure:
  kind: rate
  rate: 0.2
seeds: [3, 7]
outputs:
  dir: OUT
)";

std::string with_dir(std::string text, const std::string& dir) {
  text.replace(text.find("OUT"), 3, dir);
  return text;
}

TEST(Experiment, TheGridIsTheCartesianProductInTheOrderWrittenAndEachRunIsTheSingleRun) {
  const std::string dir = test::temp_dir();
  const auto r = run_kairo({"experiment", test::write_file(dir, "grid.yaml", with_dir(kGrid, dir + "/out")),
                            "-j", "2", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json s = read_json(dir + "/out/summary.json");
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"4", "uniform"}, {"4", "transpose"}, {"2", "uniform"}, {"2", "transpose"}};
  ASSERT_EQ(s["rows"].size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const json& row = s["rows"][i];
    EXPECT_EQ(row["settings"]["router.vcs"], expected[i].first);
    EXPECT_EQ(row["settings"]["pattern"], expected[i].second);
    // Each seed's figure is what kairo traffic gives alone.
    std::vector<double> samples;
    for (std::uint64_t seed : {3, 7}) {
      const json one = single_run({"--rate", "0.2", "--set", "router.vcs=" + expected[i].first, "--pattern",
                                   expected[i].second, "--seed", std::to_string(seed)});
      samples.push_back(one["avg_packet_latency_cycles"].get<double>());
    }
    EXPECT_EQ(row["avg_packet_latency_cycles"]["samples"], json(samples));
    // Mean and 95% interval of two samples: t(0.975, 1) = 12.7062 (a printed t table).
    const double mean = (samples[0] + samples[1]) / 2,
                 sd = std::abs(samples[0] - samples[1]) / std::sqrt(2.0);
    EXPECT_NEAR(row["avg_packet_latency_cycles"]["mean"].get<double>(), mean, 1e-9);
    EXPECT_NEAR(row["avg_packet_latency_cycles"]["ci95"].get<double>(), 12.7062 * sd / std::sqrt(2.0),
                1e-4 * (1 + sd));
  }
  // Each configuration's whole resolved configuration: the first two differ in no platform
  // parameter (only the pattern), the first and third in router.vcs alone, set by the grid.
  const json& cf = s["configurations"];
  ASSERT_EQ(cf.size(), 4u);
  EXPECT_EQ(cf[0]["resolved"], cf[1]["resolved"]);
  std::vector<std::string> differ;
  for (const auto& [k, v] : cf[0]["resolved"].items())
    if (v != cf[2]["resolved"][k]) differ.push_back(k);
  EXPECT_EQ(differ, std::vector<std::string>{"router.vcs"});
  EXPECT_EQ(cf[2]["resolved"]["router.vcs"]["value"], 2);
  EXPECT_EQ(cf[2]["resolved"]["router.vcs"]["source"], "set");
  // The summary's other forms: one CSV line and one Markdown row per configuration, and a figure.
  const std::string csv = test::read_file(dir + "/out/summary.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 5);
  EXPECT_NE(test::read_file(dir + "/out/summary.md").find("| router.vcs=2 pattern=transpose |"),
            std::string::npos);
  EXPECT_NE(test::read_file(dir + "/out/summary.svg").find("class=\"ci\""), std::string::npos);
}

TEST(Experiment, ThreeSeedsIntervalFollowsTheTable) {
  const std::string dir = test::temp_dir();
  std::vector<std::string> args = {"traffic", "mesh-8x8", "--rate",  "0.1",    "--seeds",      "3",
                                   "--seed",  "5",        "--quiet", "--json", dir + "/s.json"};
  args.insert(args.end(), kShort.begin(), kShort.end());
  const auto r = run_kairo(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json row = read_json(dir + "/s.json")["rows"][0];
  std::vector<double> xs;
  for (int seed : {5, 6, 7})
    xs.push_back(
        single_run({"--rate", "0.1", "--seed", std::to_string(seed)})["accepted_flits_per_node_cycle"]);
  const double mean = (xs[0] + xs[1] + xs[2]) / 3;
  double sq = 0;
  for (double x : xs) sq += (x - mean) * (x - mean);
  const double sd = std::sqrt(sq / 2);
  EXPECT_NEAR(row["accepted"]["mean"].get<double>(), mean, 1e-12);
  // t(0.975, 2) = 4.3027 (a printed t table).
  EXPECT_NEAR(row["accepted"]["ci95"].get<double>(), 4.3027 * sd / std::sqrt(3.0), 1e-4 * sd + 1e-12);
  EXPECT_EQ(row["seeds"], 3);
}

TEST(Experiment, TheSaturationSearchBracketsTheRuleToThePrecisionAsked) {
  const std::string dir = test::temp_dir();
  std::vector<std::string> args = {"traffic", "mesh-8x8", "--saturation", "--precision",
                                   "0.02",    "--quiet",  "--json",       dir + "/s.json"};
  args.insert(args.end(), kShort.begin(), kShort.end());
  const auto r = run_kairo(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json s = read_json(dir + "/s.json");
  const json& rule = s["measure"]["rule"];
  // The runs, each checked against the rule by this test: the zero-load run at the low rate, then
  // the highest stable rate (the figure) and the lowest saturated one within the precision.
  double zero = -1, lo = 0, hi = 1;
  for (const auto& run : s["runs"]) {
    const json& x = run["run"];
    if (x["rate"] == rule["low"]) zero = x["latency"];
  }
  ASSERT_GT(zero, 0);
  for (const auto& run : s["runs"]) {
    const json& x = run["run"];
    const bool sat = x["accepted"].get<double>() < 0.95 * x["offered"].get<double>() ||
                     x["latency"] > 3 * zero || x["drain_limited"] == true;
    if (sat) hi = std::min(hi, x["rate"].get<double>());
    if (!sat) lo = std::max(lo, x["rate"].get<double>());
  }
  EXPECT_LE(hi - lo, 0.02 + 1e-9);
  EXPECT_LT(lo, hi);
  EXPECT_DOUBLE_EQ(s["rows"][0]["saturation_rate"]["mean"].get<double>(), lo);
  // The figure is the accepted rate kairo traffic gives alone at that offered load.
  const json at_lo = single_run({"--rate", fmt_rate(lo)});
  EXPECT_DOUBLE_EQ(s["rows"][0]["saturation_throughput"]["mean"].get<double>(),
                   at_lo["accepted_flits_per_node_cycle"].get<double>());
  // BookSim 2 puts mesh-8x8 uniform (4 VCs, 4-flit packets) at 0.41 flits/node/cycle
  // (tests/validation/booksim_reference/summary.csv); kairo within 15% of it on this short run.
  EXPECT_NEAR(lo, 0.409, 0.15 * 0.409);
}

// 2 x 6 x 3 = 36 traffic runs, long enough to be stopped part of the way.
std::string long_experiment(const std::string& dir) {
  return test::write_file(dir, "e.yaml", R"(platform: mesh-8x8
traffic: {warmup_cycles: 300, measure_cycles: 20000}
grid:
  router.vcs: [2, 4]
measure: {kind: sweep, rates: [0.05, 0.1, 0.2, 0.3, 0.35, 0.4]}
seeds: 3
outputs: {dir: )" + dir + "/out}\n");
}

// `kairo experiment FILE -j JOBS` in the background, its output dropped.
pid_t start_experiment(const std::string& file, const char* jobs) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, 1), ::dup2(null, 2);
    ::execl(KAIRO_BIN, KAIRO_BIN, "experiment", file.c_str(), "-j", jobs, static_cast<char*>(nullptr));
    ::_exit(127);
  }
  return pid;
}

TEST(Experiment, AnInterruptedExperimentLosesNoFinishedRunAndRedoesNone) {
  const std::string dir = test::temp_dir();
  const std::string file = long_experiment(dir);
  // Killed part of the way through, one run at a time: once three runs are kept.
  auto kept_now = [&] {
    std::size_t n = 0;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir + "/out/runs", ec))
      if (e.path().extension() == ".json") ++n;
    return n;
  };
  const pid_t pid = start_experiment(file, "1");
  ASSERT_GE(pid, 0);
  while (kept_now() < 3) ::usleep(20000);
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the experiment finished before it was killed: make it longer";
  std::size_t kept = 0;
  for (const auto& e : fs::directory_iterator(dir + "/out/runs"))
    if (e.path().extension() == ".json") ++kept;
  ASSERT_GT(kept, 0u);
  ASSERT_LT(kept, 36u);
  const auto again = run_kairo({"experiment", file, "-j", "2", "--quiet"});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  const json resumed = read_json(dir + "/out/summary.json");
  EXPECT_EQ(resumed["runs_kept"], kept);
  EXPECT_EQ(resumed["runs_made"], 36 - kept);
  // The same table as an experiment run in one go.
  const auto fresh = run_kairo({"experiment", file, "--fresh", "-j", "2", "--quiet"});
  ASSERT_EQ(fresh.exit_code, 0) << fresh.err;
  EXPECT_EQ(read_json(dir + "/out/summary.json")["rows"], resumed["rows"]);
}

// SIGINT to the experiment alone (not to its runs): it stops, ends its
// runs, exits 130, and what it kept is whole (no part file, every run's
// JSON complete).
TEST(Experiment, AnExperimentStoppedBySigintKeepsOnlyWholeRuns) {
  const std::string dir = test::temp_dir();
  const std::string file = long_experiment(dir);
  auto files = [&] {
    std::vector<fs::path> all;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir + "/out/runs", ec)) all.push_back(e.path());
    return all;
  };
  const pid_t pid = start_experiment(file, "2");
  ASSERT_GE(pid, 0);
  while (files().size() < 2) ::usleep(20000);
  ::kill(pid, SIGINT);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status)) << "ended by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 130);
  const auto kept = files();
  EXPECT_LT(kept.size(), 36u) << "the experiment finished before it was stopped: make it longer";
  for (const fs::path& p : kept) {
    EXPECT_EQ(p.extension(), ".json") << p;
    EXPECT_FALSE(json::parse(test::read_file(p.string()), nullptr, false).is_discarded()) << p;
  }
}

TEST(Experiment, TrafficCompareKeepsTheOrderAskedAndMarksTheBestApart) {
  std::vector<std::string> args = {"traffic", "mesh-8x8", "--compare", "router.vcs=4,1,2",
                                   "--rate",  "0.3",      "--quiet"};
  args.insert(args.end(), kShort.begin(), kShort.end());
  const auto r = run_kairo(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto p4 = r.out.find("| router.vcs=4 |"), p1 = r.out.find("| router.vcs=1 |"),
             p2 = r.out.find("| router.vcs=2 |");
  ASSERT_NE(p4, std::string::npos) << r.out;
  EXPECT_LT(p4, p1);
  EXPECT_LT(p1, p2);
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 5);
  // One row is marked best (lowest latency at this rate), in its own column.
  EXPECT_NE(r.out.find("| best |"), std::string::npos);
  EXPECT_EQ(r.out.find("★") != std::string::npos, true);
}

TEST(Experiment, TheSweepPrintsItsSaturationPoint) {
  std::vector<std::string> args = {
      "traffic", "mesh-8x8", "--sweep", "0.1,0.7", "--quiet", "--csv", test::temp_dir() + "/s.csv"};
  args.insert(args.end(), kShort.begin(), kShort.end());
  const auto r = run_kairo(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // 0.7 is far above the 0.41 BookSim 2 gives for mesh-8x8 uniform; 0.1 far below.
  EXPECT_NE(r.err.find("saturation: at rate 0.7"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("last stable rate 0.1"), std::string::npos) << r.err;
}

TEST(Experiment, SweepPointsSideBySideGiveTheSameTable) {
  std::vector<std::string> args = {"traffic", "mesh-8x8", "--sweep", "0.1,0.2,0.3", "--quiet"};
  args.insert(args.end(), kShort.begin(), kShort.end());
  auto one = args, two = args;
  one.insert(one.end(), {"-j", "1"});
  two.insert(two.end(), {"-j", "3"});
  const auto a = run_kairo(one), b = run_kairo(two);
  ASSERT_EQ(a.exit_code, 0);
  EXPECT_EQ(a.out, b.out);
}

TEST(Experiment, TheWarmupEndsWhenLatencyAndThroughputSettle) {
  // Below saturation the periods settle (a whole number of periods, inside the bound); far above
  // it latency grows every period, and the warm-up runs to its bound, saying so.
  const json low = single_run({"--rate", "0.1", "--warmup-converge", "--sample-cycles", "500",
                               "--warmup-cycles", "20000", "--measure-cycles", "1500"},
                              false);
  EXPECT_TRUE(low["warmup"]["converged"].get<bool>());
  EXPECT_EQ(low["warmup"]["cycles"].get<std::uint64_t>() % 500, 0u);
  EXPECT_LT(low["warmup"]["cycles"].get<std::uint64_t>(), 20000u);
  const json high = single_run(
      {"--rate", "0.8", "--warmup-converge", "--warmup-cycles", "4000", "--measure-cycles", "1500"}, false);
  EXPECT_FALSE(high["warmup"]["converged"].get<bool>());
  EXPECT_EQ(high["warmup"]["cycles"], 4000);
}

// A bad file: exit 2, "FILE:LINE:COL" of the offending key or value, and the key.
void expect_bad(const std::string& text, int line, const std::string& words) {
  const std::string file = test::write_file(test::temp_dir(), "bad.yaml", text);
  const auto r = run_kairo({"experiment", file, "--quiet"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find(file + ":" + std::to_string(line) + ":"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(words), std::string::npos) << r.err;
}

TEST(Experiment, BadFilesNameTheirPlaceAndKey) {
  const std::string tail = "measure: {kind: rate}\noutputs: {dir: /tmp}\n";
  expect_bad("platform: mesh-8x8\ncolour: blue\n" + tail, 2, "unknown key 'colour'");
  expect_bad("platform: mesh-8x8\ngrid: {}\n" + tail, 2, "grid");
  expect_bad("platform: mesh-8x8\ngrid:\n  router.vcs: []\n" + tail, 3, "router.vcs");
  expect_bad("platform: mesh-8x8\ngrid:\n  router.vcs: [2,\n    99]\n" + tail, 4, "router.vcs");
  expect_bad("platform: mesh-8x8\ngrid:\n  router.wibble: [1]\n" + tail, 3, "router.wibble");
  expect_bad("platform: mesh-8x8\ngrid:\n  flits: [1]\n" + tail, 3, "unknown key 'flits'");
  expect_bad("platform: mesh-8x8\nmeasure: {kind: fastest}\noutputs: {dir: /tmp}\n", 2, "measure.kind");
  expect_bad("platform: mesh-8x8\nmeasure:\n  kind: saturation\n  precision: 2\noutputs: {dir: /tmp}\n", 4,
             "measure.precision");
  expect_bad("platform: mesh-8x8\nseeds: 0\n" + tail, 2, "seeds");
  const auto r = run_kairo({"experiment", "/nonexistent/e.yaml"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("/nonexistent/e.yaml"), std::string::npos);
  const auto c = run_kairo({"traffic", "mesh-8x8", "--compare", "router.vcs=2,0", "--quiet"});
  EXPECT_EQ(c.exit_code, 2);
  EXPECT_NE(c.err.find("--compare router.vcs"), std::string::npos) << c.err;
}

}  // namespace
}  // namespace kairo

namespace kairo {
namespace {

TEST(Experiment, ASweepsFigureCarriesEachPointsIntervalAndKairoPlotRedrawsIt) {
  const std::string dir = test::temp_dir();
  const std::string file = test::write_file(dir, "s.yaml", R"(platform: mesh-8x8
traffic: {warmup_cycles: 300, measure_cycles: 1500}
grid:
  router.allocator: [islip, oldest_first]
measure: {kind: sweep, rates: [0.1, 0.3]}
seeds: 3
outputs: {dir: )" + dir + "/out}\n");
  const auto r = run_kairo({"experiment", file, "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json s = read_json(dir + "/out/summary.json");
  const std::string svg = test::read_file(dir + "/out/summary.svg");
  // One whisker per point, each the half-width the table gives for that configuration and rate.
  std::size_t whiskers = 0;
  for (const auto& row : s["rows"]) {
    const json& lat = row["avg_packet_latency_cycles"];
    if (lat["ci95"].get<double>() <= 0) continue;
    ++whiskers;
    EXPECT_NE(svg.find("data-ci95=\"" + lat["ci95"].dump() + "\""), std::string::npos) << row.dump();
  }
  EXPECT_GT(whiskers, 0u);
  std::size_t drawn = 0;
  for (std::size_t at = svg.find("class=\"ci\""); at != std::string::npos;
       at = svg.find("class=\"ci\"", at + 1))
    ++drawn;
  EXPECT_EQ(drawn, whiskers);
  const auto p = run_kairo({"plot", dir + "/out/summary.json", "--out", dir + "/again.svg"});
  ASSERT_EQ(p.exit_code, 0) << p.err;
  EXPECT_EQ(test::read_file(dir + "/again.svg"), svg);
}

}  // namespace
}  // namespace kairo

namespace kairo {
namespace {

// A kept run is reused only for the very run: a changed traffic option
// (the injection process, a size mix) or override makes every run new.
TEST(Experiment, AKeptRunIsReusedOnlyForTheSameSettings) {
  const std::string dir = test::temp_dir();
  auto file = [&](const std::string& traffic) {
    return test::write_file(dir, "e.yaml",
                            "platform: mesh-8x8\ntraffic: {warmup_cycles: 300, measure_cycles: 1000" +
                                traffic +
                                "}\nmeasure: {kind: rate, rate: 0.1}\nseeds: 2\n"
                                "outputs: {dir: " +
                                dir + "/out}\n");
  };
  auto kept = [&](const std::string& traffic) {
    const auto r = run_kairo({"experiment", file(traffic), "--quiet"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return read_json(dir + "/out/summary.json")["runs_kept"].get<int>();
  };
  EXPECT_EQ(kept(""), 0);
  EXPECT_EQ(kept(""), 2);
  EXPECT_EQ(kept(", injection: onoff, burst_alpha: 0.2, burst_beta: 0.2"), 0);
  EXPECT_EQ(kept(", injection: onoff, burst_alpha: 0.2, burst_beta: 0.3"), 0);
  EXPECT_EQ(kept(", packet_sizes: \"1:0.5,8:0.5\""), 0);
  EXPECT_EQ(kept(", warmup_converge: true"), 0);
  EXPECT_EQ(kept(""), 2);
}

}  // namespace
}  // namespace kairo
