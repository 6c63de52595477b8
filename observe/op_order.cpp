// The invariants across operations (docs/rdma.md, "The ordering checker"):
// the order an engine starts its commands in (doorbell order, fences), the
// order its receive side writes packets in, the priority of its answers over
// new commands' packets, and the serialization of atomics on one address.
#include <algorithm>

#include "observe/op_check_index.h"

namespace kairo::observe::check {

namespace {

std::size_t later(std::size_t a, std::size_t b) { return a == kNo ? b : b == kNo ? a : std::max(a, b); }
bool same_engine(const OpId& a, const OpId& b) { return a.node == b.node && a.tni == b.tni; }

// One engine's commands, ops [b, e) in command order: each starts after the
// one posted before it, and a fenced one after every earlier one completed.
void check_engine_commands(const OpIndex& ix, std::size_t b, std::size_t e, Sink& sink) {
  std::size_t last_start = kNo, last_complete = kNo, open = kNo;  // open: posted, not completed
  for (std::size_t k = b; k < e; ++k) {
    const OpView& v = ix.ops[k];
    const std::string op = op_text(v.id);
    if (v.start != kNo) {
      if (last_start != kNo && v.start < last_start)
        sink.add("start-in-doorbell-order", v.start, last_start, [&] {
          return fmt::format("command {} started before {}, posted after it", ix.at(last_start).op.number,
                             op);
        });
      if (v.doorbell != kNo && v.start < v.doorbell)
        sink.add("start-in-doorbell-order", v.start, v.doorbell,
                 [&] { return fmt::format("command {} started before its doorbell", op); });
      last_start = later(last_start, v.start);
      const bool fenced = v.doorbell != kNo && (ix.at(v.doorbell).flags & kFlagFence);
      if (fenced && open != kNo)
        sink.add("fence", open, v.start, [&] {
          return fmt::format("fenced command {} started while {} had not completed", op,
                             op_text(ix.at(open).op));
        });
      else if (fenced && last_complete != kNo && last_complete > v.start)
        sink.add("fence", v.start, last_complete, [&] {
          return fmt::format("fenced command {} started before {} completed", op,
                             op_text(ix.at(last_complete).op));
        });
    }
    if (v.complete != kNo)
      last_complete = later(last_complete, v.complete);
    else if (v.doorbell != kNo && open == kNo)
      open = v.doorbell;
  }
}

void check_commands(const OpIndex& ix, Sink& sink) {
  for (std::size_t b = 0, e = 0; b < ix.ops.size(); b = e) {
    for (e = b; e < ix.ops.size() && same_engine(ix.ops[e].id, ix.ops[b].id);) ++e;
    check_engine_commands(ix, b, e, sink);
  }
}

bool data_packet(OpKind k) { return k == OpKind::kData || k == OpKind::kGetResponse; }
Key2 packet_key(const OpIndex& ix, std::size_t i) {
  return Key2{ix.op_of[i], std::uint64_t(ix.at(i).packet)};
}

// Each engine writes received data (put data, get responses) in the order
// the packets' tails arrived there.
void check_arrival_order(const OpIndex& ix, Sink& sink) {
  std::unordered_map<Key2, std::size_t, Key2Hash> arrived;
  for (std::size_t i = 0; i < ix.log.size(); ++i)
    if (ix.at(i).event == OpEvent::kArrive && data_packet(ix.at(i).kind) && ix.op_of[i] != OpIndex::kNoOp)
      arrived.emplace(packet_key(ix, i), i);
  struct Last {
    std::size_t arrive = kNo, write = kNo;
  };
  std::unordered_map<std::uint64_t, Last> last;  // by engine: the latest-arrived packet written so far
  for (std::size_t i = 0; i < ix.log.size(); ++i) {
    const OpRecord& r = ix.at(i);
    if (r.event != OpEvent::kDmaWrite || !data_packet(r.kind) || ix.op_of[i] == OpIndex::kNoOp) continue;
    auto a = arrived.find(packet_key(ix, i));
    if (a == arrived.end()) continue;  // its arrival is not in the log
    Last& l = last[engine_key(r.node, r.tni)];
    if (l.arrive != kNo && a->second < l.arrive)
      sink.add("writes-in-arrival-order", l.write, i, [&] {
        return fmt::format("{} arrived before {} but was written after it", packet_text(r.op, r.packet),
                           packet_text(ix.at(l.write).op, ix.at(l.write).packet));
      });
    if (l.arrive == kNo || a->second > l.arrive) l = Last{a->second, i};
  }
}

// An answer an engine has ready to inject: from `ready` (its data read, or
// the put's last step at the target) to its `inject`.
struct Answer {
  std::size_t ready, inject;
};

std::vector<Answer> ready_answers(const OpIndex& ix) {
  std::unordered_map<Key2, std::size_t, Key2Hash> read;   // get responses' data reads
  std::vector<std::size_t> put_done(ix.ops.size(), kNo);  // a put's last write, drop or notice at the target
  for (std::size_t i = 0; i < ix.log.size(); ++i) {
    const OpRecord& r = ix.at(i);
    if (ix.op_of[i] == OpIndex::kNoOp) continue;
    if (r.event == OpEvent::kDmaRead && r.kind == OpKind::kGetResponse) read.emplace(packet_key(ix, i), i);
    const bool put_step =
        (r.kind == OpKind::kData && (r.event == OpEvent::kDmaWrite || r.event == OpEvent::kDrop)) ||
        r.event == OpEvent::kNotice;
    if (put_step) put_done[ix.op_of[i]] = i;
  }
  std::vector<Answer> out;
  for (std::size_t i = 0; i < ix.log.size(); ++i) {
    const OpRecord& r = ix.at(i);
    if (r.event != OpEvent::kInject || ix.op_of[i] == OpIndex::kNoOp) continue;
    std::size_t ready = kNo;
    if (r.kind == OpKind::kAck) ready = put_done[ix.op_of[i]];
    if (r.kind == OpKind::kGetResponse) {
      auto it = read.find(packet_key(ix, i));
      if (it != read.end()) ready = it->second;
    }
    if (ready != kNo && ready < i) out.push_back(Answer{ready, i});
  }
  std::sort(out.begin(), out.end(), [](const Answer& a, const Answer& b) { return a.ready < b.ready; });
  return out;
}

// No engine injects a new command's packet (put data, get request) at an
// instant after one of its answers (acknowledgement, get response) was ready.
void check_answers_first(const OpIndex& ix, Sink& sink) {
  const std::vector<Answer> answers = ready_answers(ix);
  std::unordered_map<std::uint64_t, std::vector<Answer>> pending;  // by engine
  std::size_t next = 0;
  for (std::size_t i = 0; i < ix.log.size(); ++i) {
    const OpRecord& r = ix.at(i);
    for (; next < answers.size() && answers[next].ready == i; ++next) {
      const OpRecord& a = ix.at(answers[next].inject);
      pending[engine_key(a.node, a.tni)].push_back(answers[next]);
    }
    if (r.event != OpEvent::kInject) continue;
    auto it = pending.find(engine_key(r.node, r.tni));
    if (it == pending.end()) continue;
    std::vector<Answer>& list = it->second;
    if (r.kind == OpKind::kAck || r.kind == OpKind::kGetResponse) {
      list.erase(std::remove_if(list.begin(), list.end(), [&](const Answer& a) { return a.inject == i; }),
                 list.end());
    } else if (r.kind == OpKind::kData || r.kind == OpKind::kGetRequest) {
      for (const Answer& a : list)
        if (ix.at(a.ready).time_ps < r.time_ps)
          sink.add("responses-first", i, a.inject, [&] {
            return fmt::format(
                "{} was injected while {} was ready since record {} ({} ps)", packet_text(r.op, r.packet),
                packet_text(ix.at(a.inject).op, ix.at(a.inject).packet), a.ready, ix.at(a.ready).time_ps);
          });
      list.erase(std::remove_if(list.begin(), list.end(),
                                [&](const Answer& a) { return ix.at(a.ready).time_ps < r.time_ps; }),
                 list.end());  // each answer reported once
    }
  }
}

// An atomic at its target: the read and the write of its 8 bytes.
struct AtomicStep {
  std::uint32_t node;
  std::uint64_t addr;
  std::size_t read, write;
};

std::vector<AtomicStep> atomic_steps(const OpIndex& ix, Sink& sink) {
  std::vector<AtomicStep> out;
  for (const OpView& v : ix.ops) {
    if (!is_atomic(v.kind)) continue;
    std::size_t read = kNo, write = kNo;
    for (std::size_t k = v.begin; k < v.end; ++k) {
      const OpRecord& r = ix.at(ix.by_op[k]);
      if (r.kind != OpKind::kAtomicRequest || r.status != 0) continue;
      if (r.event == OpEvent::kDmaRead && read == kNo) read = ix.by_op[k];
      if (r.event == OpEvent::kDmaWrite && write == kNo) write = ix.by_op[k];
    }
    if (read == kNo || write == kNo) continue;
    const OpRecord &rd = ix.at(read), &wr = ix.at(write);
    if (write < read || rd.addr != wr.addr || rd.bytes != wr.bytes || rd.node != wr.node) {
      sink.add("atomics-serialized", read, write, [&] {
        return fmt::format(
            "atomic {} must read, then write, the same bytes: read [{}, +{}) on node {}, wrote "
            "[{}, +{}) on node {}",
            op_text(v.id), rd.addr, rd.bytes, rd.node, wr.addr, wr.bytes, wr.node);
      });
      continue;
    }
    out.push_back(AtomicStep{rd.node, rd.addr, read, write});
  }
  return out;
}

// Atomics on one target address: each reads after the previous one's write
// ended, in the log and in time (its read's start_ps).
void check_atomics(const OpIndex& ix, Sink& sink) {
  std::vector<AtomicStep> steps = atomic_steps(ix, sink);
  std::sort(steps.begin(), steps.end(), [](const AtomicStep& a, const AtomicStep& b) {
    return a.node != b.node ? a.node < b.node : a.addr != b.addr ? a.addr < b.addr : a.read < b.read;
  });
  for (std::size_t k = 1; k < steps.size(); ++k) {
    const AtomicStep &p = steps[k - 1], &n = steps[k];
    if (p.node != n.node || p.addr != n.addr) continue;
    const OpRecord& rd = ix.at(n.read);
    const sim::Time read_start = rd.start_ps != OpRecord::kNone ? rd.start_ps : rd.time_ps;
    if (n.read < p.write || read_start < ix.at(p.write).time_ps)
      sink.add("atomics-serialized", p.write, n.read, [&] {
        return fmt::format(
            "atomic {} read address {} on node {} at {} ps, before atomic {}'s write ended ({} ps)",
            op_text(rd.op), n.addr, n.node, read_start, op_text(ix.at(p.write).op), ix.at(p.write).time_ps);
      });
  }
}

}  // namespace

void check_engine_order(const OpIndex& ix, Sink& sink) {
  check_commands(ix, sink);
  check_arrival_order(ix, sink);
  check_answers_first(ix, sink);
  check_atomics(ix, sink);
}

}  // namespace kairo::observe::check
