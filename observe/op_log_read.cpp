// Reading an operation log back (op_log_read.h).
#include "observe/op_log_read.h"

#include <fmt/format.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace kairo::observe {

namespace {

// What is wrong with one line; the reader adds FILE:LINE.
struct LineError {
  std::string what;
};

std::uint64_t parse_u64(std::string_view t, std::string_view column, std::uint64_t max = ~std::uint64_t(0)) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (t.empty() || ec != std::errc() || end != t.data() + t.size() || v > max)
    throw LineError{fmt::format("{}: expected a whole number{}, got '{}'", column,
                                max == ~std::uint64_t(0) ? "" : fmt::format(" up to {}", max), t)};
  return v;
}

// An optional number column: empty is "none".
std::uint64_t parse_opt(std::string_view t, std::string_view column) {
  return t.empty() ? OpRecord::kNone : parse_u64(t, column);
}

// "N.T.K", K >= 1.
OpId parse_op(std::string_view t, std::string_view column) {
  const std::size_t a = t.find('.'), b = a == t.npos ? t.npos : t.find('.', a + 1);
  if (b == t.npos) throw LineError{fmt::format("{}: expected N.T.K, got '{}'", column, t)};
  OpId op;
  op.node = std::uint32_t(parse_u64(t.substr(0, a), column, std::numeric_limits<std::uint32_t>::max()));
  op.tni = std::uint16_t(parse_u64(t.substr(a + 1, b - a - 1), column, 0xffff));
  op.number = parse_u64(t.substr(b + 1), column);
  if (!op.number) throw LineError{fmt::format("{}: command numbers start at 1, got '{}'", column, t)};
  return op;
}

// "N.T.K/j", whose N.T.K must be the record's operation.
std::int64_t parse_packet(std::string_view t, const OpId& op) {
  const std::size_t slash = t.find('/');
  if (slash == t.npos) throw LineError{fmt::format("packet: expected N.T.K/j, got '{}'", t)};
  if (!op || !(parse_op(t.substr(0, slash), "packet") == op))
    throw LineError{
        fmt::format("packet: '{}' is not a packet of the record's operation '{}'", t, op ? op_text(op) : "")};
  return std::int64_t(parse_u64(t.substr(slash + 1), "packet", std::uint64_t(INT64_MAX)));
}

template <class T>
T parse_token(std::optional<T> v, std::string_view column, std::string_view t) {
  if (!v) throw LineError{fmt::format("{}: unknown token '{}'", column, t)};
  return *v;
}

std::uint8_t parse_flags(std::string_view t) {
  std::uint8_t flags = 0;
  while (!t.empty()) {
    const std::size_t semi = t.find(';');
    const std::string_view f = t.substr(0, semi);
    if (f == "notify")
      flags |= kFlagNotify;
    else if (f == "fence")
      flags |= kFlagFence;
    else if (f == "local_completion")
      flags |= kFlagLocalCompletion;
    else
      throw LineError{fmt::format("flags: unknown flag '{}' (notify, fence, local_completion)", f)};
    t = semi == t.npos ? std::string_view() : t.substr(semi + 1);
  }
  return flags;
}

OpRecord parse_csv_row(std::string_view line) {
  std::string_view f[16];
  std::size_t n = 0;
  for (std::size_t pos = 0;; ++n) {
    const std::size_t comma = line.find(',', pos);
    if (n < 16) f[n] = line.substr(pos, comma == line.npos ? line.npos : comma - pos);
    if (comma == line.npos) break;
    pos = comma + 1;
  }
  if (++n != 16) throw LineError{fmt::format("expected 16 columns ({}), got {}", kOpLogColumns, n)};
  OpRecord r;
  r.time_ps = parse_u64(f[1], "time_ps");
  r.node = std::uint32_t(parse_u64(f[2], "node", std::numeric_limits<std::uint32_t>::max()));
  r.tni = f[3].empty() ? -1 : std::int32_t(parse_u64(f[3], "tni", 0xffff));
  if (!f[4].empty()) r.op = parse_op(f[4], "op");
  if (!f[5].empty()) r.packet = parse_packet(f[5], r.op);
  r.kind = parse_token(kind_of(f[6]), "kind", f[6]);
  r.event = parse_token(event_of(f[7]), "event", f[7]);
  r.addr = parse_opt(f[8], "addr");
  r.bytes = parse_opt(f[9], "bytes");
  r.status = parse_token(status_of(f[10]), "status", f[10]);
  r.peer = parse_opt(f[11], "peer");
  r.key = parse_opt(f[12], "key");
  r.tag = parse_opt(f[13], "tag");
  r.start_ps = parse_opt(f[14], "start_ps");
  r.flags = parse_flags(f[15]);
  if (f[0].empty()) throw LineError{"seq: expected a whole number, got ''"};
  return r;
}

std::uint64_t json_u64(const nlohmann::json& v, std::string_view key, std::uint64_t max = ~std::uint64_t(0)) {
  if (!v.is_number_unsigned() || v.get<std::uint64_t>() > max)
    throw LineError{fmt::format("{}: expected a whole number{}, got {}", key,
                                max == ~std::uint64_t(0) ? "" : fmt::format(" up to {}", max), v.dump())};
  return v.get<std::uint64_t>();
}

std::string_view json_text(const nlohmann::json& v, std::string_view key) {
  if (!v.is_string()) throw LineError{fmt::format("{}: expected a string, got {}", key, v.dump())};
  return v.get_ref<const std::string&>();
}

// Sets one field of `r` from a JSON key (the CSV column of that name).
void set_json_field(OpRecord& r, const std::string& key, const nlohmann::json& v) {
  if (key == "seq")
    json_u64(v, key);  // checked by the caller
  else if (key == "time_ps")
    r.time_ps = json_u64(v, key);
  else if (key == "node")
    r.node = std::uint32_t(json_u64(v, key, std::numeric_limits<std::uint32_t>::max()));
  else if (key == "tni")
    r.tni = std::int32_t(json_u64(v, key, 0xffff));
  else if (key == "op")
    r.op = parse_op(json_text(v, key), key);
  else if (key == "kind")
    r.kind = parse_token(kind_of(json_text(v, key)), key, json_text(v, key));
  else if (key == "event")
    r.event = parse_token(event_of(json_text(v, key)), key, json_text(v, key));
  else if (key == "status")
    r.status = parse_token(status_of(json_text(v, key)), key, json_text(v, key));
  else if (key == "addr")
    r.addr = json_u64(v, key);
  else if (key == "bytes")
    r.bytes = json_u64(v, key);
  else if (key == "peer")
    r.peer = json_u64(v, key);
  else if (key == "key")
    r.key = json_u64(v, key);
  else if (key == "tag")
    r.tag = json_u64(v, key);
  else if (key == "start_ps")
    r.start_ps = json_u64(v, key);
  else if (key == "flags")
    r.flags = parse_flags(json_text(v, key));
  else if (key != "packet")
    throw LineError{fmt::format("unknown key '{}' (the keys are {})", key, kOpLogColumns)};
}

OpRecord parse_json_row(std::string_view line, std::uint64_t* seq) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(line);
  } catch (const nlohmann::json::exception& e) {  // a parse error, or a number out of range (406)
    throw LineError{fmt::format("expected one JSON object: {}", e.what())};
  }
  if (!j.is_object()) throw LineError{"expected one JSON object per line"};
  for (const char* key : {"seq", "time_ps", "node", "kind", "event", "status"})
    if (!j.contains(key)) throw LineError{fmt::format("missing key '{}'", key)};
  OpRecord r;
  for (const auto& [key, v] : j.items()) set_json_field(r, key, v);
  if (j.contains("packet")) r.packet = parse_packet(json_text(j["packet"], "packet"), r.op);
  *seq = j["seq"].get<std::uint64_t>();
  return r;
}

// Lines of at most kMaxOpLogLine bytes, without their newline (and a CR
// before it); false at the end. `buf` holds kMaxOpLogLine + 2 bytes.
bool next_line(std::istream& in, std::vector<char>& buf, std::string_view& line) {
  in.getline(buf.data(), std::streamsize(buf.size()));
  const std::streamsize got = in.gcount();
  if (in.fail() && got == std::streamsize(buf.size()) - 1)
    throw LineError{fmt::format("line longer than {} bytes: not an operation log", kMaxOpLogLine)};
  if (in.fail()) return false;  // the end (or a read error: the caller asks in.bad())
  line = std::string_view(buf.data(), std::strlen(buf.data()));
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return true;
}

// One data line: its record, checked against the ones before.
void add_record(std::vector<OpRecord>& out, std::string_view line, OpLogFormat format) {
  std::uint64_t seq = 0;
  OpRecord r;
  if (format == OpLogFormat::kCsv) {
    r = parse_csv_row(line);
    seq = parse_u64(line.substr(0, line.find(',')), "seq");
  } else {
    r = parse_json_row(line, &seq);
  }
  if (seq != out.size())
    throw LineError{fmt::format("seq: expected {} (records are numbered from 0), got {}", out.size(), seq)};
  if (!out.empty() && r.time_ps < out.back().time_ps)
    throw LineError{fmt::format("time_ps: {} is before the previous record's {} (the log is in time order)",
                                r.time_ps, out.back().time_ps)};
  out.push_back(r);
}

}  // namespace

OpLogFormat op_log_format_of(const std::string& path) {
  auto ends = [&](std::string_view e) {
    return path.size() > e.size() && path.compare(path.size() - e.size(), e.size(), e) == 0;
  };
  if (ends(".csv")) return OpLogFormat::kCsv;
  if (ends(".jsonl")) return OpLogFormat::kJsonLines;
  throw std::invalid_argument(path + ": expected an operation log ending in .csv or .jsonl");
}

std::vector<OpRecord> read_op_log(std::istream& in, const std::string& name, OpLogFormat format) {
  std::vector<OpRecord> out;
  std::vector<char> buf(kMaxOpLogLine + 2);
  std::string_view line;
  std::size_t number = 0;
  try {
    bool header = format == OpLogFormat::kCsv;
    for (++number; next_line(in, buf, line); ++number) {
      if (header) {
        if (line != kOpLogColumns)
          throw LineError{
              fmt::format("expected the header '{}', got '{}'", kOpLogColumns, line.substr(0, 200))};
        header = false;
      } else if (!line.empty()) {
        add_record(out, line, format);
      }
    }
    if (header) throw LineError{fmt::format("empty file: expected the header '{}'", kOpLogColumns)};
  } catch (const LineError& e) {
    throw std::invalid_argument(fmt::format("{}:{}: {}", name, number, e.what));
  }
  if (in.bad()) throw std::invalid_argument(fmt::format("{}: cannot read: {}", name, std::strerror(errno)));
  return out;
}

std::vector<OpRecord> read_op_log_file(const std::string& path) {
  const OpLogFormat format = op_log_format_of(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument(fmt::format("{}: cannot read: {}", path, std::strerror(errno)));
  return read_op_log(in, path, format);
}

}  // namespace kairo::observe
