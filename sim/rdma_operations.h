// The kinds of RDMA operation a NIC performs, described once each: what the
// NIC's engine (hw/nic), the operation log and its checker (observe/), the
// firmware and the scenario files (sw/workloads) know about a kind comes from
// its entry here. Plain constant data, so that every layer may read it: the
// operation log sees only sim/, and the engine's hot path reads properties
// that fold to constants (masks over the table, no lookup per packet).
//
// A kind belongs to a family, which says how it moves: its handler
// (hw/nic/*_operation.cpp), its packets, and what the operation log's checker
// expects of it. A new read-modify-write is one more atomic: its value of
// RdmaOp and its entry here, its arithmetic in hw/nic/atomic_operation.cpp
// and its call in firmware/rank.h (docs/design.md, "Extending kairo").
#pragma once
#include <array>
#include <cstdint>
#include <string_view>

namespace kairo::sim {

// How an operation moves (docs/rdma.md):
//   kPut ...... data packets from the initiator, written at the target, then
//               a notice there and an acknowledgement back
//   kGet ...... a header-only request; data read at the target and sent back
//   kAtomic ... a request carrying the operands; a read-modify-write of 8
//               bytes at the target, serialized per address; the old value back
enum class RdmaFamily : std::uint8_t { kPut, kGet, kAtomic };

// The operation kinds, in their table's order (the operation log's kinds
// follow it, observe/op_log.h).
enum class RdmaOp : std::uint8_t { kPut, kGet, kFetchAdd, kCompareSwap, kFetchOr };

// A scenario field of an atomic, and where its value goes in the command
// (hw/nic/rdma_types.h: Command::operand or Command::compare).
struct RdmaOperandField {
  enum Into : std::uint8_t { kOperand, kCompare };
  std::string_view key;  // empty: none
  Into into = kOperand;
};

struct RdmaOpKind {
  RdmaOp op;
  // The kind in the operation log, in scenario files (its step's verb) and
  // in messages: "fetch_add".
  std::string_view name;
  RdmaFamily family;
  // Its scenario step's keys: the peer (a rank), the local region, and an
  // atomic's operands in the order they are asked for.
  std::string_view peer_key, local_key;
  std::array<RdmaOperandField, 2> operands;
};

inline constexpr std::array<RdmaOpKind, 5> kRdmaOps = {{
    {RdmaOp::kPut, "put", RdmaFamily::kPut, "to", "from", {}},
    {RdmaOp::kGet, "get", RdmaFamily::kGet, "from", "into", {}},
    {RdmaOp::kFetchAdd,
     "fetch_add",
     RdmaFamily::kAtomic,
     "to",
     "into",
     {{{"add", RdmaOperandField::kOperand}}}},
    {RdmaOp::kCompareSwap,
     "compare_swap",
     RdmaFamily::kAtomic,
     "to",
     "into",
     {{{"compare", RdmaOperandField::kCompare}, {"swap", RdmaOperandField::kOperand}}}},
    {RdmaOp::kFetchOr, "fetch_or", RdmaFamily::kAtomic, "to", "into", {{{"or", RdmaOperandField::kOperand}}}},
}};
inline constexpr std::size_t kRdmaOpCount = kRdmaOps.size();

constexpr bool table_in_op_order() {
  for (std::size_t i = 0; i < kRdmaOpCount; ++i)
    if (std::size_t(kRdmaOps[i].op) != i) return false;
  return true;
}
static_assert(table_in_op_order(), "kRdmaOps lists the operation kinds in RdmaOp's order");

constexpr const RdmaOpKind& rdma_op(RdmaOp op) { return kRdmaOps[std::size_t(op)]; }

// The kinds of a family as a bit mask (bit i: RdmaOp i), for tests that fold
// to a shift and an and.
constexpr std::uint32_t family_mask(RdmaFamily f) {
  std::uint32_t m = 0;
  for (const RdmaOpKind& k : kRdmaOps)
    if (k.family == f) m |= std::uint32_t(1) << std::size_t(k.op);
  return m;
}
static_assert(kRdmaOpCount <= 32, "family_mask holds a bit per kind");
// Every family's mask, computed when compiling: a call of family_mask in a
// test made at run time is not always folded (gcc kept its loop over the
// table in the NIC's per-packet code).
inline constexpr std::array<std::uint32_t, 3> kFamilyMasks = {
    family_mask(RdmaFamily::kPut), family_mask(RdmaFamily::kGet), family_mask(RdmaFamily::kAtomic)};
static_assert(std::size_t(RdmaFamily::kAtomic) + 1 == kFamilyMasks.size(), "a mask per family");
constexpr bool in_family(RdmaOp op, RdmaFamily f) {
  return (kFamilyMasks[std::size_t(f)] >> std::size_t(op)) & 1;
}

// The properties the engine, the checker and the scenario reader ask by:
// an atomic works on kAtomicBytes whatever a command's length says, and its
// steps at one target address are serialized; a request-response operation
// sends a header-only request (an atomic's carries its operands) and the
// target's response carries data written at the initiator; a put's target
// writes the data, raises its notice and acknowledges.
constexpr bool is_atomic(RdmaOp op) { return in_family(op, RdmaFamily::kAtomic); }
constexpr bool is_request_response(RdmaOp op) { return !in_family(op, RdmaFamily::kPut); }
constexpr bool is_put(RdmaOp op) { return in_family(op, RdmaFamily::kPut); }
// Its length is the command's (put, get), not fixed.
constexpr bool is_sized(RdmaOp op) { return !is_atomic(op); }

// The first kind of a family: what a log that lost an operation's doorbell
// calls it, knowing its family from its packets.
constexpr RdmaOp first_of(RdmaFamily f) {
  for (const RdmaOpKind& k : kRdmaOps)
    if (k.family == f) return k.op;
  return RdmaOp::kPut;
}

}  // namespace kairo::sim
