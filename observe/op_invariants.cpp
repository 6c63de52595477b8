// The invariants of one operation at a time (docs/rdma.md, "The ordering
// checker"): when it may complete, when its notice may be raised, what it
// writes, and what a failed one may not do. Each looks only at the
// operation's own records.
#include <algorithm>

#include "observe/op_check_index.h"

namespace kairo::observe::check {

namespace {

std::size_t earlier(std::size_t a, std::size_t b) { return a == kNo ? b : b == kNo ? a : std::min(a, b); }

// What one pass over an operation's records finds.
struct OpFacts {
  std::size_t last_read = kNo;          // the initiator's last DMA read of put data
  std::size_t last_target_write = kNo;  // the target's last DMA write of put data
  std::size_t last_local_write = kNo;   // the initiator's last DMA write of an answer
  std::size_t ack_arrive = kNo, ack_inject = kNo, notice = kNo;
  std::size_t first_packet = kNo;                        // its first packet record of any kind
  std::size_t first_target_write_ok = kNo;               // its first write at the target that succeeded
  std::vector<std::size_t> target_writes, local_writes;  // writes that moved bytes, status ok
};

bool packet_event(OpEvent e) {
  return e == OpEvent::kDmaRead || e == OpEvent::kInject || e == OpEvent::kArrive ||
         e == OpEvent::kDmaWrite || e == OpEvent::kDrop;
}

void gather(const OpIndex& ix, const OpView& v, OpFacts& f) {
  f = OpFacts{kNo, kNo, kNo, kNo, kNo, kNo, kNo, kNo, std::move(f.target_writes), std::move(f.local_writes)};
  f.target_writes.clear(), f.local_writes.clear();
  for (std::size_t k = v.begin; k < v.end; ++k) {
    const std::size_t i = ix.by_op[k];
    const OpRecord& r = ix.at(i);
    const bool target = role_of(r) == OpRole::kTarget;
    if (packet_event(r.event)) f.first_packet = earlier(f.first_packet, i);
    if (r.event == OpEvent::kDmaRead && r.kind == OpKind::kData) f.last_read = i;
    if (r.event == OpEvent::kNotice) f.notice = earlier(f.notice, i);
    if (r.kind == OpKind::kAck && r.event == OpEvent::kArrive) f.ack_arrive = earlier(f.ack_arrive, i);
    if (r.kind == OpKind::kAck && r.event == OpEvent::kInject) f.ack_inject = earlier(f.ack_inject, i);
    if (r.event != OpEvent::kDmaWrite) continue;
    (target ? f.last_target_write : f.last_local_write) = i;
    if (r.status != 0) continue;
    if (target) f.first_target_write_ok = earlier(f.first_target_write_ok, i);
    if (r.bytes != OpRecord::kNone && r.bytes > 0 && r.addr != OpRecord::kNone)
      (target ? f.target_writes : f.local_writes).push_back(i);
  }
}

bool started_ok(const OpIndex& ix, const OpView& v) { return v.start != kNo && ix.at(v.start).status == 0; }
bool completed_ok(const OpIndex& ix, const OpView& v) {
  return v.complete != kNo && ix.at(v.complete).status == 0;
}

void check_completion(const OpIndex& ix, const OpView& v, const OpFacts& f, Sink& sink) {
  const std::size_t c = v.complete;
  if (c == kNo) return;
  const std::string op = op_text(v.id);
  if (is_put(v.kind)) {
    if (f.last_read != kNo && f.last_read > c)
      sink.add("put-completion-after-reads", c, f.last_read,
               [&] { return fmt::format("put {} completed before its last DMA read of the source", op); });
    if (v.doorbell == kNo || (v.flags & kFlagLocalCompletion) || !started_ok(ix, v)) return;
    if (f.ack_arrive == kNo || f.ack_arrive > c)
      sink.add("put-remote-completion", c, f.ack_arrive == kNo ? v.doorbell : f.ack_arrive, [&] {
        return fmt::format("put {} (remote completion) completed before its acknowledgement arrived", op);
      });
    if (f.last_target_write != kNo && f.last_target_write > c)
      sink.add("put-remote-completion", c, f.last_target_write, [&] {
        return fmt::format("put {} (remote completion) completed before the target's last write", op);
      });
  } else if (f.last_local_write != kNo && f.last_local_write > c) {
    sink.add("completion-after-local-writes", c, f.last_local_write, [&] {
      return fmt::format("{} {} completed before its last write at the initiator", token(v.kind), op);
    });
  }
}

void check_notice(const OpIndex& ix, const OpView& v, const OpFacts& f, Sink& sink) {
  if (!is_put(v.kind)) return;
  const std::string op = op_text(v.id);
  if (f.notice != kNo && f.last_target_write != kNo && f.last_target_write > f.notice)
    sink.add("notice-after-writes", f.notice, f.last_target_write,
             [&] { return fmt::format("put {} raised its notice before its last byte was written", op); });
  if (f.notice != kNo && f.ack_inject != kNo && f.ack_inject < f.notice)
    sink.add("notice-before-ack", f.ack_inject, f.notice, [&] {
      return fmt::format("put {} injected its acknowledgement before raising its notice", op);
    });
  const bool notify = v.doorbell != kNo && (v.flags & kFlagNotify);
  if (notify && f.notice == kNo && f.ack_inject != kNo && ix.at(f.ack_inject).status == 0)
    sink.add("notice-before-ack", v.doorbell, f.ack_inject, [&] {
      return fmt::format("put {} asked for a notice and was acknowledged ok without one", op);
    });
}

void check_failed(const OpIndex& ix, const OpView& v, const OpFacts& f, Sink& sink) {
  const std::string op = op_text(v.id);
  if (v.start != kNo && ix.at(v.start).status != 0) {
    const std::uint8_t s = ix.at(v.start).status;
    if (f.first_packet != kNo)
      sink.add("failed-writes-nothing", v.start, f.first_packet, [&] {
        return fmt::format("{} was refused at start ({}) but made packets", op, status_token(s));
      });
    if (v.complete != kNo && ix.at(v.complete).status != s)
      sink.add("failed-writes-nothing", v.start, v.complete, [&] {
        return fmt::format("{} was refused at start ({}) but completed with {}", op, status_token(s),
                           status_token(ix.at(v.complete).status));
      });
  }
  if (is_put(v.kind) && v.complete != kNo && ix.at(v.complete).status != 0 && f.first_target_write_ok != kNo)
    sink.add("failed-writes-nothing", f.first_target_write_ok, v.complete, [&] {
      return fmt::format("put {} completed with {} but wrote at its target", op,
                         status_token(ix.at(v.complete).status));
    });
}

// What one side of an operation must write: `length` bytes from `first`
// (kNone: anywhere) on `node`, inside the region of `key` there.
struct Range {
  std::uint32_t node;
  std::uint64_t key, first, length;
  std::string_view side;
};

void check_region(const OpIndex& ix, const OpView& v, std::size_t w, const Range& want, Sink& sink) {
  if (!ix.has_regions(want.node) || want.key == OpRecord::kNone) return;
  const OpRecord& r = ix.at(w);
  const Region* g = ix.region(want.node, want.key, w);
  if (!g)
    sink.add("written-once-in-region", v.doorbell != kNo ? v.doorbell : w, w, [&] {
      return fmt::format("{} wrote at {} while no region with key {} was registered on node {}",
                         op_text(v.id), want.side, want.key, want.node);
    });
  else if (r.addr < g->addr || r.addr + r.bytes > g->addr + g->bytes)
    sink.add("written-once-in-region", g->registered, w, [&] {
      return fmt::format("{} wrote [{}, {}) at {}, outside the region [{}, {}) of key {}", op_text(v.id),
                         r.addr, r.addr + r.bytes, want.side, g->addr, g->addr + g->bytes, want.key);
    });
}

// The writes cover [first, first + length) exactly once: sorted by address,
// each starts where the one before ended.
void check_cover(const OpIndex& ix, const OpView& v, std::vector<std::size_t>& writes, const Range& want,
                 Sink& sink) {
  const std::string op = op_text(v.id);
  if (writes.empty()) {
    if (want.length > 0)
      sink.add("written-once-in-region", v.start, v.complete, [&] {
        return fmt::format("{} completed ok but wrote none of its {} bytes at {}", op, want.length,
                           want.side);
      });
    return;
  }
  std::sort(writes.begin(), writes.end(), [&](std::size_t a, std::size_t b) {
    return ix.at(a).addr != ix.at(b).addr ? ix.at(a).addr < ix.at(b).addr : a < b;
  });
  for (std::size_t w : writes) check_region(ix, v, w, want, sink);
  const std::uint64_t first = want.first != OpRecord::kNone ? want.first : ix.at(writes[0]).addr;
  std::uint64_t end = first;
  std::size_t prev = v.start;
  for (std::size_t w : writes) {
    const OpRecord& r = ix.at(w);
    if (r.addr != end) {
      const bool twice = r.addr < end;
      sink.add("written-once-in-region", prev, w, [&] {
        return twice ? fmt::format("{} wrote bytes [{}, {}) at {} twice", op, r.addr,
                                   std::min(end, r.addr + r.bytes), want.side)
                     : fmt::format("{} never wrote bytes [{}, {}) at {}", op, end, r.addr, want.side);
      });
      return;
    }
    end += r.bytes, prev = w;
  }
  if (end - first != want.length)
    sink.add("written-once-in-region", prev, v.complete, [&] {
      return fmt::format("{} wrote {} bytes at {}, expected {}", op, end - first, want.side, want.length);
    });
}

void check_writes(const OpIndex& ix, const OpView& v, OpFacts& f, Sink& sink) {
  if (!started_ok(ix, v) || !completed_ok(ix, v)) return;
  const OpRecord& s = ix.at(v.start);
  const std::uint64_t length = v.doorbell != kNo ? ix.at(v.doorbell).bytes : s.bytes;
  const std::uint64_t remote_key = v.doorbell != kNo ? ix.at(v.doorbell).key : OpRecord::kNone;
  const Range local{v.id.node, s.key, s.addr, length, "the initiator"};
  const Range remote{v.target, remote_key, OpRecord::kNone, length, "the target"};
  const bool target_logged = v.target != kNoNode && ix.has_node(v.target);
  const sim::RdmaOpKind* kind = operation_of(v.kind);
  if (!kind) return;
  if (sim::is_put(kind->op)) {  // the target has finished once the acknowledgement is back
    if (target_logged && v.doorbell != kNo && f.ack_arrive != kNo)
      check_cover(ix, v, f.target_writes, remote, sink);
    return;
  }
  // An atomic writes its 8 bytes at the target; a request-response operation's
  // response is written at the initiator.
  if (sim::is_atomic(kind->op) && target_logged && v.doorbell != kNo)
    check_cover(ix, v, f.target_writes, remote, sink);
  if (sim::is_request_response(kind->op)) check_cover(ix, v, f.local_writes, local, sink);
}

}  // namespace

void check_operations(const OpIndex& ix, Sink& sink) {
  OpFacts f;
  for (const OpView& v : ix.ops) {
    gather(ix, v, f);
    check_completion(ix, v, f, sink);
    check_notice(ix, v, f, sink);
    check_failed(ix, v, f, sink);
    check_writes(ix, v, f, sink);
  }
}

}  // namespace kairo::observe::check
