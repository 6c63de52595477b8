// The ordering checker's driver and its view of the log (op_check.h,
// op_check_index.h). The invariants are in op_invariants.cpp (one operation
// at a time) and op_order.cpp (across the operations of an engine or an
// address); user rules in op_rules.cpp.
#include "observe/op_check.h"

#include <algorithm>
#include <numeric>

#include "observe/op_check_index.h"

namespace kairo::observe {

namespace {

// Packets the initiator sends: put data and the get and atomic requests.
bool sent_by_initiator(OpKind k) {
  return k == OpKind::kData || k == OpKind::kGetRequest || k == OpKind::kAtomicRequest;
}

// The operation a record's kind belongs to (a log cut before the doorbell
// still tells a put from a get by its packets, and calls it by its family's
// first kind).
OpKind operation_kind(OpKind k) {
  switch (k) {
    case OpKind::kData:
    case OpKind::kAck:
      return op_kind(sim::first_of(sim::RdmaFamily::kPut));
    case OpKind::kGetRequest:
    case OpKind::kGetResponse:
      return op_kind(sim::first_of(sim::RdmaFamily::kGet));
    case OpKind::kAtomicRequest:
    case OpKind::kAtomicResponse:
      return op_kind(sim::first_of(sim::RdmaFamily::kAtomic));
    default:
      return k;
  }
}

}  // namespace

std::optional<OpRole> role_of(const OpRecord& r) {
  if (!r.op) return std::nullopt;
  const bool request = sent_by_initiator(r.kind);
  switch (r.event) {
    case OpEvent::kRegister:
    case OpEvent::kDeregister:
      return std::nullopt;
    case OpEvent::kDoorbell:
    case OpEvent::kStart:
    case OpEvent::kComplete:
    case OpEvent::kPoll:
      return OpRole::kInitiator;
    case OpEvent::kNotice:
    case OpEvent::kNoticePoll:
      return OpRole::kTarget;
    case OpEvent::kDmaRead:  // put data at the initiator; get data and atomics at the target
      return r.kind == OpKind::kData ? OpRole::kInitiator : OpRole::kTarget;
    case OpEvent::kInject:
      return request ? OpRole::kInitiator : OpRole::kTarget;
    case OpEvent::kDmaWrite:  // put data and atomics at the target; answers at the initiator
      return r.kind == OpKind::kData || r.kind == OpKind::kAtomicRequest ? OpRole::kTarget
                                                                         : OpRole::kInitiator;
    case OpEvent::kArrive:
    case OpEvent::kDrop:
      return request ? OpRole::kTarget : OpRole::kInitiator;
  }
  return std::nullopt;
}

bool OpMatch::matches(const OpRecord& r) const {
  if (event && r.event != *event) return false;
  if (kind && r.kind != *kind) return false;
  if (status && r.status != *status) return false;
  if (role && role_of(r) != role) return false;
  return true;
}

const std::vector<OpInvariant>& op_invariants() {
  static const std::vector<OpInvariant> list = {
      {"put-completion-after-reads", "a put completes after its last DMA read of the source"},
      {"put-remote-completion",
       "a put without local_completion completes after its acknowledgement arrives and after the target's "
       "last write"},
      {"notice-after-writes", "a put's notice is raised after every byte of the put is written"},
      {"completion-after-local-writes", "a get or atomic completes after its last write at the initiator"},
      {"written-once-in-region",
       "an operation that completes ok writes every byte of its range exactly once, inside a region "
       "registered with its key"},
      {"failed-writes-nothing",
       "a command refused at start completes at once with that status and sends nothing; a put that "
       "completes with an error wrote nothing at its target"},
      {"atomics-serialized",
       "an atomic reads, then writes, its 8 bytes; atomics on one target address do not overlap"},
      {"fence", "a command with fence starts after every earlier command of its engine has completed"},
      {"start-in-doorbell-order", "an engine starts its commands in the order they were posted"},
      {"writes-in-arrival-order", "an engine writes received data in the order the packets' tails arrived"},
      {"notice-before-ack", "a put's notice is raised before its acknowledgement is injected"},
      {"responses-first",
       "an engine injects no new command's packet while an acknowledgement or get response is ready"},
  };
  return list;
}

namespace check {

OpIndex::OpIndex(const std::vector<OpRecord>& l) : log(l), op_of(l.size(), kNoOp) {
  index_operations();
  index_regions();
}

// Groups the records by operation (a stable sort keeps the log's order in
// each) and finds each operation's landmarks.
void OpIndex::index_operations() {
  for (std::size_t i = 0; i < log.size(); ++i) {
    nodes_.insert(log[i].node);
    if (log[i].op) by_op.push_back(std::uint32_t(i));
  }
  std::stable_sort(by_op.begin(), by_op.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return log[a].op < log[b].op; });
  for (std::size_t k = 0; k < by_op.size(); ++k) {
    const OpRecord& r = log[by_op[k]];
    if (ops.empty() || !(ops.back().id == r.op)) {
      ops.push_back(OpView{r.op, k, k});
      ops.back().kind = operation_kind(r.kind);  // until the doorbell says
    }
    OpView& v = ops.back();
    v.end = k + 1;
    op_of[by_op[k]] = std::uint32_t(ops.size() - 1);
    const std::optional<OpRole> role = role_of(r);
    if (r.event == OpEvent::kDoorbell && v.doorbell == kNo) {
      v.doorbell = by_op[k], v.kind = r.kind, v.flags = r.flags;
      if (r.peer != OpRecord::kNone) v.target = std::uint32_t(r.peer);
    } else if (r.event == OpEvent::kStart && v.start == kNo) {
      v.start = by_op[k];
    } else if (r.event == OpEvent::kComplete && v.complete == kNo) {
      v.complete = by_op[k];
    }
    if (v.target == kNoNode && role == OpRole::kTarget) v.target = r.node;
    if (v.target == kNoNode && role == OpRole::kInitiator && r.peer != OpRecord::kNone &&
        r.event != OpEvent::kComplete)
      v.target = std::uint32_t(r.peer);
  }
}

// Each node's registrations, as intervals of the log: a region is usable
// from its register record to its deregister record.
void OpIndex::index_regions() {
  for (std::size_t i = 0; i < log.size(); ++i) {
    const OpRecord& r = log[i];
    if (r.event != OpEvent::kRegister && r.event != OpEvent::kDeregister) continue;
    region_nodes_.insert(r.node);
    if (r.status != 0 || r.key == OpRecord::kNone) continue;
    std::vector<Region>& list = regions_[Key2{r.node, r.key}];
    if (r.event == OpEvent::kRegister) {
      list.push_back(Region{i, kNo, r.addr, r.bytes});
    } else if (!list.empty() && list.back().deregistered == kNo) {
      list.back().deregistered = i;
    }
  }
}

const Region* OpIndex::region(std::uint32_t node, std::uint64_t key, std::size_t when) const {
  auto it = regions_.find(Key2{node, key});
  if (it == regions_.end()) return nullptr;
  const std::vector<Region>& list = it->second;
  auto after = std::upper_bound(list.begin(), list.end(), when,
                                [](std::size_t w, const Region& g) { return w < g.registered; });
  if (after == list.begin()) return nullptr;
  const Region& g = *(after - 1);
  return when < g.deregistered ? &g : nullptr;
}

std::string describe(const OpIndex& ix, std::size_t i) {
  const OpRecord& r = ix.at(i);
  const std::string what = r.op && r.packet >= 0 ? packet_text(r.op, r.packet)
                           : r.op                ? op_text(r.op)
                                                 : fmt::format("key {}", r.key);
  return fmt::format("record {} ({} {} of {} on node {} at {} ps)", i, token(r.event), token(r.kind), what,
                     r.node, r.time_ps);
}

}  // namespace check

OpCheckReport check_op_log(const std::vector<OpRecord>& log, const std::vector<OpRule>& rules,
                           std::size_t keep) {
  OpCheckReport report;
  const check::OpIndex ix(log);
  check::Sink sink(report, keep);
  check::check_operations(ix, sink);
  check::check_engine_order(ix, sink);
  for (const OpRule& rule : rules) check::check_rule(ix, rule, sink);
  report.operations = ix.ops.size();
  report.checks = op_invariants().size() + rules.size();
  return report;
}

}  // namespace kairo::observe
