// The shipped workloads of `kairo run` as a user runs them: put-bw reaches
// the bound its parameters predict, random-ring moves every byte with the
// same timing in both modes, long messages go as several descriptors, and
// bad parameters are named.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "platforms/platform.h"
#include "sw/collectives/allreduce.h"
#include "sw/collectives/pieces.h"
#include "sw/workloads/workload.h"
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

// --compare key=a,b,c runs once per value and prints one row per value in
// the order given (not re-sorted), the lowest latency marked in the
// "fastest" column; the figures match the separate runs.
TEST(Workloads, CompareKeepsTheOrderAskedAndMarksTheFastest) {
  auto ring = run_json({"run", "tofu-small", "--workload", "barrier", "--param", "algo=ring"});
  auto rd = run_json({"run", "tofu-small", "--workload", "barrier", "--param", "algo=recursive-doubling"});
  ASSERT_FALSE(ring.empty() || rd.empty());
  const bool rd_faster = rd["latency_ns"].get<double>() < ring["latency_ns"].get<double>();
  EXPECT_TRUE(rd_faster) << "96 ranks: recursive doubling is the faster barrier";
  auto line = [](const std::string& algo, const nlohmann::json& j, bool fastest) {
    return algo + "," + j["completion_ns"].dump() + "," + j["latency_ns"].dump() + "," +
           j["bandwidth_gbps"].dump() + "," + j["verified"].dump() + "," + (fastest ? "yes" : "") + "\n";
  };
  for (const bool ring_first : {true, false}) {
    const std::string list = ring_first ? "algo=ring,recursive-doubling" : "algo=recursive-doubling,ring";
    auto r = run_kairo({"run", "tofu-small", "--workload", "barrier", "--compare", list, "--quiet"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string header = "algo,completion_ns,latency_ns,bandwidth_gbps,verified,fastest\n";
    const std::string a = line("ring", ring, !rd_faster), b = line("recursive-doubling", rd, rd_faster);
    EXPECT_EQ(r.out, header + (ring_first ? a + b : b + a)) << "rows not in the order of --compare " << list;
  }
  auto bad = run_kairo({"run", "tofu-small", "--workload", "barrier", "--compare", "algo=ring,nosuch"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("nosuch"), std::string::npos) << bad.err;
}

// ---- The host-memory rule (sw::check_footprint) ----------------------------

// A kairo run in a child that may take `seconds` of wall time (the alarm
// survives exec) and 4 GiB of address space: a run that starts allocating
// what it was asked for is stopped (a signal, or bad_alloc's abort) instead
// of filling the host, and the test sees that it did not exit cleanly.
struct LimitedRun {
  test::CommandResult r;
  double seconds = 0;
};

// kairo under 4 GiB of address space and an alarm: a run that would allocate
// more, or take longer, fails instead of filling the host.
LimitedRun run_limited(const std::vector<std::string>& args, unsigned seconds = 60) {
  LimitedRun l;
  l.r = test::run_kairo(args, {seconds, std::uint64_t(4) << 30});
  l.seconds = l.r.seconds;
  return l;
}

// The trace workload's input: the 8-rank trace in examples/traces.
std::string shipped_trace() { return std::string(KAIRO_SOURCE_DIR) + "/examples/traces/small-8/traces.otf2"; }

// `kairo run` refuses the run as bad input, at once (nothing was allocated
// or simulated), with a message that names the workload and each of `mentions`.
void expect_refused(const std::string& workload, std::vector<std::string> args,
                    const std::vector<std::string>& mentions) {
  args.insert(args.begin() + 2, {"--workload", workload});
  args.push_back("--quiet");
  const LimitedRun l = run_limited(args);
  std::string cmd;
  for (const auto& a : args) cmd += " " + a;
  EXPECT_EQ(l.r.exit_code, 2) << "kairo" << cmd << "\n" << l.r.err;
  EXPECT_EQ(l.r.err.rfind("kairo: error: " + workload + ": ", 0), 0u) << cmd << "\n" << l.r.err;
  for (const auto& mention : mentions)
    EXPECT_NE(l.r.err.find(mention), std::string::npos) << cmd << "\n" << l.r.err;
  EXPECT_TRUE(l.r.out.empty()) << cmd;
  EXPECT_LT(l.seconds, 20.0) << cmd << ": refused before anything is allocated";
}

// Every shipped workload, with a size its own parameter range accepts whose
// buffers in data mode would keep more than 8 GiB in the host's memory over
// all ranks, yet fit each rank's node memory (32 GiB): refused, pointing at
// --mode size-only. Where the NIC's descriptor limit (16 MiB) caps the size,
// a larger limit (--set nic.max_descriptor_size) or tofu-k's 82,944 ranks
// make it too large.
TEST(Workloads, EveryWorkloadRefusesMoreThan8GiBOfBuffersInDataMode) {
  const std::vector<std::string> big_descriptors = {"--set", "nic.max_descriptor_size=8GiB"};
  auto with = [](std::vector<std::string> a, const std::vector<std::string>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  };
  const std::map<std::string, std::vector<std::string>> cases = {
      // put: A's buffer, B's and A's landing zone: 3 x 4 GiB
      {"pingpong", with({"run", "tofu-small", "--param", "size=4GiB"}, big_descriptors)},
      // the source and its 4 destinations: 5 x 16 GiB
      {"put-bw", {"run", "tofu-small", "--param", "size=16GiB"}},
      // 96 ranks x 3 x 1 GiB
      {"random-ring", {"run", "tofu-small", "--param", "size=1GiB"}},
      // 82,944 ranks x 16 MB
      {"bcast", {"run", "tofu-k", "--param", "size=16MB"}},
      // the root's 96 blocks and every rank's own: 2 x 96 x 64 MiB
      {"scatter", with({"run", "tofu-small", "--param", "size=64MiB"}, big_descriptors)},
      {"gather", with({"run", "tofu-small", "--param", "size=64MiB"}, big_descriptors)},
      // 96 x 96 x 1 MiB
      {"allgather", {"run", "tofu-small", "--param", "size=1MiB"}},
      // 128 x 4 x 40 MB (the default Neighbor)
      {"pattern", {"run", "hybrid-eps-ocs-128"}},
      // 96 ranks x 2 x 6 x 16 MB
      {"neighbor", {"run", "tofu-small", "--param", "size=16MB"}},
      // recursive doubling: 96 vectors, 64 x 6 + 32 received: 512 x 64 MiB
      {"allreduce", with({"run", "tofu-small", "--param", "size=64MiB"}, big_descriptors)},
      // ring: 96 vectors and 95 received parts of p: 191 x 64 MiB
      {"reduce-scatter", with({"run", "tofu-small", "--param", "size=64MiB"}, big_descriptors)},
      // binomial: 96 vectors, 95 sent up the tree
      {"reduce", with({"run", "tofu-small", "--param", "size=64MiB"}, big_descriptors)},
      // 2 x 96 x 96 x 1 MiB
      {"alltoall", {"run", "tofu-small", "--param", "size=1MiB"}},
      // the shipped 8-rank trace with 2 GiB bounce buffers: 8 x 2 GiB
      {"trace", {"run", "tofu-small", "--param", "trace=" + shipped_trace(), "--param", "eager_limit=2GiB"}},
  };
  for (const auto& w : sw::workloads()) {
    if (std::string(w.name) == "barrier") continue;  // no size: its 8 B signals (next test)
    const auto c = cases.find(w.name);
    ASSERT_NE(c, cases.end()) << w.name << ": every workload has a case here";
    expect_refused(w.name, c->second,
                   {"GiB of buffers in the node memories (limit 8 GiB)", "--mode size-only"});
  }
}

// In either mode, a rank whose buffers do not fit its node memory
// (nic.memory_size) is refused before any rank allocates, naming the bytes
// per rank and the node memory, for every workload.
TEST(Workloads, EveryWorkloadRefusesBuffersLargerThanTheNodeMemory) {
  const std::map<std::string, std::vector<std::string>> cases = {
      {"pingpong",
       {"run", "tofu-small", "--param", "size=8MiB", "--set", "nic.memory_size=8MiB"}},  // 2 x 8 MiB
      {"put-bw", {"run", "tofu-small", "--param", "size=64GiB"}},
      {"random-ring", {"run", "tofu-small", "--param", "size=16GiB"}},
      {"barrier", {"run", "tofu-small", "--set", "nic.memory_size=4KiB"}},  // 4 KiB + 8 B of signals
      {"bcast", {"run", "tofu-small", "--param", "size=1MiB", "--set", "nic.memory_size=1MiB"}},
      // 82,944 blocks of 16 MB to send and to receive: 2.4 TiB per rank
      {"scatter", {"run", "tofu-k", "--param", "size=16MB"}},
      {"gather", {"run", "tofu-k", "--param", "size=16MB"}},
      {"allgather", {"run", "tofu-k", "--param", "size=16MB"}},
      {"pattern", {"run", "hybrid-eps-ocs-128", "--set", "nic.memory_size=100MB"}},
      {"neighbor",
       {"run", "tofu-small", "--param", "size=1MiB", "--set", "nic.memory_size=8MiB"}},  // 6 + 6 MiB
      // ring: 82,943 slots of 16 MB per rank
      {"allreduce", {"run", "tofu-k", "--param", "algo=ring", "--param", "size=16MB"}},
      {"reduce-scatter", {"run", "tofu-k", "--param", "size=16MB"}},
      {"reduce",
       {"run", "tofu-small", "--param", "size=1MiB", "--set", "nic.memory_size=4MiB"}},  // 1 + 7 MiB
      {"alltoall", {"run", "tofu-k", "--param", "size=16MB"}},
      // a 2 MiB bounce buffer in 1 MiB of node memory
      {"trace",
       {"run", "tofu-small", "--param", "trace=" + shipped_trace(), "--param", "eager_limit=2MiB", "--set",
        "nic.memory_size=1MiB"}},
  };
  for (const auto& w : sw::workloads()) {
    const auto c = cases.find(w.name);
    ASSERT_NE(c, cases.end()) << w.name << ": every workload has a case here";
    for (const char* mode : {"data", "size-only"}) {
      std::vector<std::string> args = c->second;
      args.insert(args.end(), {"--mode", mode});
      expect_refused(w.name, args, {"a rank would allocate ", "of node memory, more than nic.memory_size="});
    }
  }
}

// The machine of a `kairo run` on `platform` (as app/run_assembly.cpp builds it)
// and a workload made there from `params`.
struct Made {
  platforms::Platform plat;
  std::optional<hw::Topology> topo;
  sw::MachineInfo mi;
  std::unique_ptr<sw::Workload> work;
};

std::unique_ptr<Made> make_workload(const std::string& platform, const std::string& workload,
                                    const std::vector<std::string>& params, int ranks = 0) {
  auto m = std::make_unique<Made>();
  m->plat = platforms::load_platform(platform);
  if (m->plat.kind == platforms::FabricKind::kTorus) m->topo.emplace(m->plat.dims);
  m->mi.platform = &m->plat;
  m->mi.topology = m->topo ? &*m->topo : nullptr;
  m->mi.nodes = ranks ? ranks : int(m->plat.ranks());
  m->mi.tnis = m->plat.router.network_interfaces;
  sw::Params prm(params);
  for (const auto& w : sw::workloads())
    if (workload == w.name) m->work = w.make(prm, m->mi);
  prm.check_all_used(workload);
  return m;
}

std::uint64_t round_up(std::uint64_t b, std::uint64_t to) { return (b + to - 1) / to * to; }

// The footprint from the workloads' documented buffers, worked out here
// from the parameters, as each program allocates and data mode fills them.
TEST(Workloads, FootprintIsWhatTheBuffersTakeByTheParameters) {
  const std::uint64_t p = 96, tnis = 2;
  {  // put-bw: one buffer of size per rank; the source and its 2 destinations hold data
    const std::uint64_t size = 3 << 20;
    auto m = make_workload("tofu-small", "put-bw", {"size=3MiB", "tnis=2"});
    const sw::Footprint f = m->work->footprint();
    EXPECT_EQ(f.rank_bytes, size);
    EXPECT_EQ(f.data_bytes, double((1 + tnis) * size));
  }
  {  // random-ring: size to send at 0, two slots of size rounded up to 4 KiB after it
    const std::uint64_t size = 5000, slot = 8192;
    auto m = make_workload("tofu-small", "random-ring", {"size=5000B"});
    const sw::Footprint f = m->work->footprint();
    EXPECT_EQ(f.rank_bytes, slot + 2 * slot);
    EXPECT_EQ(f.data_bytes, double(p * 3 * size));
  }
  {  // alltoall tofu: p blocks and the barrier's 8 B, to send at 0 and to receive at the next 4 KiB
    const std::uint64_t size = 1000, region = p * size + 8;
    auto m = make_workload("tofu-small", "alltoall", {"algo=tofu", "size=1000B"});
    const sw::Footprint f = m->work->footprint();
    EXPECT_EQ(f.rank_bytes, round_up(region, 4096) + region);
    EXPECT_EQ(f.data_bytes, double(2 * region * p));
  }
  {  // gather: p blocks to send (one written), p blocks and a token to receive (the root's written)
    const std::uint64_t size = 3000, region = p * size;
    auto m = make_workload("tofu-small", "gather", {"algo=limited", "size=3000B"});
    const sw::Footprint f = m->work->footprint();
    EXPECT_EQ(f.rank_bytes, round_up(region, 4096) + region + 8);
    EXPECT_EQ(f.data_bytes, double(p * size + region + 8 * p));
  }
  {  // pingpong: two buffers of size (the second at the next 256 B); put: three written
    auto m = make_workload("tofu-small", "pingpong", {"size=1000B"});
    EXPECT_EQ(m->work->footprint().rank_bytes, 1024u + 1000u);
    EXPECT_EQ(m->work->footprint().data_bytes, 3000.0);
  }
}

// The reductions' receive regions from their algorithms' slots, checked
// against every rank's schedule for small rank counts: the most one rank
// registers (coll::recv_extent, which program() allocates) exactly, and the
// bytes all puts land in receive regions at most.
TEST(Workloads, ReductionFootprintMatchesEveryRanksSchedule) {
  using coll::ReductionKind;
  const std::vector<std::pair<ReductionKind, std::string>> kinds = {
      {ReductionKind::kAllreduce, "allreduce"},
      {ReductionKind::kReduceScatter, "reduce-scatter"},
      {ReductionKind::kReduce, "reduce"}};
  int checked = 0;
  for (const auto& [kind, workload] : kinds)
    for (const std::string& algo : coll::algorithm_names(kind))
      for (int p = 2; p <= 40; ++p)
        for (std::uint64_t size :
             {std::uint64_t(8), std::uint64_t(48), std::uint64_t(65536), std::uint64_t(100008)})
          for (int streams : {1, 2, 3}) {
            if (streams > 1 && algo != "rabenseifner-ext") continue;
            std::vector<std::string> params = {"algo=" + algo, "size=" + std::to_string(size) + "B"};
            if (algo == "rabenseifner-ext") params.push_back("streams=" + std::to_string(streams));
            if (kind == ReductionKind::kReduce) params.push_back("root=" + std::to_string(p / 3));
            std::unique_ptr<Made> m;
            try {
              m = make_workload("tofu-small", workload, params, p);
            } catch (const std::invalid_argument&) {
              continue;  // a rank count or stream count the algorithm does not take
            }
            coll::Reduction c;
            c.p = p;
            c.size = size;
            c.streams = algo == "rabenseifner-ext" ? streams : 1;
            c.root = kind == ReductionKind::kReduce ? p / 3 : 0;
            std::uint64_t extent = 0;
            double landed = 0;
            for (int r = 0; r < p; ++r) {
              c.rank = r;
              const coll::Schedule s = coll::reduction(kind, algo, c);
              extent = std::max(extent, coll::recv_extent(s));
              for (const coll::Step& st : s)
                for (const coll::Put& put : st.puts)
                  if (!put.to_send) landed += double(put.bytes);
            }
            const sw::Footprint f = m->work->footprint();
            const std::string what = workload + " " + algo + " p=" + std::to_string(p) +
                                     " size=" + std::to_string(size) + " streams=" + std::to_string(streams);
            EXPECT_EQ(f.rank_bytes, round_up(size, 4096) + std::max<std::uint64_t>(extent, 8)) << what;
            const double vectors = double(p) * double(size);
            EXPECT_GE(f.data_bytes, vectors + landed) << what;
            EXPECT_LE(f.data_bytes, vectors + landed + 4.0 * double(size)) << what << ": a close bound";
            ++checked;
          }
  EXPECT_GT(checked, 500);
}

// The rule uses the footprint as is: a node memory of exactly rank_bytes
// runs (every Rank::alloc fits), one byte less is refused; the 8 GiB limit
// applies to data mode only.
TEST(Workloads, FootprintIsExactlyWhatTheRanksAllocate) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> runs = {
      {"barrier", {}},
      {"random-ring", {"size=5000B"}},
      {"alltoall", {"algo=tofu", "size=1000B"}},
      {"allreduce", {"algo=ring", "size=4000B"}},
      {"gather", {"algo=limited", "size=3000B"}},
      {"pingpong", {"size=1000B"}},
  };
  for (const auto& [workload, params] : runs) {
    const std::uint64_t bytes = make_workload("tofu-small", workload, params)->work->footprint().rank_bytes;
    std::vector<std::string> args = {"run", "tofu-small", "--mode", "size-only"};
    for (const auto& kv : params) args.insert(args.end(), {"--param", kv});
    std::vector<std::string> fits = args, short_by_one = args;
    fits.insert(fits.begin() + 2, {"--workload", workload});
    fits.insert(fits.end(), {"--set", "nic.memory_size=" + std::to_string(bytes) + "B"});
    short_by_one.insert(short_by_one.end(), {"--set", "nic.memory_size=" + std::to_string(bytes - 1) + "B"});
    EXPECT_FALSE(run_json(fits).empty()) << workload << " in " << bytes << " B of node memory";
    expect_refused(
        workload, short_by_one,
        {"a rank would allocate " + std::to_string(bytes) + " B",
         "nic.memory_size=" + std::to_string(bytes - 1) + "B (" + std::to_string(bytes - 1) + " B)"});
  }
  // The same footprint passes in size-only mode and not in data mode.
  auto m = make_workload("tofu-small", "put-bw", {"size=16GiB"});
  EXPECT_EQ(m->work->footprint().data_bytes, 5.0 * double(16ULL << 30));
  m->mi.data = false;
  EXPECT_NO_THROW(sw::check_footprint(*m->work, m->mi, "put-bw"));
  m->mi.data = true;
  EXPECT_THROW(sw::check_footprint(*m->work, m->mi, "put-bw"), std::invalid_argument);
}

}  // namespace
}  // namespace kairo
