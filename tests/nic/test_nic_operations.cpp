// The operations a NIC verifier meets beside put and get (docs/rdma.md): the
// 8-byte atomics, fences and local completion, each at the time its rule
// gives, computed here from the platform's parameters and the router
// pipeline formula; and the operation log's records of a put and a get, in
// order, at those times.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "observe/op_log.h"
#include "tests/nic_bench.h"

namespace kairo::nic {
namespace {

using hw::NodeId;
using observe::OpEvent;
using observe::OpKind;
using observe::OpRecord;
using sim::Time;
using test::ceil_to;
using test::dma_ps;
using test::network;
using test::NicBench;

std::vector<unsigned char> le64(std::uint64_t v) {
  std::vector<unsigned char> b(8);
  for (int i = 0; i < 8; ++i) b[std::size_t(i)] = static_cast<unsigned char>(v >> (8 * i));
  return b;
}
std::uint64_t value(const std::vector<unsigned char>& b) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | b[std::size_t(i)];
  return v;
}

struct Pair {
  platforms::Platform p = platforms::load_platform("tofu-small");
  NicBench b{p};
  NodeId src = 0, dst = hw::Topology(p.dims).id_of({1, 0, 0, 0, 0, 0});  // X neighbours
  Time period = p.router.clock_period_ps();
  Time dma8 = dma_ps(p.nic.dma_bytes_per_s, 8);
};

Command atomic(Op op, NodeId dst, MemKey lk, std::uint64_t loff, MemKey rk, std::uint64_t roff,
               std::uint64_t operand, std::uint64_t compare, std::uint64_t handle) {
  Command c;
  c.op = op;
  c.dst_node = dst;
  c.local_key = lk;
  c.local_offset = loff;
  c.remote_key = rk;
  c.remote_offset = roff;
  c.operand = operand;
  c.compare = compare;
  c.handle = handle;
  return c;
}

// The atomic model's times for the first atomic between the pair's nodes,
// posted at 0: its request (header only) is in at the target after the node
// latency and the network; the rx DMA reads the 8 bytes and then writes the
// new value; the response (header + 8 bytes) comes back and the old value is
// written at the initiator, when the atomic completes.
struct AtomicTimes {
  Time request_in, written, response_in, done;
};
AtomicTimes atomic_times(const Pair& t) {
  AtomicTimes a;
  a.request_in =
      ceil_to(network(t.p, t.p.nic.node_latency_ps, test::packet_flits(t.p, 0), t.src, t.dst), t.period);
  a.written = a.request_in + 2 * t.dma8;
  a.response_in = ceil_to(network(t.p, a.written, test::packet_flits(t.p, 8), t.dst, t.src), t.period);
  a.done = a.response_in + t.dma8;
  return a;
}

// Fetch-and-add completes at the atomic model's time, the sum at the
// target and the old value back at the initiator.
TEST(NicAtomics, FetchAddBetweenNeighboursCompletesWhenTheAtomicModelSays) {
  Pair t;
  auto lk = t.b.registries[t.src]->add(0x1000, 4096).key;
  auto rk = t.b.registries[t.dst]->add(0x8000, 4096).key;
  t.b.write(t.dst, 0x8000 + 64, le64(5));
  ASSERT_TRUE(t.b.tni(t.src).post(atomic(Op::kFetchAdd, t.dst, lk, 8, rk, 64, 3, 0, 9)));
  t.b.queue.run_direct();

  const AtomicTimes at = atomic_times(t);
  auto c = t.b.tni(t.src).poll_completion();
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->status, RdmaStatus::kOk);
  EXPECT_EQ(c->handle, 9u);
  EXPECT_EQ(c->time_ps, at.done) << "complete once the old value is in local memory";
  EXPECT_EQ(value(t.b.read(t.dst, 0x8000 + 64, 8)), 8u) << "5 + 3 at the target";
  EXPECT_EQ(value(t.b.read(t.src, 0x1000 + 8, 8)), 5u) << "the old value back at the initiator";
  EXPECT_FALSE(t.b.tni(t.dst).poll_notice().has_value()) << "an atomic raises no notice";
}

// Compare-and-swap takes the atomic model's time like fetch-and-add, whether
// or not its compare succeeds: a lone one completes at atomic_times' done.
TEST(NicAtomics, CompareSwapCompletesWhenTheAtomicModelSaysSwappingOrNot) {
  for (const std::uint64_t expected : {std::uint64_t(5), std::uint64_t(6)}) {
    Pair t;
    auto lk = t.b.registries[t.src]->add(0x1000, 4096).key;
    auto rk = t.b.registries[t.dst]->add(0x8000, 4096).key;
    t.b.write(t.dst, 0x8000 + 64, le64(5));
    ASSERT_TRUE(t.b.tni(t.src).post(atomic(Op::kCompareSwap, t.dst, lk, 8, rk, 64, 7, expected, 3)));
    t.b.queue.run_direct();
    const AtomicTimes at = atomic_times(t);
    auto c = t.b.tni(t.src).poll_completion();
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->status, RdmaStatus::kOk);
    EXPECT_EQ(c->time_ps, at.done) << "expected " << expected;
    EXPECT_EQ(value(t.b.read(t.src, 0x1000 + 8, 8)), 5u) << "the old value back, swapped or not";
    EXPECT_EQ(value(t.b.read(t.dst, 0x8000 + 64, 8)), expected == 5 ? 7u : 5u);
  }
}

TEST(NicAtomics, CompareSwapSwapsOnlyWhenTheOldValueMatches) {
  Pair t;
  auto lk = t.b.registries[t.src]->add(0, 4096).key;
  auto rk = t.b.registries[t.dst]->add(0, 4096).key;
  t.b.write(t.dst, 128, le64(5));
  ASSERT_TRUE(t.b.tni(t.src).post(atomic(Op::kCompareSwap, t.dst, lk, 0, rk, 128, 9, 5, 1)));
  ASSERT_TRUE(t.b.tni(t.src).post(atomic(Op::kCompareSwap, t.dst, lk, 8, rk, 128, 11, 5, 2)));
  t.b.queue.run_direct();
  EXPECT_EQ(value(t.b.read(t.src, 0, 8)), 5u) << "the first finds 5 and swaps in 9";
  EXPECT_EQ(value(t.b.read(t.src, 8, 8)), 9u) << "the second expects 5, finds 9";
  EXPECT_EQ(value(t.b.read(t.dst, 128, 8)), 9u) << "the failed compare leaves the word alone";
}

// Fetch-and-or follows the atomic model like fetch-and-add: its time is the
// request's trip, the read and the write at the target, the response's trip
// and the write of the old value; a second one from another engine of the
// initiator on the same word reads only after the first has written, and
// sees the bits the first set.
TEST(NicAtomics, FetchOrSetsBitsAndReturnsTheOldValueWhenTheAtomicModelSays) {
  Pair t;
  auto lk = t.b.registries[t.src]->add(0, 4096).key;
  auto rk = t.b.registries[t.dst]->add(0, 4096).key;
  const std::uint64_t old = 0b1010'0000'1010, first = 0b0110, second = std::uint64_t(1) << 63;
  t.b.write(t.dst, 64, le64(old));
  ASSERT_TRUE(t.b.tni(t.src).post(atomic(Op::kFetchOr, t.dst, lk, 0, rk, 64, first, 0, 1)));
  Command c = atomic(Op::kFetchOr, t.dst, lk, 8, rk, 64, second, 0, 2);
  c.dst_tni = 1;
  ASSERT_TRUE(t.b.tni(t.src, 1).post(c));
  t.b.queue.run_direct();

  const AtomicTimes at = atomic_times(t);
  auto done = t.b.tni(t.src).poll_completion();
  ASSERT_TRUE(done.has_value());
  EXPECT_EQ(done->status, RdmaStatus::kOk);
  EXPECT_EQ(done->op, Op::kFetchOr);
  EXPECT_EQ(done->time_ps, at.done) << "complete once the old value is in local memory";
  EXPECT_EQ(value(t.b.read(t.src, 0, 8)), old) << "the first finds the word as it was";
  EXPECT_EQ(value(t.b.read(t.src, 8, 8)), old | first) << "the second reads after the first has written";
  EXPECT_EQ(value(t.b.read(t.dst, 64, 8)), old | first | second);
  auto later = t.b.tni(t.src, 1).poll_completion();
  ASSERT_TRUE(later.has_value());
  const Time second_written = at.written + 2 * t.dma8;  // its read starts once the first has written
  EXPECT_GE(
      later->time_ps,
      ceil_to(network(t.p, second_written, test::packet_flits(t.p, 8), t.dst, t.src), t.period) + t.dma8)
      << "serialized at the target: its read waits for the first's write";
}

TEST(NicAtomics, AnAtomicOnAnUnregisteredKeyCompletesWithTheTargetsError) {
  Pair t;
  auto lk = t.b.registries[t.src]->add(0, 4096).key;
  ASSERT_TRUE(t.b.tni(t.src).post(atomic(Op::kFetchAdd, t.dst, lk, 0, /*remote=*/12345, 0, 1, 0, 3)));
  t.b.queue.run_direct();
  auto c = t.b.tni(t.src).poll_completion();
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->status, RdmaStatus::kUnregisteredKey);
  EXPECT_EQ(t.b.tni(t.dst).counters().dma_bytes_written, 0u) << "nothing written at the target";
}

// Four initiators add 1 to one word through four different engines of the
// target node: the word ends at 4, each saw a different old value, and the
// read-modify-writes never overlap (each read starts after the previous
// write has ended), as the operation log shows.
TEST(NicAtomics, AtomicsOnOneWordFromFourEnginesAreSerialized) {
  Pair t;
  hw::Topology topo(t.p.dims);
  observe::OpLog log(t.b.queue, {});
  t.b.machine.set_op_log(&log);
  const NodeId target = t.dst;
  auto rk = t.b.registries[target]->add(0, 4096).key;
  const NodeId sources[] = {0, topo.id_of({0, 1, 0, 0, 0, 0}), topo.id_of({0, 0, 1, 0, 0, 0}),
                            topo.id_of({1, 1, 0, 0, 0, 0})};
  for (int i = 0; i < 4; ++i) {
    auto lk = t.b.registries[sources[i]]->add(0, 4096).key;
    Command c = atomic(Op::kFetchAdd, target, lk, 0, rk, 256, 1, 0, std::uint64_t(i));
    c.dst_tni = std::uint16_t(i);
    ASSERT_TRUE(t.b.tni(sources[i]).post(c));
  }
  t.b.queue.run_direct();
  EXPECT_EQ(value(t.b.read(target, 256, 8)), 4u);
  std::vector<std::uint64_t> old;
  for (NodeId s : sources) old.push_back(value(t.b.read(s, 0, 8)));
  std::sort(old.begin(), old.end());
  EXPECT_EQ(old, (std::vector<std::uint64_t>{0, 1, 2, 3}));
  // The target's reads and writes of the word, in log order.
  std::vector<OpRecord> steps;
  for (const OpRecord& r : log.records())
    if (r.node == target && r.kind == OpKind::kAtomicRequest &&
        (r.event == OpEvent::kDmaRead || r.event == OpEvent::kDmaWrite))
      steps.push_back(r);
  ASSERT_EQ(steps.size(), 8u);
  std::sort(steps.begin(), steps.end(),
            [](const OpRecord& a, const OpRecord& b) { return a.start_ps < b.start_ps; });
  for (std::size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(steps[i].event, i % 2 ? OpEvent::kDmaWrite : OpEvent::kDmaRead) << "read then write, in turn";
    EXPECT_EQ(steps[i].addr, 256u);
    if (i > 0)
      EXPECT_GE(steps[i].start_ps, steps[i - 1].time_ps) << "step " << i << " overlaps the one before";
  }
}

// A put of 64 KiB (handle 1), then an 8-byte put (handle 2) to another
// place of the same region, with or without the fence flag, run to the end
// with the operation log on.
void big_then_small(Pair& t, observe::OpLog& log, bool fence) {
  t.b.machine.set_op_log(&log);
  auto lk = t.b.registries[t.src]->add(0, 1 << 20).key;
  auto rk = t.b.registries[t.dst]->add(0, 1 << 20).key;
  Command big;
  big.dst_node = t.dst;
  big.local_key = lk;
  big.remote_key = rk;
  big.length = 64 * 1024;
  big.handle = 1;
  Command small = big;
  small.length = 8;
  small.remote_offset = 128 * 1024;
  small.fence = fence;
  small.handle = 2;
  ASSERT_TRUE(t.b.tni(t.src).post(big));
  ASSERT_TRUE(t.b.tni(t.src).post(small));
  t.b.queue.run_direct();
}

// A put of 64 KiB, then an 8-byte put with the fence flag: the second starts
// when the first completes (not when its last packet leaves), and from there
// takes the put model's time.
TEST(NicFence, AFencedCommandStartsWhenEveryEarlierCommandHasCompleted) {
  Pair t;
  observe::OpLog log(t.b.queue, {});
  big_then_small(t, log, /*fence=*/true);
  auto first = t.b.tni(t.src).poll_completion(), second = t.b.tni(t.src).poll_completion();
  ASSERT_TRUE(first && second);
  EXPECT_EQ(first->handle, 1u);
  Time start = 0;
  for (const OpRecord& r : log.records())
    if (r.event == OpEvent::kStart && r.op.number == 2) start = r.time_ps;
  EXPECT_EQ(start, first->time_ps) << "the fence holds the command until the big put completes";
  const Time read_done = start + t.dma8;
  const Time written =
      ceil_to(network(t.p, read_done, test::packet_flits(t.p, 8), t.src, t.dst), t.period) + t.dma8;
  EXPECT_EQ(second->time_ps,
            ceil_to(network(t.p, written, test::packet_flits(t.p, 0), t.dst, t.src), t.period));
}

// Without the fence the same second put starts as soon as the first one's
// last packet is on its way, long before the first completes.
TEST(NicFence, WithoutTheFenceTheNextCommandStartsWhenTheLastPacketLeaves) {
  Pair t;
  observe::OpLog log(t.b.queue, {});
  big_then_small(t, log, /*fence=*/false);
  Time start = 0, last_inject = 0, complete = 0;
  for (const OpRecord& r : log.records()) {
    if (r.op.number == 2 && r.event == OpEvent::kStart) start = r.time_ps;
    if (r.op.number == 1 && r.event == OpEvent::kInject && r.kind == OpKind::kData) last_inject = r.time_ps;
    if (r.op.number == 1 && r.event == OpEvent::kComplete) complete = r.time_ps;
  }
  EXPECT_EQ(start, last_inject);
  EXPECT_LT(start, complete);
}

// Local completion: the put completes once its last byte is read out of the
// source (node latency + one DMA read of 8 bytes), before the data lands;
// the acknowledgement later adds no second completion.
TEST(NicLocalCompletion, APutWithLocalCompletionCompletesAtItsLastRead) {
  Pair t;
  auto lk = t.b.registries[t.src]->add(0, 4096).key;
  auto rk = t.b.registries[t.dst]->add(0, 4096).key;
  t.b.write(t.src, 0, {9, 8, 7, 6, 5, 4, 3, 2});
  Command c;
  c.dst_node = t.dst;
  c.local_key = lk;
  c.remote_key = rk;
  c.length = 8;
  c.tag = 4;
  c.completion = CompletionKind::kLocal;
  ASSERT_TRUE(t.b.tni(t.src).post(c));
  t.b.queue.run_direct();
  auto done = t.b.tni(t.src).poll_completion();
  ASSERT_TRUE(done.has_value());
  EXPECT_EQ(done->time_ps, t.p.nic.node_latency_ps + t.dma8);
  EXPECT_FALSE(t.b.tni(t.src).poll_completion().has_value()) << "one completion per operation";
  const Time written =
      ceil_to(network(t.p, t.p.nic.node_latency_ps + t.dma8, test::packet_flits(t.p, 8), t.src, t.dst),
              t.period) +
      t.dma8;
  auto n = t.b.tni(t.dst).poll_notice();
  ASSERT_TRUE(n.has_value());
  EXPECT_EQ(n->time_ps, written);
  EXPECT_EQ(t.b.read(t.dst, 0, 8), (std::vector<unsigned char>{9, 8, 7, 6, 5, 4, 3, 2}));
}

// The README's put, step by step in the log: each record at the put model's
// time, in the model's order.
TEST(NicOpLog, APutsStepsAreLoggedInOrderAtThePutModelsTimes) {
  Pair t;
  observe::OpLog log(t.b.queue, {});
  t.b.machine.set_op_log(&log);
  auto lk = t.b.registries[t.src]->add(0, 4096).key;
  auto rk = t.b.registries[t.dst]->add(0, 4096).key;
  Command c;
  c.dst_node = t.dst;
  c.local_key = lk;
  c.remote_key = rk;
  c.length = 8;
  c.tag = 1;
  ASSERT_TRUE(t.b.tni(t.src).post(c));
  t.b.queue.run_direct();
  ASSERT_TRUE(t.b.tni(t.src).poll_completion().has_value());
  std::vector<OpRecord> r = log.records();
  observe::sort_records(r);
  const Time L = t.p.nic.node_latency_ps, read_done = L + t.dma8;
  const Time data_in = ceil_to(network(t.p, read_done, test::packet_flits(t.p, 8), t.src, t.dst), t.period);
  const Time written = data_in + t.dma8;
  const Time ack_in = ceil_to(network(t.p, written, test::packet_flits(t.p, 0), t.dst, t.src), t.period);
  const OpKind kPutKind = observe::op_kind(nic::Op::kPut);
  struct Step {
    OpEvent event;
    OpKind kind;
    NodeId node;
    Time time;
  };
  const std::vector<Step> want = {
      {OpEvent::kRegister, OpKind::kRegion, t.src, 0},
      {OpEvent::kDoorbell, kPutKind, t.src, 0},
      {OpEvent::kRegister, OpKind::kRegion, t.dst, 0},
      {OpEvent::kStart, kPutKind, t.src, L},
      {OpEvent::kDmaRead, OpKind::kData, t.src, read_done},
      {OpEvent::kInject, OpKind::kData, t.src, read_done},
      {OpEvent::kArrive, OpKind::kData, t.dst, data_in},
      {OpEvent::kDmaWrite, OpKind::kData, t.dst, written},
      {OpEvent::kNotice, kPutKind, t.dst, written},
      {OpEvent::kInject, OpKind::kAck, t.dst, written},
      {OpEvent::kArrive, OpKind::kAck, t.src, ack_in},
      {OpEvent::kComplete, kPutKind, t.src, ack_in},
      {OpEvent::kPoll, kPutKind, t.src, 0},
  };
  ASSERT_EQ(r.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    SCOPED_TRACE(testing::Message() << "record " << i << ": " << observe::token(r[i].event));
    EXPECT_EQ(r[i].event, want[i].event);
    EXPECT_EQ(r[i].kind, want[i].kind);
    EXPECT_EQ(r[i].node, want[i].node);
    if (r[i].event != OpEvent::kPoll)
      EXPECT_EQ(r[i].time_ps, want[i].time);  // the poll: when the test polled
    if (r[i].event != OpEvent::kRegister) EXPECT_EQ(observe::op_text(r[i].op), "0.0.1");
  }
  EXPECT_EQ(observe::packet_text(r[9].op, r[9].packet), "0.0.1/1")
      << "the acknowledgement follows the data packet";
}

// A 4 KiB get with the 1,920-byte MTU: a request, then three responses, each
// read at the target, carried and written at the initiator under its own
// packet id; the completion follows the last write.
TEST(NicOpLog, A4KiBGetsPacketsCarryTheirOwnIdsAndKinds) {
  Pair t;
  observe::OpLog log(t.b.queue, {});
  t.b.machine.set_op_log(&log);
  auto lk = t.b.registries[t.src]->add(0, 8192).key;
  auto rk = t.b.registries[t.dst]->add(0, 8192).key;
  Command c;
  c.op = Op::kGet;
  c.dst_node = t.dst;
  c.local_key = lk;
  c.remote_key = rk;
  c.length = 4096;
  ASSERT_TRUE(t.b.tni(t.src).post(c));
  t.b.queue.run_direct();
  std::vector<OpRecord> r = log.records();
  observe::sort_records(r);
  const std::uint64_t pieces = (4096 + t.p.nic.mtu_bytes - 1) / t.p.nic.mtu_bytes;
  ASSERT_EQ(pieces, 3u);
  std::vector<std::int64_t> written_packets;
  Time last_write = 0, complete = 0;
  std::uint64_t bytes = 0;
  for (const OpRecord& x : r) {
    if (x.event == OpEvent::kDmaWrite) {
      EXPECT_EQ(x.node, t.src);
      EXPECT_EQ(x.kind, OpKind::kGetResponse);
      written_packets.push_back(x.packet);
      last_write = x.time_ps;
      bytes += x.bytes;
    }
    if (x.event == OpEvent::kInject && x.kind == OpKind::kGetRequest) EXPECT_EQ(x.packet, 0);
    if (x.event == OpEvent::kComplete) complete = x.time_ps;
  }
  EXPECT_EQ(written_packets, (std::vector<std::int64_t>{1, 2, 3}));
  EXPECT_EQ(bytes, 4096u);
  EXPECT_EQ(complete, last_write);
}

}  // namespace
}  // namespace kairo::nic
