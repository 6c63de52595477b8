// The bcast and reduction algorithms (sw/collectives/bcast.h, allreduce.h):
// their schedules executed by a network-free interpreter that moves real
// bytes and sums real doubles, so the algebra of every algorithm is checked
// against MPI semantics independently of the simulator; then whole runs
// through `kairo run` on a 3D torus, a small Tofu, a mesh, a fat tree and
// rank counts that are not powers of two (with the barrier, scatter, gather
// and allgather too; the all-to-all is in test_fw_alltoall.cpp); then seed
// 001's comparisons on grid-2x32 against its cost model (Table 2), and the
// neighbor exchange's crossover.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "sw/collectives/allreduce.h"
#include "sw/collectives/bcast.h"
#include "sw/collectives/pieces.h"
#include "tests/test_support.h"

namespace kairo::coll {
namespace {

// Every rank's two regions, executed step by step: a step posts its puts
// (their bytes copied at once), then ends when every tag it waits for has
// arrived, then runs its ops. Puts land eagerly, which is the earliest a real
// network could deliver them; the executor's ordering rules (ops wait for
// the puts that read what they rewrite) make that equivalent.
struct Interpreter {
  std::vector<std::vector<unsigned char>> send, recv;
  std::vector<std::set<std::uint32_t>> arrived;
  std::vector<std::string> errors;

  bool run(const std::vector<Schedule>& s) {
    const std::size_t p = s.size();
    arrived.assign(p, {});
    std::vector<std::size_t> step(p, 0);
    std::vector<bool> posted(p, false);
    std::vector<std::set<const Put*>> relayed(p);
    for (bool progress = true; progress;) {
      progress = false;
      for (std::size_t r = 0; r < p; ++r) {
        if (step[r] >= s[r].size()) continue;
        const Step& st = s[r][step[r]];
        if (!posted[r]) {
          for (const Put& put : st.puts)
            if (put.after < 0) deliver(int(r), put);
          posted[r] = true;
          progress = true;
        }
        // A relay put goes as soon as the wait that gates it has arrived.
        for (const Put& put : st.puts)
          if (put.after >= 0 && !relayed[r].count(&put) &&
              arrived[r].count(st.waits[std::size_t(put.after)].tag)) {
            relayed[r].insert(&put);
            deliver(int(r), put);
            progress = true;
          }
        if (!std::all_of(st.waits.begin(), st.waits.end(),
                         [&](const Wait& w) { return arrived[r].count(w.tag); }))
          continue;
        for (const Op& op : st.ops) apply(int(r), op);
        if (std::any_of(st.puts.begin(), st.puts.end(),
                        [&](const Put& put) { return put.after >= 0 && !relayed[r].count(&put); }))
          continue;
        ++step[r];
        posted[r] = false;
        progress = true;
      }
    }
    for (std::size_t r = 0; r < p; ++r)
      if (step[r] < s[r].size())
        errors.push_back("rank " + std::to_string(r) + " is stuck in step " + std::to_string(step[r]));
    return errors.empty();
  }

  void deliver(int from, const Put& put) {
    auto& src = put.from_recv ? recv[std::size_t(from)] : send[std::size_t(from)];
    auto& dst = put.to_send ? send[std::size_t(put.to)] : recv[std::size_t(put.to)];
    if (put.src_offset + put.bytes > src.size() || put.dst_offset + put.bytes > dst.size()) {
      errors.push_back("a put from rank " + std::to_string(from) + " leaves a region");
      return;
    }
    std::memcpy(dst.data() + put.dst_offset, src.data() + put.src_offset, put.bytes);
    if (!arrived[std::size_t(put.to)].insert(put.tag).second)
      errors.push_back("rank " + std::to_string(put.to) + " gets tag " + std::to_string(put.tag) + " twice");
  }

  void apply(int r, const Op& op) {
    auto& s = send[std::size_t(r)];
    auto& v = recv[std::size_t(r)];
    ASSERT_LE(op.recv_offset + op.bytes, v.size());
    ASSERT_LE(op.send_offset + op.bytes, s.size());
    if (op.kind == Op::Kind::kCopy) {
      std::memcpy(s.data() + op.send_offset, v.data() + op.recv_offset, op.bytes);
      return;
    }
    for (std::uint64_t i = 0; i < op.bytes; i += 8) {
      double a, b;
      std::memcpy(&a, v.data() + op.recv_offset + i, 8);
      std::memcpy(&b, s.data() + op.send_offset + i, 8);
      const double c = op.recv_first ? a + b : b + a;
      std::memcpy(s.data() + op.send_offset + i, &c, 8);
    }
  }
};

double value(int rank, std::uint64_t i) { return double((rank * 13 + int(i) * 5) % 97) + 0.25 * (rank % 3); }

// Runs one reduction over p ranks with `size` bytes in the interpreter;
// returns the send regions (the vectors) after it.
std::vector<std::vector<double>> reduce_in_interpreter(ReductionKind kind, const std::string& algo, int p,
                                                       std::uint64_t size, int streams = 2, int root = 0) {
  std::vector<Schedule> all;
  Interpreter in;
  for (int r = 0; r < p; ++r) {
    Reduction c{r, p, root, size, streams, 1};
    all.push_back(reduction(kind, algo, c));
    std::vector<double> v(size / 8);
    for (std::uint64_t i = 0; i < v.size(); ++i) v[i] = value(r, i);
    in.send.emplace_back(size);
    std::memcpy(in.send.back().data(), v.data(), size);
  }
  std::uint64_t extent = 8;
  for (const auto& s : all) extent = std::max(extent, recv_extent(s));
  in.recv.assign(std::size_t(p), std::vector<unsigned char>(extent, 0));
  const auto problems = check_schedules(all);
  EXPECT_TRUE(problems.empty()) << algo << " p=" << p << ": " << problems.front();
  EXPECT_TRUE(in.run(all)) << algo << " p=" << p << ": " << in.errors.front();
  std::vector<std::vector<double>> out(std::size_t(p), std::vector<double>(size / 8));
  for (int r = 0; r < p; ++r) std::memcpy(out[std::size_t(r)].data(), in.send[std::size_t(r)].data(), size);
  return out;
}

// The values here are multiples of 1/4 below 100: every partial sum is exact
// in a double, so the expected sum does not depend on the order.
std::vector<double> exact_sum(int p, std::uint64_t n) {
  std::vector<double> s(n, 0.0);
  for (int r = 0; r < p; ++r)
    for (std::uint64_t i = 0; i < n; ++i) s[i] += value(r, i);
  return s;
}

// Whether the algorithm's rank-count rule, as its descriptor states it
// (algorithms.h: Algorithm::refuse), allows p ranks of `size` bytes with its
// knobs at their defaults: the tests below try every algorithm of the table
// wherever its own rule lets it run.
bool allowed(Collective c, const std::string& algo, int p, std::uint64_t size = 8) {
  const Algorithm& a = find_algorithm(c, algo);
  Call call{0, p, 0, size, 1, 1};
  for (const Knob& k : a.knobs) call.*k.member = std::max(k.lo, std::min(k.deflt(p), k.hi(p)));
  return a.refuse(call).empty();
}

TEST(Reductions, EveryAllreduceLeavesTheExactSumOnEveryRank) {
  for (const auto& algo : algorithm_names(ReductionKind::kAllreduce))
    for (int p : {2, 3, 4, 5, 6, 8, 12, 16, 32})
      for (std::uint64_t size :
           {std::uint64_t(8), std::uint64_t(8 * 3 * p + 16)}) {  // fewer doubles than ranks, and more
        if (!allowed(Collective::kAllreduce, algo, p)) continue;
        const auto out = reduce_in_interpreter(ReductionKind::kAllreduce, algo, p, size, std::min(2, p / 2));
        const auto want = exact_sum(p, size / 8);
        for (int r = 0; r < p; ++r)
          EXPECT_EQ(out[std::size_t(r)], want) << algo << " p=" << p << " size=" << size << " rank " << r;
      }
}

TEST(Reductions, ReduceScatterAndReduceLeaveTheirPartsWhereMpiSays) {
  for (const auto& algo : algorithm_names(ReductionKind::kReduceScatter))
    for (int p : {2, 3, 4, 7, 8, 16}) {
      if (!allowed(Collective::kReduceScatter, algo, p)) continue;
      const std::uint64_t size = 8 * 5 * std::uint64_t(p) + 24;
      const auto out = reduce_in_interpreter(ReductionKind::kReduceScatter, algo, p, size);
      const auto want = exact_sum(p, size / 8);
      const Parts parts{size, p, 8};
      for (int r = 0; r < p; ++r)
        for (std::uint64_t i = parts.offset(r) / 8; i < parts.offset(r + 1) / 8; ++i)
          EXPECT_EQ(out[std::size_t(r)][i], want[i])
              << algo << " p=" << p << " rank " << r << " element " << i;
    }
  for (const auto& algo : algorithm_names(ReductionKind::kReduce))
    for (int p : {2, 3, 5, 8, 12})
      for (int root : {0, p - 1, p / 2}) {
        if (!allowed(Collective::kReduce, algo, p)) continue;
        const auto out = reduce_in_interpreter(ReductionKind::kReduce, algo, p, 8 * 40, 1, root);
        EXPECT_EQ(out[std::size_t(root)], exact_sum(p, 40)) << algo << " p=" << p << " root " << root;
      }
}

// With values that round (thirds), every rank must still end with the same
// bits: each part is summed once and copied, or summed by partners in the
// same order.
TEST(Reductions, AllreduceGivesEveryRankTheSameBitsEvenWhenSumsRound) {
  for (const auto& algo : algorithm_names(ReductionKind::kAllreduce))
    for (int p : {6, 8, 16}) {
      if (!allowed(Collective::kAllreduce, algo, p)) continue;
      std::vector<Schedule> all;
      Interpreter in;
      const std::uint64_t size = 8 * 64;
      for (int r = 0; r < p; ++r) {
        all.push_back(
            reduction(ReductionKind::kAllreduce, algo, Reduction{r, p, 0, size, std::min(2, p / 2), 1}));
        std::vector<double> v(64);
        for (std::size_t i = 0; i < v.size(); ++i) v[i] = 1.0 / double(3 + r + int(i));
        in.send.emplace_back(size);
        std::memcpy(in.send.back().data(), v.data(), size);
      }
      std::uint64_t extent = 8;
      for (const auto& s : all) extent = std::max(extent, recv_extent(s));
      in.recv.assign(std::size_t(p), std::vector<unsigned char>(extent, 0));
      ASSERT_TRUE(in.run(all)) << algo;
      for (int r = 1; r < p; ++r)
        EXPECT_EQ(in.send[std::size_t(r)], in.send[0]) << algo << " p=" << p << " rank " << r;
    }
}

TEST(Reductions, RecursiveDoublingHasLog2RoundsPlusTwoForTheExtraRanks) {
  for (int p : {2, 4, 5, 8, 12, 16, 100}) {
    const int lg = log2_floor(p), pow2 = 1 << lg, extra = p - pow2;
    for (int r = 0; r < p; ++r) {
      const std::size_t steps = allreduce_recursive_doubling(Reduction{r, p, 0, 64, 1, 1}).size();
      const std::size_t want = r >= pow2 ? 2u : r < extra ? std::size_t(lg + 2) : std::size_t(lg);
      EXPECT_EQ(steps, want) << "p=" << p << " rank " << r;
    }
  }
}

// The two-cluster algorithms: only `streams` ranks of a half put across to
// the other half, and each crossing rank carries h / streams parts (rounded up).
TEST(Reductions, ExtendedAlgorithmsCrossWithAtMostStreamsRanksPerCluster) {
  for (int p : {8, 16, 64})
    for (int n : {1, 2, 3, p / 2}) {
      const int h = p / 2;
      std::set<int> crossing_a, crossing_b;
      std::map<int, int> crossings;
      for (int r = 0; r < p; ++r) {
        const auto s = allreduce_rabenseifner_ext(Reduction{r, p, 0, std::uint64_t(8 * p), n, 1});
        for (const Step& st : s)
          for (const Put& put : st.puts)
            if ((r < h) != (put.to < h)) {
              (r < h ? crossing_a : crossing_b).insert(r);
              ++crossings[r];
            }
      }
      EXPECT_EQ(int(crossing_a.size()), n) << "p=" << p << " n=" << n;
      EXPECT_EQ(int(crossing_b.size()), n) << "p=" << p << " n=" << n;
      for (const auto& [r, k] : crossings) EXPECT_LE(k, (h + n - 1) / n) << "rank " << r;
      std::set<int> bcast_crossing;
      for (int r = 0; r < p; ++r)
        for (const Step& st : bcast_vandegeijn_ext(r, p, 0, std::uint64_t(100 * p), n, 1))
          for (const Put& put : st.puts)
            if ((r < h) != (put.to < h)) bcast_crossing.insert(r);
      EXPECT_EQ(int(bcast_crossing.size()), n) << "bcast p=" << p << " n=" << n;
      EXPECT_TRUE(std::all_of(bcast_crossing.begin(), bcast_crossing.end(), [&](int r) { return r < h; }))
          << "the root's half sends";
    }
}

TEST(Reductions, EveryBcastDeliversTheRootsBytesToEveryRank) {
  for (const auto& algo : algorithm_names(Collective::kBcast))
    for (int p : {2, 3, 4, 6, 8, 10, 16, 32})
      for (int root : {0, p - 1}) {
        if (!allowed(Collective::kBcast, algo, p)) continue;
        for (std::uint64_t size : {std::uint64_t(3), std::uint64_t(1000)}) {
          std::vector<Schedule> all;
          Interpreter in;
          for (int r = 0; r < p; ++r) all.push_back(bcast(algo, r, p, root, size, std::max(1, p / 4), 1));
          in.send.assign(std::size_t(p), std::vector<unsigned char>(8, 0));
          in.recv.assign(std::size_t(p), std::vector<unsigned char>(size, 0));
          for (std::uint64_t i = 0; i < size; ++i)
            in.recv[std::size_t(root)][i] = static_cast<unsigned char>(i * 7 + 1);
          const auto problems = check_schedules(all);
          EXPECT_TRUE(problems.empty()) << algo << " p=" << p << ": " << problems.front();
          ASSERT_TRUE(in.run(all)) << algo << " p=" << p << ": " << in.errors.front();
          for (int r = 0; r < p; ++r)
            EXPECT_EQ(in.recv[std::size_t(r)], in.recv[std::size_t(root)])
                << algo << " p=" << p << " root " << root << " rank " << r;
        }
      }
}

TEST(Reductions, AlgorithmsRejectRankCountsTheyCannotServe) {
  EXPECT_THROW(reduction(ReductionKind::kAllreduce, "twotier", Reduction{0, 12, 0, 96, 1, 1}),
               std::invalid_argument);
  EXPECT_THROW(reduction(ReductionKind::kAllreduce, "rabenseifner-ext", Reduction{0, 7, 0, 96, 1, 1}),
               std::invalid_argument);
  EXPECT_THROW(reduction(ReductionKind::kAllreduce, "rabenseifner-ext", Reduction{0, 8, 0, 96, 5, 1}),
               std::invalid_argument);
  EXPECT_THROW(reduction(ReductionKind::kReduceScatter, "halving", Reduction{0, 6, 0, 96, 1, 1}),
               std::invalid_argument);
  EXPECT_THROW(bcast("vandegeijn-ext", 0, 7, 0, 100, 1, 1), std::invalid_argument);
  EXPECT_NO_THROW(reduction(ReductionKind::kAllreduce, "ring", Reduction{0, 7, 0, 96, 1, 1}));
}

// ---- whole runs ----

nlohmann::json run_ok(std::vector<std::string> args) {
  const std::string json = test::temp_dir() + "/run.json";
  args.insert(args.end(), {"--json", json, "--quiet"});
  auto r = test::run_kairo(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.exit_code == 0 ? nlohmann::json::parse(test::read_file(json)) : nlohmann::json::object();
}

std::string first_ranks(int p) {
  std::string s = "ranks.map=[";
  for (int r = 0; r < p; ++r) s += (r ? "," : "") + std::to_string(r);
  return s + "]";
}

struct Net {
  const char* platform;
  int ranks;
  std::vector<std::string> set;
};

// A 3D torus (torus-10x10x10 cut to 4x4x2), a small Tofu, a 2D mesh, a fat
// tree, and 6 and 12 ranks of the small Tofu.
std::vector<Net> networks() {
  return {{"torus-10x10x10",
           32,
           {"--set", "topology.dims.X.size=4", "--set", "topology.dims.Y.size=4", "--set",
            "topology.dims.Z.size=2"}},
          {"tofu-small", 96, {}},
          {"mesh-8x8", 64, {}},
          {"ib-qdr-16", 16, {}},
          {"tofu-small", 6, {"--set", first_ranks(6)}},
          {"tofu-small", 12, {"--set", first_ranks(12)}}};
}

TEST(Reductions, EveryAlgorithmVerifiesOnEveryKindOfNetwork) {
  const Collective collectives[] = {Collective::kAllreduce, Collective::kReduceScatter, Collective::kReduce,
                                    Collective::kBcast,     Collective::kAllgather,     Collective::kScatter,
                                    Collective::kGather,    Collective::kBarrier};
  int runs = 0;
  for (const Net& net : networks())
    for (Collective c : collectives)
      for (const std::string& algo : algorithm_names(c)) {
        const std::string workload = collective_name(c);
        if (!allowed(c, algo, net.ranks, 2400)) continue;
        std::vector<std::string> args = {"run",    net.platform, "--workload",
                                         workload, "--param",    "algo=" + algo};
        if (workload != "barrier") args.insert(args.end(), {"--param", "size=2400B"});
        if (workload == "barrier") args.insert(args.end(), {"--param", "skew_ns=2000"});
        if (workload == "scatter" || workload == "gather")
          args.insert(args.end(), {"--param", "root=" + std::to_string(net.ranks - 1)});
        args.insert(args.end(), net.set.begin(), net.set.end());
        auto d = run_ok(args);
        ++runs;
        EXPECT_EQ(d["verified"], true) << net.platform << " " << net.ranks << " ranks " << workload << " "
                                       << algo << " " << d.value("failure", "");
        EXPECT_EQ(d["ranks"], net.ranks);
        if (net.ranks == 16 || net.ranks == 12) {  // size-only mode keeps the timing
          args.insert(args.end(), {"--mode", "size-only"});
          EXPECT_EQ(d["completion_ns"], run_ok(args)["completion_ns"])
              << net.platform << " " << workload << " " << algo;
        }
      }
  EXPECT_GE(runs, 6 * 15) << "every network ran most algorithms";
}

// Matsuda et al. on its own testbed (grid-2x32: 2 x 32 hosts on 1 Gbps, a 10 Gbps
// wide-area link with 10 ms of delay), 8 MiB messages, against the cost
// model of its Table 2 with B and W the payload rates of the host and
// wide-area links (1500 B of a 1536 B frame in 64 B credit units).
double phase_ns(const nlohmann::json& j, const std::string& name) {
  for (const auto& p : j["details"]["phases"])
    if (p["phase"] == name) return p["ns"].get<double>();
  ADD_FAILURE() << "no phase " << name;
  return 0;
}

TEST(Reductions, OnTwoClustersTheExtendedAlgorithmsBeatFarfirstAndTwotierAndStreamsSaturateTheWan) {
  const double M = 8 * 1024 * 1024, L = 10e6;                // bytes, ns
  const double B = 1e9 / 8 * 1500 / 1536 / 1e9, W = 10 * B;  // bytes per ns
  const int h = 32;
  auto run = [&](const std::string& workload, const std::string& algo, int streams = 0) {
    std::vector<std::string> a = {
        "run",       "grid-2x32", "--workload",
        workload,    "--param",   "algo=" + algo,
        "--param",   "size=8MiB", "--mode",
        "size-only", "--set",     "links.wan.flow_control=credit"};  // Table 2's lossless model
    if (streams) a.insert(a.end(), {"--param", "streams=" + std::to_string(streams)});
    return run_ok(a);
  };
  // farfirst: L + M/B across, then a scatter and an allgather of (h-1)/h M each.
  const auto far = run("bcast", "farfirst");
  const double far_model = L + M / B + 2 * (h - 1) * M / h / B;
  EXPECT_NEAR(far["latency_ns"].get<double>() / far_model, 1.0, 0.03);
  std::map<int, double> ext, copy;
  for (int n : {1, 2, 4, 8, 16, 32}) {
    const auto j = run("bcast", "vandegeijn-ext", n);
    ext[n] = j["latency_ns"];
    copy[n] = phase_ns(j, "counter_copy");
  }
  EXPECT_LT(ext[8], far["latency_ns"].get<double>());
  // While n hosts' links are slower than the wide-area link, doubling n
  // cuts the cross-cluster copy by a good part ...
  for (int n : {1, 2, 4}) EXPECT_GT(copy[n] / copy[2 * n], 1.3) << "n=" << n;
  // ... and once n x B exceeds W it cannot go below L + M/W and stops helping.
  EXPECT_GE(copy[32], L + M / W);
  EXPECT_NEAR(copy[32] / (L + M / W), 1.0, 0.05);
  EXPECT_LT(copy[16] / copy[32], 1.15);
  EXPECT_LT(ext[16] / ext[32], 1.05);
  // n = 1: one host's link carries the whole message across (after taking
  // in the parts the others forward to it): at least L + M/B.
  EXPECT_GE(copy[1], L + M / B);
  EXPECT_GT(copy[1] / copy[32], 4.0);

  const auto two = run("allreduce", "twotier");
  const auto rab = run("allreduce", "rabenseifner-ext", 8);
  EXPECT_LT(rab["latency_ns"].get<double>(), two["latency_ns"].get<double>());
  // twotier: reduce (2 (h-1)/h M/B) + L + M/B across + bcast (2 (h-1)/h M/B), within 10%.
  const double two_model = L + M / B + 4 * (h - 1) * M / h / B;
  EXPECT_NEAR(two["latency_ns"].get<double>() / two_model, 1.0, 0.1);
}

// Morie and Nanri 2013's 6 neighbors on 4 NICs, on a 6x6x6 torus whose process grid is
// the physical one: native wins for small messages (2 steps of latency
// against 3), fragment for large ones (DMA-bound: 3 half messages against 2
// whole ones). `--compare algo=native,fragment --param sizes=` reports the
// crossover; the runs at its two ends confirm the bracket.
TEST(Reductions, NeighborCrossoverIsReportedAndBracketsTheSwitch) {
  const std::vector<std::string> machine = {"--param", "grid=6x6x6",
                                            "--set",   "topology.dims.X.size=6",
                                            "--set",   "topology.dims.Y.size=6",
                                            "--set",   "topology.dims.Z.size=6",
                                            "--set",   "router.network_interfaces=4",
                                            "--set",   "router.max_packet_flits=64",
                                            "--set",   "router.vc_buffer_flits=64",
                                            "--mode",  "size-only"};
  std::vector<std::string> args = {"run",       "torus-10x10x10",       "--workload", "neighbor",
                                   "--compare", "algo=native,fragment", "--param",    "sizes=1KiB,256KiB"};
  args.insert(args.end(), machine.begin(), machine.end());
  const auto j = run_ok(args);
  ASSERT_EQ(j["crossovers"].size(), 1u) << j.dump();
  const auto& c = j["crossovers"][0];
  EXPECT_EQ(c["from"], "native");
  EXPECT_EQ(c["to"], "fragment");
  const auto lo = c["above_bytes"].get<std::uint64_t>(), hi = c["at_most_bytes"].get<std::uint64_t>();
  EXPECT_LT(lo, hi);
  EXPECT_LE(hi - lo, std::max<std::uint64_t>(8, lo / 32) + 8) << "bisected to a narrow bracket";
  auto latency = [&](const char* algo, std::uint64_t bytes) {
    std::vector<std::string> a = {"run",        "torus-10x10x10",
                                  "--workload", "neighbor",
                                  "--param",    std::string("algo=") + algo,
                                  "--param",    "size=" + std::to_string(bytes) + "B"};
    a.insert(a.end(), machine.begin(), machine.end());
    return run_ok(a)["latency_ns"].get<double>();
  };
  EXPECT_LE(latency("native", lo), latency("fragment", lo));
  EXPECT_LT(latency("fragment", hi), latency("native", hi));
  EXPECT_NE(test::run_kairo({"run", "tofu-small", "--workload", "neighbor", "--compare",
                             "algo=native,fragment", "--param", "sizes=4KiB,1KiB"})
                .exit_code,
            0)
      << "sizes must increase";
}

}  // namespace
}  // namespace kairo::coll
