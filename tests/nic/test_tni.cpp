// The RDMA engine end to end on a real network: an 8-byte put completes when
// the put model says, data lands byte-exact, gets bring data back, and errors
// complete with their status while the target memory stays untouched.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "tests/nic_bench.h"

namespace kairo::nic {
namespace {

using hw::NodeId;
using sim::Time;
using test::ceil_to;
using test::network;
using test::NicBench;

using test::dma_ps;

TEST(Tni, EightBytePutBetweenNeighboursCompletesWhenThePutModelSays) {
  auto p = platforms::load_platform("tofu-small");
  NicParams tp;
  NicBench b(p);
  hw::Topology topo(p.dims);
  const NodeId src = 0, dst = topo.id_of({1, 0, 0, 0, 0, 0});  // X neighbour
  auto lk = b.registries[src]->add(0x1000, 4096).key;
  auto rk = b.registries[dst]->add(0x8000, 4096).key;
  b.write(src, 0x1000 + 16, {1, 2, 3, 4, 5, 6, 7, 8});
  Command c;
  c.op = Op::kPut;
  c.dst_node = dst;
  c.local_key = lk;
  c.local_offset = 16;
  c.remote_key = rk;
  c.remote_offset = 40;
  c.length = 8;
  c.tag = 77;
  c.handle = 5;
  ASSERT_TRUE(b.tni(src).post(c));
  b.queue.run_direct();

  // node latency, DMA read, data packet (header + 8B, in whole flits), DMA
  // write at the target once the tail is in, header-only acknowledgement back.
  const Time period = p.router.clock_period_ps();
  const Time read_done = tp.node_latency_ps + dma_ps(tp.dma_bytes_per_s, 8);
  const Time data_in = ceil_to(network(p, read_done, test::packet_flits(p, 8), src, dst), period);
  const Time written = data_in + dma_ps(tp.dma_bytes_per_s, 8);
  const Time ack_in = ceil_to(network(p, written, test::packet_flits(p, 0), dst, src), period);

  auto n = b.tni(dst).poll_notice();
  ASSERT_TRUE(n.has_value());
  EXPECT_EQ(n->tag, 77u);
  EXPECT_EQ(n->time_ps, written) << "notice once the last byte is in memory";
  auto done = b.tni(src).poll_completion();
  ASSERT_TRUE(done.has_value());
  EXPECT_EQ(done->status, RdmaStatus::kOk);
  EXPECT_EQ(done->handle, 5u);
  EXPECT_EQ(done->time_ps, ack_in);
  EXPECT_EQ(b.read(dst, 0x8000 + 40, 8), (std::vector<unsigned char>{1, 2, 3, 4, 5, 6, 7, 8}));
}

// An engine's state is made at its first use: an 8-byte put from engine 2 to
// engine 1 of another node makes exactly those two (the initiator's by its
// command, the target's by its packet), and the
// machine's other engines report zero counters, empty queues and nothing to
// poll, as engines that never ran.
TEST(Tni, OnlyTheEnginesAPutUsesHoldState) {
  auto p = platforms::load_platform("tofu-small");
  NicBench b(p);
  hw::Topology topo(p.dims);
  const NodeId src = 3, dst = topo.id_of({1, 1, 0, 0, 0, 0});
  for (Tni* t : b.tnis) ASSERT_FALSE(t->used());
  auto lk = b.registries[src]->add(0x1000, 4096).key;
  auto rk = b.registries[dst]->add(0x8000, 4096).key;
  Command c;
  c.op = Op::kPut;
  c.dst_node = dst;
  c.dst_tni = 1;
  c.local_key = lk;
  c.remote_key = rk;
  c.length = 8;
  c.tag = 9;
  ASSERT_TRUE(b.tni(src, 2).post(c));
  b.queue.run_direct();
  ASSERT_TRUE(b.tni(dst, 1).poll_notice().has_value());
  ASSERT_TRUE(b.tni(src, 2).poll_completion().has_value());
  std::size_t used = 0;
  for (Tni* t : b.tnis) {
    const bool mine = (t->node() == src && t->index() == 2) || (t->node() == dst && t->index() == 1);
    EXPECT_EQ(t->used(), mine) << "node " << t->node() << " engine " << t->index();
    used += t->used();
    if (mine) continue;
    EXPECT_EQ(t->counters().commands + t->counters().packets_received + t->counters().dma_bytes_read, 0u);
    EXPECT_EQ(t->command_queue_depth(), 0u);
    EXPECT_FALSE(t->poll_completion().has_value());
    EXPECT_FALSE(t->poll_notice().has_value());
    EXPECT_FALSE(t->used()) << "polling an idle engine makes no state";
  }
  EXPECT_EQ(used, 2u);
  EXPECT_EQ(b.tni(src, 2).counters().commands, 1u);
  EXPECT_EQ(b.tni(dst, 1).counters().packets_received, 1u);
}

TEST(Tni, RandomPutsAndGetsArriveByteExact) {
  auto p = platforms::load_platform("tofu-small");
  NicBench b(p);
  std::mt19937_64 rng(21);
  const NodeId nodes = NodeId(b.net.num_nodes());
  std::vector<MemKey> keys(nodes);
  for (NodeId n = 0; n < nodes; ++n) {
    keys[n] = b.registries[n]->add(0, 2 << 20).key;
    std::vector<unsigned char> sources(13 * 1024 + 4096);
    for (auto& x : sources) x = static_cast<unsigned char>(rng());
    b.write(n, 1536 * 1024, sources);
  }
  struct Expect {
    NodeId node;
    std::uint64_t addr;
    std::vector<unsigned char> bytes;
  };
  std::vector<Expect> expects;
  // Disjoint ranges: put k writes [k * 16KiB, +13KiB) at its target, get k lands
  // at 700KiB + k * 16KiB at its initiator, and every source lies in
  // [1536KiB, +13KiB), which nothing writes.
  for (int k = 0; k < 40; ++k) {
    const NodeId src = NodeId(rng() % nodes), dst = NodeId(rng() % nodes);
    const std::uint64_t len = 1 + rng() % 9000, src_off = rng() % 4096,
                        dst_off = std::uint64_t(k) * 16384 + rng() % 4096;
    Command c;
    c.op = (k % 3 == 0) ? Op::kGet : Op::kPut;
    c.dst_node = dst;
    c.dst_tni = std::uint16_t(rng() % 4);
    c.local_key = keys[src];
    c.remote_key = keys[dst];
    c.length = len;
    c.handle = std::uint64_t(k);
    if (c.op == Op::kPut) {
      c.local_offset = 1536 * 1024 + src_off;
      c.remote_offset = dst_off;
      expects.push_back({dst, dst_off, b.read(src, c.local_offset, len)});
    } else {
      c.local_offset = dst_off + 700 * 1024;
      c.remote_offset = 1536 * 1024 + src_off;
      expects.push_back({src, c.local_offset, b.read(dst, c.remote_offset, len)});
    }
    ASSERT_TRUE(b.tni(src, int(rng() % 4)).post(c));
  }
  b.queue.run_direct();
  int completions = 0;
  for (auto& t : b.tnis)
    while (auto c = t->poll_completion()) {
      EXPECT_EQ(c->status, RdmaStatus::kOk);
      ++completions;
    }
  EXPECT_EQ(completions, 40);
  for (const auto& e : expects) EXPECT_EQ(b.read(e.node, e.addr, e.bytes.size()), e.bytes);
}

TEST(Tni, ErrorsCompleteWithTheirStatusAndLeaveTheTargetUntouched) {
  auto p = platforms::load_platform("tofu-small");
  NicBench b(p);
  auto lk = b.registries[0]->add(0, 4096).key;
  auto rk = b.registries[1]->add(0, 4096).key;
  b.write(1, 0, std::vector<unsigned char>(4096, 0x5a));
  auto base = [&] {
    Command c;
    c.dst_node = 1;
    c.local_key = lk;
    c.remote_key = rk;
    c.length = 64;
    return c;
  };
  std::vector<std::pair<Command, RdmaStatus>> cases;
  {
    auto c = base();
    c.remote_key = rk + 7;
    cases.push_back({c, RdmaStatus::kUnregisteredKey});
  }  // slot 7: never used
  {
    auto c = base();
    c.remote_offset = 4090;
    cases.push_back({c, RdmaStatus::kOutOfBounds});
  }
  {
    auto c = base();
    c.length = std::uint64_t(16) << 20;
    cases.push_back({c, RdmaStatus::kLengthOverLimit});
  }
  {
    auto c = base();
    c.dst_node = 100000;
    cases.push_back({c, RdmaStatus::kBadRank});
  }
  {
    auto c = base();
    c.dst_tni = 9;
    cases.push_back({c, RdmaStatus::kBadTni});
  }
  {
    auto c = base();
    c.local_key = 0;
    cases.push_back({c, RdmaStatus::kUnregisteredKey});
  }
  auto stale = b.registries[1]->add(8192, 64).key;
  b.registries[1]->remove(stale);
  {
    auto c = base();
    c.remote_key = stale;
    cases.push_back({c, RdmaStatus::kStaleKey});
  }
  {
    auto c = base();
    c.op = Op::kGet;
    c.remote_key = stale;
    cases.push_back({c, RdmaStatus::kStaleKey});
  }
  for (std::size_t i = 0; i < cases.size(); ++i) {
    cases[i].first.handle = i;
    ASSERT_TRUE(b.tni(0).post(cases[i].first));
  }
  b.queue.run_direct();
  std::vector<RdmaStatus> got(cases.size(), RdmaStatus::kOk);
  int n = 0;
  while (auto c = b.tni(0).poll_completion()) got[c->handle] = c->status, ++n;
  EXPECT_EQ(n, int(cases.size()));
  for (std::size_t i = 0; i < cases.size(); ++i) EXPECT_EQ(got[i], cases[i].second) << "case " << i;
  EXPECT_EQ(b.read(1, 0, 4096), std::vector<unsigned char>(4096, 0x5a)) << "the target is untouched";
  EXPECT_EQ(b.tni(0).counters().error_completions, cases.size());
  EXPECT_FALSE(b.tni(1).poll_notice().has_value()) << "failed puts raise no notice";
}

}  // namespace
}  // namespace kairo::nic

namespace kairo::nic {
namespace {

using test::NicBench;

// One rank putting large messages on all four TNIs at once, each to a
// different neighbour: each engine is bound by the slower of its DMA (2.8 GB/s)
// and its link (5 GB/s with 32B headers per 1920B packet: 4.92 GB/s of
// payload), so the node reaches 4 x 2.8 GB/s.
TEST(Tni, AllTnisTogetherReachTheSumOfTheirDmaBoundRates) {
  auto p = platforms::load_platform("tofu-small");
  NicParams tp;
  NicBench b(p, /*data=*/false);
  hw::Topology topo(p.dims);
  const std::uint64_t len = std::uint64_t(4) << 20;
  const NodeId dsts[4] = {topo.id_of({1, 0, 0, 0, 0, 0}), topo.id_of({0, 1, 0, 0, 0, 0}),
                          topo.id_of({0, 0, 1, 0, 0, 0}), topo.id_of({0, 0, 0, 1, 0, 0})};
  auto lk = b.registries[0]->add(0, len).key;
  for (int i = 0; i < 4; ++i) {
    auto rk = b.registries[dsts[i]]->add(0, len).key;
    Command c;
    c.dst_node = dsts[i];
    c.dst_tni = std::uint16_t(i);
    c.local_key = lk;
    c.remote_key = rk;
    c.length = len;
    c.handle = std::uint64_t(i);
    ASSERT_TRUE(b.tni(0, i).post(c));
  }
  b.queue.run_direct();
  Time last = 0;
  for (int i = 0; i < 4; ++i) {
    auto c = b.tni(0, i).poll_completion();
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->status, RdmaStatus::kOk);
    last = std::max(last, c->time_ps);
  }
  const double seconds = double(last - tp.node_latency_ps) * 1e-12;
  const double bw = 4.0 * double(len) / seconds;
  EXPECT_NEAR(bw / (4 * tp.dma_bytes_per_s), 1.0, 0.01) << bw / 1e9 << " GB/s";
}

// Data and size-only runs move the same packets at the same times.
TEST(Tni, SizeOnlyModeHasIdenticalTiming) {
  auto p = platforms::load_platform("tofu-small");
  std::vector<Time> times[2];
  for (int mode = 0; mode < 2; ++mode) {
    NicBench b(p, mode == 0);
    std::mt19937_64 rng(5);
    for (NodeId n = 0; n < b.net.num_nodes(); ++n) b.registries[n]->add(0, 1 << 20);
    for (int k = 0; k < 60; ++k) {
      Command c;
      c.op = k % 4 == 0 ? Op::kGet : Op::kPut;
      c.dst_node = std::uint32_t(rng() % b.net.num_nodes());
      c.dst_tni = std::uint16_t(rng() % 4);
      c.local_key = c.remote_key = (std::uint64_t(1) << 32);  // generation 1, slot 0 on every node
      c.local_offset = rng() % 1000;
      c.remote_offset = rng() % 1000;
      c.length = rng() % 20000;
      c.handle = std::uint64_t(k);
      ASSERT_TRUE(b.tni(NodeId(rng() % b.net.num_nodes()), int(rng() % 4)).post(c));
    }
    b.queue.run_direct();
    for (auto& t : b.tnis)
      while (auto c = t->poll_completion()) times[mode].push_back(c->time_ps * 1000 + c->handle % 1000);
    std::sort(times[mode].begin(), times[mode].end());
  }
  EXPECT_EQ(times[0].size(), 60u);
  EXPECT_EQ(times[0], times[1]);
}

// ---- back-pressure from full queues ------------------------------------------

Command put_cmd(NodeId dst, MemKey lk, MemKey rk, std::uint64_t off, std::uint64_t len, std::uint32_t tag,
                std::uint64_t handle) {
  Command c;
  c.op = Op::kPut;
  c.dst_node = dst;
  c.local_key = lk;
  c.local_offset = off;
  c.remote_key = rk;
  c.remote_offset = off;
  c.length = len;
  c.tag = tag;
  c.handle = handle;
  return c;
}

// A completion queue of 2 holds at most 2 entries; the third command waits
// (the command queue of 3 then fills and refuses posts) and starts only when
// the owner polls, taking then exactly as long as the first command took
// after its node latency; every handle completes once.
TEST(Tni, FullCompletionQueueStallsCommandsUntilPolled) {
  auto p = platforms::load_platform("tofu-small");
  p.nic.completion_queue_depth = 2;
  p.nic.command_queue_depth = 3;
  NicBench b(p);
  hw::Topology topo(p.dims);
  const NodeId src = 0, dst = topo.id_of({1, 0, 0, 0, 0, 0});
  auto lk = b.registries[src]->add(0, 4096).key;
  auto rk = b.registries[dst]->add(0, 4096).key;
  Tni& t = b.tni(src);
  std::uint64_t posted = 0;
  while (t.post(put_cmd(dst, lk, rk, 8 * posted, 8, 1, posted))) ++posted;
  EXPECT_EQ(posted, 3u) << "the command queue's depth";
  b.queue.run_direct();
  EXPECT_EQ(t.counters().completion_queue_high, 2u);
  EXPECT_GE(t.counters().completion_queue_stalls, 1u);
  EXPECT_EQ(t.counters().completion_queue_high, p.nic.completion_queue_depth);
  // The stalled command still holds its queue slot: two more fit, not three.
  std::uint64_t more = 0;
  while (t.post(put_cmd(dst, lk, rk, 8 * (posted + more), 8, 1, posted + more))) ++more;
  EXPECT_EQ(more, 2u);

  std::vector<Completion> got;
  auto c0 = t.poll_completion();
  ASSERT_TRUE(c0.has_value());
  got.push_back(*c0);
  const Time poll_at = b.queue.now();
  b.queue.run_direct();
  // Command 2 became ready at the node latency long ago; it starts at the poll.
  std::vector<Completion> rest;
  while (auto c = t.poll_completion()) {
    rest.push_back(*c);
    b.queue.run_direct();
  }
  ASSERT_FALSE(rest.empty());
  std::vector<Completion> all = got;
  all.insert(all.end(), rest.begin(), rest.end());
  ASSERT_EQ(all.size(), posted + more);
  std::vector<std::uint64_t> handles;
  for (const auto& c : all) {
    EXPECT_EQ(c.status, RdmaStatus::kOk);
    handles.push_back(c.handle);
  }
  std::sort(handles.begin(), handles.end());
  for (std::uint64_t h = 0; h < posted + more; ++h) EXPECT_EQ(handles[h], h) << "each handle exactly once";
  const auto by_handle = [&](std::uint64_t h) {
    return *std::find_if(all.begin(), all.end(), [&](const Completion& c) { return c.handle == h; });
  };
  // The put model (as in the first test) from the poll instead of from the node latency.
  const Time period = p.router.clock_period_ps();
  const Time read_done = poll_at + dma_ps(p.nic.dma_bytes_per_s, 8);
  const Time written = ceil_to(network(p, read_done, test::packet_flits(p, 8), src, dst), period) +
                       dma_ps(p.nic.dma_bytes_per_s, 8);
  EXPECT_EQ(by_handle(2).time_ps, ceil_to(network(p, written, test::packet_flits(p, 0), dst, src), period))
      << "the stalled command starts when the owner polls";
  EXPECT_LE(t.counters().completion_queue_high, p.nic.completion_queue_depth);
}

// A notice queue of 1 at the target: the first put's notice fits, the
// second put waits with its acknowledgement, and the target's receive side
// stops taking packets, so the sender's later packets stall in the network:
// it has sent no more than the stalled puts plus what the buffers on the
// path hold. Polling releases everything, in order, byte-exact.
TEST(Tni, FullNoticeQueueBackPressuresTheNetworkUntilPolled) {
  auto p = platforms::load_platform("tofu-small");
  p.nic.notice_queue_depth = 1;
  NicBench b(p);
  hw::Topology topo(p.dims);
  const NodeId src = 0, dst = topo.id_of({1, 0, 0, 0, 0, 0});
  const std::uint64_t len = 16 * 1920, puts = 6;
  auto lk = b.registries[src]->add(0, puts * len).key;
  auto rk = b.registries[dst]->add(0, puts * len).key;
  std::vector<unsigned char> bytes(puts * len);
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<unsigned char>(i * 7 + i / 251);
  b.write(src, 0, bytes);
  for (std::uint64_t k = 0; k < puts; ++k)
    ASSERT_TRUE(b.tni(src).post(put_cmd(dst, lk, rk, k * len, len, 100 + std::uint32_t(k), k)));
  b.queue.run_direct();

  const TniCounters& rx = b.tni(dst).counters();
  const TniCounters& tx = b.tni(src).counters();
  EXPECT_EQ(rx.notice_queue_high, 1u);
  EXPECT_GE(rx.notice_queue_stalls, 1u);
  EXPECT_GE(rx.held_packets_high, 1u);
  EXPECT_FALSE(b.net.watchdog().fired()) << "back-pressure is not a deadlock";
  // Buffers between the two engines, each holding vcs x floor(buffer / packet)
  // whole MTU packets (virtual cut-through): the source router's injection
  // input, the target router's input from X and the target's ejection buffer,
  // which may have emptied once more: packets taken in before the stall are
  // still written to memory, freeing their slots.
  const std::uint64_t packet_flits = p.nic.max_packet_flits(p.router.flit_bytes);
  const std::uint64_t per_buffer =
      std::uint64_t(p.router.vcs) * (std::uint64_t(p.router.vc_buffer_flits) / packet_flits);
  const std::uint64_t pieces = len / 1920;
  EXPECT_LE(tx.packets_sent, 2 * pieces + 4 * per_buffer) << "two puts taken in, the rest waits in buffers";
  EXPECT_LT(tx.packets_sent, puts * pieces);
  std::uint64_t completed = 0;
  while (b.tni(src).poll_completion()) ++completed;
  EXPECT_EQ(completed, 1u) << "only the put whose notice fitted is acknowledged";

  std::vector<std::uint32_t> tags;
  while (auto n = b.tni(dst).poll_notice()) {
    tags.push_back(n->tag);
    const Time poll_at = b.queue.now();
    b.queue.run_direct();
    while (auto c = b.tni(src).poll_completion()) {
      ++completed;
      EXPECT_EQ(c->status, RdmaStatus::kOk);
      if (c->handle >= 1) EXPECT_GE(c->time_ps, poll_at) << "acknowledged only after the target polled";
    }
    EXPECT_LE(b.tni(dst).counters().notice_queue_high, 1u);
  }
  EXPECT_EQ(completed, puts);
  std::vector<std::uint32_t> want;
  for (std::uint64_t k = 0; k < puts; ++k) want.push_back(100 + std::uint32_t(k));
  EXPECT_EQ(tags, want);
  EXPECT_EQ(tx.packets_sent, puts * pieces);
  EXPECT_EQ(rx.packets_received, puts * pieces);
  EXPECT_EQ(b.read(dst, 0, bytes.size()), bytes);
  EXPECT_EQ(b.net.activity().held, 0u);
}

}  // namespace
}  // namespace kairo::nic

// ---- registrations past the node memory's end --------------------------------

namespace kairo::nic {
namespace {

using test::NicBench;

// A small node memory, so that its end is easy to reach; the regions below
// sit against it.
platforms::Platform small_memory_platform() {
  auto p = platforms::load_platform("tofu-small");
  p.nic.memory_bytes = std::uint64_t(1) << 20;
  return p;
}

std::vector<unsigned char> pattern(std::size_t n, unsigned seed) {
  std::vector<unsigned char> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<unsigned char>(i * 31 + i / 253 + seed);
  return v;
}

// The machine's tables refuse a region that passes the node memory's end
// (and one that starts past it), as a full table does: no key, no slot
// taken. A region that ends exactly at the end is fine.
TEST(Tni, ARegistrationPastTheNodeMemoryIsRefused) {
  const auto p = small_memory_platform();
  NicBench b(p);
  MemoryRegistry& reg = *b.registries[0];
  const std::uint64_t end = p.nic.memory_bytes;
  const Registration past = reg.add(end - 4096, 8192);
  EXPECT_EQ(past.status, RdmaStatus::kOutOfBounds);
  EXPECT_EQ(past.key, 0u);
  EXPECT_EQ(reg.add(end + 1, 0).status, RdmaStatus::kOutOfBounds);
  EXPECT_EQ(reg.live(), 0u) << "a refused registration takes no slot";
  const Registration last = reg.add(end - 4096, 4096);
  ASSERT_EQ(last.status, RdmaStatus::kOk) << "up to the last byte is inside";
  EXPECT_EQ(reg.resolve(last.key, 0, 4096).address, end - 4096);
}

// A put of three packets into a region that would reach 4 KiB past the
// target's memory end: before the fix the region was accepted, the first two
// packets landed and the third failed. Now the region is refused, the put
// through it fails at the target (its key, 0, names nothing) and no byte of
// the target changes.
TEST(Tni, APutIntoARegionPastTheMemoryEndFailsAndWritesNothing) {
  const auto p = small_memory_platform();
  NicBench b(p);
  hw::Topology topo(p.dims);
  const NodeId src = 0, dst = topo.id_of({1, 0, 0, 0, 0, 0});
  const std::uint64_t end = p.nic.memory_bytes, len = 5000;  // packets of 1920, 1920 and 1160 B
  const MemKey lk = b.registries[src]->add(0, 8192).key;
  b.write(src, 0, pattern(8192, 1));
  const std::vector<unsigned char> before = pattern(8192, 2);
  b.write(dst, end - before.size(), before);
  const Registration past = b.registries[dst]->add(end - 4096, 8192);
  EXPECT_NE(past.status, RdmaStatus::kOk);
  ASSERT_TRUE(b.tni(src).post(put_cmd(dst, lk, past.key, 0, len, 9, 1)));
  b.queue.run_direct();
  auto done = b.tni(src).poll_completion();
  ASSERT_TRUE(done.has_value());
  EXPECT_EQ(done->status, RdmaStatus::kUnregisteredKey) << to_string(done->status);
  EXPECT_FALSE(b.tni(src).poll_completion().has_value());
  EXPECT_EQ(b.read(dst, end - before.size(), before.size()), before) << "the target is untouched";
  EXPECT_EQ(b.tni(src).counters().error_completions, 1u);
  EXPECT_EQ(b.tni(dst).counters().dma_bytes_written, 0u);
  EXPECT_FALSE(b.tni(dst).poll_notice().has_value()) << "a failed put raises no notice";
}

// A put of three packets into a legal region that ends at the memory's end,
// running past both: the target checks the whole range on the first packet
// to arrive and writes none of them.
TEST(Tni, APutRunningPastARegionAtTheMemoryEndWritesNoPacket) {
  const auto p = small_memory_platform();
  NicBench b(p);
  hw::Topology topo(p.dims);
  const NodeId src = 0, dst = topo.id_of({1, 0, 0, 0, 0, 0});
  const std::uint64_t end = p.nic.memory_bytes;
  const MemKey lk = b.registries[src]->add(0, 8192).key;
  b.write(src, 0, pattern(8192, 3));
  const std::vector<unsigned char> before = pattern(8192, 4);
  b.write(dst, end - before.size(), before);
  const Registration last = b.registries[dst]->add(end - 4096, 4096);
  ASSERT_EQ(last.status, RdmaStatus::kOk);
  Command c = put_cmd(dst, lk, last.key, 0, 5000, 9, 1);
  c.remote_offset = 4096 - 3000;  // the first 3000 B fit; the rest runs 2000 B past the end
  ASSERT_TRUE(b.tni(src).post(c));
  b.queue.run_direct();
  auto done = b.tni(src).poll_completion();
  ASSERT_TRUE(done.has_value());
  EXPECT_EQ(done->status, RdmaStatus::kOutOfBounds) << to_string(done->status);
  EXPECT_EQ(b.read(dst, end - before.size(), before.size()), before) << "the target is untouched";
  EXPECT_EQ(b.tni(src).counters().error_completions, 1u);
  EXPECT_EQ(b.tni(dst).counters().packets_received, 3u) << "all three packets came and were dropped";
  EXPECT_EQ(b.tni(dst).counters().dma_bytes_written, 0u);
  EXPECT_FALSE(b.tni(dst).poll_notice().has_value());
}

// A get whose data would land in a region reaching past the initiator's
// memory end: before the fix the region was accepted, two of the three
// answer packets landed, the third was refused by the memory unnoticed and
// the get completed OK. Now it completes with an error (its local key, 0,
// names nothing; nothing is sent) and the local buffer is untouched.
TEST(Tni, AGetLandingPastTheMemoryEndFailsAndLeavesTheLocalBufferUntouched) {
  const auto p = small_memory_platform();
  NicBench b(p);
  hw::Topology topo(p.dims);
  const NodeId src = 0, dst = topo.id_of({1, 0, 0, 0, 0, 0});
  const std::uint64_t end = p.nic.memory_bytes, len = 5000;
  const MemKey rk = b.registries[dst]->add(0, 8192).key;
  b.write(dst, 0, pattern(8192, 5));
  const std::vector<unsigned char> before = pattern(8192, 6);
  b.write(src, end - before.size(), before);
  const Registration past = b.registries[src]->add(end - 4096, 8192);
  EXPECT_NE(past.status, RdmaStatus::kOk);
  Command c;
  c.op = Op::kGet;
  c.dst_node = dst;
  c.local_key = past.key;
  c.remote_key = rk;
  c.length = len;
  c.handle = 3;
  ASSERT_TRUE(b.tni(src).post(c));
  b.queue.run_direct();
  auto done = b.tni(src).poll_completion();
  ASSERT_TRUE(done.has_value());
  EXPECT_NE(done->status, RdmaStatus::kOk);
  EXPECT_EQ(done->status, RdmaStatus::kUnregisteredKey) << to_string(done->status);
  EXPECT_EQ(done->handle, 3u);
  EXPECT_EQ(b.read(src, end - before.size(), before.size()), before) << "the local buffer is untouched";
  EXPECT_EQ(b.tni(src).counters().error_completions, 1u);
  EXPECT_EQ(b.tni(src).counters().dma_bytes_written, 0u);
}

}  // namespace
}  // namespace kairo::nic
