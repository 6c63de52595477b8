// The operation log's vocabulary and its two written forms (op_log.h).
#include "observe/op_log.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <iterator>

namespace kairo::observe {

namespace {

constexpr std::array<std::string_view, kOpEvents> kEventTokens = {
    "register", "deregister", "doorbell", "start",  "dma_read", "inject",      "arrive",
    "dma_write", "drop",      "notice",   "complete", "poll",   "notice_poll",
};
constexpr std::array<std::string_view, kOpKinds> kKindTokens = {
    "put",          "get",         "fetch_add",      "compare_swap",    "data",   "ack",
    "get_request",  "get_response", "atomic_request", "atomic_response", "region",
};
// hw/nic/rdma_status.h's order (tests/nic/test_op_log.cpp checks it).
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
std::optional<std::uint8_t> status_of(std::string_view t) { return find_token<std::uint8_t>(kStatusTokens, t); }

std::string op_text(const OpId& op) { return fmt::format("{}.{}.{}", op.node, op.tni, op.number); }
std::string packet_text(const OpId& op, std::int64_t packet) {
  return fmt::format("{}.{}.{}/{}", op.node, op.tni, op.number, packet);
}

void sort_records(std::vector<OpRecord>& records) {
  std::stable_sort(records.begin(), records.end(), [](const OpRecord& a, const OpRecord& b) {
    return a.time_ps != b.time_ps ? a.time_ps < b.time_ps : a.node < b.node;
  });
}

void append_csv(std::string& out, std::uint64_t seq, const OpRecord& r) {
  auto it = std::back_inserter(out);
  fmt::format_to(it, "{},{},{},", seq, r.time_ps, r.node);
  if (r.tni >= 0) fmt::format_to(it, "{}", r.tni);
  out += ',';
  if (r.op) fmt::format_to(it, "{}.{}.{}", r.op.node, r.op.tni, r.op.number);
  out += ',';
  if (r.op && r.packet >= 0) fmt::format_to(it, "{}.{}.{}/{}", r.op.node, r.op.tni, r.op.number, r.packet);
  out += ',';
  out += token(r.kind);
  out += ',';
  out += token(r.event);
  for (std::uint64_t v : {r.addr, r.bytes}) {
    out += ',';
    if (v != OpRecord::kNone) fmt::format_to(it, "{}", v);
  }
  out += ',';
  out += status_token(r.status);
  for (std::uint64_t v : {r.peer, r.key, r.tag, std::uint64_t(r.start_ps)}) {
    out += ',';
    if (v != OpRecord::kNone) fmt::format_to(it, "{}", v);
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
