// The wide-area loss model (links.wan.flow_control: loss): a stream's Reno
// window against RFC 5681's rules worked by hand, a path's deliveries per
// round trip in slow start, the drop-tail bottleneck overflowing at its
// configured buffer (and every lost segment still arriving, sent again), and
// seed 001's streams sweep on grid-2x32 peaking between 4 and 16 streams.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <vector>

#include "hw/common/packet.h"
#include "hw/router/tcp_window.h"
#include "hw/router/wan_path.h"
#include "sim/event_queue.h"
#include "tests/test_support.h"

using kairo::router::TcpWindow;
using kairo::router::WanPath;
using kairo::sim::Time;

// ACK every segment of a window: one round trip.
static void ack_round(TcpWindow& w, std::uint64_t& seq) {
  const std::uint32_t n = w.cwnd();
  for (std::uint32_t i = 0; i < n; ++i) w.on_ack(++seq);
}

TEST(WanWindow, SlowStartDoublesTheWindowEachRoundTrip) {
  TcpWindow w(3);
  std::uint64_t seq = 0;
  for (int k = 1; k <= 8; ++k) {
    ack_round(w, seq);
    EXPECT_EQ(w.cwnd(), 3u << k) << "after " << k << " round trips of slow start";
  }
}

TEST(WanWindow, ALossHalvesTheWindowOnceAndAvoidanceAddsOneSegmentPerRoundTrip) {
  TcpWindow w(64);
  std::uint64_t seq = 100;
  w.on_fast_retransmit(seq);
  EXPECT_EQ(w.cwnd(), 32u);
  EXPECT_EQ(w.ssthresh(), 32u);
  w.on_fast_retransmit(seq + 5);  // a second loss of the same window: no second halving
  EXPECT_EQ(w.cwnd(), 32u);
  for (std::uint64_t s = 90; s < 100; ++s) w.on_ack(s);  // older than the recovery point: no growth
  EXPECT_EQ(w.cwnd(), 32u);
  EXPECT_TRUE(w.in_recovery());
  w.on_ack(seq);  // the recovery point: recovery ends, congestion avoidance starts counting
  EXPECT_FALSE(w.in_recovery());
  for (std::uint32_t k = 0; k < 5; ++k) {
    const std::uint32_t before = w.cwnd();
    // cwnd ACKs make one segment more (the recovery-point ACK counted toward the first).
    for (std::uint32_t i = 0; i < before - (k == 0 ? 1 : 0); ++i) w.on_ack(++seq);
    EXPECT_EQ(w.cwnd(), before + 1) << "round " << k;
  }
}

TEST(WanWindow, ATimeoutFallsBackToOneSegmentAndSlowStartsToHalfTheFlight) {
  TcpWindow w(40);
  w.on_timeout(30);
  EXPECT_EQ(w.cwnd(), 1u);
  EXPECT_EQ(w.ssthresh(), 15u);
  std::uint64_t seq = 0;
  for (std::uint32_t want : {2u, 4u, 8u, 15u}) {  // 8 -> 16 stops at ssthresh: 8 + 7
    const std::uint32_t n = w.cwnd();
    for (std::uint32_t i = 0; i < n && w.slow_start(); ++i) w.on_ack(++seq);
    EXPECT_EQ(w.cwnd(), want);
  }
}

namespace {

struct NullCredits : kairo::hw::CreditSink {
  void return_credits(int, int, int, Time) override {}
};
struct Receiver : kairo::hw::PacketSink {
  std::vector<std::pair<Time, kairo::hw::Packet*>> got;  // tail arrival, packet
  void accept(int, int, kairo::hw::Packet* p) override { got.push_back({p->tail_ps, p}); }
};

// A path of 10 Gbps (64 B flits) with 10 ms each way, hosts at 1 Gbps,
// 1536 B segments (24 flits).
struct Bench {
  static constexpr Time kFlit = 51'200, kAccess = 512'000, kLatency = 10'000'000'000;
  static constexpr std::uint32_t kBytes = 1536, kFlits = 24;
  kairo::sim::EventQueue q{1000};
  kairo::hw::NetworkActivity act;
  NullCredits up;
  Receiver down;
  kairo::hw::PacketPool pool;
  WanPath path;
  Bench(std::uint64_t queue_bytes, std::uint32_t iw, Time rto)
      : path(q, act, {kFlit, kLatency, kAccess, queue_bytes, rto, iw, 0}) {
    path.connect(&up, 0, &down, 0, 1 << 30);
  }
  void send(kairo::hw::NodeId src, kairo::hw::NodeId dst, int n) {
    for (int i = 0; i < n; ++i) {
      kairo::hw::Packet* p = pool.get();
      p->id = std::uint64_t(src) << 32 | std::uint64_t(i);
      p->src = src;
      p->dst = dst;
      p->bytes = kBytes;
      p->flits = kFlits;
      p->tail_ps = 0;
      path.accept(0, 0, p);
    }
  }
};

}  // namespace

// One stream of 3 + 6 + 12 + 24 + 48 segments with room to spare: each
// round trip (2 x 10 ms) delivers twice the last one's segments.
TEST(WanPath, OneStreamDeliversThreeSixTwelveSegmentsPerRoundTrip) {
  Bench b(64 << 20, 3, 200'000'000'000);
  b.send(1, 40, 3 + 6 + 12 + 24 + 48);
  b.q.run_until(kairo::sim::kNever);
  ASSERT_EQ(b.down.got.size(), 93u);
  const Time rtt = 2 * Bench::kLatency;
  std::map<Time, int> per_round;
  for (auto& [t, p] : b.down.got) ++per_round[t / rtt];  // round k arrives in [k rtt + 10 ms, k rtt + 11 ms)
  int k = 0;
  for (auto& [round, n] : per_round) {
    EXPECT_EQ(round, Time(k));
    EXPECT_EQ(n, 3 << k) << "round trip " << k;
    ++k;
  }
  EXPECT_EQ(k, 5);
  EXPECT_EQ(b.path.stats().drops, 0u);
  EXPECT_EQ(b.path.window(1, 40)->cwnd(), 3u + 93u);  // slow start: one segment per ACK
}

// 40 streams hand over one segment each at the same instant: the FIFO
// keeps floor(queue / segment) of them (the one on the wire included), the
// others are lost. Each lost segment is alone in its stream, so no duplicate
// ACK can reveal it: the timer does, and it arrives one timeout later.
TEST(WanPath, TheBottleneckDropsWhatOverflowsItsBufferAndTheTimerResendsIt) {
  const std::uint64_t queue = 10 * Bench::kBytes + 700;  // room for 10 segments, not 11
  const Time rto = 200'000'000'000;
  Bench b(queue, 3, rto);
  for (kairo::hw::NodeId s = 0; s < 40; ++s) b.send(s, 100 + s, 1);
  b.q.run_until(kairo::sim::kNever);
  // Each timeout resends the survivors together: the FIFO keeps `kept` again.
  const std::uint64_t kept = queue / Bench::kBytes;
  std::uint64_t drops = 0, waves = 0;
  for (std::uint64_t left = 40; left > kept; left -= kept, ++waves) drops += left - kept;
  EXPECT_EQ(b.path.stats().drops, drops);
  EXPECT_EQ(b.path.stats().timeouts, drops);
  EXPECT_EQ(b.path.stats().fast_retransmits, 0u);
  EXPECT_EQ(b.path.stats().peak_queue_bytes, kept * Bench::kBytes);
  ASSERT_EQ(b.down.got.size(), 40u) << "every lost segment is sent again";
  std::vector<std::uint64_t> ids;
  int late = 0;
  for (auto& [t, p] : b.down.got) {
    ids.push_back(p->id);
    late += t >= rto;
  }
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(std::unique(ids.begin(), ids.end()), ids.end()) << "each segment delivered once";
  EXPECT_EQ(std::uint64_t(late), 40 - kept) << "the lost ones arrive after the timeout";
  const Time last = std::max_element(b.down.got.begin(), b.down.got.end())->first;
  EXPECT_GE(last, Time(waves) * rto) << "the last wave waited out " << waves << " timeouts";
  EXPECT_LT(last, Time(waves) * rto + 2 * Bench::kLatency);
  EXPECT_EQ(b.path.window(39, 139)->cwnd(), 2u) << "a timed-out stream restarts from one segment (+1 ACK)";
}

// Seed 001 (Matsuda et al., Figure 4): with TCP on the wide-area link, the
// bcast and the allreduce are fastest with a limited number of concurrent
// inter-cluster streams (8 on the testbed) and slower with all 32.
TEST(WanCongestion, OnGrid2x32TheStreamsSweepPeaksBetweenFourAndSixteen) {
  for (const char* w : {"bcast:vandegeijn-ext", "allreduce:rabenseifner-ext"}) {
    const std::string s = w, workload = s.substr(0, s.find(':')), algo = s.substr(s.find(':') + 1);
    auto r = kairo::test::run_kairo({"run", "grid-2x32", "--workload", workload, "--param", "algo=" + algo,
                                     "--param", "size=8MiB", "--mode", "size-only", "--compare",
                                     "streams=1,2,4,8,16,32", "--quiet"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::map<int, double> ns;  // streams -> completion
    std::istringstream in(r.out);
    std::string line;
    while (std::getline(in, line)) {
      std::istringstream f(line);
      std::string streams, completion;  // the table: streams,completion_ns,...,fastest
      if (std::getline(f, streams, ',') && std::getline(f, completion, ',') && streams != "streams")
        ns[std::stoi(streams)] = std::stod(completion);
    }
    ASSERT_EQ(ns.size(), 6u) << r.out;
    const auto best =
        std::min_element(ns.begin(), ns.end(), [](auto& a, auto& b) { return a.second < b.second; });
    EXPECT_GE(best->first, 4) << workload << ": optimum at n = " << best->first << "\n" << r.out;
    EXPECT_LE(best->first, 16) << workload << ": optimum at n = " << best->first << "\n" << r.out;
    EXPECT_GT(ns[32], best->second) << workload << ": 32 streams not slower than the optimum";
    EXPECT_GT(ns[1], best->second) << workload << ": one stream not slower than the optimum";
  }
}

TEST(WanCongestion, ABadFlowControlOrBufferIsRefusedNamingTheKey) {
  auto bad = kairo::test::run_kairo({"check", "grid-2x32", "--set", "links.wan.flow_control=lossy"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("links.wan.flow_control: expected credit"), std::string::npos) << bad.err;
  auto empty = kairo::test::run_kairo({"check", "grid-2x32", "--set", "links.wan.queue=0B"});
  EXPECT_EQ(empty.exit_code, 2);
  EXPECT_NE(empty.err.find("links.wan.queue"), std::string::npos) << empty.err;
  auto up = kairo::test::run_kairo({"check", "ib-qdr-16", "--set", "links.up.flow_control=loss"});
  EXPECT_EQ(up.exit_code, 2) << "the loss model is the wide-area link's only";
  auto lossless = kairo::test::run_kairo({"check", "grid-2x32", "--set", "links.wan.flow_control=credit"});
  EXPECT_EQ(lossless.exit_code, 0) << lossless.err;
  EXPECT_EQ(lossless.out.find("TCP-like"), std::string::npos) << lossless.out;
  auto shipped = kairo::test::run_kairo({"check", "grid-2x32"});
  EXPECT_NE(shipped.out.find("256KiB drop-tail queue, rto 200ms, initial window 3"), std::string::npos)
      << shipped.out;
}
