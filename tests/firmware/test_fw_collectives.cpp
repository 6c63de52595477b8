// Collective schedules (sw/collectives) inspected without a network, and
// the barrier workload run through `kairo run`: every barrier holds (no rank
// leaves before all entered) on a Tofu, a mesh, a torus and a fat tree, at
// rank counts that are not powers of two; ring time grows linearly with p
// and recursive doubling beats it at 64 ranks and more.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "sw/collectives/alltoall.h"
#include "sw/collectives/barrier.h"
#include "sw/collectives/bcast.h"
#include "sw/collectives/executor.h"
#include "sw/collectives/gather.h"
#include "sw/collectives/neighbor.h"
#include "tests/test_support.h"

namespace kairo::coll {
namespace {

std::vector<Schedule> all_ranks(const std::string& algo, int p) {
  std::vector<Schedule> s;
  for (int r = 0; r < p; ++r) s.push_back(barrier(algo, r, p, 1));
  return s;
}

TEST(Collectives, BarrierSchedulesMatchEveryPutWithOneWait) {
  for (const auto& algo : algorithm_names(Collective::kBarrier))
    for (int p : {2, 3, 5, 7, 8, 16, 31, 96, 100}) {
      auto problems = check_schedules(all_ranks(algo, p));
      EXPECT_TRUE(problems.empty()) << algo << " p=" << p << ": " << problems.front();
    }
}

TEST(Collectives, BarrierStepCountsFollowTheAlgorithms) {
  for (int p : {2, 3, 5, 8, 16, 96, 100}) {
    const int lg = int(std::floor(std::log2(p))), pow2 = 1 << lg, extra = p - pow2;
    const int ceil_lg = int(std::ceil(std::log2(p)));
    for (int r = 0; r < p; ++r) {
      EXPECT_EQ(barrier_ring(r, p, 1).size(), std::size_t(p - 1));
      EXPECT_EQ(barrier_dissemination(r, p, 1).size(), std::size_t(ceil_lg)) << "p=" << p;
      // recursive doubling: log2 rounds among the first 2^n ranks, plus one
      // step before and after for the ranks paired with the r extra ones
      const std::size_t rd = barrier_recursive_doubling(r, p, 1).size();
      if (r >= pow2)
        EXPECT_EQ(rd, 2u) << "p=" << p << " r=" << r;
      else if (r < extra)
        EXPECT_EQ(rd, std::size_t(lg + 2)) << "p=" << p << " r=" << r;
      else
        EXPECT_EQ(rd, std::size_t(lg)) << "p=" << p << " r=" << r;
    }
  }
}

TEST(Collectives, BarrierSchedulesHoldExactlyTheirSteps) {
  // Every rank keeps its schedule while the barrier runs: no spare capacity.
  for (const auto& algo : algorithm_names(Collective::kBarrier))
    for (int p : {2, 3, 5, 8, 100})
      for (int r = 0; r < p; ++r) {
        const Schedule s = barrier(algo, r, p, 1);
        EXPECT_EQ(s.capacity(), s.size()) << algo << " p=" << p << " r=" << r;
      }
}

TEST(Collectives, SmallVecKeepsOneElementInlineAndMoreOnTheHeap) {
  SmallVec<Wait, 1> v{Wait{1, 10}};
  ASSERT_EQ(v.size(), 1u);
  const Wait* inline_at = v.data();
  EXPECT_TRUE(reinterpret_cast<const char*>(inline_at) >= reinterpret_cast<const char*>(&v) &&
              reinterpret_cast<const char*>(inline_at) < reinterpret_cast<const char*>(&v + 1));
  for (int i = 2; i <= 20; ++i) v.push_back(Wait{i, std::uint32_t(10 * i)});
  ASSERT_EQ(v.size(), 20u);
  for (int i = 1; i <= 20; ++i) EXPECT_EQ(v[std::size_t(i - 1)].tag, std::uint32_t(10 * i));
  v.push_back(v[0]);  // an element of its own, while it grows
  EXPECT_EQ(v.back().tag, 10u);

  SmallVec<Wait, 1> copy = v;
  copy[0].tag = 7;
  EXPECT_EQ(v[0].tag, 10u);
  SmallVec<Wait, 1> moved = std::move(copy);
  EXPECT_TRUE(copy.empty());
  EXPECT_EQ(moved.size(), 21u);
  EXPECT_EQ(moved[0].tag, 7u);

  moved.erase(moved.begin() + 1);  // the rest keep their order
  EXPECT_EQ(moved.size(), 20u);
  EXPECT_EQ(moved[1].tag, 30u);
  moved.clear();
  EXPECT_TRUE(moved.empty());
  moved = SmallVec<Wait, 1>{Wait{3, 4}};
  EXPECT_EQ(moved.size(), 1u);
  EXPECT_EQ(moved[0].from, 3);

  SmallVec<Op, 0> none;  // no inline room: one pointer
  EXPECT_EQ(sizeof(none), sizeof(void*));
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(none.begin(), none.end());
  none.push_back(Op{Op::Kind::kCopy, 1, 2, 8, false});
  EXPECT_EQ(none.size(), 1u);
  EXPECT_EQ(none[0].bytes, 8u);
  for (std::uint64_t i = 2; i <= 9; ++i) none.push_back(Op{Op::Kind::kSum, i, i, 8 * i, true});
  none.push_back(none[0]);  // an element of its own, while it grows
  ASSERT_EQ(none.size(), 10u);
  for (std::uint64_t i = 2; i <= 9; ++i) EXPECT_EQ(none[std::size_t(i - 1)].bytes, 8 * i);
  EXPECT_EQ(none.back().kind, Op::Kind::kCopy);
  SmallVec<Op, 0> ops_copy = none;
  ops_copy[0].bytes = 1;
  EXPECT_EQ(none[0].bytes, 8u);
  SmallVec<Op, 0> ops_moved = std::move(ops_copy);
  EXPECT_TRUE(ops_copy.empty());
  EXPECT_EQ(ops_moved.size(), 10u);
  ops_moved.erase(ops_moved.begin());
  EXPECT_EQ(ops_moved.size(), 9u);
  EXPECT_EQ(ops_moved[0].bytes, 16u);
  ops_moved.clear();
  EXPECT_TRUE(ops_moved.empty());
  ops_moved = SmallVec<Op, 0>{Op{Op::Kind::kSum, 0, 0, 24, false}};
  EXPECT_EQ(ops_moved.size(), 1u);
  EXPECT_EQ(ops_moved[0].bytes, 24u);
  ops_moved = SmallVec<Op, 0>{};  // an empty list takes no block
  EXPECT_TRUE(ops_moved.empty());
}

TEST(Collectives, BrokenSchedulesAreCaught) {
  auto s = all_ranks("ring", 4);
  s[2][1].waits.clear();  // rank 2 never waits for its second arrival
  EXPECT_FALSE(check_schedules(s).empty());
  auto d = all_ranks("dissemination", 5);
  d[0][0].puts[0].to = 0;  // to itself
  EXPECT_FALSE(check_schedules(d).empty());
}

// Runs kairo with `args` plus `extra`, expecting success; its JSON summary
// (empty on failure, which the expectation reports).
nlohmann::json run_ok(std::vector<std::string> args, const std::vector<std::string>& extra = {}) {
  const std::string json = test::temp_dir() + "/run.json";
  args.insert(args.end(), extra.begin(), extra.end());
  args.insert(args.end(), {"--json", json, "--quiet"});
  auto r = test::run_kairo(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.exit_code == 0 ? nlohmann::json::parse(test::read_file(json)) : nlohmann::json::object();
}

nlohmann::json barrier_run(const std::string& platform, const std::string& algo,
                           const std::vector<std::string>& extra = {}) {
  return run_ok(
      {"run", platform, "--workload", "barrier", "--param", "algo=" + algo, "--param", "skew_ns=3000"},
      extra);
}

std::string first_ranks(int p) {
  std::string s = "ranks.map=[";
  for (int r = 0; r < p; ++r) s += (r ? "," : "") + std::to_string(r);
  return s + "]";
}

TEST(Collectives, EveryBarrierHoldsOnEveryKindOfNetwork) {
  for (const char* platform : {"tofu-small", "mesh-8x8", "torus-8x8", "ib-qdr-16", "eps-tree-128"})
    for (const auto& algo : algorithm_names(Collective::kBarrier)) {
      auto j = barrier_run(platform, algo);
      EXPECT_EQ(j["verified"], true) << platform << " " << algo;
    }
  for (int p : {5, 7, 12})  // not powers of two
    for (const auto& algo : algorithm_names(Collective::kBarrier)) {
      auto j = barrier_run("tofu-small", algo, {"--set", first_ranks(p), "--param", "iterations=3"});
      EXPECT_EQ(j["verified"], true) << p << " ranks, " << algo;
      EXPECT_EQ(j["ranks"], p);
    }
}

TEST(Collectives, RingGrowsLinearlyAndRecursiveDoublingWinsFrom64Ranks) {
  std::map<int, double> ring;
  for (int p : {16, 32, 64})
    ring[p] = barrier_run("tofu-small", "ring", {"--set", first_ranks(p)})["latency_ns"];
  // p - 1 steps of about the same cost: doubling p about doubles the time
  EXPECT_NEAR((ring[64] / 63) / (ring[32] / 31), 1.0, 0.1);
  EXPECT_NEAR((ring[32] / 31) / (ring[16] / 15), 1.0, 0.1);
  for (int p : {64, 96}) {
    const double r = barrier_run("tofu-small", "ring", {"--set", first_ranks(p)})["latency_ns"];
    const double rd =
        barrier_run("tofu-small", "recursive-doubling", {"--set", first_ranks(p)})["latency_ns"];
    EXPECT_LT(rd, r / 4) << p << " ranks";
  }
}

// Every rank of a mesh/torus of these sizes, and the routers' dimension
// order; ranks placed on the nodes by a fixed shuffle when `shuffle`.
TorusRanks torus_of(std::vector<int> sizes, std::vector<int> order = {}, bool shuffle = false) {
  TorusRanks t = identity_torus_ranks(std::move(sizes), std::move(order));
  const std::size_t n = t.node_of_rank.size();
  if (shuffle)
    for (std::size_t r = 0; r < n; ++r)
      t.node_of_rank[r] = std::uint32_t((r * 7 + 3) % n);  // 7 is prime to n below
  for (std::size_t r = 0; r < n; ++r) t.rank_of_node[t.node_of_rank[r]] = int(r);
  return t;
}

std::vector<Schedule> alltoall_all_ranks(const std::string& algo, const TorusRanks& t, std::uint64_t size,
                                         int barrier_every = 0) {
  const int p = int(t.node_of_rank.size());
  std::vector<Schedule> all;
  for (int r = 0; r < p; ++r) all.push_back(alltoall(algo, r, p, size, 1, {&t, barrier_every}));
  return all;
}

// A node's coordinates (dimension 0 fastest).
std::vector<int> coords(const TorusRanks& t, int rank) {
  std::vector<int> c;
  std::uint32_t id = t.node_of_rank[std::size_t(rank)];
  for (int s : t.sizes) c.push_back(int(id % std::uint32_t(s))), id /= std::uint32_t(s);
  return c;
}

TEST(Collectives, AlltoallSchedulesSendToEveryOtherRankExactlyOnce) {
  std::vector<TorusRanks> shapes;
  for (int p : {2, 3, 5, 8, 16, 96}) shapes.push_back(torus_of({p}));
  shapes.push_back(torus_of({4, 3, 2}, {}, true));
  shapes.push_back(
      torus_of({2, 2, 2, 2, 3, 2}, {0, 1, 2, 3, 5, 4}, true));  // tofu-small, Tofu's routing order
  shapes.push_back(torus_of({3, 4, 5}, {2, 0, 1}));
  for (const auto& algo : algorithm_names(Collective::kAlltoall))
    for (const TorusRanks& t : shapes) {
      const int p = int(t.node_of_rank.size());
      std::vector<Schedule> all = alltoall_all_ranks(algo, t, 100);
      auto problems = check_schedules(all);
      EXPECT_TRUE(problems.empty()) << algo << " p=" << p << ": " << problems.front();
      for (int r = 0; r < p; ++r) {
        std::vector<int> to(std::size_t(p), 0);
        for (const Step& st : all[std::size_t(r)])
          for (const Put& put : st.puts) {
            if (std::string(st.phase) == "barrier") continue;
            ++to[std::size_t(put.to)];
            EXPECT_EQ(put.src_offset, std::uint64_t(put.to) * 100)
                << "the block addressed to the destination";
            EXPECT_EQ(put.dst_offset, std::uint64_t(r) * 100) << "lands at the sender's slot";
          }
        for (int d = 0; d < p; ++d)
          EXPECT_EQ(to[std::size_t(d)], d == r ? 0 : 1) << algo << " " << r << "->" << d;
      }
      const int k = tofu_default_barrier_every(p), groups = (p - 1 + k - 1) / k;
      int rounds = 0;
      while ((1 << rounds) < p) ++rounds;
      // The step counts of the shipped algorithms, from their definitions; an
      // algorithm added later is held to the property above alone.
      const std::map<std::string, std::size_t> steps = {{"a2a", 1},
                                                        {"a2at", 1},
                                                        {"tofu", std::size_t(groups + (groups - 1) * rounds)},
                                                        {"pairwise", std::size_t(p - 1)}};
      if (const auto it = steps.find(algo); it != steps.end())
        EXPECT_EQ(all[0].size(), it->second) << algo << " p=" << p;
    }
}

// The mixed-radix digits of i through the lower-triangular map: a bijection
// of 0 .. p - 1 onto the translations, phase 0 the null one.
TEST(Collectives, PhaseOffsetsAreEveryTranslationOnce) {
  for (std::vector<int> sizes :
       std::vector<std::vector<int>>{{7}, {5, 4}, {6, 1, 3}, {4, 3, 2}, {2, 2, 2, 2, 3, 2}, {10, 10, 10}})
    for (bool reversed : {false, true}) {
      std::vector<int> order;
      for (int d = 0; d < int(sizes.size()); ++d) order.push_back(reversed ? int(sizes.size()) - 1 - d : d);
      std::set<std::vector<int>> seen;
      std::uint64_t p = 1;
      for (int s : sizes) p *= std::uint64_t(s);
      for (std::uint64_t i = 0; i < p; ++i) {
        std::vector<int> o(sizes.size());
        phase_offset(sizes, order, i, o.data());
        for (std::size_t d = 0; d < sizes.size(); ++d) ASSERT_TRUE(o[d] >= 0 && o[d] < sizes[d]);
        if (i == 0) EXPECT_EQ(o, std::vector<int>(sizes.size(), 0)) << "phase 0 is the rank's own block";
        seen.insert(o);
      }
      EXPECT_EQ(seen.size(), p) << "every translation once";
    }
  // 10x10x10: o_X = a_0, o_Y = a_0 + a_1 + 3, o_Z = a_0 + a_1 + a_2 + 6 (mod
  // 10), the stagger j x 10 / 3 rounded down.
  int o[3];
  phase_offset({10, 10, 10}, {}, 7, o);
  EXPECT_EQ(std::vector<int>(o, o + 3), (std::vector<int>{7, 0, 3}));
  phase_offset({10, 10, 10}, {}, 10, o);
  EXPECT_EQ(std::vector<int>(o, o + 3), (std::vector<int>{0, 4, 7}));
  phase_offset({10, 10, 10}, {}, 345, o);  // digits 5, 4, 3
  EXPECT_EQ(std::vector<int>(o, o + 3), (std::vector<int>{5, 2, 8}));
  // Digits 0, 7, 7 would give the null translation: that phase takes phase
  // 0's offset, the stagger itself.
  phase_offset({10, 10, 10}, {}, 770, o);
  EXPECT_EQ(std::vector<int>(o, o + 3), (std::vector<int>{0, 3, 6}));
  // Two dimensions with links (a size-1 dimension has none): plain numbering.
  phase_offset({10, 1, 10}, {}, 37, o);
  EXPECT_EQ(std::vector<int>(o, o + 3), (std::vector<int>{7, 0, 3}));
  phase_offset({8, 8}, {}, 9, o);
  EXPECT_EQ(std::vector<int>(o, o + 2), (std::vector<int>{1, 1}));
}

// Yazaki et al. 2015 Fig. 3: simple spread keeps to X for its first X - 1 phases, so
// Y and Z links idle; every a2at phase is a translation (a permutation of
// the ranks) and its first phases move along every dimension.
TEST(Collectives, A2atPhasesArePermutationsThatUseEveryDimension) {
  for (const TorusRanks& t : {torus_of({10, 10, 10}), torus_of({4, 3, 5}, {}, true)}) {
    const int p = int(t.node_of_rank.size());
    const std::vector<Schedule> a2at = alltoall_all_ranks("a2at", t, 8);
    for (int i = 1; i < p; ++i) {
      std::vector<int> hit(std::size_t(p), 0);
      std::set<std::vector<int>> offsets;
      for (int r = 0; r < p; ++r) {
        ASSERT_EQ(a2at[std::size_t(r)].size(), 1u);
        const Put& put = a2at[std::size_t(r)][0].puts[std::size_t(i - 1)];
        EXPECT_EQ(put.tag, std::uint32_t(1 + i)) << "phase i posted i-th";
        ++hit[std::size_t(put.to)];
        std::vector<int> a = coords(t, r), b = coords(t, put.to);
        for (std::size_t d = 0; d < a.size(); ++d) b[d] = (b[d] - a[d] + t.sizes[d]) % t.sizes[d];
        offsets.insert(b);
      }
      EXPECT_EQ(std::count(hit.begin(), hit.end(), 1), p) << "phase " << i << " is a permutation";
      EXPECT_EQ(offsets.size(), 1u) << "phase " << i << " is one translation";
      std::vector<int> o(t.sizes.size());
      phase_offset(t.sizes, {}, std::uint64_t(i), o.data());
      EXPECT_EQ(*offsets.begin(), o) << "phase " << i;
    }
  }
  const TorusRanks t = torus_of({10, 10, 10});
  const Schedule a2at = alltoall("a2at", 0, 1000, 8, 1, {&t});
  for (int i = 1; i < 10; ++i) {
    const Put a2a = alltoall("a2a", 0, 1000, 8, 1)[0].puts[std::size_t(i - 1)];
    EXPECT_EQ(coords(t, a2a.to), (std::vector<int>{i, 0, 0})) << "simple spread: X only";
    const std::vector<int> c = coords(t, a2at[0].puts[std::size_t(i - 1)].to);
    EXPECT_GE(std::count_if(c.begin(), c.end(), [](int v) { return v != 0; }), 2)
        << "a2at phase " << i << " moves in more than one dimension";
  }
  // Ten consecutive phases with the same higher digits take every offset of
  // every dimension once: X, Y and Z links are loaded alike over the run.
  for (int first : {10, 450, 980}) {
    std::vector<std::set<int>> seen(3);
    for (int i = first; i < first + 10; ++i) {
      const std::vector<int> c = coords(t, a2at[0].puts[std::size_t(i - 1)].to);
      for (std::size_t d = 0; d < 3; ++d) seen[d].insert(c[d]);
    }
    for (std::size_t d = 0; d < 3; ++d)
      EXPECT_EQ(seen[d].size(), 10u) << "phases " << first << "+, dim " << d;
  }
}

// The Tofu-style all-to-all: ceil((p - 1) / k) exchange steps of k phases
// (k puts, k waits), one dissemination barrier between consecutive groups,
// translations in the routers' dimension order.
TEST(Collectives, TofuGroupsPhasesBetweenBarriers) {
  const TorusRanks tofu_small = torus_of({2, 2, 2, 2, 3, 2}, {0, 1, 2, 3, 5, 4});
  const int p = 96;
  EXPECT_EQ(tofu_default_barrier_every(p), 32) << "two barriers, as in Yazaki et al. 2015's Fig. 4";
  for (int k : {1, 2, 7, 32, 94, 95}) {
    const std::vector<Schedule> all = alltoall_all_ranks("tofu", tofu_small, 100, k);
    auto problems = check_schedules(all);
    EXPECT_TRUE(problems.empty()) << "k=" << k << ": " << problems.front();
    const int groups = (p - 1 + k - 1) / k;
    EXPECT_EQ(tofu_barriers(p, k), groups - 1);
    for (const Schedule& s : all) {
      int exchanges = 0, barriers = 0, phases = 0;
      std::string prev;
      for (const Step& st : s) {
        const std::string phase = st.phase;
        if (phase == "exchange") {
          ++exchanges;
          EXPECT_EQ(st.puts.size(), st.waits.size());
          EXPECT_EQ(int(st.puts.size()), std::min(k, p - 1 - phases)) << "k phases per group";
          phases += int(st.puts.size());
        } else {
          ASSERT_EQ(phase, "barrier");
          if (prev != "barrier") ++barriers;
          for (const Put& put : st.puts) {
            EXPECT_EQ(put.dst_offset, std::uint64_t(p) * 100) << "the scratch word after the blocks";
            EXPECT_EQ(put.src_offset, std::uint64_t(p) * 100);
          }
        }
        prev = phase;
      }
      EXPECT_EQ(exchanges, groups) << "k=" << k;
      EXPECT_EQ(barriers, groups - 1) << "k=" << k;
      EXPECT_EQ(std::string(s.front().phase), "exchange");
      EXPECT_EQ(std::string(s.back().phase), "exchange");
    }
  }
  // Routing order Y then X on a 3x4 torus (two dimensions: plain
  // numbering): phase 4 = digits (a_Y, a_X) = (0, 1) is o = (X 1, Y 0); a2at
  // (X first) has phase 3 = digits (a_X, a_Y) = (0, 1): o = (X 0, Y 1).
  const TorusRanks yx = torus_of({3, 4}, {1, 0});
  EXPECT_EQ(coords(yx, alltoall("tofu", 0, 12, 8, 1, {&yx, 11})[0].puts[3].to), (std::vector<int>{1, 0}));
  EXPECT_EQ(coords(yx, alltoall("a2at", 0, 12, 8, 1, {&yx})[0].puts[2].to), (std::vector<int>{0, 1}));
  EXPECT_THROW(alltoall("tofu", 0, 12, 8, 1, {&yx, 12}), std::invalid_argument) << "k beyond p - 1";
  EXPECT_THROW(alltoall("a2at", 0, 12, 8, 1), std::invalid_argument) << "no coordinates";
}

TEST(Collectives, AlltoallVerifiesEverywhereWithIdenticalTimingInBothModes) {
  auto run = [](std::vector<std::string> args) { return run_ok(std::move(args)); };
  for (const char* platform : {"tofu-small", "mesh-8x8", "torus-8x8", "ib-qdr-16", "grid-2x32"})
    for (const auto& algo : algorithm_names(Collective::kAlltoall)) {
      const bool switched = std::string(platform) == "ib-qdr-16" || std::string(platform) == "grid-2x32";
      if (switched && find_algorithm(Collective::kAlltoall, algo).needs_torus)
        continue;  // refused there (test_fw_alltoall.cpp)
      auto d = run(
          {"run", platform, "--workload", "alltoall", "--param", "algo=" + algo, "--param", "size=1000B"});
      auto s = run({"run", platform, "--workload", "alltoall", "--param", "algo=" + algo, "--param",
                    "size=1000B", "--mode", "size-only"});
      EXPECT_EQ(d["verified"], true) << platform << " " << algo;
      EXPECT_EQ(d["completion_ns"], s["completion_ns"]) << platform << " " << algo;
    }
  for (int p : {5, 7})
    for (const auto& algo : algorithm_names(Collective::kAlltoall)) {
      if (find_algorithm(Collective::kAlltoall, algo).needs_torus) continue;  // one rank on every node only
      auto d = run({"run", "tofu-small", "--workload", "alltoall", "--param", "algo=" + algo, "--param",
                    "size=3000B", "--set", first_ranks(p)});
      EXPECT_EQ(d["verified"], true) << p << " ranks, " << algo;
    }
}

// An engine whose completion queue (8) and command queue (4) are far
// smaller than an all-to-all's p - 1 puts: the runtime drains completions
// while a rank waits in it, so nothing deadlocks and every block arrives.
TEST(Collectives, AlltoallLargerThanTheNicQueuesStillCompletes) {
  const std::string json = test::temp_dir() + "/q.json";
  auto r = test::run_kairo({"run", "tofu-small", "--workload", "alltoall", "--param", "size=1KiB", "--set",
                            "nic.completion_queue_depth=8", "--set", "nic.command_queue_depth=4", "--json",
                            json, "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(test::read_file(json));
  EXPECT_EQ(j["verified"], true);
  EXPECT_GT(j["nic_counters"]["completion_queue_stalls"].get<int>(), 0) << "the queues did fill";
  EXPECT_LE(j["nic_counters"]["completion_queue_high_max"].get<int>(), 8);
}

TEST(Collectives, BinomialBcastReachesEveryRankOnceAndForwardsOnlyWhatArrived) {
  for (int p : {2, 3, 5, 8, 13, 96})
    for (int root : {0, p / 2, p - 1}) {
      std::vector<Schedule> all;
      for (int r = 0; r < p; ++r) all.push_back(bcast_binomial(r, p, root, 100, 1));
      auto problems = check_schedules(all);
      EXPECT_TRUE(problems.empty()) << "p=" << p << " root=" << root << ": " << problems.front();
      const std::size_t rounds = std::size_t(std::ceil(std::log2(p)));
      EXPECT_EQ(all[std::size_t(root)].size(), rounds) << "the root sends in every round";
      for (int r = 0; r < p; ++r) {
        int waits = 0;
        bool received = r == root;
        for (const Step& st : all[std::size_t(r)]) {
          if (!st.puts.empty()) EXPECT_TRUE(received) << "rank " << r << " forwards before it has the data";
          waits += int(st.waits.size());
          if (!st.waits.empty()) received = true;
        }
        EXPECT_EQ(waits, r == root ? 0 : 1) << "p=" << p << " r=" << r;
      }
    }
}

TEST(Collectives, BcastVerifiesFromAnyRoot) {
  for (const char* platform : {"tofu-small", "mesh-8x8", "ib-qdr-16", "grid-2x32"})
    for (const char* root : {"root=0", "root=5"}) {
      const std::string json = test::temp_dir() + "/bc.json";
      auto r = test::run_kairo({"run", platform, "--workload", "bcast", "--param", "size=10000B", "--param",
                                root, "--json", json, "--quiet"});
      ASSERT_EQ(r.exit_code, 0) << platform << ": " << r.err;
      EXPECT_EQ(nlohmann::json::parse(test::read_file(json))["verified"], true) << platform << " " << root;
    }
}

// Yazaki et al. 2015's formula (1): L = alpha floor(k_b/2) ceil(k_b/2) (prod of the
// other sizes) m / B, reported with every all-to-all on a mesh/torus.
TEST(Collectives, AlltoallReportsTheMeshTorusLowerBound) {
  auto run = [](const std::string& platform) {
    return run_ok({"run", platform, "--workload", "alltoall", "--param", "size=4KiB", "--mode", "size-only"});
  };
  // mesh-8x8 and torus-8x8: 32B flits at 32GB/s, 8-flit packets of 32B
  // header + 224B payload, so B = 32GB/s x 224 / 256.
  const double B = 32e9 * 224.0 / 256.0, m = 4096;
  auto mesh = run("mesh-8x8");
  EXPECT_NEAR(mesh["details"]["lower_bound_ns"].get<double>(), 1.0 * 4 * 4 * 8 * m / B * 1e9, 1e-6);
  auto torus = run("torus-8x8");
  EXPECT_NEAR(torus["details"]["lower_bound_ns"].get<double>(), 0.5 * 4 * 4 * 8 * m / B * 1e9, 1e-6);
  // Beside it, the routing and injection bounds (tests/analysis/test_bounds.cpp);
  // ratio_to_bound is against the largest, ratio_to_network_bound against formula (1).
  for (auto* j : {&mesh, &torus}) {
    const nlohmann::json& d = (*j)["details"];
    const double latency = (*j)["latency_ns"].get<double>();
    const double largest =
        std::max({d["bounds"]["network_ns"].get<double>(), d["bounds"]["routing_ns"].get<double>(),
                  d["bounds"]["injection_ns"].get<double>()});
    EXPECT_EQ(d["bounds"]["network_ns"], d["lower_bound_ns"]);
    EXPECT_GE(d["ratio_to_bound"].get<double>(), 1.0) << "no algorithm beats the bound";
    EXPECT_DOUBLE_EQ(d["ratio_to_bound"].get<double>(), latency / largest);
    EXPECT_DOUBLE_EQ(d["ratio_to_network_bound"].get<double>(), latency / d["lower_bound_ns"].get<double>());
    // One TNI at 2.8 GB/s: 63 x 4 KiB take 92 us, above both network bounds.
    EXPECT_NEAR(d["bounds"]["injection_ns"].get<double>(), 63 * m / 2.8e9 * 1e9, 1e-6);
    EXPECT_EQ(d["bounds"]["binding"], "injection");
    EXPECT_TRUE(d["bounds"].contains("note")) << "the NIC cannot reach the network bound, and says so";
  }
  auto tree = run("ib-qdr-16")["details"];
  EXPECT_FALSE(tree.contains("lower_bound_ns")) << "a mesh/torus formula";
  EXPECT_EQ(tree["bounds"]["binding"], "injection") << "the one bound a switched fabric has";
}

TEST(Collectives, GatherScatterAllgatherSchedulesAreConsistent) {
  for (int p : {2, 3, 7, 16, 96})
    for (int root : {0, p - 1}) {
      std::vector<Schedule> sc, ga, gl, ag;
      for (int r = 0; r < p; ++r) {
        sc.push_back(scatter_linear(r, p, root, 64, 1));
        ga.push_back(gather_linear(r, p, root, 64, 1));
        gl.push_back(gather_limited(r, p, root, 64, 3, 1));
        ag.push_back(allgather_ring(r, p, 64, 1));
      }
      for (auto* s : {&sc, &ga, &gl, &ag}) {
        auto problems = check_schedules(*s);
        EXPECT_TRUE(problems.empty()) << "p=" << p << ": " << problems.front();
      }
      EXPECT_EQ(ag[0].size(), std::size_t(p - 1)) << "ring allgather: p - 1 steps";
      // The limited gather never lets more than 3 senders go before their blocks landed.
      int released = 0, landed = 0;
      for (const Step& st : gl[std::size_t(root)]) {
        released += int(st.puts.size());
        landed += int(st.waits.size());
        EXPECT_LE(released - landed, 3) << "p=" << p;
      }
      EXPECT_EQ(landed, p - 1);
    }
}

TEST(Collectives, GatherScatterAllgatherVerify) {
  auto run = [](std::vector<std::string> args) { return run_ok(std::move(args), {"--param", "size=3000B"}); };
  for (const char* platform : {"tofu-small", "mesh-8x8", "ib-qdr-16", "grid-2x32"}) {
    EXPECT_EQ(run({"run", platform, "--workload", "scatter", "--param", "root=3"})["verified"], true)
        << platform;
    EXPECT_EQ(run({"run", platform, "--workload", "gather", "--param", "root=3"})["verified"], true)
        << platform;
    EXPECT_EQ(run({"run", platform, "--workload", "gather", "--param", "algo=limited", "--param",
                   "streams=2"})["verified"],
              true)
        << platform;
    EXPECT_EQ(run({"run", platform, "--workload", "allgather"})["verified"], true) << platform;
  }
  EXPECT_EQ(run({"run", "tofu-small", "--workload", "allgather", "--set", first_ranks(7)})["verified"], true);
}

// Morie and Nanri 2013: 6 neighbors on 4 NICs. Native: 4 whole messages, then 2 (two
// NICs idle); fragment: gcd(6, 4) = 2, so half messages in 3 steps with all
// 4 NICs busy in each. Every message arrives whole either way.
TEST(Collectives, NeighborSchedulesKeepEveryNicBusyWhenFragmenting) {
  const Grid g{{4, 5, 6}};
  const int p = g.ranks(), nics = 4;
  const std::uint64_t size = 1000;
  for (bool fragment : {false, true}) {
    std::vector<Schedule> all;
    for (int r = 0; r < p; ++r)
      all.push_back(fragment ? neighbor_fragment(g, r, nics, size, 1) : neighbor_native(g, r, nics, size, 1));
    auto problems = check_schedules(all);
    EXPECT_TRUE(problems.empty()) << problems.front();
    EXPECT_EQ(all[0].size(), fragment ? 3u : 2u);
    for (int r = 0; r < p; r += 17) {
      std::vector<std::uint64_t> bytes(6, 0);
      for (std::size_t st = 0; st < all[std::size_t(r)].size(); ++st) {
        std::set<int> busy;
        for (const Put& put : all[std::size_t(r)][st].puts) {
          busy.insert(put.tni);
          bytes[put.src_offset / size] += put.bytes;
        }
        if (fragment) EXPECT_EQ(busy.size(), std::size_t(nics)) << "step " << st << " leaves a NIC idle";
      }
      for (int k = 0; k < 6; ++k) EXPECT_EQ(bytes[std::size_t(k)], size) << "message " << k << " goes whole";
    }
  }
  EXPECT_EQ(g.neighbor(g.neighbor(7, 2), 3), 7) << "+ then - along a dimension comes back";
}

TEST(Collectives, NeighborVerifiesAndFragmentingWinsForLargeMessages) {
  auto run = [](std::vector<std::string> args) { return run_ok(std::move(args)); };
  for (const char* algo : {"algo=native", "algo=fragment"})
    EXPECT_EQ(run({"run", "tofu-small", "--workload", "neighbor", "--param", algo, "--param", "size=20000B",
                   "--param", "grid=4x4x6"})["verified"],
              true)
        << algo;
  // A 6x6x6 torus whose process grid is the physical one, with 4 NICs per
  // node: 256 KiB messages are DMA-bound, so native takes 2 message times
  // and fragment 3 half-message times.
  auto torus = [&](const char* algo) {
    return run({"run",        "torus-10x10x10",
                "--workload", "neighbor",
                "--param",    algo,
                "--param",    "size=256KiB",
                "--param",    "grid=6x6x6",
                "--set",      "topology.dims.X.size=6",
                "--set",      "topology.dims.Y.size=6",
                "--set",      "topology.dims.Z.size=6",
                "--set",      "router.network_interfaces=4",
                "--set",      "router.max_packet_flits=64",
                "--set",      "router.vc_buffer_flits=64",
                "--mode",     "size-only"})["latency_ns"]
        .get<double>();
  };
  const double native = torus("algo=native"), fragment = torus("algo=fragment");
  EXPECT_LT(fragment, native);
  EXPECT_NEAR(fragment / native, 3.0 / 4.0, 0.05) << "3 half-steps against 2 whole ones";
}

// Recursive-doubling allreduce with real sums of doubles: every rank's
// vector ends as the exact element-wise sum, on every kind of network and
// at rank counts that are not powers of two; size-only runs take the same time.
TEST(Collectives, AllreduceSumsExactlyEverywhere) {
  auto run = [](std::vector<std::string> args) { return run_ok(std::move(args), {"--param", "size=4000B"}); };
  for (const char* platform : {"tofu-small", "mesh-8x8", "ib-qdr-16", "grid-2x32"}) {
    auto d = run({"run", platform, "--workload", "allreduce"});
    EXPECT_EQ(d["verified"], true) << platform;
    auto s = run({"run", platform, "--workload", "allreduce", "--mode", "size-only"});
    EXPECT_EQ(d["completion_ns"], s["completion_ns"]) << platform;
  }
  for (int p : {3, 5, 12})
    EXPECT_EQ(run({"run", "tofu-small", "--workload", "allreduce", "--set", first_ranks(p)})["verified"],
              true)
        << p << " ranks";
}

// Two processes' parts of one run's phase log merge into the log one
// process would have kept: ends are the latest, the order that of the
// earliest end of each phase.
TEST(Collectives, PhaseLogsOfTwoProcessesMergeIntoOneRunsLog) {
  PhaseLog a, b, one;
  // Ranks of process A: exchange ends at 10 and 30, barrier at 40.
  // Ranks of process B: exchange ends at 20, barrier at 35, final at 50.
  a.record("exchange", 10), a.record("exchange", 30), a.record("barrier", 40);
  b.record("exchange", 20), b.record("barrier", 35), b.record("final", 50);
  // One process sees every record in time order.
  for (auto [name, t] : std::vector<std::pair<const char*, sim::Time>>{{"exchange", 10},
                                                                       {"exchange", 20},
                                                                       {"exchange", 30},
                                                                       {"barrier", 35},
                                                                       {"barrier", 40},
                                                                       {"final", 50}})
    one.record(name, t);
  b.merge(a);  // B's entries first: the merge must still put them in order of first end
  ASSERT_EQ(b.entries().size(), one.entries().size());
  for (std::size_t i = 0; i < one.entries().size(); ++i) {
    EXPECT_EQ(b.entries()[i].name, one.entries()[i].name) << i;
    EXPECT_EQ(b.entries()[i].end, one.entries()[i].end) << i;
    EXPECT_EQ(b.entries()[i].first, one.entries()[i].first) << i;
  }
}

}  // namespace
}  // namespace kairo::coll
