// The topology-aware all-to-alls (a2at, tofu) run through `kairo run`:
// they verify on a 3D torus, a small Tofu and meshes, also with ranks placed
// in another order; on a mesh whose NICs can outrun the network, a2at
// beats simple spread as a model of link loads predicts, and never the
// lower bound; tofu reports its barriers and the time of every phase; the
// runs it cannot do are refused with exit code 2 and a message naming the
// parameter.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "sw/collectives/torus_ranks.h"
#include "tests/test_support.h"

namespace kairo {
namespace {

nlohmann::json run_ok(std::vector<std::string> args) {
  const std::string json = test::temp_dir() + "/run.json";
  args.insert(args.end(), {"--workload", "alltoall", "--json", json, "--quiet"});
  auto r = test::run_kairo(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.exit_code == 0 ? nlohmann::json::parse(test::read_file(json)) : nlohmann::json::object();
}

// A shipped 10x10x10 platform cut to x by y by z nodes.
std::vector<std::string> shape(const std::string& platform, int x, int y, int z) {
  return {"run",   platform,
          "--set", "topology.dims.X.size=" + std::to_string(x),
          "--set", "topology.dims.Y.size=" + std::to_string(y),
          "--set", "topology.dims.Z.size=" + std::to_string(z)};
}

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST(Alltoall, TopologyAwareAlgorithmsVerifyOnTorusTofuAndMesh) {
  std::string reversed = "ranks.map=[";  // rank r on node 95 - r
  for (int r = 0; r < 96; ++r) reversed += (r ? "," : "") + std::to_string(95 - r);
  reversed += "]";
  const std::vector<std::pair<std::string, std::vector<std::string>>> machines = {
      {"3x4x5 torus", shape("torus-10x10x10", 3, 4, 5)},
      {"3x4x5 mesh", shape("mesh-10x10x10", 3, 4, 5)},
      {"tofu-small", {"run", "tofu-small"}},
      {"tofu-small, ranks reversed", {"run", "tofu-small", "--set", reversed}},
      {"mesh-8x8", {"run", "mesh-8x8"}}};
  for (const auto& [name, machine] : machines)
    for (const char* algo : {"algo=a2at", "algo=tofu"}) {
      auto d = run_ok(with(machine, {"--param", algo, "--param", "size=1000B"}));
      auto s = run_ok(with(machine, {"--param", algo, "--param", "size=1000B", "--mode", "size-only"}));
      EXPECT_EQ(d["verified"], true) << name << " " << algo;
      EXPECT_EQ(d["completion_ns"], s["completion_ns"]) << name << " " << algo << ": data changes no timing";
    }
}

// Lockstep model of an all-to-all in phases on a mesh: in phase i every
// rank sends one message, routed in dimension order; the phase lasts as many
// message times as the most flows share one directed link. Destinations
// from the algorithms' definitions: a2a rank + i, a2at the translation by
// (a0, a0 + a1, a0 + a1 + a2) mod k for the digits a of i (a2at's stagger
// and phase order change which phase is which translation, not the set of
// translations, so not this total).
int lockstep_message_times(int k, bool a2at) {
  const int p = k * k * k;
  auto coord = [k](int r) { return std::vector<int>{r % k, r / k % k, r / (k * k)}; };
  int total = 0;
  for (int i = 1; i < p; ++i) {
    std::map<std::vector<int>, int> load;  // (x, y, z, dim, dir) -> flows
    const std::vector<int> a = coord(i);
    const std::vector<int> o = {a[0] % k, (a[0] + a[1]) % k, (a[0] + a[1] + a[2]) % k};
    for (int r = 0; r < p; ++r) {
      std::vector<int> c = coord(r), t = coord((r + i) % p);
      if (a2at)
        for (int d = 0; d < 3; ++d) t[d] = (c[d] + o[d]) % k;
      for (int d = 0; d < 3; ++d)
        while (c[d] != t[d]) {
          const int dir = t[d] > c[d] ? 1 : -1;
          ++load[{c[0], c[1], c[2], d, dir}];
          c[d] += dir;
        }
    }
    int most = 0;
    for (const auto& [link, n] : load) most = std::max(most, n);
    total += most;
  }
  return total;
}

// A 4x4x4 mesh whose NIC injects at the links' rate: with the default
// 2.8 GB/s DMA every algorithm is bound by injection, (p - 1) m / 2.8 GB/s,
// above the network's bound. Then simple spread's phases are not
// translations (rank + i carries into the next row), so some links carry
// more flows than in any translation; a2at must win, and stay above seed
// 000's lower bound. (The lockstep model's margin, 12%, is an upper
// estimate: phases overlap in the network, which evens out both orders'
// peaks, and the gap measured is about half that.)
TEST(Alltoall, A2atBeatsSimpleSpreadOnAMesh) {
  const int a2a_model = lockstep_message_times(4, false), a2at_model = lockstep_message_times(4, true);
  ASSERT_LT(a2at_model, a2a_model);
  auto run = [](const char* algo) {
    return run_ok(with(shape("mesh-10x10x10", 4, 4, 4),
                       {"--set", "nic.dma_bandwidth=32GB/s", "--set", "nic.mtu=224B", "--param", algo,
                        "--param", "size=4KiB", "--mode", "size-only"}));
  };
  auto a2a = run("algo=a2a"), a2at = run("algo=a2at");
  const double t_a2a = a2a["latency_ns"].get<double>(), t_a2at = a2at["latency_ns"].get<double>();
  EXPECT_LT(t_a2at, t_a2a) << "model: " << a2a_model << " against " << a2at_model << " message times";
  // Formula (1) on the 4x4x4 mesh: 1 x 2 x 2 x 16 x m / B, B = 32 GB/s x 224 / 256.
  const double bound = 64 * 4096 / (32e9 * 224 / 256) * 1e9;
  for (auto* j : {&a2a, &a2at}) {
    EXPECT_NEAR((*j)["details"]["lower_bound_ns"].get<double>(), bound, 1e-6);
    EXPECT_GE((*j)["details"]["ratio_to_bound"].get<double>(), 1.0) << "the bound is a lower bound";
  }
}

// The torus: the 8x8 torus with a NIC at the links' rate, and tofu-small
// as shipped (four TNIs at 2.8 GB/s). Simple spread's phases are not
// translations; a2at's are, and on the torus every line of a dimension then
// carries the same load. Formula (1) on a ring halves the mesh's bound:
// alpha = 1/2, 4 x 4 x 8 x m / B on the 8x8 torus.
// On torus-8x8 a2at posts each translation beside its mirror (order=mirror,
// its default on a 2D torus), so both directions of every ring carry
// traffic at once; in plain order every node moves the same way and a2at
// only ties simple spread (docs/collectives.md).
TEST(Alltoall, A2atBeatsSimpleSpreadOnTori) {
  const std::vector<std::vector<std::string>> machines = {
      {"run", "torus-8x8", "--set", "nic.dma_bandwidth=32GB/s", "--set", "nic.mtu=224B", "--param",
       "size=4KiB"},
      {"run", "tofu-small", "--param", "size=4KiB"}};
  for (const auto& m : machines) {
    auto a2a = run_ok(with(m, {"--param", "algo=a2a", "--mode", "size-only"}));
    auto a2at = run_ok(with(m, {"--param", "algo=a2at", "--mode", "size-only"}));
    EXPECT_LT(a2at["latency_ns"].get<double>(), a2a["latency_ns"].get<double>()) << m[1];
    EXPECT_GE(a2at["details"]["ratio_to_bound"].get<double>(), 1.0) << m[1];
  }
  auto plain =
      run_ok(with(machines[0], {"--param", "algo=a2at", "--param", "order=plain", "--mode", "size-only"}));
  auto mirror = run_ok(with(machines[0], {"--param", "algo=a2at", "--mode", "size-only"}));
  EXPECT_EQ(mirror["params"]["order"], "mirror") << "the default on a 2D torus";
  EXPECT_LT(mirror["latency_ns"].get<double>(), plain["latency_ns"].get<double>());
  auto t = mirror;
  EXPECT_NEAR(t["details"]["lower_bound_ns"].get<double>(), 0.5 * 4 * 4 * 8 * 4096 / (32e9 * 224 / 256) * 1e9,
              1e-6);
}

// Yazaki et al. 2015 Fig. 4: by default the phases come in three groups with two
// barriers between them; every group and barrier has its time, the groups
// in order, ending when the slowest rank ends.
TEST(Alltoall, TofuReportsItsBarriersAndPhases) {
  auto j =
      run_ok({"run", "tofu-small", "--param", "algo=tofu", "--param", "size=2KiB", "--mode", "size-only"});
  EXPECT_EQ(j["details"]["barrier_every"], 32) << "ceil(95 / 3)";
  EXPECT_EQ(j["details"]["barriers"], 2);
  const auto& phases = j["details"]["phases"];
  ASSERT_EQ(phases.size(), 5u);
  const std::vector<std::pair<std::string, int>> expect = {
      {"exchange", 1}, {"barrier", 1}, {"exchange", 2}, {"barrier", 2}, {"exchange", 3}};
  double sum = 0, prev = 0;
  for (std::size_t i = 0; i < phases.size(); ++i) {
    EXPECT_EQ(phases[i]["phase"], expect[i].first);
    EXPECT_EQ(phases[i]["round"], expect[i].second);
    EXPECT_GT(phases[i]["end_ns"].get<double>(), prev);
    prev = phases[i]["end_ns"].get<double>();
    sum += phases[i]["ns"].get<double>();
  }
  EXPECT_DOUBLE_EQ(prev, j["latency_ns"].get<double>());
  EXPECT_NEAR(sum, j["latency_ns"].get<double>(), 1e-6);

  auto k10 = run_ok({"run", "tofu-small", "--param", "algo=tofu", "--param", "barrier_every=10", "--param",
                     "size=1KiB", "--mode", "size-only"});
  EXPECT_EQ(k10["details"]["barriers"], 9) << "ceil(95 / 10) groups";
  EXPECT_EQ(k10["details"]["phases"].size(), 19u);
}

// On a mesh routed in its declared order, tofu with one group is a2at's
// schedule exactly: the same puts in the same order, no barrier.
TEST(Alltoall, TofuWithOneGroupIsA2at) {
  auto run = [](std::vector<std::string> algo) {
    return run_ok(
        with(shape("mesh-10x10x10", 3, 4, 5), with(algo, {"--param", "size=3KiB", "--mode", "size-only"})));
  };
  auto a2at = run({"--param", "algo=a2at"});
  auto tofu = run({"--param", "algo=tofu", "--param", "barrier_every=59"});
  EXPECT_EQ(tofu["details"]["barriers"], 0);
  EXPECT_EQ(tofu["completion_ns"], a2at["completion_ns"]);
}

// --param skew_ns: rank r starts (r x 7919 mod p) / p x skew after the
// common start (computed here). The run still delivers every block, ends no
// earlier than the last rank's start, and later than without the skew.
TEST(Alltoall, SkewedStartsStillDeliver) {
  const int p = 60;
  const double skew_ns = 40000;
  double last_start = 0;
  for (int r = 0; r < p; ++r) last_start = std::max(last_start, double(r * 7919 % p) / p * skew_ns);
  auto run = [](std::vector<std::string> extra) {
    return run_ok(with(shape("mesh-10x10x10", 3, 4, 5), with({"--param", "size=3KiB"}, extra)));
  };
  const auto still = run({"--param", "algo=a2at", "--mode", "size-only"});
  const auto skewed = run({"--param", "algo=a2at", "--param", "skew_ns=40000"});
  EXPECT_EQ(skewed["verified"], true);
  EXPECT_EQ(skewed["params"]["skew_ns"], skew_ns);
  EXPECT_GE(skewed["latency_ns"].get<double>(), last_start);
  EXPECT_GT(skewed["latency_ns"].get<double>(), still["latency_ns"].get<double>());
}

// Busy time per dimension (X, Y, Z) of the counter log's links over the
// intervals that start before `until_ps`, read from the CSV's columns.
std::map<std::string, double> busy_by_dim(const std::string& csv, double until_ps) {
  std::istringstream in(test::read_file(csv));
  std::string line;
  std::map<std::string, int> col;
  std::map<std::string, double> busy;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f;
    std::stringstream ls(line);
    for (std::string x; std::getline(ls, x, ',');) f.push_back(x);
    if (col.empty()) {
      for (std::size_t i = 0; i < f.size(); ++i) col[f[i]] = int(i);
      continue;
    }
    if (f[std::size_t(col["kind"])] != "link" ||
        std::stod(f[std::size_t(col["interval_start_ps"])]) >= until_ps)
      continue;
    busy[f[std::size_t(col["dim"])]] += std::stod(f[std::size_t(col["busy_ps"])]);
  }
  return busy;
}

// Seed 000's picture of the two all-to-alls: simple spread sends to rank + 1,
// + 2, ... first, which differ in X only, so its Z links carry under 0.4
// of the X links' load through the first tenth of the run (Z's ranks come
// last); a2at's translations move along every
// dimension from the start, keeping Z as busy as X, and finish sooner
// (6x6x6 torus, NICs that outrun the links, 4 KiB).
TEST(Alltoall, CounterLogShowsZIdleUnderSimpleSpreadAndBusyUnderA2at) {
  std::map<std::string, std::map<std::string, double>> busy;
  std::map<std::string, double> latency;
  for (const char* algo : {"a2a", "a2at"}) {
    const std::string csv = test::temp_dir() + "/" + algo + ".csv";
    const auto j = run_ok(with(
        shape("torus-10x10x10", 6, 6, 6),
        {"--set", "nic.dma_bandwidth=32GB/s", "--set", "nic.mtu=224B", "--param", std::string("algo=") + algo,
         "--param", "size=4KiB", "--mode", "size-only", "--counters", csv, "--interval", "1us"}));
    latency[algo] = j["latency_ns"].get<double>();
    busy[algo] = busy_by_dim(csv, 0.1 * j["completion_ns"].get<double>() * 1000);
  }
  EXPECT_LT(busy["a2a"]["Z"], 0.4 * busy["a2a"]["X"]);
  EXPECT_GT(busy["a2at"]["Z"], 0.8 * busy["a2at"]["X"]);
  EXPECT_LT(latency["a2at"], latency["a2a"]);
}

TEST(Alltoall, RunsItCannotDoAreRefused) {
  auto expect_bad = [](std::vector<std::string> args, const std::vector<std::string>& mentions) {
    args.insert(args.end(), {"--workload", "alltoall", "--mode", "size-only"});
    auto r = test::run_kairo(args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    for (const auto& m : mentions)
      EXPECT_NE(r.err.find(m), std::string::npos) << "missing '" << m << "' in " << r.err;
    EXPECT_TRUE(r.out.empty());
  };
  expect_bad({"run", "tofu-small", "--param", "algo=tofu", "--param", "barrier_every=0"},
             {"--param barrier_every=0", "[1, 95]"});
  expect_bad({"run", "tofu-small", "--param", "algo=tofu", "--param", "barrier_every=96"}, {"barrier_every"});
  expect_bad({"run", "tofu-small", "--param", "algo=a2a", "--param", "barrier_every=4"}, {"barrier_every"});
  expect_bad({"run", "ib-qdr-16", "--param", "algo=a2at"},
             {"--param algo=a2at", "one rank on every node of a mesh/torus", "switched fabric"});
  expect_bad({"run", "tofu-small", "--param", "algo=tofu", "--set", "ranks.map=[0,1,2,3,4]"},
             {"--param algo=tofu", "one rank on every node", "5 ranks on 96 nodes"});
}

// mirrored_phase_order: every phase 1 .. p - 1 once, and each phase's
// translation followed by its mirror (the negated offset, each dimension
// modulo its size) unless the mirror came earlier or is itself.
TEST(Alltoall, MirroredOrderPairsEachTranslationWithItsOpposite) {
  for (const std::vector<int>& sizes : std::vector<std::vector<int>>{{8, 8}, {6, 5}, {4, 3, 2}, {2, 2}}) {
    const auto order = coll::mirrored_phase_order(sizes);
    int p = 1;
    for (int s : sizes) p *= s;
    std::vector<int> seen(std::size_t(p), 0);
    for (auto i : order) ++seen.at(i);
    EXPECT_EQ(seen[0], 0) << "phase 0 is the own block";
    EXPECT_TRUE(std::all_of(seen.begin() + 1, seen.end(), [](int n) { return n == 1; }));
    auto offset = [&](std::uint32_t i) {
      std::vector<int> o(sizes.size());
      coll::phase_offset(sizes, {}, i, o.data());
      return o;
    };
    std::vector<bool> posted(std::size_t(p), false);
    for (std::size_t j = 0; j < order.size(); ++j) {
      const auto o = offset(order[j]);
      auto mirror = o;
      for (std::size_t d = 0; d < sizes.size(); ++d) mirror[d] = (sizes[d] - o[d]) % sizes[d];
      const bool self = mirror == o;
      bool mirror_posted = false;
      for (std::size_t k = 0; k < j; ++k) mirror_posted = mirror_posted || offset(order[k]) == mirror;
      posted[order[j]] = true;
      if (self || mirror_posted) continue;
      ASSERT_LT(j + 1, order.size());
      EXPECT_EQ(offset(order[j + 1]), mirror) << "phase " << order[j] << " in " << sizes.size() << "D";
      ++j;
    }
  }
}

}  // namespace
}  // namespace kairo
