// The hybrid EPS+OCS network running Takizawa et al. 2008's locality-aware
// communication through `kairo run --workload pattern`: the top EPS switch's
// load as pathways are added (must-show 4, with the expected bytes counted
// from the process grid), messages relayed over pathways arriving
// byte-exact, and bad input refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/test_support.h"

namespace kairo {
namespace {

nlohmann::json run_ok(std::vector<std::string> args) {
  const std::string json = test::temp_dir() + "/run.json";
  args.insert(args.end(), {"--workload", "pattern", "--json", json, "--quiet"});
  auto r = test::run_kairo(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.exit_code == 0 ? nlohmann::json::parse(test::read_file(json)) : nlohmann::json::object();
}

nlohmann::json neighbor(const std::string& scheme, int pathways, const std::string& mode = "size-only") {
  return run_ok({"run", "hybrid-eps-ocs-128", "--param", "size=64KiB", "--param", "iterations=1", "--param",
                 "scheme=" + scheme, "--set", "ocs.pathways=" + std::to_string(pathways), "--mode", mode});
}

// Bytes the top switch receives for one message that crosses it: the
// payload in packets of at most the 4096 B MTU, a 32 B header on each, and
// the header-only acknowledgement that comes back across it.
constexpr std::uint64_t kMessage = 65536;
constexpr std::uint64_t kOnWire = kMessage + (kMessage + 4095) / 4096 * 32 + 32;

// Takizawa et al. 2008's Neighbor on 8 x 16 processes, 32 per edge switch in rank
// order: switch s holds grid rows 2s and 2s + 1, so only rows 1|2, 3|4 and
// 5|6 talk across switches, 16 process pairs each, 48 in all, both ways.
// Switch Partitioning gives the first pathway to switches 0-1, the second to
// 1-2, the third to 2-3; each takes its 16 pairs off the top switch, and with
// three the four switches are a chain and nothing crosses the top (Takizawa et al. 2008,
// Figure 6: "no load when number of pathways is bigger than three").
TEST(Hybrid, TopSwitchLoadFallsWithPathwaysAndVanishesOnceEdgeSwitchesAreConnected) {
  std::uint64_t prev_node = 0;
  for (int pathways : {0, 1, 2, 3, 6}) {
    auto j = neighbor("sp", pathways);
    const std::uint64_t pairs = 16 * std::uint64_t(std::max(0, 3 - pathways));
    EXPECT_EQ(j["details"]["top_switch_bytes"].get<std::uint64_t>(), 2 * pairs * kOnWire)
        << pathways << " pathways";
    EXPECT_EQ(j["details"]["model_top_switch_bytes"].get<double>(), double(2 * pairs * kMessage));
    EXPECT_EQ(j["details"]["pathways_used"].get<int>(), pathways);
    const auto node = j["details"]["max_node_eps_bytes"].get<std::uint64_t>();
    if (pathways == 1)
      EXPECT_GT(node, prev_node) << "the relay nodes' EPS links carry the forwarded messages";
    prev_node = node;
  }
  // Communication Partitioning regroups the processes into four 8 x 4
  // blocks: 8 pairs between neighbouring blocks, 24 in all (Takizawa et al. 2008 §4.2).
  auto cp0 = neighbor("cp", 0), cp3 = neighbor("cp", 3);
  EXPECT_EQ(cp0["details"]["top_switch_bytes"].get<std::uint64_t>(), 2 * 24 * kOnWire);
  EXPECT_EQ(cp3["details"]["top_switch_bytes"].get<std::uint64_t>(), 0u);
  // CP with 24 pathways: every inter-switch pair has its own circuit, so no
  // message needs a relay.
  auto cp24 = neighbor("cp", 24);
  EXPECT_EQ(cp24["details"]["relayed_messages_per_iteration"].get<int>(), 0);
  EXPECT_EQ(cp24["details"]["optical_hops_per_iteration"].get<int>(), 48);
}

TEST(Hybrid, RelayedMessagesArriveByteExactAndTimingMatchesSizeOnly) {
  for (const char* scheme : {"sp", "cp"}) {
    auto d = neighbor(scheme, 2, "data"), s = neighbor(scheme, 2);
    EXPECT_EQ(d["verified"], true) << scheme;
    EXPECT_GT(d["details"]["relayed_messages_per_iteration"].get<int>(), 0) << scheme;
    EXPECT_EQ(d["completion_ns"], s["completion_ns"]) << scheme << ": data changes no timing";
  }
}

// A user's matrix: every rank sends 20000 B to rank + 40 (another edge
// switch, above the threshold) and 100 B to rank + 1 (below it: EPS).
TEST(Hybrid, CsvPatternTakesTheOcsOnlyAboveTheThresholdAndAcrossSwitches) {
  std::string csv = "# 128 x 128 bytes per iteration\n";
  for (int s = 0; s < 128; ++s) {
    for (int d = 0; d < 128; ++d)
      csv += (d ? "," : "") + std::string(d == (s + 40) % 128 ? "20000" : d == (s + 1) % 128 ? "100" : "0");
    csv += "\n";
  }
  const std::string file = test::write_file(test::temp_dir(), "pattern.csv", csv);
  auto j = run_ok({"run", "hybrid-eps-ocs-128", "--param", "pattern=" + file, "--param", "iterations=2",
                   "--set", "ocs.pathways=8", "--mode", "data"});
  EXPECT_EQ(j["verified"], true);
  EXPECT_EQ(j["details"]["messages_per_iteration"].get<int>(), 256);
  const int optical = j["details"]["optical_hops_per_iteration"].get<int>();
  EXPECT_GT(optical, 0);
  EXPECT_LE(optical, 128 * 3) << "only the 20000 B messages, each over at most 3 circuits";
}

// Circuits the firmware requests at the start (circuits=request) come up
// after the 10 ms reconfiguration delay; the optical TNIs wait for them, and the
// counter log's engine rows carry that wait interval by interval.
TEST(Hybrid, CounterLogRecordsTheTimeOpticalSendsWaitForTheirCircuits) {
  const std::string dir = test::temp_dir();
  auto j = run_ok({"run", "hybrid-eps-ocs-128", "--param", "size=1MB", "--param", "iterations=1", "--param",
                   "circuits=request", "--set", "ocs.pathways=3", "--mode", "size-only", "--counters",
                   dir + "/log.csv", "--interval", "1ms"});
  EXPECT_EQ(j["details"]["circuit_reconfigurations"].get<int>(), 6) << "3 pathways, 2 circuits each";
  EXPECT_DOUBLE_EQ(j["details"]["circuit_reconfiguration_ns"].get<double>(), 6 * 10e6);
  const double waited_ns = j["nic_counters"]["circuit_wait_ns"].get<double>();
  EXPECT_GT(waited_ns, 0);
  std::istringstream log(test::read_file(dir + "/log.csv"));
  std::string line, header;
  std::getline(log, line);
  std::getline(log, header);
  std::vector<std::string> names;
  for (std::stringstream h(header); std::getline(h, line, ',');) names.push_back(line);
  const auto col = [&](const std::string& n) {
    return std::size_t(std::find(names.begin(), names.end(), n) - names.begin());
  };
  const std::size_t wait = col("circuit_wait_ps"), start = col("interval_start_ps"),
                    end = col("interval_end_ps");
  ASSERT_LT(wait, names.size());
  const std::size_t unit = col("unit"), port = col("port"), sent = col("bytes_sent"), stall = col("stall_ps");
  double sum_ps = 0, ocs_bytes = 0;
  while (std::getline(log, line)) {
    std::vector<std::string> c;
    for (std::stringstream r(line); std::getline(r, header, ',');) c.push_back(header);
    c.resize(names.size());
    if (c[unit] == "ocs") {  // an optical port's row: stall_ps is the time its circuit was not up
      ocs_bytes += std::stod(c[sent]);
      const double from = std::stod(c[start]), to = std::stod(c[end]), dark = std::stod(c[stall]);
      if (c[port] == "p16" && to <= 10e9)
        EXPECT_EQ(dark, to - from) << "node 16's pathway is not up yet: " << line;
      if (c[port] == "p16" && from >= 11e9) EXPECT_EQ(dark, 0) << line;
      continue;
    }
    if (c[0] != "tni" || c[wait].empty()) continue;
    const double w = std::stod(c[wait]);
    sum_ps += w;
    EXPECT_LE(w, std::stod(c[end]) - std::stod(c[start])) << line;
    // Requested at the programs' start (1 us), up 10 ms later.
    if (std::stod(c[start]) >= 11e9) EXPECT_EQ(w, 0) << "the circuits are up from 10.001 ms: " << line;
  }
  EXPECT_DOUBLE_EQ(sum_ps / 1000, waited_ns) << "the intervals add up to the run's total";
  // Into the circuits: 96 messages of 1 MB (3 pathways, 16 process pairs
  // each, both ways) in 245 packets of at most 4096 B with a 32 B header
  // each, and their 32 B acknowledgements on the way back.
  const int hops = j["details"]["optical_hops_per_iteration"].get<int>();
  EXPECT_EQ(hops, 96);
  EXPECT_EQ(ocs_bytes, double(hops) * (1e6 + 245 * 32 + 32));
}

TEST(Hybrid, BadPatternInputIsRefused) {
  const std::string dir = test::temp_dir();
  const std::string ragged = test::write_file(dir, "ragged.csv", "0,1\n2\n");
  auto r =
      test::run_kairo({"run", "hybrid-eps-ocs-128", "--workload", "pattern", "--param", "pattern=" + ragged});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("ragged.csv:2"), std::string::npos) << r.err;
  r = test::run_kairo({"run", "eps-tree-128", "--workload", "pattern", "--param", "scheme=sp"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no optical network"), std::string::npos) << r.err;
  r = test::run_kairo({"run", "hybrid-eps-ocs-128", "--workload", "pattern", "--param", "pathways=65"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("pathways"), std::string::npos) << r.err;
  // The default Neighbor (40 MB x 4 x 128 processes) in data mode would hold
  // some 35 GiB: refused before anything is built, pointing at size-only.
  r = test::run_kairo({"run", "hybrid-eps-ocs-128", "--workload", "pattern"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--mode size-only"), std::string::npos) << r.err;
  r = test::run_kairo({"run", "mesh-8x8", "--workload", "pattern"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("fat tree"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace kairo
