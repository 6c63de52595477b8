// The ordering checker's view of a log (op_check.h): the records of each
// operation together, the operation's landmark records (doorbell, start,
// completion), the registration table of each node over time, and the sink
// that collects violations. Shared by the checker's files; not an interface.
#pragma once
#include <fmt/format.h>

#include <cstdint>
#include <limits>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "observe/op_check.h"

namespace kairo::observe::check {

inline constexpr std::size_t kNo = std::numeric_limits<std::size_t>::max();
inline constexpr std::uint32_t kNoNode = std::numeric_limits<std::uint32_t>::max();

// A pair of numbers as a hash key (an engine, an operation, a packet, a channel).
struct Key2 {
  std::uint64_t a = 0, b = 0;
  bool operator==(const Key2& o) const { return a == o.a && b == o.b; }
};
struct Key2Hash {
  std::size_t operator()(const Key2& k) const {
    return std::size_t(k.a * 0x9e3779b97f4a7c15ULL ^ (k.b + (k.b << 17)));
  }
};
// One engine: node and TNI.
inline std::uint64_t engine_key(std::uint32_t node, std::int64_t tni) {
  return (std::uint64_t(node) << 20) | std::uint64_t(tni & 0xfffff);
}

// One operation's records (in log order) and its landmarks.
struct OpView {
  OpId id;
  std::size_t begin = 0, end = 0;  // its span of OpIndex::by_op
  std::size_t doorbell = kNo, start = kNo, complete = kNo;
  std::uint32_t target = kNoNode;  // the doorbell's peer, or where its target steps happened
  OpKind kind = op_kind(sim::RdmaOp::kPut);
  std::uint8_t flags = 0;
};

// What the invariants ask of an operation's kind, by its family's properties
// (sim/rdma_operations.h); false for a kind that names no operation.
inline bool is_put(OpKind k) { return operation_of(k) && sim::is_put(operation_of(k)->op); }
inline bool is_atomic(OpKind k) { return operation_of(k) && sim::is_atomic(operation_of(k)->op); }

// A registered region of a node, from its register record until its deregister.
struct Region {
  std::size_t registered = 0, deregistered = kNo;  // record indices
  std::uint64_t addr = 0, bytes = 0;
};

class OpIndex {
 public:
  explicit OpIndex(const std::vector<OpRecord>& log);

  const std::vector<OpRecord>& log;
  std::vector<std::uint32_t> by_op;  // record indices grouped by operation, log order inside
  std::vector<OpView> ops;           // by OpId (node, TNI, command number)
  std::vector<std::uint32_t> op_of;  // per record: its index in ops (kNoOp: none)
  static constexpr std::uint32_t kNoOp = std::numeric_limits<std::uint32_t>::max();

  const OpRecord& at(std::size_t i) const { return log[i]; }
  // The region with `key` registered on `node` when record `when` happened;
  // null if none. has_regions: the log holds registrations of `node` at all
  // (a log cut by --op-log-from or --op-log-nodes may not).
  const Region* region(std::uint32_t node, std::uint64_t key, std::size_t when) const;
  bool has_regions(std::uint32_t node) const { return region_nodes_.count(node) != 0; }
  bool has_node(std::uint32_t node) const { return nodes_.count(node) != 0; }

 private:
  void index_operations();
  void index_regions();
  std::unordered_map<Key2, std::vector<Region>, Key2Hash> regions_;  // by (node, key)
  std::unordered_set<std::uint32_t> region_nodes_, nodes_;
};

// Collects violations: keeps the first `keep` with their text, counts all.
class Sink {
 public:
  Sink(OpCheckReport& report, std::size_t keep) : report_(report), keep_(keep) {}
  // `what` (a callable giving the sentence) is called only for a kept violation.
  template <class What>
  void add(std::string_view rule, std::size_t a, std::size_t b, What&& what) {
    ++report_.total;
    if (report_.violations.size() >= keep_) return;
    report_.violations.push_back({std::string(rule), what(), std::min(a, b), std::max(a, b)});
  }

 private:
  OpCheckReport& report_;
  std::size_t keep_;
};

// The invariants, by family (op_invariants.cpp, op_order.cpp), and the user rules (op_rules.cpp).
void check_operations(const OpIndex& ix, Sink& sink);
void check_engine_order(const OpIndex& ix, Sink& sink);
void check_rule(const OpIndex& ix, const OpRule& rule, Sink& sink);

// "record 12 (dma_write of 0.0.3/1 at 12345 ps)": how a sentence names a record.
std::string describe(const OpIndex& ix, std::size_t i);

}  // namespace kairo::observe::check
