// The scenario file's reader and its top level (sw/workloads/scenario_file.h).
#include "sw/workloads/scenario_file.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "sim/units.h"
#include "sw/workloads/scenario_reader.h"

namespace kairo::sw::scenario {

Where Reader::at(const YAML::Node& n, Where fallback) const {
  if (!n.IsDefined()) return fallback;
  const YAML::Mark m = n.Mark();
  if (m.is_null()) return fallback;
  return {m.line + 1, m.column + 1};
}

void Reader::fail(Where w, const std::string& what) const {
  throw ScenarioError(fmt::format("{}:{}:{}: {}", file_, w.line, w.column, what));
}

std::string Reader::describe(const YAML::Node& n) {
  if (!n.IsDefined() || n.IsNull()) return "nothing";
  if (n.IsSequence()) return "a list";
  if (n.IsMap()) return "a mapping";
  return "'" + n.Scalar() + "'";
}

std::string Reader::text(const YAML::Node& n, const std::string& key) const {
  if (!n.IsScalar()) fail(n, fmt::format("{}: expected text, got {}", key, describe(n)));
  return n.Scalar();
}

std::string Reader::name(const YAML::Node& n, const std::string& key) const {
  const std::string s = n.IsScalar() ? n.Scalar() : "";
  const bool ok = !s.empty() && (std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_') &&
                  std::all_of(s.begin(), s.end(), [](char c) {
                    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
                  });
  if (!ok)
    fail(n, fmt::format("{}: expected a name (a letter, then letters, digits, _ . -), got {}", key,
                        describe(n)));
  return s;
}

std::uint64_t Reader::bytes(const YAML::Node& n, const std::string& key) const {
  if (n.IsScalar()) try {
      return units::parse_bytes(n.Scalar());
    } catch (const units::UnitError&) {
    }
  fail(n, fmt::format("{}: expected a size such as 8B, 4KiB or 2MB, got {}", key, describe(n)));
}

sim::Time Reader::duration(const YAML::Node& n, const std::string& key) const {
  if (n.IsScalar()) try {
      return units::parse_duration(n.Scalar());
    } catch (const units::UnitError&) {
    }
  fail(n, fmt::format("{}: expected a duration such as 500ns, 2us or 1ms, got {}", key, describe(n)));
}

std::uint64_t Reader::unsigned_integer(const YAML::Node& n, const std::string& key, std::uint64_t max) const {
  const std::string s = n.IsScalar() ? n.Scalar() : "";
  const bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  const std::string digits = hex ? s.substr(2) : s;
  const bool ok = !digits.empty() && std::all_of(digits.begin(), digits.end(), [hex](char c) {
    return hex ? std::isxdigit(static_cast<unsigned char>(c)) != 0
               : std::isdigit(static_cast<unsigned char>(c)) != 0;
  });
  errno = 0;
  const std::uint64_t v = ok ? std::strtoull(digits.c_str(), nullptr, hex ? 16 : 10) : 0;
  if (!ok || errno == ERANGE || v > max)
    fail(n, fmt::format("{}: expected an integer in [0, {}], got {}", key, max, describe(n)));
  return v;
}

bool Reader::boolean(const YAML::Node& n, const std::string& key) const {
  const std::string s = n.IsScalar() ? n.Scalar() : "";
  if (s == "true") return true;
  if (s == "false") return false;
  fail(n, fmt::format("{}: expected true or false, got {}", key, describe(n)));
}

const YAML::Node& Reader::list(const YAML::Node& n, const std::string& key) const {
  if (!n.IsSequence()) fail(n, fmt::format("{}: expected a list, got {}", key, describe(n)));
  return n;
}

Fields::Fields(const Reader& r, const YAML::Node& map, std::string what, Where fallback)
    : r_(r), map_(map), what_(std::move(what)), at_(r.at(map, fallback)) {
  if (!map.IsMap()) r.fail(at_, fmt::format("{}: expected a mapping, got {}", what_, Reader::describe(map)));
  std::vector<std::string> seen;
  for (const auto& kv : map) {
    const std::string k = kv.first.Scalar();
    if (std::find(seen.begin(), seen.end(), k) != seen.end())
      r.fail(kv.first, fmt::format("{}: key '{}' given twice", what_, k));
    seen.push_back(k);
  }
}

std::optional<YAML::Node> Fields::get(const std::string& key) {
  asked_.push_back(key);
  const YAML::Node n = map_[key];
  if (!n) return std::nullopt;
  // An empty value has no place of its own (its mark is the next token's): name the key's.
  if (n.IsNull())
    for (const auto& kv : map_)
      if (kv.first.Scalar() == key) r_.fail(kv.first, fmt::format("{}: '{}' has no value", what_, key));
  return n;
}

YAML::Node Fields::need(const std::string& key) {
  auto n = get(key);
  if (!n) r_.fail(at_, fmt::format("{}: missing '{}'", what_, key));
  return *n;
}

void Fields::done() const {
  for (const auto& kv : map_) {
    const std::string k = kv.first.Scalar();
    if (std::find(asked_.begin(), asked_.end(), k) == asked_.end())
      r_.fail(kv.first,
              fmt::format("{}: unknown key '{}'; expected one of: {}", what_, k, fmt::join(asked_, ", ")));
  }
}

Contents read_contents(const Reader& r, const YAML::Node& n, const std::string& key, Where fallback) {
  Contents c;
  c.at = r.at(n, fallback);
  const char* expected = "zero, pattern, {pattern_of: RANK}, {u64: N} or {bytes: [...]}";
  if (n.IsScalar() && (n.Scalar() == "zero" || n.Scalar() == "pattern")) {
    c.kind = n.Scalar() == "zero" ? Contents::Kind::kZero : Contents::Kind::kPattern;
    return c;
  }
  if (!n.IsMap() || n.size() != 1)
    r.fail(c.at, fmt::format("{}: expected {}, got {}", key, expected, Reader::describe(n)));
  Fields f(r, n, key, c.at);
  if (auto v = f.get("pattern_of")) {
    c.kind = Contents::Kind::kPattern;
    c.pattern_of = int(r.unsigned_integer(*v, "pattern_of", 0x7fffffff));
  } else if (auto u = f.get("u64")) {
    c.kind = Contents::Kind::kU64;
    c.u64 = r.unsigned_integer(*u, "u64");
  } else if (auto b = f.get("bytes")) {
    c.kind = Contents::Kind::kBytes;
    for (const auto& e : r.list(*b, "bytes"))
      c.bytes.push_back(std::uint8_t(r.unsigned_integer(e, "a byte", 255)));
    if (c.bytes.empty()) r.fail(*b, "bytes: expected at least one byte");
  }
  f.done();
  return c;
}

namespace {

// A `set:` value as --set takes it: a scalar as written, a list or mapping in
// YAML's flow form (`ranks.map: [0, 5]` -> `[0, 5]`).
std::string set_value(const YAML::Node& n) {
  if (n.IsScalar()) return n.Scalar();
  YAML::Emitter out;
  out << YAML::Flow << n;
  return out.c_str();
}

std::pair<int, int> read_range(const Reader& r, const YAML::Node& n) {
  const std::string s = n.IsScalar() ? n.Scalar() : "";
  const auto dash = s.find('-');
  if (dash != std::string::npos && dash > 0) {
    YAML::Node lo(s.substr(0, dash)), hi(s.substr(dash + 1));
    const auto what = [&](const YAML::Node& x) {
      const std::string t = x.Scalar();
      if (!all_digits(t))
        r.fail(n, fmt::format("ranks: expected a rank, a range such as 1-7, a list of them or all, got {}",
                              Reader::describe(n)));
      return int(std::min<std::uint64_t>(std::strtoull(t.c_str(), nullptr, 10), 0x7fffffff));
    };
    const int a = what(lo), b = what(hi);
    if (a > b)
      r.fail(n, fmt::format("ranks: the range {} runs backwards; expected FIRST-LAST with FIRST <= LAST", s));
    return {a, b};
  }
  const int v = int(r.unsigned_integer(n, "rank", 0x7fffffff));
  return {v, v};
}

}  // namespace

RankSet read_rank_set(const Reader& r, const YAML::Node& n, bool single, Where fallback) {
  RankSet s;
  s.at = r.at(n, fallback);
  if (single) {
    const int v = int(r.unsigned_integer(n, "rank", 0x7fffffff));
    s.ranges.push_back({v, v});
  } else if (n.IsScalar() && n.Scalar() == "all") {
    s.all = true;
  } else if (n.IsSequence()) {
    for (const auto& e : n) s.ranges.push_back(read_range(r, e));
    if (s.ranges.empty()) r.fail(s.at, "ranks: expected at least one rank");
  } else {
    s.ranges.push_back(read_range(r, n));
  }
  return s;
}

bool RankSet::contains(int r) const {
  if (all) return true;
  for (const auto& [a, b] : ranges)
    if (r >= a && r <= b) return true;
  return false;
}

int Peer::of(int self, const std::vector<int>& members) const {
  if (!relative) return value;
  const auto n = std::ptrdiff_t(members.size());
  const auto i = std::lower_bound(members.begin(), members.end(), self) - members.begin();
  return members[std::size_t(((i + value) % n + n) % n)];
}

int Program::region_index(const std::string& name) const {
  for (std::size_t i = 0; i < regions.size(); ++i)
    if (regions[i].name == name) return int(i);
  return -1;
}

std::string Scenario::where(const Where& w) const { return fmt::format("{}:{}:{}", file, w.line, w.column); }

const char* step_name(StepKind k) {
  static const char* const names[] = {"operation", "wait", "poll", "delay", "loop", "barrier", "deregister"};
  return names[int(k)];
}

std::string_view step_name(const Step& s) {
  return s.kind == StepKind::kOperation ? sim::rdma_op(s.op.kind).name : std::string_view(step_name(s.kind));
}

const char* status_token(nic::RdmaStatus s) {
  static const char* const tokens[] = {
      "ok",      "unregistered_key", "stale_key",     "out_of_bounds", "length_over_limit",
      "bad_tni", "bad_rank",         "registry_full", "circuit_down"};
  const auto i = std::size_t(s);
  return i < std::size(tokens) ? tokens[i] : "unknown";
}

namespace {

Region read_region(const Reader& r, const YAML::Node& n) {
  Fields f(r, n, "a region");
  Region g;
  g.at = f.where();
  g.name = r.name(f.need("name"), "name");
  const YAML::Node size = f.need("size");
  g.size = r.bytes(size, "size");
  if (g.size == 0) r.fail(size, "size: expected a region of at least 1 byte");
  if (auto fill = f.get("fill")) g.fill = read_contents(r, *fill, "fill", g.at);
  f.done();
  return g;
}

Program read_program(const Reader& r, const YAML::Node& n, std::vector<std::uint32_t>& tags) {
  Fields f(r, n, "a rank entry");
  Program p;
  p.at = f.where();
  auto one = f.get("rank");
  auto many = f.get("ranks");
  if (bool(one) == bool(many)) r.fail(p.at, "a rank entry: expected one of 'rank: N' or 'ranks: SET'");
  p.ranks = read_rank_set(r, one ? *one : *many, bool(one), p.at);
  if (auto regions = f.get("regions"))
    for (const auto& e : r.list(*regions, "regions")) {
      Region g = read_region(r, e);
      if (p.region_index(g.name) >= 0)
        r.fail(g.at, fmt::format("region '{}' is declared twice for these ranks", g.name));
      p.regions.push_back(std::move(g));
    }
  std::vector<std::string> ids;
  if (auto steps = f.get("steps")) p.steps = read_steps(r, r.list(*steps, "steps"), ids, tags);
  f.done();
  return p;
}

void number_ops(std::vector<Step>& steps, std::vector<const Step*>& ops) {
  for (Step& st : steps) {
    if (st.kind == StepKind::kLoop) number_ops(st.steps, ops);
    if (st.kind != StepKind::kOperation) continue;
    st.op.index = int(ops.size());
    ops.push_back(&st);
  }
}

std::string stem(const std::string& path) {
  const auto slash = path.find_last_of('/');
  std::string s = slash == std::string::npos ? path : path.substr(slash + 1);
  const auto dot = s.rfind('.');
  return dot == std::string::npos ? s : s.substr(0, dot);
}

}  // namespace

Scenario parse_scenario(const std::string& yaml_text, const std::string& file) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    if (e.mark.is_null()) throw ScenarioError(fmt::format("{}: malformed YAML: {}", file, e.msg));
    throw ScenarioError(
        fmt::format("{}:{}:{}: malformed YAML: {}", file, e.mark.line + 1, e.mark.column + 1, e.msg));
  }
  Reader r(file);
  Scenario s;
  s.file = file;
  Fields f(r, root, "a scenario file", Where{1, 1});
  s.name = stem(file);
  if (auto name = f.get("scenario")) s.name = r.text(*name, "scenario");
  if (auto d = f.get("description")) r.text(*d, "description");
  if (auto set = f.get("set")) {
    Fields sets(r, *set, "set");
    for (const auto& kv : *set) {
      sets.get(kv.first.Scalar());
      s.sets.push_back(kv.first.Scalar() + "=" + set_value(kv.second));
    }
  }
  const YAML::Node ranks = f.need("ranks");  // kept: list() returns a reference to its argument
  for (const auto& e : r.list(ranks, "ranks")) s.programs.push_back(read_program(r, e, s.tags));
  if (s.programs.empty()) r.fail(f.where(), "ranks: expected at least one rank entry");
  if (auto expect = f.get("expect")) s.expect = read_expectations(r, r.list(*expect, "expect"));
  f.done();
  for (Program& p : s.programs) number_ops(p.steps, s.ops);
  std::sort(s.tags.begin(), s.tags.end());
  s.tags.erase(std::unique(s.tags.begin(), s.tags.end()), s.tags.end());
  return s;
}

Scenario parse_scenario_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ScenarioError("--scenario " + path + ": cannot read the file");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_scenario(text.str(), path);
}

}  // namespace kairo::sw::scenario
