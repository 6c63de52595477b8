// The platform YAML reader's shared part: locating values for messages, the
// typed value readers, the generic reader of declared parameters, the walk
// over the top-level sections, and parse_platform.
#include "platforms/yaml/reader.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <set>
#include <stdexcept>

#include "platforms/topology_params.h"
#include "sim/host_memory.h"

namespace kairo::platforms {
namespace yaml {

namespace {
const std::vector<std::string> kTopKeys = {"name",  "description", "topology", "router", "nic",
                                           "links", "ranks",       "ocs",      "energy"};
}  // namespace

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
  return s;
}

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

int find_name(const std::vector<std::string>& names, const std::string& name) {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (lower(names[i]) == lower(name)) return int(i);
  return -1;
}

std::string describe(const YAML::Node& n) {
  if (!n.IsDefined() || n.IsNull()) return "nothing";
  if (n.IsSequence()) return "a list";
  if (n.IsMap()) return "a mapping";
  if (n.Scalar().empty()) return "an empty value";
  return n.Scalar();
}

std::optional<YAML::Node> child(const YAML::Node& map, const std::string& key) {
  if (!map.IsDefined() || !map.IsMap()) return std::nullopt;
  YAML::Node c = map[key];
  if (!c.IsDefined()) return std::nullopt;
  return c;
}

namespace {
std::string parent_of(const std::string& key) {
  const auto dot = key.rfind('.');
  return dot == std::string::npos ? std::string() : key.substr(0, dot);
}
}  // namespace

const std::vector<std::string>& section_keys(const std::string& parent) {
  static const std::map<std::string, std::vector<std::string>> keys = [] {
    std::map<std::string, std::vector<std::string>> k;
    for (const ParamInfo* p : declared_keys()) k[parent_of(p->key)].push_back(p->leaf());
    return k;
  }();
  static const std::vector<std::string> none;
  auto it = keys.find(parent);
  return it == keys.end() ? none : it->second;
}

const sim::ParamDecl& declared(const std::string& key) {
  for (const ParamInfo* p : declared_keys())
    if (p->key == key) return *p;
  throw std::logic_error(key + " is not a declared key");
}

std::vector<const sim::ParamDecl*> declared_under(const std::string& parent,
                                                  std::initializer_list<const char*> leaves) {
  std::vector<const sim::ParamDecl*> out;
  for (const char* l : leaves) out.push_back(&declared(parent + "." + l));
  return out;
}

std::vector<const sim::ParamDecl*> declared_under(const std::string& parent) {
  std::vector<const sim::ParamDecl*> out;
  const std::size_t n = parent.size();
  for (const ParamInfo* p : declared_keys()) {
    const std::string& k = p->key;  // parent.<leaf>, the leaf without a dot
    if (k.size() > n && k[n] == '.' && k.compare(0, n, parent) == 0 &&
        k.find('.', n + 1) == std::string::npos)
      out.push_back(p);
  }
  return out;
}

std::vector<const sim::ParamDecl*> declared_fields(const std::string& parent, const std::type_info& type,
                                                   const std::function<bool(const sim::ParamDecl&)>& keep) {
  std::vector<const sim::ParamDecl*> out;
  for (const sim::ParamDecl* d : declared_under(parent))
    if (d->generic() && *d->owner == type && (!keep || keep(*d))) out.push_back(d);
  return out;
}

bool of_form(const sim::ParamDecl& d, const std::string& form) {
  return d.only.empty() || std::find(d.only.begin(), d.only.end(), form) != d.only.end();
}

std::string Reader::locate(const std::string& path) const {
  for (std::string p = path;;) {
    if (auto it = set_origin_.find(p); it != set_origin_.end())
      return fmt::format("{}: --set {}", source_, it->second);
    auto dot = p.find_last_of(".[");
    if (dot == std::string::npos) break;
    p.resize(dot);
  }
  for (std::string p = path;;) {
    if (auto it = marks_.find(p); it != marks_.end() && it->second.line >= 0)
      return fmt::format("{}:{}", source_, it->second.line + 1);
    auto dot = p.find_last_of(".[");
    if (dot == std::string::npos) break;
    p.resize(dot);
  }
  return source_;
}

void Reader::fail_at(const std::string& loc, const std::string& key, const std::string& msg) const {
  std::string where = locate(loc);
  if (key.empty()) throw ConfigError(fmt::format("{}: {}", where, msg));
  throw ConfigError(fmt::format("{}: {}: {}", where, key, msg));
}

void Reader::report(const std::optional<sim::ParamProblem>& p) const {
  if (!p) return;
  // A check across keys is reported at the key a --set changed, if any, else
  // at the first key found in the file.
  auto first_in = [&p](const auto& known) {
    for (const std::string& k : p->from)
      if (known.count(k)) return k;
    return std::string();
  };
  std::string at = first_in(set_origin_);
  if (at.empty()) at = first_in(marks_);
  if (at.empty()) at = p->fallback.empty() ? p->key : p->fallback;
  fail_at(at, p->key.empty() ? at : p->key, p->message);
}

void Reader::check_keys(const YAML::Node& map, const std::string& path,
                        const std::vector<std::string>& allowed) {
  std::set<std::string> seen;
  for (const auto& kv : map) {
    const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : describe(kv.first);
    const std::string kp = path.empty() ? key : path + "." + key;
    note(kp, kv.first);
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
      fail(kp, fmt::format("unknown key; expected one of: {}", join(allowed)));
    if (!seen.insert(key).second) fail(kp, "duplicate key; expected each key once");
  }
}

long long Reader::read_int(const YAML::Node& n, const std::string& path, long long min,
                           const std::string& what, long long max) {
  note(path, n);
  const std::string range = max == INT_MAX || max == LLONG_MAX ? fmt::format(">= {}", min)
                                                               : fmt::format("between {} and {}", min, max);
  long long v = 0;
  bool ok = n.IsScalar();
  if (ok) {
    const std::string& s = n.Scalar();
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    ok = !s.empty() && end == s.data() + s.size() && ec == std::errc();
  }
  if (!ok || v < min || v > max)
    fail(path, fmt::format("expected an integer {} ({}), got {}", range, what, describe(n)));
  return v;
}

bool Reader::read_bool(const YAML::Node& n, const std::string& path, const std::string& what) {
  note(path, n);
  if (n.IsScalar() && lower(n.Scalar()) == "true") return true;
  if (n.IsScalar() && lower(n.Scalar()) == "false") return false;
  fail(path, fmt::format("expected true or false ({}), got {}", what, describe(n)));
}

std::string Reader::read_text(const YAML::Node& n, const std::string& path, const std::string& what) {
  note(path, n);
  if (!n.IsScalar()) fail(path, fmt::format("expected {}, got {}", what, describe(n)));
  return n.Scalar();
}

double Reader::read_rate(const YAML::Node& n, const std::string& path, const std::string& what) {
  double v = read_unit(n, path, "a bandwidth such as 5GB/s", units::parse_bandwidth);
  if (!(v > 0))
    fail(path, fmt::format("expected a bandwidth > 0 such as 5GB/s ({}), got {}", what, n.Scalar()));
  return v;
}

sim::ParamValue Reader::read_value(const YAML::Node& n, const sim::ParamDecl& d, const std::string& path) {
  using K = sim::ParamKind;
  const std::string& key = path.empty() ? d.key : path;
  sim::ParamValue v;
  const std::string what = d.what.empty() ? "" : " (" + d.what + ")";
  switch (d.kind) {
    case K::kCount:
    case K::kFlits:
    case K::kCycles:
      v.count = read_int(n, key, d.min, d.what, d.max);
      break;
    case K::kBytes: {
      v.bytes = read_unit(n, key, d.example, units::parse_bytes);
      const bool unbounded = d.max_bytes == std::uint64_t(INT_MAX) || d.max_bytes == UINT64_MAX;
      if (d.min_bytes > 0 && (v.bytes < d.min_bytes || v.bytes > d.max_bytes))
        fail(key, unbounded ? fmt::format("expected a size >= {}B{}, got {}", d.min_bytes, what, n.Scalar())
                            : fmt::format("expected a size between {}B and {}B{}, got {}", d.min_bytes,
                                          d.max_bytes, what, n.Scalar()));
      break;
    }
    case K::kRate:
      v.number = read_rate(n, key, d.what);
      break;
    case K::kDuration:
      v.time = read_unit(n, key, d.example, units::parse_duration);
      if (d.min > 0 && v.time < sim::Time(d.min))
        fail(key, fmt::format("expected a duration {}{}, got {}",
                              d.min == 1 ? "> 0" : ">= " + units::format_duration(d.min), what, n.Scalar()));
      break;
    case K::kFrequency:
      v.number = read_unit(n, key, "a frequency such as " + d.deflt, units::parse_frequency);
      if (!(v.number > 0))
        fail(key, fmt::format("expected a frequency > 0 such as {}{}, got {}", d.deflt, what, n.Scalar()));
      break;
    case K::kReal: {
      note(key, n);
      const bool most = d.max_real > d.min_real;
      auto in_range = [&](double x) {
        return (d.min_inclusive ? x >= d.min_real : x > d.min_real) && (!most || x <= d.max_real);
      };
      if (!n.IsScalar() || !YAML::convert<double>::decode(n, v.number) || !in_range(v.number))
        fail(key, fmt::format("expected a number {} {}{}{}, got {}", d.min_inclusive ? ">=" : ">", d.min_real,
                              most ? fmt::format(" and at most {}", d.max_real) : "", what, describe(n)));
      break;
    }
    case K::kName: {
      const std::string expect = sim::choice_text(d.choices);
      const std::string t = read_text(n, key, expect);
      auto it = std::find(d.choices.begin(), d.choices.end(), t);
      if (it == d.choices.end()) fail(key, fmt::format("expected {}{}, got {}", expect, what, describe(n)));
      v.choice = int(it - d.choices.begin());
      break;
    }
    case K::kBool:
      v.flag = read_bool(n, key, d.what);
      break;
    case K::kShape:
      break;
  }
  return v;
}

void Reader::read_declared(const YAML::Node& section, const std::vector<sim::ParamDecl>& decls, void* target,
                           const std::type_info& type) {
  for (const sim::ParamDecl& d : decls) {
    if (!d.generic()) continue;
    if (!d.owner || *d.owner != type)
      throw std::logic_error(d.key + " is not a member of the struct being read");
    if (auto n = child(section, d.leaf())) d.set(target, read_value(*n, d));
  }
}

void Reader::read_fields(const YAML::Node& map, const std::string& loc, const std::string& at,
                         const std::vector<const sim::ParamDecl*>& decls, void* target,
                         const std::type_info& type, Need need) {
  for (const sim::ParamDecl* d : decls) {
    if (!d->generic() || !d->owner || *d->owner != type)
      throw std::logic_error(d->key + " is not a member of the struct being read");
    const std::string path = at + "." + d->leaf();
    if (auto n = child(map, d->leaf())) {
      d->set(target, read_value(*n, *d, path));
    } else if (need == Need::kAll || (need == Need::kDeclared && d->deflt == "(required)")) {
      fail_at(loc, path,
              fmt::format("required key missing; expected an integer >= {} ({})", d->min, d->what));
    }
  }
}

Platform Reader::read(const YAML::Node& root) {
  if (!root.IsDefined() || root.IsNull())
    fail("", "expected a platform (a mapping with name, topology and router), got an empty document");
  note("", root);
  if (!root.IsMap())
    fail("", fmt::format("expected a platform (a mapping with name, topology and router), got {}",
                         describe(root)));
  check_keys(root, "", kTopKeys);

  Platform pl;
  pl.source = source_;
  auto name = child(root, "name");
  if (!name) fail("name", "required key missing; expected the platform's name, e.g. mesh-8x8");
  pl.name = read_text(*name, "name", "the platform's name, e.g. mesh-8x8");
  if (pl.name.empty()) fail("name", "expected the platform's name, e.g. mesh-8x8, got an empty value");
  if (auto d = child(root, "description")) pl.description = read_text(*d, "description", "a text");

  read_topology(root, pl);
  pl.router = RouterParams{};
  auto r = child(root, "router");
  if (r) {
    note("router", *r);
    if (!r->IsNull() && !r->IsMap())
      fail("router", fmt::format("expected a mapping of router parameters, got {}", describe(*r)));
  }
  read_router(r ? *r : YAML::Node(), pl, pl.router);
  report(router::router_problem(pl.dims, pl.router));
  read_links(root, pl);
  if (pl.kind != FabricKind::kTorus) {
    report(switched_problem(pl));
    report(link_problem(pl));
  }
  // The ranks' map takes a word per node: a platform this host cannot hold is
  // refused before it (and before any per-node work) is built.
  try {
    sim::check_host_memory(fmt::format("{}: platform {} ({} nodes)", source_, pl.name, pl.nodes()),
                           estimated_host_bytes(pl, false));
  } catch (const std::invalid_argument& e) {
    throw ConfigError(e.what());
  }
  read_ranks(root, pl);
  if (auto o = child(root, "ocs")) read_ocs(*o, pl);

  pl.nic = NicParams{};
  if (auto n = child(root, "nic")) {
    note("nic", *n);
    if (!n->IsNull() && !n->IsMap())
      fail("nic", fmt::format("expected a mapping of NIC parameters, got {}", describe(*n)));
    pl.has_nic = true;
    read_nic(*n, pl.nic);
    report(nic::nic_problem(pl.nic, pl.router.max_packet_flits, pl.router.flit_bytes));
  } else {
    fit_default_mtu(pl);
  }
  if (auto e = child(root, "energy")) read_energy(*e, pl.energy);
  record_sources(pl);
  return pl;
}

// No nic: section: the default NIC, its MTU cut to the router's largest
// packet (a router-only platform with small packets needs no NIC settings).
// Recorded as an adjustment: the caller says it on stderr.
void Reader::fit_default_mtu(Platform& pl) {
  const std::uint64_t room = std::uint64_t(pl.router.max_packet_flits) * std::uint64_t(pl.router.flit_bytes);
  if (room <= pl.nic.header_bytes || pl.nic.mtu_bytes <= room - pl.nic.header_bytes) return;
  Adjustment a;
  a.key = "nic.mtu";
  a.requested.bytes = pl.nic.mtu_bytes;
  pl.nic.mtu_bytes = std::uint32_t(room - pl.nic.header_bytes);
  a.reason = fmt::format(
      "the default NIC's packet (nic.header_size {}B + nic.mtu) must fit router.max_packet_flits x "
      "router.flit_size = {} x {}B = {}B; give the platform a nic: section to choose it",
      pl.nic.header_bytes, pl.router.max_packet_flits, pl.router.flit_bytes, room);
  pl.adjustments.push_back(std::move(a));
}

// The source of every key path the file or a --set gave (list entries, with
// their [i], are left out: their list's key stands for them).
void Reader::record_sources(Platform& pl) const {
  for (const auto& [path, mark] : marks_)
    if (!path.empty() && path.find('[') == std::string::npos) pl.sources.emplace(path, ParamSource::kFile);
  for (const auto& [path, set] : set_origin_) pl.sources[path] = ParamSource::kSet;
  for (const Adjustment& a : pl.adjustments) pl.sources[a.key] = ParamSource::kAdjusted;
}

namespace {

// The offset of the first byte that does not belong to well-formed UTF-8
// (RFC 3629: no overlong forms, no surrogates, at most U+10FFFF), or npos.
std::size_t first_non_utf8(std::string_view t) {
  std::size_t i = 0;
  while (i < t.size()) {
    const unsigned char c = static_cast<unsigned char>(t[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    int n = 0;
    unsigned lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF)
      n = 1;
    else if (c == 0xE0)
      n = 2, lo = 0xA0;
    else if (c >= 0xE1 && c <= 0xEC)
      n = 2;
    else if (c == 0xED)
      n = 2, hi = 0x9F;
    else if (c >= 0xEE && c <= 0xEF)
      n = 2;
    else if (c == 0xF0)
      n = 3, lo = 0x90;
    else if (c >= 0xF1 && c <= 0xF3)
      n = 3;
    else if (c == 0xF4)
      n = 3, hi = 0x8F;
    else
      return i;
    if (i + std::size_t(n) >= t.size()) return i;  // truncated sequence
    for (int k = 1; k <= n; ++k) {
      const unsigned char d = static_cast<unsigned char>(t[i + std::size_t(k)]);
      if (d < (k == 1 ? lo : 0x80) || d > (k == 1 ? hi : 0xBF)) return i;
    }
    i += std::size_t(n) + 1;
  }
  return std::string_view::npos;
}

void require_utf8(std::string_view text, const std::string& where) {
  const std::size_t bad = first_non_utf8(text);
  if (bad == std::string_view::npos) return;
  std::size_t line = 1, col = 1;
  for (std::size_t i = 0; i < bad; ++i) text[i] == '\n' ? (++line, col = 1) : ++col;
  throw ConfigError(fmt::format("{}:{}:{}: expected UTF-8 text, got the byte 0x{:02X}", where, line, col,
                                unsigned(static_cast<unsigned char>(text[bad]))));
}

}  // namespace
}  // namespace yaml

Platform parse_platform(const std::string& yaml_text, const std::string& source,
                        const std::vector<std::string>& sets) {
  // YAML is UTF-8; names and descriptions end up in the JSON, which must be too.
  yaml::require_utf8(yaml_text, source);
  for (const std::string& s : sets) yaml::require_utf8(s, source + ": --set " + s);
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    if (e.mark.is_null()) throw ConfigError(fmt::format("{}: malformed YAML: {}", source, e.msg));
    throw ConfigError(fmt::format("{}:{}: malformed YAML: {}", source, e.mark.line + 1, e.msg));
  }
  yaml::Reader reader(source);
  try {
    for (const std::string& s : sets) reader.apply_set(root, s);
    return reader.read(root);
  } catch (const YAML::Exception& e) {
    // Not expected (the reader checks node types first); keep it a ConfigError.
    throw ConfigError(fmt::format("{}: {}", source, e.what()));
  }
}

}  // namespace kairo::platforms
