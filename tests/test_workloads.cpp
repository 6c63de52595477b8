// The shipped workloads of `kairo run` as a user runs them: put-bw reaches
// the bound its parameters predict, random-ring moves every byte with the
// same timing in both modes, long messages go as several descriptors, and
// bad parameters are named.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>

#include "platforms/platform.h"
#include "tests/test_support.h"

namespace kairo {
namespace {

using test::run_kairo;

nlohmann::json run_json(std::vector<std::string> args) {
  static int n = 0;
  const std::string path = test::temp_dir() + "/run" + std::to_string(n++) + ".json";
  args.insert(args.end(), {"--json", path, "--quiet"});
  auto r = run_kairo(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  if (r.exit_code != 0) return nlohmann::json::object();
  return nlohmann::json::parse(test::read_file(path));
}

// Payload rate of a link: each MTU-sized packet carries the header too, in whole flits.
double link_payload(const platforms::Platform& p) {
  const double flits = std::ceil(double(p.nic.mtu_bytes + p.nic.header_bytes) / p.router.flit_bytes);
  return p.router.link_bytes_per_s * p.nic.mtu_bytes / (flits * p.router.flit_bytes);
}

// Lower bound on one engine's time for `size` bytes: node latency, then the
// slower of DMA and link streams the payload.
double best_seconds(const platforms::Platform& p, double size, double rate) {
  return double(p.nic.node_latency_ps) * 1e-12 + size / rate;
}

void expect_put_bw(const std::string& platform, const std::vector<std::string>& sets, int tnis,
                   const std::string& expected_bound) {
  auto p = platforms::load_platform(platform, sets);
  const double size = 1 << 20;
  std::vector<std::string> args = {"run",     platform,    "--workload", "put-bw",
                                   "--param", "size=1MiB", "--param",    "tnis=" + std::to_string(tnis)};
  for (const auto& s : sets) args.insert(args.end(), {"--set", s});
  auto j = run_json(args);
  ASSERT_FALSE(j.empty());
  const double per_tni = std::min(p.nic.dma_bytes_per_s, link_payload(p));
  EXPECT_EQ(j["details"]["bound"], expected_bound);
  EXPECT_EQ(j["details"]["bound"], per_tni == p.nic.dma_bytes_per_s ? "dma" : "link");
  EXPECT_NEAR(j["details"]["bound_gbps"].get<double>(), tnis * per_tni / 1e9, 1e-9);
  const double best = tnis * size / best_seconds(p, size, per_tni) / 1e9;
  const double bw = j["bandwidth_gbps"].get<double>();
  EXPECT_LE(bw, best * (1 + 1e-9)) << platform;
  EXPECT_GE(bw, best * 0.99) << platform << ": the engines stream back to back";
  EXPECT_EQ(j["verified"], true);
  EXPECT_EQ(j["params"]["destinations"].size(), std::size_t(tnis));
  EXPECT_EQ(std::set<int>(j["params"]["destinations"].begin(), j["params"]["destinations"].end()).size(),
            std::size_t(tnis))
      << "each TNI has its own neighbour";
}

TEST(Workloads, PutBwOnAllTnisReachesTheSumOfTheirDmaBoundRates) {
  expect_put_bw("tofu-small", {}, 4, "dma");
  expect_put_bw("tofud-rack", {}, 6, "dma");
}

TEST(Workloads, PutBwScalesWithTheNumberOfTnis) {
  for (int tnis : {1, 2, 3}) expect_put_bw("tofu-small", {}, tnis, "dma");
}

TEST(Workloads, PutBwWithAFastDmaIsBoundByTheLinks) {
  expect_put_bw("tofu-small", {"nic.dma_bandwidth=20GB/s"}, 4, "link");
}

TEST(Workloads, MessagesOverTheDescriptorLimitGoAsSeveralPuts) {
  auto j = run_json({"run", "tofu-small", "--workload", "put-bw", "--param", "size=250000B", "--param",
                     "tnis=2", "--set", "nic.max_descriptor_size=100000B"});
  ASSERT_FALSE(j.empty());
  EXPECT_EQ(j["nic_counters"]["commands"], 2 * 3) << "ceil(250000 / 100000) puts per TNI";
  EXPECT_EQ(j["nic_counters"]["dma_bytes_written"], 2 * 250000);
  EXPECT_EQ(j["verified"], true);
}

TEST(Workloads, RandomRingOn96NodesHasIdenticalTimingInBothModesAndVerifies) {
  auto p = platforms::load_platform("tofu-small");
  auto d = run_json({"run", "tofu-small", "--workload", "random-ring", "--param", "size=256KiB"});
  auto s = run_json(
      {"run", "tofu-small", "--workload", "random-ring", "--param", "size=256KiB", "--mode", "size-only"});
  ASSERT_FALSE(d.empty());
  ASSERT_FALSE(s.empty());
  EXPECT_EQ(d["verified"], true);
  EXPECT_TRUE(s["verified"].is_null());
  for (const char* k : {"completion_ns", "latency_ns", "bandwidth_gbps", "events"})
    EXPECT_EQ(d[k], s[k]) << k;
  EXPECT_EQ(d["details"]["fastest_rank_ns"], s["details"]["fastest_rank_ns"]);
  // Each rank streams its two puts on two engines: no rank can beat one
  // engine's best time, and HPCC's bandwidth is 2 x size over the slowest rank's time.
  const double size = 256 * 1024;
  const double best_s = best_seconds(p, size, std::min(p.nic.dma_bytes_per_s, link_payload(p)));
  EXPECT_GE(d["details"]["fastest_rank_ns"].get<double>(), best_s * 1e9);
  EXPECT_NEAR(d["bandwidth_gbps"].get<double>(), 2 * size / d["latency_ns"].get<double>(), 1e-9);
  EXPECT_EQ(d["nic_counters"]["dma_bytes_written"], 96 * 2 * 256 * 1024) << "every rank received twice";
  EXPECT_EQ(d["nic_counters"]["error_completions"], 0);
}

TEST(Workloads, RandomRingOrderIsASeededPermutation) {
  auto a = run_json({"run", "tofu-small", "--workload", "random-ring", "--param", "size=4KiB", "--param",
                     "seed=7", "--mode", "size-only"});
  auto b = run_json({"run", "tofu-small", "--workload", "random-ring", "--param", "size=4KiB", "--param",
                     "seed=7", "--mode", "size-only"});
  auto c = run_json({"run", "tofu-small", "--workload", "random-ring", "--param", "size=4KiB", "--param",
                     "seed=8", "--mode", "size-only"});
  ASSERT_FALSE(a.empty());
  std::vector<int> ring = a["details"]["ring"];
  std::vector<int> sorted = ring;
  std::sort(sorted.begin(), sorted.end());
  for (int i = 0; i < 96; ++i) ASSERT_EQ(sorted[std::size_t(i)], i);
  EXPECT_EQ(a["details"]["ring"], b["details"]["ring"]);
  EXPECT_EQ(a["completion_ns"], b["completion_ns"]);
  EXPECT_NE(a["details"]["ring"], c["details"]["ring"]);
}

TEST(Workloads, BadParametersAreNamed) {
  auto expect_bad = [](std::vector<std::string> args, const std::string& mention) {
    auto r = run_kairo(args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(mention), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty());
  };
  expect_bad({"run", "tofu-small", "--workload", "put-bw", "--param", "tnis=5"}, "tnis");
  expect_bad({"run", "tofu-small", "--workload", "put-bw", "--param", "size=0B"}, "size");
  expect_bad({"run", "tofu-small", "--workload", "random-ring", "--param", "seed=x"}, "seed");
  expect_bad({"run", "tofu-small", "--workload", "random-ring", "--param", "size=2XB"}, "size");
  expect_bad({"run", "tofu-small", "--workload", "nosuch"}, "random-ring");
}

// --param sizes= runs the workload once per size and tabulates the figures:
// each row is exactly what a run with that one size reports.
TEST(Workloads, SizesSweepTabulatesOneRunPerSize) {
  auto r = run_kairo({"run", "tofu-small", "--workload", "alltoall", "--param", "sizes=1KiB,4KiB", "--mode",
                      "size-only", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("size,completion_ns,latency_ns,bandwidth_gbps,verified\n", 0), 0u) << r.out;
  auto one = run_json(
      {"run", "tofu-small", "--workload", "alltoall", "--param", "size=4KiB", "--mode", "size-only"});
  ASSERT_FALSE(one.empty());
  const std::string row = "4KiB," + one["completion_ns"].dump() + "," + one["latency_ns"].dump() + ",";
  EXPECT_NE(r.out.find(row), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n1KiB,"), std::string::npos);
  auto bad = run_kairo({"run", "tofu-small", "--workload", "alltoall", "--param", "sizes=1KiB,4XB"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("sizes"), std::string::npos);
}

// --compare key=a,b,c runs once per value and ranks them by latency; the
// table's order and figures match the separate runs.
TEST(Workloads, CompareRanksAlgorithmsByLatency) {
  auto r = run_kairo(
      {"run", "tofu-small", "--workload", "barrier", "--compare", "algo=ring,recursive-doubling", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto ring = run_json({"run", "tofu-small", "--workload", "barrier", "--param", "algo=ring"});
  auto rd = run_json({"run", "tofu-small", "--workload", "barrier", "--param", "algo=recursive-doubling"});
  ASSERT_FALSE(ring.empty() || rd.empty());
  const bool rd_first = rd["latency_ns"].get<double>() < ring["latency_ns"].get<double>();
  EXPECT_TRUE(rd_first) << "96 ranks: recursive doubling is the faster barrier";
  EXPECT_NE(r.out.find("1,recursive-doubling," + rd["completion_ns"].dump() + "," + rd["latency_ns"].dump()),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("2,ring," + ring["completion_ns"].dump()), std::string::npos) << r.out;
  auto bad = run_kairo({"run", "tofu-small", "--workload", "barrier", "--compare", "algo=ring,nosuch"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("nosuch"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace kairo
