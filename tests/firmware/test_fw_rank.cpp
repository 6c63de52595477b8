// The firmware API on the real machine: rank programs (coroutines) register
// memory, put and get through their TNIs, wait for tags and completions, and
// time comes out as the put model says.
#include <gtest/gtest.h>

#include "firmware/rank.h"
#include "platforms/hybrid_netlist.h"
#include "tests/nic_bench.h"

namespace kairo::fw {
namespace {

using hw::NodeId;
using sim::Time;
using test::NicBench;

struct Machine {
  explicit Machine(const platforms::Platform& p) : bench(p) {
    std::vector<std::vector<nic::HostInterface*>> tnis(bench.net.num_nodes());
    std::vector<nic::MemoryRegistry*> regs;
    for (NodeId n = 0; n < bench.net.num_nodes(); ++n) {
      for (int i = 0; i < bench.net.network_interfaces(); ++i) tnis[n].push_back(&bench.tni(n, i));
      regs.push_back(bench.registries[n]);
    }
    rt = std::make_unique<Runtime>(bench.queue, bench.net.torus(), tnis, regs);
  }
  NicBench bench;
  std::unique_ptr<Runtime> rt;
};

// A puts 8 bytes to B; B, once it sees the tag, puts 8 bytes back; A waits for
// that tag. Each leg is the put model's post-to-notice time (node latency,
// DMA read, packet, DMA write), so the round trip is two of them.
Task pingpong(Rank& r, int peer, Time* round_trip) {
  const nic::MemKey mine = r.reg_mem(1, 0x1000, 4096);
  co_await r.compute(1000000);  // let every rank register before anyone puts
  const nic::MemKey theirs = r.remote_key(r.rank() == 0 ? peer : 0, 1);
  std::uint64_t h = 0;
  if (r.rank() == 0) {
    const Time start = r.now();
    co_await r.put(0, peer, theirs, 0, mine, 8, 8, /*tag=*/1, &h);
    co_await r.poll(2);
    *round_trip = r.now() - start;
    co_await r.complete(0, h);
  } else if (r.rank() == peer) {
    co_await r.poll(1);
    co_await r.put(0, 0, theirs, 0, mine, 0, 8, /*tag=*/2, &h);
    nic::Completion c;
    co_await r.complete(0, h, &c);
    EXPECT_EQ(c.status, nic::RdmaStatus::kOk);
  }
}

TEST(FwRank, PingPongRoundTripIsTwoPutsToNotice) {
  auto p = platforms::load_platform("tofu-small");
  Machine m(p);
  hw::Topology topo(p.dims);
  const int peer = int(topo.id_of({1, 0, 0, 0, 0, 0}));
  m.bench.write(0, 0x1000 + 8, {9, 8, 7, 6, 5, 4, 3, 2});
  Time rtt = 0;
  m.rt->launch([&](Rank& r) { return pingpong(r, peer, &rtt); });
  m.bench.queue.run_direct();
  ASSERT_TRUE(m.rt->all_done());

  nic::NicParams tp;
  const Time period = p.router.clock_period_ps();
  auto leg = [&](Time post, NodeId from, NodeId to) {
    const Time read_done = post + tp.node_latency_ps + test::dma_ps(tp.dma_bytes_per_s, 8);
    return test::ceil_to(test::network(p, read_done, test::packet_flits(p, 8), from, to), period) +
           test::dma_ps(tp.dma_bytes_per_s, 8);
  };
  const Time t0 = 1000000;
  const Time at_b = leg(t0, 0, NodeId(peer));
  const Time at_a = leg(at_b, NodeId(peer), 0);
  EXPECT_EQ(rtt, at_a - t0);
  EXPECT_EQ(m.bench.read(NodeId(peer), 0x1000, 8), (std::vector<unsigned char>{9, 8, 7, 6, 5, 4, 3, 2}));
  EXPECT_EQ(m.bench.read(0, 0x1000, 8), (std::vector<unsigned char>{9, 8, 7, 6, 5, 4, 3, 2})) << "and back";
}

// Every rank gets a block from its right neighbour on every TNI at once and
// waits for all completions; the data is right everywhere.
Task ring_get(Rank& r, int tnis) {
  const nic::MemKey mine = r.reg_mem(7, 0, 1 << 16);
  co_await r.compute(1000);
  const int right = (r.rank() + 1) % r.size();
  std::vector<std::uint64_t> handles(std::size_t(tnis), 0);
  for (int t = 0; t < tnis; ++t)
    co_await r.get(t, right, r.remote_key(right, 7), 0, mine, std::uint64_t(4096 * (t + 1)), 1000,
                   &handles[t]);
  for (int t = 0; t < tnis; ++t) {
    nic::Completion c;
    co_await r.complete(t, handles[t], &c);
    EXPECT_EQ(c.status, nic::RdmaStatus::kOk);
  }
}

TEST(FwRank, GetsOnEveryTniFromTheRightNeighbourBringTheRightBytes) {
  auto p = platforms::load_platform("tofu-small");
  Machine m(p);
  const int n = int(m.bench.net.num_nodes());
  for (int r = 0; r < n; ++r)
    m.bench.write(NodeId(r), 0, std::vector<unsigned char>(1000, static_cast<unsigned char>(r)));
  m.rt->launch([&](Rank& r) { return ring_get(r, 4); });
  m.bench.queue.run_direct();
  ASSERT_TRUE(m.rt->all_done());
  for (int r = 0; r < n; ++r)
    for (int t = 0; t < 4; ++t)
      EXPECT_EQ(m.bench.read(NodeId(r), std::uint64_t(4096 * (t + 1)), 1000),
                std::vector<unsigned char>(1000, static_cast<unsigned char>((r + 1) % n)))
          << "rank " << r << " tni " << t;
}

// alloc hands out aligned, disjoint ranges and refuses what the node memory
// cannot hold, naming the rank; a spawned sub-program runs alongside and is joined.
Task allocate(Rank& r, std::vector<std::uint64_t>* got, std::string* error) {
  got->push_back(r.alloc(10));
  got->push_back(r.alloc(100, 64));
  got->push_back(r.alloc(1, 4096));
  try {
    r.alloc(std::uint64_t(1) << 20);
  } catch (const std::runtime_error& e) {
    *error = e.what();
  }
  co_return;
}

TEST(FwRank, AllocIsAlignedDisjointAndBoundedByTheNodeMemory) {
  auto p = platforms::load_platform("tofu-small");
  Machine m(p);
  m.rt->set_memory_bytes(1 << 16);
  std::vector<std::uint64_t> got;
  std::string error;
  m.rt->launch([&](Rank& r) { return r.rank() == 5 ? allocate(r, &got, &error) : Task(); });
  m.bench.queue.run_direct();
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0], 0u);
  EXPECT_EQ(got[1], 64u) << "10 rounded up to the 64-byte alignment";
  EXPECT_EQ(got[2], 4096u);
  EXPECT_NE(error.find("rank 5"), std::string::npos) << error;
}

Task two_streams(Rank& r, std::vector<Time>* done) {
  auto stream = [](Rank& r, Time t, std::vector<Time>* d) -> Task {
    co_await r.compute(t);
    d->push_back(r.now());
  };
  Task a = stream(r, 3000, done), b = stream(r, 5000, done);
  r.spawn(a);
  r.spawn(b);
  co_await b;  // joins after both ran side by side: 5 ns, not 8
  co_await a;
  done->push_back(r.now());
}

TEST(FwRank, SpawnedSubProgramsRunAlongsideAndJoin) {
  auto p = platforms::load_platform("tofu-small");
  Machine m(p);
  std::vector<Time> done;
  m.rt->launch([&](Rank& r) { return r.rank() == 0 ? two_streams(r, &done) : Task(); });
  m.bench.queue.run_direct();
  ASSERT_TRUE(m.rt->all_done());
  EXPECT_EQ(done, (std::vector<Time>{3000, 5000, 5000}));
  EXPECT_EQ(m.rt->finished(), m.rt->size());
  EXPECT_EQ(m.rt->finished_at(), 5000u);
}

// Progress: two ranks put to each other more often than their notice queues
// (depth 1) hold, then wait for their own completions before polling any
// tag. Waiting in the runtime drains notices, so the acknowledgements held
// behind a full queue get through; without that, both would wait forever.
Task exchange(Rank& r, int peer, int puts, int expect, Time compute_first, std::vector<Time>* acked) {
  const nic::MemKey mine = r.reg_mem(1, r.alloc(4096), 4096);
  co_await r.compute(1000000);
  if (compute_first) co_await r.compute(compute_first);
  std::vector<std::uint64_t> hs(static_cast<std::size_t>(puts));
  for (int k = 0; k < puts; ++k)
    co_await r.put(0, peer, r.remote_key(peer, 1), std::uint64_t(8 * k), mine, 0, 8, std::uint32_t(10 + k),
                   &hs[std::size_t(k)]);
  for (auto h : hs) {
    nic::Completion c;
    co_await r.complete(0, h, &c);
    EXPECT_EQ(c.status, nic::RdmaStatus::kOk);
    acked->push_back(c.time_ps);
  }
  for (int k = 0; k < expect; ++k) co_await r.poll(std::uint32_t(10 + k));
}

TEST(FwRank, WaitingInTheRuntimeDrainsNoticesSoFullQueuesNeverDeadlock) {
  auto p = platforms::load_platform("tofu-small");
  p.nic.notice_queue_depth = 1;
  Machine m(p);
  std::vector<Time> acked[2];
  m.rt->launch(
      [&](Rank& r) { return r.rank() < 2 ? exchange(r, 1 - r.rank(), 6, 6, 0, &acked[r.rank()]) : Task(); });
  m.bench.queue.run_direct();
  ASSERT_TRUE(m.rt->all_done());
  EXPECT_EQ(acked[0].size(), 6u);
  EXPECT_EQ(acked[1].size(), 6u);
  EXPECT_LE(m.bench.tni(0).counters().notice_queue_high, 1u);
}

// A rank that computes for 50 us does not take notices: after the first
// (the queue's depth), the sender's puts are acknowledged only once the
// target is back in the runtime.
TEST(FwRank, ARankThatComputesBackPressuresItsSenders) {
  auto p = platforms::load_platform("tofu-small");
  p.nic.notice_queue_depth = 1;
  Machine m(p);
  const Time busy = 50000000;  // 50 us
  std::vector<Time> acked[2];
  m.rt->launch([&](Rank& r) {
    if (r.rank() == 0) return exchange(r, 1, 4, 0, 0, &acked[0]);
    if (r.rank() == 1) return exchange(r, 0, 0, 4, busy, &acked[1]);
    return Task();
  });
  m.bench.queue.run_direct();
  ASSERT_TRUE(m.rt->all_done());
  ASSERT_EQ(acked[0].size(), 4u);
  const Time back_in_runtime = 1000000 + busy;
  EXPECT_LT(acked[0][0], back_in_runtime) << "the first notice fits the queue";
  for (std::size_t k = 1; k < 4; ++k) EXPECT_GT(acked[0][k], back_in_runtime) << "put " << k;
  EXPECT_GE(m.bench.tni(1).counters().notice_queue_stalls, 1u);
}

// Local memory access from firmware: what a rank writes it reads back; an
// access outside the node memory is refused with the rank named.
Task local_memory(Rank& r, std::vector<unsigned char>* back, std::string* error) {
  const std::vector<unsigned char> data = {1, 2, 3, 4, 5};
  co_await r.write_local(100, data.data(), data.size());
  back->resize(data.size());
  co_await r.read_local(100, back->data(), back->size());
  try {
    co_await r.read_local(std::uint64_t(1) << 50, back->data(), 1);
  } catch (const std::runtime_error& e) {
    *error = e.what();
  }
}

TEST(FwRank, LocalMemoryReadsWhatWasWrittenAndRefusesOutOfRange) {
  auto p = platforms::load_platform("tofu-small");
  Machine m(p);
  std::vector<tlm::tlm_fw_transport_if<>*> mems;
  for (NodeId n = 0; n < m.bench.net.num_nodes(); ++n) mems.push_back(m.bench.machine.memory(n).target());
  m.rt->set_memories(mems);
  std::vector<unsigned char> back;
  std::string error;
  m.rt->launch([&](Rank& r) { return r.rank() == 3 ? local_memory(r, &back, &error) : Task(); });
  m.bench.queue.run_direct();
  ASSERT_TRUE(m.rt->all_done());
  EXPECT_EQ(back, (std::vector<unsigned char>{1, 2, 3, 4, 5}));
  EXPECT_EQ(m.bench.read(3, 100, 5), back) << "it is the node's memory";
  EXPECT_NE(error.find("rank 3"), std::string::npos) << error;
}

// The hybrid network's circuits from firmware: rank 3 asks for a pathway to
// rank 100 at 1 ms; its optical put (TNI 1) is refused before the pathway
// is up (ocs.on_circuit_down=error) and lands after it (1 ms + 10 ms); once
// rank 3 releases the pathway, TNI 1 refuses again. A second request while
// the ports are taken is refused with the controller's reason.
Task circuits(Rank& r, std::vector<nic::RdmaStatus>* got, std::vector<std::string>* answers) {
  const nic::MemKey mine = r.reg_mem(1, 0x1000, 4096);
  co_await r.compute(1000000000);  // 1 ms
  if (r.rank() != 3) co_return;
  const nic::MemKey theirs = r.remote_key(100, 1);
  answers->push_back(r.request_pathway(100));
  answers->push_back(r.request_pathway(100));  // ports already in use
  nic::Completion c;
  std::uint64_t h = 0;
  co_await r.put(1, 100, theirs, 0, mine, 0, 8, 1, &h);
  co_await r.complete(1, h, &c);
  got->push_back(c.status);
  co_await r.compute(10000000000);  // 10 ms: up now
  co_await r.put(1, 100, theirs, 0, mine, 0, 8, 2, &h);
  co_await r.complete(1, h, &c);
  got->push_back(c.status);
  answers->push_back(r.release_pathway(100));
  co_await r.put(1, 100, theirs, 0, mine, 0, 8, 3, &h);
  co_await r.complete(1, h, &c);
  got->push_back(c.status);
}

Task ask(Rank& r, std::string* answer) {
  *answer = r.request_pathway(1);
  co_return;
}

TEST(FwRank, FirmwareRequestsAndReleasesOpticalPathways) {
  Machine m(platforms::load_platform("hybrid-eps-ocs-128", {"ocs.on_circuit_down=error"}));
  auto& net = dynamic_cast<platforms::HybridNetlist&>(m.bench.net);
  m.rt->set_circuit_control([&net](NodeId a, NodeId b, bool up) { return net.request_pathway(a, b, up); });
  std::vector<nic::RdmaStatus> got;
  std::vector<std::string> answers;
  m.rt->launch([&](Rank& r) { return circuits(r, &got, &answers); });
  m.bench.queue.run_direct();
  ASSERT_EQ(answers.size(), 3u);
  EXPECT_EQ(answers[0], "");
  EXPECT_NE(answers[1].find("already has a circuit"), std::string::npos) << answers[1];
  EXPECT_EQ(answers[2], "");
  EXPECT_EQ(got, (std::vector<nic::RdmaStatus>{nic::RdmaStatus::kCircuitDown, nic::RdmaStatus::kOk,
                                               nic::RdmaStatus::kCircuitDown}));
  EXPECT_EQ(net.controller().reconfigurations(), 4u) << "two set-ups, two tear-downs";
  Machine plain(platforms::load_platform("tofu-small"));
  std::string answer;
  plain.rt->launch([&](Rank& r) { return r.rank() == 0 ? ask(r, &answer) : Task(); });
  plain.bench.queue.run_direct();
  EXPECT_NE(answer.find("no optical circuit switch"), std::string::npos) << answer;
}

}  // namespace
}  // namespace kairo::fw
