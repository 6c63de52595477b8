// The operation log's vocabulary and its two written forms (op_log.h).
#include "observe/op_log.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <iterator>

namespace kairo::observe {

namespace {

constexpr std::array<std::string_view, kOpEvents> kEventTokens = {
    "register",  "deregister", "doorbell", "start",    "dma_read", "inject",      "arrive",
    "dma_write", "drop",       "notice",   "complete", "poll",     "notice_poll",
};
// The kinds after the operations' (whose tokens are their names in sim/rdma_operations.h).
constexpr std::array<std::string_view, kOpKinds - sim::kRdmaOpCount> kPacketKindTokens = {
    "data", "ack", "get_request", "get_response", "atomic_request", "atomic_response", "region",
};
constexpr std::array<std::string_view, kOpKinds> kKindTokens = [] {
  std::array<std::string_view, kOpKinds> t{};
  for (const sim::RdmaOpKind& k : sim::kRdmaOps) t[std::size_t(op_kind(k.op))] = k.name;
  for (std::size_t i = 0; i < kPacketKindTokens.size(); ++i) t[sim::kRdmaOpCount + i] = kPacketKindTokens[i];
  return t;
}();
// In hw/nic/rdma_status.h's order: a status added there needs its token here, at its place.
constexpr std::array<std::string_view, kOpStatuses> kStatusTokens = {
    "ok",      "unregistered_key", "stale_key",     "out_of_bounds", "length_over_limit",
    "bad_tni", "bad_rank",         "registry_full", "circuit_down",
};

template <class Enum, std::size_t N>
std::optional<Enum> find_token(const std::array<std::string_view, N>& tokens, std::string_view t) {
  for (std::size_t i = 0; i < N; ++i)
    if (tokens[i] == t) return Enum(i);
  return std::nullopt;
}

// The flags' text: "notify;fence;local_completion", in that order.
void append_flags(std::string& out, std::uint8_t flags) {
  bool first = true;
  auto add = [&](OpFlag f, std::string_view name) {
    if (!(flags & f)) return;
    if (!first) out += ';';
    out += name;
    first = false;
  };
  add(kFlagNotify, "notify");
  add(kFlagFence, "fence");
  add(kFlagLocalCompletion, "local_completion");
}

}  // namespace

std::string_view token(OpEvent e) { return kEventTokens[std::size_t(e)]; }
std::string_view token(OpKind k) { return kKindTokens[std::size_t(k)]; }
std::string_view status_token(std::uint8_t s) { return s < kOpStatuses ? kStatusTokens[s] : "unknown"; }
std::optional<OpEvent> event_of(std::string_view t) { return find_token<OpEvent>(kEventTokens, t); }
std::optional<OpKind> kind_of(std::string_view t) { return find_token<OpKind>(kKindTokens, t); }
std::optional<std::uint8_t> status_of(std::string_view t) {
  return find_token<std::uint8_t>(kStatusTokens, t);
}

std::string op_text(const OpId& op) { return fmt::format("{}.{}.{}", op.node, op.tni, op.number); }
std::string packet_text(const OpId& op, std::int64_t packet) {
  return fmt::format("{}.{}.{}/{}", op.node, op.tni, op.number, packet);
}

// One process appends its records in time order (each is stamped with the
// time of the event it is recorded in): then only the records of one
// instant need ordering by node. Records gathered from several processes are
// sorted whole.
void sort_records(std::vector<OpRecord>& records) {
  const auto by_node = [](const OpRecord& a, const OpRecord& b) { return a.node < b.node; };
  const auto by_time = [](const OpRecord& a, const OpRecord& b) {
    return a.time_ps != b.time_ps ? a.time_ps < b.time_ps : a.node < b.node;
  };
  const auto by_time_only = [](const OpRecord& a, const OpRecord& b) { return a.time_ps < b.time_ps; };
  if (!std::is_sorted(records.begin(), records.end(), by_time_only)) {
    std::stable_sort(records.begin(), records.end(), by_time);
    return;
  }
  for (auto first = records.begin(); first != records.end();) {
    auto last = first + 1;
    while (last != records.end() && last->time_ps == first->time_ps) ++last;
    if (last - first > 1 && !std::is_sorted(first, last, by_node)) std::stable_sort(first, last, by_node);
    first = last;
  }
}

namespace {
void append_uint(std::string& out, std::uint64_t v) {
  const fmt::format_int f(v);
  out.append(f.data(), f.size());
}
void append_op(std::string& out, const OpId& op) {
  append_uint(out, op.node);
  out += '.';
  append_uint(out, op.tni);
  out += '.';
  append_uint(out, op.number);
}
}  // namespace

void append_csv(std::string& out, std::uint64_t seq, const OpRecord& r) {
  append_uint(out, seq);
  out += ',';
  append_uint(out, r.time_ps);
  out += ',';
  append_uint(out, r.node);
  out += ',';
  if (r.tni >= 0) append_uint(out, std::uint64_t(r.tni));
  out += ',';
  if (r.op) append_op(out, r.op);
  out += ',';
  if (r.op && r.packet >= 0) {
    append_op(out, r.op);
    out += '/';
    append_uint(out, std::uint64_t(r.packet));
  }
  out += ',';
  out += token(r.kind);
  out += ',';
  out += token(r.event);
  for (std::uint64_t v : {r.addr, r.bytes}) {
    out += ',';
    if (v != OpRecord::kNone) append_uint(out, v);
  }
  out += ',';
  out += status_token(r.status);
  for (std::uint64_t v : {r.peer, r.key, r.tag, std::uint64_t(r.start_ps)}) {
    out += ',';
    if (v != OpRecord::kNone) append_uint(out, v);
  }
  out += ',';
  append_flags(out, r.flags);
  out += '\n';
}

void append_jsonl(std::string& out, std::uint64_t seq, const OpRecord& r) {
  auto it = std::back_inserter(out);
  fmt::format_to(it, "{{\"seq\":{},\"time_ps\":{},\"node\":{}", seq, r.time_ps, r.node);
  if (r.tni >= 0) fmt::format_to(it, ",\"tni\":{}", r.tni);
  if (r.op) fmt::format_to(it, ",\"op\":\"{}.{}.{}\"", r.op.node, r.op.tni, r.op.number);
  if (r.op && r.packet >= 0)
    fmt::format_to(it, ",\"packet\":\"{}.{}.{}/{}\"", r.op.node, r.op.tni, r.op.number, r.packet);
  fmt::format_to(it, ",\"kind\":\"{}\",\"event\":\"{}\"", token(r.kind), token(r.event));
  if (r.addr != OpRecord::kNone) fmt::format_to(it, ",\"addr\":{}", r.addr);
  if (r.bytes != OpRecord::kNone) fmt::format_to(it, ",\"bytes\":{}", r.bytes);
  fmt::format_to(it, ",\"status\":\"{}\"", status_token(r.status));
  if (r.peer != OpRecord::kNone) fmt::format_to(it, ",\"peer\":{}", r.peer);
  if (r.key != OpRecord::kNone) fmt::format_to(it, ",\"key\":{}", r.key);
  if (r.tag != OpRecord::kNone) fmt::format_to(it, ",\"tag\":{}", r.tag);
  if (r.start_ps != OpRecord::kNone) fmt::format_to(it, ",\"start_ps\":{}", r.start_ps);
  if (r.flags) {
    out += ",\"flags\":\"";
    append_flags(out, r.flags);
    out += '"';
  }
  out += "}\n";
}

}  // namespace kairo::observe
