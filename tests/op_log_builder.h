// Hand-built operation logs for the ordering checker's tests: the steps of a
// correct put, get or atomic, in the order docs/rdma.md gives, which a test
// then breaks the way a faulty NIC would (a step moved, doubled or dropped).
//
// The machine: node 0 (initiator, region key 3 = [0, 64 KiB)) and node 1
// (target, region key 7 = [4096, 4096 + 64 KiB)); packets carry 1 KiB.
#pragma once
#include <algorithm>
#include <string>
#include <vector>

#include "observe/op_log.h"

namespace kairo::test {

using observe::OpEvent;
using observe::OpId;
using observe::OpKind;
using observe::OpRecord;

// The operation kinds the builder writes, as the log names them.
inline constexpr OpKind kPutKind = observe::op_kind(sim::RdmaOp::kPut);
inline constexpr OpKind kGetKind = observe::op_kind(sim::RdmaOp::kGet);
inline constexpr OpKind kFetchAddKind = observe::op_kind(sim::RdmaOp::kFetchAdd);

inline constexpr std::uint64_t kPacketBytes = 1024;
inline constexpr std::uint64_t kSourceKey = 3, kTargetKey = 7, kTargetBase = 4096, kRegionBytes = 64 * 1024;

struct LogBuilder {
  std::vector<OpRecord> log;

  OpRecord& add(std::uint32_t node, OpEvent e, OpKind k, OpId op = {}, std::int64_t packet = -1) {
    OpRecord r;
    r.node = node;
    r.tni = 0;
    r.op = op;
    r.packet = packet;
    r.kind = k;
    r.event = e;
    log.push_back(r);
    return log.back();
  }
  void region(std::uint32_t node, std::uint64_t key, std::uint64_t addr, std::uint64_t bytes,
              OpEvent e = OpEvent::kRegister) {
    OpRecord& r = add(node, e, OpKind::kRegion);
    r.tni = -1, r.key = key, r.addr = addr, r.bytes = bytes;
  }
  void regions() {
    region(0, kSourceKey, 0, kRegionBytes);
    region(1, kTargetKey, kTargetBase, kRegionBytes);
  }
  void doorbell(OpId op, OpKind k, std::uint64_t bytes, std::uint8_t flags) {
    OpRecord& r = add(op.node, OpEvent::kDoorbell, k, op);
    r.bytes = bytes, r.peer = 1, r.key = kTargetKey, r.tag = 5, r.flags = flags;
  }
  void start(OpId op, OpKind k, std::uint64_t addr, std::uint64_t bytes, std::uint8_t status = 0) {
    OpRecord& r = add(op.node, OpEvent::kStart, k, op);
    r.addr = addr, r.bytes = bytes, r.key = kSourceKey, r.status = status;
  }
  void dma(std::uint32_t node, OpEvent e, OpId op, OpKind k, std::int64_t j, std::uint64_t addr,
           std::uint64_t bytes) {
    OpRecord& r = add(node, e, k, op, j);
    r.addr = addr, r.bytes = bytes;
  }
  // Injected at `from`, its tail in at `to`.
  void send(std::uint32_t from, std::uint32_t to, OpId op, OpKind k, std::int64_t j, std::uint64_t bytes) {
    add(from, OpEvent::kInject, k, op, j).bytes = bytes, log.back().peer = to;
    add(to, OpEvent::kArrive, k, op, j).bytes = bytes, log.back().peer = from;
  }
  void complete(OpId op, OpKind k, std::uint8_t status = 0) {
    add(op.node, OpEvent::kComplete, k, op).status = status;
  }

  // A put of `packets` KiB from node 0's address 0 to node 1 at kTargetBase + `offset`.
  void put(OpId op, int packets, std::uint8_t flags = observe::kFlagNotify, std::uint64_t offset = 0) {
    const std::uint64_t bytes = std::uint64_t(packets) * kPacketBytes;
    doorbell(op, kPutKind, bytes, flags);
    start(op, kPutKind, 0, bytes);
    for (int j = 0; j < packets; ++j) {
      dma(0, OpEvent::kDmaRead, op, OpKind::kData, j, j * kPacketBytes, kPacketBytes);
      send(0, 1, op, OpKind::kData, j, kPacketBytes);
      dma(1, OpEvent::kDmaWrite, op, OpKind::kData, j, kTargetBase + offset + j * kPacketBytes, kPacketBytes);
    }
    if (flags & observe::kFlagNotify)
      add(1, OpEvent::kNotice, kPutKind, op).tag = 5, log.back().bytes = bytes;
    send(1, 0, op, OpKind::kAck, packets, 0);
    complete(op, kPutKind);
  }
  // A get of `packets` KiB from node 1's kTargetBase into node 0 at `local`.
  void get(OpId op, int packets, std::uint64_t local = 0) {
    const std::uint64_t bytes = std::uint64_t(packets) * kPacketBytes;
    doorbell(op, kGetKind, bytes, 0);
    start(op, kGetKind, local, bytes);
    send(0, 1, op, OpKind::kGetRequest, 0, 0);
    for (int j = 1; j <= packets; ++j) {
      dma(1, OpEvent::kDmaRead, op, OpKind::kGetResponse, j, kTargetBase + (j - 1) * kPacketBytes,
          kPacketBytes);
      send(1, 0, op, OpKind::kGetResponse, j, kPacketBytes);
      dma(0, OpEvent::kDmaWrite, op, OpKind::kGetResponse, j, local + (j - 1) * kPacketBytes, kPacketBytes);
    }
    complete(op, kGetKind);
  }
  // An atomic's request, its read-modify-write of node 1's `addr` and its
  // response, written at node 0's `local`.
  void atomic_request(OpId op, std::uint64_t local = 0) {
    doorbell(op, kFetchAddKind, 8, 0);
    start(op, kFetchAddKind, local, 8);
    send(0, 1, op, OpKind::kAtomicRequest, 0, 8);
  }
  void atomic_update(OpId op, std::uint64_t addr, OpEvent e) {
    dma(1, e, op, OpKind::kAtomicRequest, 0, addr, 8);
  }
  void atomic_answer(OpId op, std::uint64_t local = 0) {
    send(1, 0, op, OpKind::kAtomicResponse, 1, 8);
    dma(0, OpEvent::kDmaWrite, op, OpKind::kAtomicResponse, 1, local, 8);
    complete(op, kFetchAddKind);
  }
  void atomic(OpId op, std::uint64_t addr, std::uint64_t local = 0) {
    atomic_request(op, local);
    atomic_update(op, addr, OpEvent::kDmaRead);
    atomic_update(op, addr, OpEvent::kDmaWrite);
    atomic_answer(op, local);
  }

  // The log as written: 100 ps between steps, a DMA transfer taking 10 ps.
  std::vector<OpRecord> done() {
    for (std::size_t i = 0; i < log.size(); ++i) {
      log[i].time_ps = 100 * (i + 1);
      const bool dma = log[i].event == OpEvent::kDmaRead || log[i].event == OpEvent::kDmaWrite;
      log[i].start_ps = dma ? log[i].time_ps - 10 : OpRecord::kNone;
    }
    return log;
  }

  // The index of the first record of `op` with event `e` and kind `k` (and packet `j`, unless -2).
  std::size_t find(OpId op, OpEvent e, OpKind k, std::int64_t j = -2, std::uint32_t node = ~0u) const {
    for (std::size_t i = 0; i < log.size(); ++i)
      if (log[i].op == op && log[i].event == e && log[i].kind == k && (j == -2 || log[i].packet == j) &&
          (node == ~0u || log[i].node == node))
        return i;
    return log.size();
  }
  // Moves record `from` to just before record `to`.
  void move_before(std::size_t from, std::size_t to) {
    const OpRecord r = log[from];
    log.erase(log.begin() + std::ptrdiff_t(from));
    if (to > from) --to;
    log.insert(log.begin() + std::ptrdiff_t(to), r);
  }
};

}  // namespace kairo::test
