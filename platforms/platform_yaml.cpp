// The platform YAML reader: applies `--set` overrides to the YAML tree, then
// walks it once, converting and validating every value. Every failure is a
// ConfigError located by file and line (or by the --set that supplied the
// value), then the key path and what was expected.
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <cctype>
#include <charconv>
#include <climits>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include "hw/common/link.h"
#include "platforms/platform.h"
#include "sim/host_memory.h"
#include "sim/units.h"

namespace kairo::platforms {
namespace {

// Mirrors router::allocator_names() and rtl_allocator_names()
// (hw/router/allocator.h); a test checks
// that the two lists agree.
const std::vector<std::string> kAllocatorNames = {"round_robin", "islip", "oldest_first", "rtl_separable_rr"};
const std::vector<std::string> kTopKeys = {"name", "description", "topology", "router",
                                           "nic",  "links",       "ranks", "ocs"};
const std::vector<std::string> kFatTreeKeys = {"edges",  "hosts_per_edge", "uplinks_per_edge",
                                               "spines", "levels",         "radix"};
const std::vector<std::string> kClusterKeys = {"count", "hosts"};
const std::vector<std::string> kLinkClasses = {"host", "up", "wan"};
const std::vector<std::string> kLinkKeys = {"bandwidth", "latency", "buffer", "multiplier"};
// Router keys that describe mesh/torus links and routing; a switched fabric
// takes links.<class> and table routing instead.
const std::vector<std::string> kTorusOnlyRouterKeys = {"link_bandwidth", "host_bandwidth", "cable_latency",
                                                       "host_latency",   "routing_order",  "tie_break"};
// Ports of the largest switch or router the model builds (hw/router/router.h).
constexpr int kMaxSwitchPorts = 76;
const std::vector<std::string> kDimKeys = {"name", "size", "wrap"};

std::string join(const std::vector<std::string>& v, const char* sep = ", ") {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
  return s;
}

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Index of `name` in `names` (case-insensitive, like Topology::dim_index), or -1.
int find_name(const std::vector<std::string>& names, const std::string& name) {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (lower(names[i]) == lower(name)) return int(i);
  return -1;
}

// The keys under `router:` and `nic:`, taken from the parameter table so that
// the table, the docs and the loader cannot disagree.
std::vector<std::string> section_keys(const std::string& section) {
  std::vector<std::string> k;
  const std::string prefix = section + ".";
  for (const ParamInfo& p : param_table())
    if (p.key.rfind(prefix, 0) == 0) k.push_back(p.key.substr(prefix.size()));
  return k;
}
const std::vector<std::string>& router_keys() {
  static const std::vector<std::string> keys = section_keys("router");
  return keys;
}
const std::vector<std::string>& nic_keys() {
  static const std::vector<std::string> keys = section_keys("nic");
  return keys;
}
const std::vector<std::string>& ocs_keys() {
  static const std::vector<std::string> keys = section_keys("ocs");
  return keys;
}

// Why the NIC's largest packet does not fit the router's, or nothing.
std::optional<std::string> nic_fit_problem(const RouterParams& r, const NicParams& n) {
  const std::uint64_t flits = n.max_packet_flits(r.flit_bytes);
  if (flits <= std::uint64_t(r.max_packet_flits)) return std::nullopt;
  const std::uint64_t room = std::uint64_t(r.max_packet_flits) * std::uint64_t(r.flit_bytes);
  const std::string fits = fmt::format(
      "a packet (nic.header_size + nic.mtu) fits router.max_packet_flits ({} flits "
      "of {}B)",
      r.max_packet_flits, r.flit_bytes);
  const std::string got =
      fmt::format("{}B ({}B header + {}B = {} flits)", n.mtu_bytes, n.header_bytes, n.mtu_bytes, flits);
  if (room > n.header_bytes)
    return fmt::format(
        "expected at most {0}B so that {1}, got {2}: lower nic.mtu to at most {0}B or raise "
        "router.max_packet_flits to at least {3}",
        room - n.header_bytes, fits, got, flits);
  return fmt::format(
      "expected a size such that {}, got {}: the header alone fills the packet; raise "
      "router.max_packet_flits to at least {} or lower nic.header_size",
      fits, got, flits);
}

sim::Time default_cable_ps() {
  for (const ParamInfo& p : param_table())
    if (p.key == "router.cable_latency") return units::parse_duration(p.deflt);
  return 0;
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

// Dimension names as declared, best effort (used before validation, by --set).
std::vector<std::string> declared_dims(const YAML::Node& root) {
  std::vector<std::string> names;
  auto topo = child(root, "topology");
  auto dims = topo ? child(*topo, "dims") : std::nullopt;
  if (!dims || !dims->IsSequence()) return names;
  for (const YAML::Node& e : *dims) {
    auto n = child(e, "name");
    names.push_back(n && n->IsScalar() ? n->Scalar() : "");
  }
  return names;
}

class Reader {
 public:
  explicit Reader(std::string source) : source_(std::move(source)) {}

  void apply_set(YAML::Node& root, const std::string& set);
  Platform read(const YAML::Node& root);

 private:
  // "file:line" or "file: --set k=v" for the value at `path`.
  std::string locate(const std::string& path) const;
  [[noreturn]] void fail_at(const std::string& loc, const std::string& key, const std::string& msg) const {
    std::string where = locate(loc);
    if (key.empty()) throw ConfigError(fmt::format("{}: {}", where, msg));
    throw ConfigError(fmt::format("{}: {}: {}", where, key, msg));
  }
  [[noreturn]] void fail(const std::string& path, const std::string& msg) const { fail_at(path, path, msg); }

  const YAML::Node& note(const std::string& path, const YAML::Node& n) {
    // An empty value's mark points past it; keep the key's line instead.
    if (n.IsDefined() && !(n.IsNull() && marks_.count(path))) marks_[path] = n.Mark();
    return n;
  }
  void check_keys(const YAML::Node& map, const std::string& path, const std::vector<std::string>& allowed);
  long long read_int(const YAML::Node& n, const std::string& path, long long min, const std::string& what,
                     long long max = INT_MAX);
  bool read_bool(const YAML::Node& n, const std::string& path, const std::string& what);
  std::string read_text(const YAML::Node& n, const std::string& path, const std::string& what);
  template <typename F>
  auto read_unit(const YAML::Node& n, const std::string& path, const std::string& expect, F parse)
      -> decltype(parse(std::string_view{}));
  double read_rate(const YAML::Node& n, const std::string& path, const std::string& what);

  void read_topology(const YAML::Node& root, Platform& pl);
  void read_switched(const YAML::Node& n, const std::string& path, Platform& pl);
  void read_links(const YAML::Node& root, Platform& pl);
  void check_switched(const Platform& pl);
  void read_ranks(const YAML::Node& root, Platform& pl);
  router::DimSpec read_dim(const YAML::Node& e, std::size_t i, const std::vector<router::DimSpec>& before);
  void read_router(const YAML::Node& r, const Platform& pl, RouterParams& p);
  void read_cables(const std::optional<YAML::Node>& n, const std::vector<std::string>& names,
                   RouterParams& p);
  void read_order(const YAML::Node& n, const std::vector<std::string>& names, RouterParams& p);
  void check_router(const std::vector<router::DimSpec>& dims, const RouterParams& p);
  void read_nic(const YAML::Node& n, NicParams& p);
  void read_ocs(const YAML::Node& n, Platform& pl);
  std::vector<std::uint32_t> read_node_list(const YAML::Node& n, const std::string& path, std::uint64_t nodes);
  void check_nic(const RouterParams& r, const NicParams& p);
  // The first of `keys` a --set changed, else the first found in the file, else `fallback`.
  std::string pick(std::initializer_list<std::string> keys, const std::string& fallback) const;

  std::string source_;
  std::map<std::string, std::string> set_origin_;  // key path -> "key=value" of the --set that wrote it
  std::map<std::string, YAML::Mark> marks_;        // key path -> where its value was read
};

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

// A --set error: "file: --set k=v: path: message".
[[noreturn]] void set_error(const std::string& source, const std::string& set, const std::string& path,
                            const std::string& msg) {
  throw ConfigError(fmt::format("{}: --set {}: {}: {}", source, set, path, msg));
}

// `router:` (or `nic:`) as a mapping, created if absent; nullopt when the
// file has something else there (validation reports that).
std::optional<YAML::Node> section_map(YAML::Node& root, const char* section) {
  YAML::Node r = root[section];
  if (r.IsDefined() && r.IsMap()) return r;
  if (r.IsDefined() && !r.IsNull()) return std::nullopt;
  YAML::Node m(YAML::NodeType::Map);
  root[section] = m;
  return m;
}
std::optional<YAML::Node> router_map(YAML::Node& root) { return section_map(root, "router"); }

// router.cable_latency.<dim> = v. One latency for all dimensions becomes a
// per-dimension map first; its other entries share the original node, so
// errors in them still point at the file's line.
void set_cable(YAML::Node& root, const std::vector<std::string>& dims, const std::string& dim,
               const YAML::Node& v) {
  auto r = router_map(root);
  if (!r) return;
  YAML::Node cur = (*r)["cable_latency"];
  if (cur.IsDefined() && cur.IsMap()) {
    std::string k = dim;  // keep the file's spelling of the dimension if it has one
    for (const auto& kv : cur)
      if (kv.first.IsScalar() && lower(kv.first.Scalar()) == lower(dim)) k = kv.first.Scalar();
    cur[k] = v;
  } else if (!cur.IsDefined() || cur.IsNull() || cur.IsScalar()) {
    const bool scalar = cur.IsDefined() && cur.IsScalar();
    YAML::Node m(YAML::NodeType::Map);
    for (const std::string& d : dims) {
      if (scalar)
        m[d] = cur;
      else
        m[d] = YAML::Node(units::format_duration(default_cable_ps()));
    }
    m[dim] = v;
    (*r)["cable_latency"] = m;
  }
}

// topology.dims.<dim>.<field> = v, on the entry named `dim`.
void set_dim(YAML::Node& root, const std::string& dim, const std::string& field, const YAML::Node& v) {
  auto topo = child(root, "topology");
  auto list = topo ? child(*topo, "dims") : std::nullopt;
  if (!list) return;
  for (YAML::Node e : *list) {
    auto n = child(e, "name");
    if (n && n->IsScalar() && n->Scalar() == dim) {
      e[field] = v;
      return;
    }
  }
}

void Reader::apply_set(YAML::Node& root, const std::string& set) {
  auto eq = set.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError(fmt::format("{}: --set {}: expected key=value, e.g. router.vcs=2", source_, set));
  const std::string key = set.substr(0, eq), value = set.substr(eq + 1);
  auto parsed = [&]() {
    try {
      return YAML::Load(value);
    } catch (const YAML::Exception& e) {
      set_error(source_, set, key,
                fmt::format("expected a YAML value, got malformed '{}': {}", value, e.msg));
    }
  };
  std::vector<std::string> parts;
  for (std::size_t b = 0;;) {
    auto d = key.find('.', b);
    parts.push_back(key.substr(b, d - b));
    if (d == std::string::npos) break;
    b = d + 1;
  }
  if (!root.IsMap() && !root.IsNull()) return;  // not a platform at all: validation says so
  if (root.IsNull()) root = YAML::Node(YAML::NodeType::Map);
  const std::vector<std::string> dims = declared_dims(root);
  auto dim_of = [&](const std::string& name) {
    int d = find_name(dims, name);
    if (d < 0)
      set_error(source_, set, key,
                fmt::format("unknown dimension '{}'; expected one of: {}", name,
                            dims.empty() ? "(no dimensions declared)" : join(dims)));
    return dims[std::size_t(d)];
  };
  const auto& rkeys = router_keys();
  const auto& nkeys = nic_keys();

  if (parts.size() == 1 && (key == "name" || key == "description")) {
    root[key] = YAML::Node(value);  // plain text, not YAML
    set_origin_[key] = set;
  } else if (parts.size() == 2 && parts[0] == "router" &&
             std::find(rkeys.begin(), rkeys.end(), parts[1]) != rkeys.end()) {
    YAML::Node v = parsed();
    if (auto r = router_map(root)) (*r)[parts[1]] = v;
    set_origin_[key] = set;
  } else if (parts.size() == 2 && parts[0] == "nic" &&
             std::find(nkeys.begin(), nkeys.end(), parts[1]) != nkeys.end()) {
    YAML::Node v = parsed();
    if (auto r = section_map(root, "nic")) (*r)[parts[1]] = v;
    set_origin_[key] = set;
  } else if (parts.size() == 3 && parts[0] == "links" &&
             std::find(kLinkClasses.begin(), kLinkClasses.end(), parts[1]) != kLinkClasses.end() &&
             std::find(kLinkKeys.begin(), kLinkKeys.end(), parts[2]) != kLinkKeys.end()) {
    YAML::Node v = parsed();
    if (auto l = section_map(root, "links")) {
      YAML::Node c = (*l)[parts[1]];
      if (!c.IsDefined() || c.IsNull()) (*l)[parts[1]] = YAML::Node(YAML::NodeType::Map);
      if ((*l)[parts[1]].IsMap()) (*l)[parts[1]][parts[2]] = v;
    }
    set_origin_[key] = set;
  } else if (parts.size() == 3 && parts[0] == "topology" &&
             ((parts[1] == "fat_tree" &&
               std::find(kFatTreeKeys.begin(), kFatTreeKeys.end(), parts[2]) != kFatTreeKeys.end()) ||
              (parts[1] == "clusters" &&
               std::find(kClusterKeys.begin(), kClusterKeys.end(), parts[2]) != kClusterKeys.end()))) {
    YAML::Node v = parsed();
    auto topo = child(root, "topology");
    auto t = topo ? child(*topo, parts[1]) : std::nullopt;
    if (!t || !t->IsMap())
      set_error(source_, set, key, fmt::format("the platform has no topology.{} to change", parts[1]));
    (*t)[parts[2]] = v;
    set_origin_[key] = set;
  } else if (parts.size() == 2 && parts[0] == "links" && parts[1] == "ports") {
    YAML::Node v = parsed();
    if (auto l = section_map(root, "links")) (*l)["ports"] = v;
    set_origin_[key] = set;
  } else if (parts.size() == 2 && parts[0] == "ocs" &&
             std::find(ocs_keys().begin(), ocs_keys().end(), parts[1]) != ocs_keys().end()) {
    YAML::Node v = parsed();
    if (auto r = section_map(root, "ocs")) (*r)[parts[1]] = v;
    set_origin_[key] = set;
  } else if (parts.size() == 2 && parts[0] == "ranks" && (parts[1] == "map" || parts[1] == "seed")) {
    YAML::Node v = parsed();
    if (auto r = section_map(root, "ranks")) (*r)[parts[1]] = v;
    set_origin_[key] = set;
  } else if (parts.size() == 3 && parts[0] == "router" && parts[1] == "cable_latency") {
    const std::string dim = dim_of(parts[2]);
    set_cable(root, dims, dim, parsed());
    set_origin_["router.cable_latency." + dim] = set;
  } else if (parts.size() == 4 && parts[0] == "topology" && parts[1] == "dims" &&
             (parts[3] == "size" || parts[3] == "wrap")) {
    const std::string dim = dim_of(parts[2]);
    set_dim(root, dim, parts[3], parsed());
    set_origin_["topology.dims." + dim + "." + parts[3]] = set;
  } else {
    throw ConfigError(fmt::format(
        "{}: --set {}: unknown key '{}'; expected one of: name, description, router.<key> "
        "(<key>: {}), router.cable_latency.<DIM>, nic.<key> (<key>: {}), topology.dims.<DIM>.size, "
        "topology.dims.<DIM>.wrap, topology.fat_tree.<key> ({}), topology.clusters.<key> ({}), "
        "links.<host|up|wan>.<bandwidth|latency|buffer|multiplier>, links.ports, ranks.map, ranks.seed, "
        "ocs.<key> ({})",
        source_, set, key, join(rkeys), join(nkeys), join(kFatTreeKeys), join(kClusterKeys),
        join(ocs_keys())));
  }
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

template <typename F>
auto Reader::read_unit(const YAML::Node& n, const std::string& path, const std::string& expect, F parse)
    -> decltype(parse(std::string_view{})) {
  note(path, n);
  if (!n.IsScalar()) fail(path, fmt::format("expected {}, got {}", expect, describe(n)));
  try {
    return parse(n.Scalar());
  } catch (const units::UnitError& e) {
    fail(path, e.what());
  }
}

double Reader::read_rate(const YAML::Node& n, const std::string& path, const std::string& what) {
  double v = read_unit(n, path, "a bandwidth such as 5GB/s", units::parse_bandwidth);
  if (!(v > 0))
    fail(path, fmt::format("expected a bandwidth > 0 such as 5GB/s ({}), got {}", what, n.Scalar()));
  return v;
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
  check_router(pl.dims, pl.router);
  read_links(root, pl);
  if (pl.kind != FabricKind::kTorus) check_switched(pl);
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
    check_nic(pl.router, pl.nic);
  } else {
    // No nic: section: the default NIC, its MTU cut to the router's largest packet.
    const std::uint64_t room =
        std::uint64_t(pl.router.max_packet_flits) * std::uint64_t(pl.router.flit_bytes);
    if (room > pl.nic.header_bytes)
      pl.nic.mtu_bytes = std::uint32_t(std::min<std::uint64_t>(pl.nic.mtu_bytes, room - pl.nic.header_bytes));
  }
  return pl;
}

void Reader::read_topology(const YAML::Node& root, Platform& pl) {
  const char* kExpect = "topology: {dims: [...]} (mesh/torus), {fat_tree: {...}} or {clusters: {...}}";
  auto topo = child(root, "topology");
  if (!topo) fail("topology", fmt::format("required key missing; expected {}", kExpect));
  note("topology", *topo);
  if (!topo->IsMap())
    fail("topology", fmt::format("expected a mapping: {}, got {}", kExpect, describe(*topo)));
  check_keys(*topo, "topology", {"dims", "fat_tree", "clusters"});
  if (topo->size() != 1)
    fail("topology",
         fmt::format("expected exactly one of dims, fat_tree or clusters, got {} keys", topo->size()));
  if (auto t = child(*topo, "fat_tree")) {
    pl.kind = FabricKind::kFatTree;
    return read_switched(*t, "topology.fat_tree", pl);
  }
  if (auto t = child(*topo, "clusters")) {
    pl.kind = FabricKind::kClusters;
    return read_switched(*t, "topology.clusters", pl);
  }
  auto list = child(*topo, "dims");
  const char* kDimsExpect = "a list of 1 to 6 dimensions such as {name: X, size: 8, wrap: false}";
  note("topology.dims", *list);
  if (!list->IsSequence() || list->size() < 1 || list->size() > std::size_t(router::kMaxDims))
    fail("topology.dims",
         fmt::format("expected {}, got {}", kDimsExpect,
                     list->IsSequence() ? fmt::format("{} dimensions", list->size()) : describe(*list)));

  std::vector<router::DimSpec> dims;
  std::uint64_t nodes = 1;
  for (std::size_t i = 0; i < list->size(); ++i) {
    router::DimSpec d = read_dim((*list)[i], i, dims);
    nodes *= std::uint64_t(d.size);
    if (nodes > std::numeric_limits<router::NodeId>::max())
      fail("topology.dims." + d.name + ".size",
           fmt::format("expected a machine of at most {} nodes; the dimensions so far give {}",
                       std::numeric_limits<router::NodeId>::max(), nodes));
    dims.push_back(d);
  }
  pl.dims = dims;
}

// topology.fat_tree or topology.clusters: the counts, checked one by one here
// and together (with the ports they make) in check_switched.
void Reader::read_switched(const YAML::Node& n, const std::string& path, Platform& pl) {
  const bool tree = pl.kind == FabricKind::kFatTree;
  const std::vector<std::string>& keys = tree ? kFatTreeKeys : kClusterKeys;
  note(path, n);
  if (!n.IsMap()) fail(path, fmt::format("expected a mapping {{{}}}, got {}", join(keys), describe(n)));
  check_keys(n, path, keys);
  auto count = [&](const char* key, long long min, const char* what, int& out) {
    auto v = child(n, key);
    if (!v)
      fail_at(path, path + "." + key,
              fmt::format("required key missing; expected an integer >= {} ({})", min, what));
    out = int(read_int(*v, path + "." + key, min, what, 1 << 20));
  };
  SwitchedFabric& f = pl.fabric;
  if (tree && (child(n, "levels") || child(n, "radix"))) {  // a k-ary n-tree
    for (const char* k : {"edges", "uplinks_per_edge", "spines"})
      if (child(n, k))
        fail(path + "." + k,
             "not with levels and radix: a k-ary n-tree has k^(n-1) switches per level and k "
             "uplinks each");
    count("levels", 1, "levels of switches", f.levels);
    count("radix", 2, "ports per switch, k down and k up", f.radix);
    if (f.radix % 2)
      fail(path + ".radix", fmt::format("expected an even number (k down and k up ports), got {}", f.radix));
    const int k = f.k();
    double w = std::pow(double(k), double(f.levels - 1));
    if (w > double(1 << 20))
      fail(path + ".levels",
           fmt::format("expected at most 2^20 switches per level, got {}^{}", k, f.levels - 1));
    f.edges = int(w);
    f.spines = (f.levels - 1) * f.edges;
    f.uplinks_per_edge = f.levels > 1 ? k : 0;
    f.hosts_per_edge = k;
    if (child(n, "hosts_per_edge"))
      count("hosts_per_edge", 1, "hosts under each edge switch", f.hosts_per_edge);
    return;
  }
  if (tree) {
    count("edges", 1, "edge switches", f.edges);
    count("hosts_per_edge", 1, "hosts under each edge switch", f.hosts_per_edge);
    count("uplinks_per_edge", 0, "links from each edge switch up to the spines", f.uplinks_per_edge);
    count("spines", 0, "spine switches", f.spines);
  } else {
    count("count", 1, "clusters", f.edges);
    count("hosts", 1, "hosts in each cluster", f.hosts_per_edge);
  }
}

void Reader::read_links(const YAML::Node& root, Platform& pl) {
  auto links = child(root, "links");
  if (pl.kind == FabricKind::kTorus) {
    if (links)
      fail("links",
           "only for fat_tree and clusters topologies; a mesh/torus takes router.link_bandwidth and "
           "router.cable_latency");
    return;
  }
  const bool wan = pl.kind == FabricKind::kClusters;
  const std::vector<std::string> classes = wan ? kLinkClasses : std::vector<std::string>{"host", "up"};
  if (!links)
    fail("links", fmt::format("required key missing; expected links: {{{}}}, each {{bandwidth, latency}}",
                              join(classes)));
  note("links", *links);
  if (!links->IsMap())
    fail("links", fmt::format("expected a mapping {{{}}}, got {}", join(classes), describe(*links)));
  std::vector<std::string> keys = classes;
  keys.push_back("ports");
  check_keys(*links, "links", keys);
  auto read_values = [&](const YAML::Node& n, const std::string& path, LinkClass& c) {
    if (auto bw = child(n, "bandwidth")) c.bytes_per_s = read_rate(*bw, path + ".bandwidth", "per direction");
    if (auto l = child(n, "latency"))
      c.latency_ps = read_unit(*l, path + ".latency", "a duration such as 20ns", units::parse_duration);
    if (auto b = child(n, "buffer")) {
      c.buffer_bytes = read_unit(*b, path + ".buffer", "a size such as 64KiB", units::parse_bytes);
      if (c.buffer_bytes < 1)
        fail(path + ".buffer", fmt::format("expected a size >= 1B, got {}", b->Scalar()));
    }
  };
  if (auto ports = child(*links, "ports")) {
    note("links.ports", *ports);
    const char* expect = "a list of {switch: edge0, port: up3, bandwidth, latency, buffer}";
    if (!ports->IsSequence())
      fail("links.ports", fmt::format("expected {}, got {}", expect, describe(*ports)));
    for (std::size_t i = 0; i < ports->size(); ++i) {
      const std::string at = fmt::format("links.ports[{}]", i);
      const YAML::Node& e = (*ports)[i];
      note(at, e);
      if (!e.IsMap()) fail(at, fmt::format("expected {}, got {}", expect, describe(e)));
      check_keys(e, at, {"switch", "port", "bandwidth", "latency", "buffer"});
      SwitchedFabric::PortOverride o;
      for (const char* k : {"switch", "port"}) {
        auto v = child(e, k);
        if (!v) fail_at(at, at + "." + k, fmt::format("required key missing; expected {}", expect));
        (std::string(k) == "switch" ? o.sw : o.port) =
            read_text(*v, at + "." + k, "a name such as edge0 or up3");
      }
      o.bandwidth = bool(child(e, "bandwidth"));
      o.latency = bool(child(e, "latency"));
      o.buffer = bool(child(e, "buffer"));
      if (!o.bandwidth && !o.latency && !o.buffer)
        fail(at, "expected at least one of bandwidth, latency, buffer to set");
      read_values(e, at, o.values);
      o.where = locate(at) + ": " + at;
      pl.fabric.ports.push_back(o);
    }
  }
  auto read_class = [&](const std::string& name, LinkClass& c, bool required) {
    const std::string path = "links." + name;
    auto n = child(*links, name);
    if (!n) {
      if (required) fail_at("links", path, "required key missing; expected {bandwidth, latency}");
      return;
    }
    note(path, *n);
    if (!n->IsMap())
      fail(path, fmt::format("expected a mapping {{bandwidth, latency, buffer}}, got {}", describe(*n)));
    check_keys(*n, path, kLinkKeys);
    auto bw = child(*n, "bandwidth");
    if (!bw) fail_at(path, path + ".bandwidth", "required key missing; expected a bandwidth such as 4GB/s");
    c.bytes_per_s = read_rate(*bw, path + ".bandwidth", "per direction");
    if (auto m = child(*n, "multiplier")) {
      note(path + ".multiplier", *m);
      double u = 0;
      if (!m->IsScalar() || !YAML::convert<double>::decode(*m, u) || !(u > 0))
        fail(path + ".multiplier",
             fmt::format("expected a number > 0 (seed 002's U: bandwidth x U), got {}", describe(*m)));
      c.bytes_per_s *= u;
    }
    if (auto l = child(*n, "latency"))
      c.latency_ps = read_unit(*l, path + ".latency", "a duration such as 20ns", units::parse_duration);
    if (auto b = child(*n, "buffer")) {
      c.buffer_bytes = read_unit(*b, path + ".buffer", "a size such as 64KiB", units::parse_bytes);
      if (c.buffer_bytes < 1)
        fail(path + ".buffer", fmt::format("expected a size >= 1B, got {}", b->Scalar()));
    }
  };
  const SwitchedFabric& f = pl.fabric;
  read_class("host", pl.fabric.host, true);
  read_class("up", pl.fabric.up, wan ? f.edges > 1 : f.edges > 1 || f.uplinks_per_edge > 0);
  if (wan) read_class("wan", pl.fabric.wan, f.edges > 1);
}

// ranks: {map: linear | random | [node, ...], seed: N}.
void Reader::read_ranks(const YAML::Node& root, Platform& pl) {
  auto ranks = child(root, "ranks");
  if (!ranks) return;
  note("ranks", *ranks);
  const char* expect = "a mapping {map: linear | random | [node ids], seed: N}";
  if (!ranks->IsMap()) fail("ranks", fmt::format("expected {}, got {}", expect, describe(*ranks)));
  check_keys(*ranks, "ranks", {"map", "seed"});
  const std::uint64_t nodes = pl.nodes();
  std::uint64_t seed = 1;
  if (auto s = child(*ranks, "seed"))
    seed = std::uint64_t(read_int(*s, "ranks.seed", 0, "seed of ranks.map: random", LLONG_MAX));
  auto m = child(*ranks, "map");
  if (!m) return;
  note("ranks.map", *m);
  if (m->IsScalar() && m->Scalar() == "linear") return;
  if (m->IsScalar() && m->Scalar() == "random") {
    pl.rank_nodes.resize(std::size_t(nodes));
    for (std::size_t i = 0; i < pl.rank_nodes.size(); ++i) pl.rank_nodes[i] = router::NodeId(i);
    std::uint64_t x = seed;  // Fisher-Yates with splitmix64: the same permutation everywhere
    for (std::size_t i = pl.rank_nodes.size(); i > 1; --i) {
      std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      z ^= z >> 31;
      std::swap(pl.rank_nodes[i - 1], pl.rank_nodes[std::size_t(z % i)]);
    }
    return;
  }
  if (!m->IsSequence() || m->size() == 0)
    fail("ranks.map",
         fmt::format("expected linear, random or a list of node ids (one per rank), got {}", describe(*m)));
  std::vector<bool> used(std::size_t(nodes), false);
  for (std::size_t r = 0; r < m->size(); ++r) {
    const std::string at = fmt::format("ranks.map[{}]", r);
    const auto n = std::uint64_t(
        read_int((*m)[r], at, 0, fmt::format("the node rank {} runs on", r), (long long)nodes - 1));
    if (used[std::size_t(n)])
      fail(at, fmt::format("expected a node no other rank runs on, got node {} again", n));
    used[std::size_t(n)] = true;
    pl.rank_nodes.push_back(router::NodeId(n));
  }
}

void Reader::check_switched(const Platform& pl) {
  const SwitchedFabric& f = pl.fabric;
  const RouterParams& r = pl.router;
  const int nis = r.network_interfaces;
  auto ports = [&](const std::string& at, const std::string& key, long long n, const std::string& what) {
    if (n > kMaxSwitchPorts)
      fail_at(at, key,
              fmt::format("expected at most {} ports per switch, but {} gives {}", kMaxSwitchPorts, what, n));
  };
  if (pl.kind == FabricKind::kFatTree && f.levels > 0) {
    const std::string t = "topology.fat_tree";
    ports(
        pick({"topology.fat_tree.hosts_per_edge", "topology.fat_tree.radix", "router.network_interfaces"}, t),
        t + ".hosts_per_edge", (long long)f.hosts_per_edge * nis + f.uplinks_per_edge,
        fmt::format("an edge switch with {} hosts x {} network interfaces + {} uplinks", f.hosts_per_edge,
                    nis, f.uplinks_per_edge));
    ports(t, t + ".radix", f.radix, fmt::format("radix {}", f.radix));
  } else if (pl.kind == FabricKind::kFatTree) {
    const std::string t = "topology.fat_tree";
    if (f.edges > 1 && f.spines < 1)
      fail(
          t + ".spines",
          fmt::format("expected an integer >= 1: {} edge switches need spines to reach each other", f.edges));
    if (f.spines > 0 && f.uplinks_per_edge < f.spines)
      fail(t + ".uplinks_per_edge",
           fmt::format(
               "expected at least spines ({}) uplinks per edge switch, so that every spine reaches every "
               "edge, got {}",
               f.spines, f.uplinks_per_edge));
    if (f.spines > 0 && f.uplinks_per_edge % f.spines != 0)
      fail(t + ".uplinks_per_edge",
           fmt::format(
               "expected a multiple of spines ({}) so that every edge has as many links to every spine, "
               "got {}",
               f.spines, f.uplinks_per_edge));
    if (f.spines == 0 && f.uplinks_per_edge > 0)
      fail(t + ".uplinks_per_edge",
           fmt::format("expected 0 without spines (nothing to link up to), got {}", f.uplinks_per_edge));
    ports(pick({"topology.fat_tree.hosts_per_edge", "router.network_interfaces"}, t), t + ".hosts_per_edge",
          (long long)f.hosts_per_edge * nis + f.uplinks_per_edge,
          fmt::format("an edge switch with {} hosts x {} network interfaces + {} uplinks", f.hosts_per_edge,
                      nis, f.uplinks_per_edge));
    if (f.spines > 0)
      ports(pick({"topology.fat_tree.edges"}, t), t + ".edges",
            (long long)f.edges * (f.uplinks_per_edge / f.spines),
            fmt::format("a spine with {} edges x {} links each", f.edges, f.uplinks_per_edge / f.spines));
  } else {
    const std::string t = "topology.clusters";
    ports(pick({"topology.clusters.hosts", "router.network_interfaces"}, t), t + ".hosts",
          (long long)f.hosts_per_edge * nis + 1,
          fmt::format("a cluster switch with {} hosts x {} network interfaces + 1 uplink", f.hosts_per_edge,
                      nis));
    ports(pick({"topology.clusters.count"}, t), t + ".count", f.edges,
          fmt::format("a gateway with 1 uplink + {} wide-area links", f.edges - 1));
  }
  // Virtual cut-through: every receive buffer holds the largest packet.
  const std::uint64_t packet = std::uint64_t(r.max_packet_flits) * std::uint64_t(r.flit_bytes);
  for (const auto& [name, c] :
       {std::pair<const char*, const LinkClass&>{"host", f.host}, {"up", f.up}, {"wan", f.wan}})
    if (c.buffer_bytes > 0 && c.buffer_bytes < packet)
      fail(std::string("links.") + name + ".buffer",
           fmt::format(
               "expected at least router.max_packet_flits x router.flit_size ({}B): a VC must hold the "
               "largest packet, got {}B",
               packet, c.buffer_bytes));
  const auto representable = [&](double bw) {
    double ps = r.flit_bytes * 1e12 / bw;
    return ps >= 0.5 && ps < 1e18;
  };
  for (const auto& [name, c] :
       {std::pair<const char*, const LinkClass&>{"host", f.host}, {"up", f.up}, {"wan", f.wan}})
    if (c.bytes_per_s > 0 && !representable(c.bytes_per_s))
      fail(std::string("links.") + name + ".bandwidth",
           fmt::format("expected a bandwidth at which one {}B flit takes between 1ps and 1e18ps, got {}",
                       r.flit_bytes, units::format_bandwidth(c.bytes_per_s)));
}

router::DimSpec Reader::read_dim(const YAML::Node& e, std::size_t i,
                                 const std::vector<router::DimSpec>& before) {
  const std::string at = fmt::format("topology.dims[{}]", i);
  note(at, e);
  if (!e.IsMap())
    fail(at,
         fmt::format("expected a dimension such as {{name: X, size: 8, wrap: false}}, got {}", describe(e)));
  check_keys(e, at, kDimKeys);
  router::DimSpec d;
  auto n = child(e, "name");
  if (!n) fail_at(at, at + ".name", "required key missing; expected a dimension name such as X");
  d.name = read_text(*n, at + ".name", "a dimension name such as X");
  auto letter = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; };
  if (d.name.empty() || !std::all_of(d.name.begin(), d.name.end(), letter))
    fail(at + ".name",
         fmt::format("expected a dimension name made of letters, such as X, got {}", describe(*n)));
  for (const auto& b : before)
    if (lower(b.name) == lower(d.name))
      fail(at + ".name", fmt::format("expected a name not used by another dimension, got {} again", d.name));
  const std::string path = "topology.dims." + d.name;
  auto size = child(e, "size");
  if (!size)
    fail_at(at, path + ".size",
            "required key missing; expected an integer >= 1 (routers along this dimension)");
  d.size = int(read_int(*size, path + ".size", 1, "routers along this dimension"));
  if (auto wrap = child(e, "wrap"))
    d.wrap = read_bool(*wrap, path + ".wrap", "true for a torus, false for a mesh");
  return d;
}

void Reader::read_router(const YAML::Node& r, const Platform& pl, RouterParams& p) {
  const std::vector<router::DimSpec>& dims = pl.dims;
  if (r.IsMap()) check_keys(r, "router", router_keys());
  auto get = [&](const char* key) { return child(r, key); };
  if (pl.kind != FabricKind::kTorus)
    for (const std::string& k : kTorusOnlyRouterKeys)
      if (get(k.c_str()))
        fail("router." + k,
             "only for mesh/torus topologies; a switched fabric takes links.host, links.up and "
             "links.wan, and routes by destination tables");
  auto cycles = [&](const char* key, int& out, const char* what) {
    if (auto n = get(key)) out = int(read_int(*n, std::string("router.") + key, 0, what));
  };
  if (auto n = get("vcs")) p.vcs = int(read_int(*n, "router.vcs", 1, "VCs per port", hw::kMaxVcs));
  if (auto n = get("vc_buffer_flits"))
    p.vc_buffer_flits = int(read_int(*n, "router.vc_buffer_flits", 1, "flits of buffer per VC"));
  if (auto n = get("flit_size")) {
    std::uint64_t b = read_unit(*n, "router.flit_size", "a size such as 32B", units::parse_bytes);
    if (b < 1 || b > std::uint64_t(INT_MAX))
      fail("router.flit_size", fmt::format("expected a size >= 1B (bytes per flit), got {}", n->Scalar()));
    p.flit_bytes = int(b);
  }
  if (auto n = get("link_bandwidth"))
    p.link_bytes_per_s = read_rate(*n, "router.link_bandwidth", "per link direction");
  if (auto n = get("host_bandwidth"))
    p.host_bytes_per_s = read_rate(*n, "router.host_bandwidth", "network interface <-> router channel");
  if (auto n = get("clock")) {
    p.clock_hz = read_unit(*n, "router.clock", "a frequency such as 312.5MHz", units::parse_frequency);
    if (!(p.clock_hz > 0))
      fail("router.clock",
           fmt::format("expected a frequency > 0 such as 312.5MHz (router clock), got {}", n->Scalar()));
  }
  cycles("routing_cycles", p.routing_cycles, "cycles of route computation");
  cycles("vc_alloc_cycles", p.vc_alloc_cycles, "cycles of VC allocation");
  cycles("sw_alloc_cycles", p.sw_alloc_cycles, "cycles of switch allocation");
  cycles("switch_traversal_cycles", p.switch_traversal_cycles, "cycles through the crossbar");
  cycles("credit_delay_cycles", p.credit_delay_cycles,
         "cycles a credit takes back upstream, on top of the cable");
  std::vector<std::string> names;
  for (const auto& d : dims) names.push_back(d.name);
  read_cables(get("cable_latency"), names, p);
  if (auto n = get("host_latency"))
    p.host_latency_ps = read_unit(*n, "router.host_latency", "a duration such as 0ns", units::parse_duration);
  if (auto n = get("max_packet_flits"))
    p.max_packet_flits =
        int(read_int(*n, "router.max_packet_flits", 1, "flits in the largest packet", 65535));
  p.routing_order.clear();
  if (auto n = get("routing_order"))
    read_order(*n, names, p);
  else
    for (std::size_t d = 0; d < dims.size(); ++d) p.routing_order.push_back(int(d));
  if (auto n = get("tie_break")) {
    std::string t = read_text(*n, "router.tie_break", "plus or minus");
    if (t != "plus" && t != "minus")
      fail("router.tie_break",
           fmt::format("expected plus or minus (ring direction when both ways are equally "
                       "short), got {}",
                       describe(*n)));
    p.tie_break = t == "plus" ? router::TieBreak::kPlus : router::TieBreak::kMinus;
  }
  if (auto n = get("allocator")) {
    p.allocator = read_text(*n, "router.allocator", "an allocator name");
    if (std::find(kAllocatorNames.begin(), kAllocatorNames.end(), p.allocator) == kAllocatorNames.end())
      fail("router.allocator",
           fmt::format("expected one of {}, got {}", join(kAllocatorNames, " | "), describe(*n)));
  }
  if (auto n = get("network_interfaces"))
    p.network_interfaces =
        int(read_int(*n, "router.network_interfaces", 1, "injection/ejection port pairs per router", 64));
  if (auto n = get("watchdog_cycles"))
    p.watchdog_cycles = std::uint64_t(read_int(
        *n, "router.watchdog_cycles", 1, "cycles without progress before a deadlock is reported", LLONG_MAX));
  if (auto n = get("switching_delay"))
    p.switching_delay_ps =
        read_unit(*n, "router.switching_delay", "a duration such as 128ns", units::parse_duration);
  if (auto n = get("forwarding")) {
    const std::string f = read_text(*n, "router.forwarding", "cut_through or store_and_forward");
    if (f != "cut_through" && f != "store_and_forward")
      fail("router.forwarding",
           fmt::format("expected cut_through or store_and_forward, got {}", describe(*n)));
    p.store_and_forward = f == "store_and_forward";
  }
}

void Reader::read_cables(const std::optional<YAML::Node>& n, const std::vector<std::string>& names,
                         RouterParams& p) {
  const std::string path = "router.cable_latency";
  const char* expect = "a duration such as 5ns, or one per dimension such as {X: 10ns, A: 2ns}";
  p.cable_ps.assign(names.size(), default_cable_ps());
  if (!n) return;
  note(path, *n);
  if (n->IsScalar()) {
    sim::Time t = read_unit(*n, path, expect, units::parse_duration);
    p.cable_ps.assign(names.size(), t);
    return;
  }
  if (!n->IsMap()) fail(path, fmt::format("expected {}, got {}", expect, describe(*n)));
  std::vector<bool> given(names.size(), false);
  for (const auto& kv : *n) {
    const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : describe(kv.first);
    note(path + "." + key, kv.first);
    int d = find_name(names, key);
    if (d < 0) fail(path + "." + key, fmt::format("unknown dimension; expected one of: {}", join(names)));
    if (given[std::size_t(d)]) fail(path + "." + key, "duplicate dimension; expected each dimension once");
    given[std::size_t(d)] = true;
    p.cable_ps[std::size_t(d)] = read_unit(kv.second, path + "." + names[std::size_t(d)],
                                           "a duration such as 5ns", units::parse_duration);
  }
  std::vector<std::string> missing;
  for (std::size_t d = 0; d < names.size(); ++d)
    if (!given[d]) missing.push_back(names[d]);
  if (!missing.empty())
    fail(path,
         fmt::format("expected a latency for every dimension ({}), missing {}", join(names), join(missing)));
}

void Reader::read_order(const YAML::Node& n, const std::vector<std::string>& names, RouterParams& p) {
  const std::string path = "router.routing_order";
  note(path, n);
  const std::string expect = fmt::format("expected a permutation of the dimension names [{}]", join(names));
  if (!n.IsSequence()) fail(path, fmt::format("{}, got {}", expect, describe(n)));
  std::vector<std::string> got;
  for (const YAML::Node& e : n) got.push_back(describe(e));
  const std::string shown = "[" + join(got) + "]";
  std::vector<bool> used(names.size(), false);
  for (const std::string& g : got) {
    int d = find_name(names, g);
    if (d < 0) fail(path, fmt::format("{}, got {} ({} is not a dimension)", expect, shown, g));
    if (used[std::size_t(d)]) fail(path, fmt::format("{}, got {} ({} appears twice)", expect, shown, g));
    used[std::size_t(d)] = true;
    p.routing_order.push_back(d);
  }
  std::vector<std::string> missing;
  for (std::size_t d = 0; d < names.size(); ++d)
    if (!used[d]) missing.push_back(names[d]);
  if (!missing.empty()) fail(path, fmt::format("{}, got {} (missing {})", expect, shown, join(missing)));
}

// Checks that involve several keys. Each is reported at the key a --set
// changed, if any, else at the first key found in the file.
std::string Reader::pick(std::initializer_list<std::string> keys, const std::string& fallback) const {
  for (const std::string& k : keys)
    if (set_origin_.count(k)) return k;
  for (const std::string& k : keys)
    if (marks_.count(k)) return k;
  return fallback;
}

void Reader::check_router(const std::vector<router::DimSpec>& dims, const RouterParams& p) {
  auto pick = [&](std::initializer_list<std::string> keys) { return this->pick(keys, "router"); };
  for (const auto& d : dims) {
    if (d.wrap && d.size >= 3 && p.vcs < 2)
      fail_at(pick({"router.vcs", "topology.dims." + d.name + ".size", "topology.dims." + d.name + ".wrap"}),
              "router.vcs",
              fmt::format(
                  "expected an integer >= 2 because dimension {} is a ring (wrap: true, size {}) and needs "
                  "two dateline VC classes, got {}",
                  d.name, d.size, p.vcs));
  }
  if (p.vc_buffer_flits < p.max_packet_flits)
    fail_at(pick({"router.vc_buffer_flits", "router.max_packet_flits"}), "router.vc_buffer_flits",
            fmt::format(
                "expected at least router.max_packet_flits ({0}) flits, got {1}: under virtual cut-through a "
                "VC must hold the largest packet: raise router.vc_buffer_flits to at least {0} or lower "
                "router.max_packet_flits",
                p.max_packet_flits, p.vc_buffer_flits));
  // Times are integer picoseconds: a period or flit time that rounds to 0 ps
  // (or overflows) cannot be simulated.
  auto representable = [](double ps) { return ps >= 0.5 && ps < 1e18; };
  if (!representable(1e12 / p.clock_hz))
    fail("router.clock", fmt::format("expected a clock whose period is at least 1ps when rounded to whole "
                                     "picoseconds (at most 2THz), got {} (period {:.3g}ps)",
                                     units::format_frequency(p.clock_hz), 1e12 / p.clock_hz));
  if (!representable(p.flit_bytes * 1e12 / p.link_bytes_per_s))
    fail("router.link_bandwidth",
         fmt::format("expected a bandwidth at which one {}B flit takes between 1ps and 1e18ps, got {}",
                     p.flit_bytes, units::format_bandwidth(p.link_bytes_per_s)));
  if (p.host_bytes_per_s > 0 && !representable(p.flit_bytes * 1e12 / p.host_bytes_per_s))
    fail("router.host_bandwidth",
         fmt::format("expected a bandwidth at which one {}B flit takes between 1ps and 1e18ps, got {}",
                     p.flit_bytes, units::format_bandwidth(p.host_bytes_per_s)));
}

void Reader::read_nic(const YAML::Node& n, NicParams& p) {
  if (n.IsMap()) check_keys(n, "nic", nic_keys());
  auto get = [&](const char* key) { return child(n, key); };
  auto path = [](const char* key) { return std::string("nic.") + key; };
  auto size = [&](const char* key, std::uint64_t max, const char* what) -> std::optional<std::uint64_t> {
    auto v = get(key);
    if (!v) return std::nullopt;
    std::uint64_t b = read_unit(*v, path(key), "a size such as 1920B or 32GiB", units::parse_bytes);
    if (b < 1 || b > max)
      fail(path(key),
           max == std::numeric_limits<std::uint64_t>::max()
               ? fmt::format("expected a size >= 1B ({}), got {}", what, v->Scalar())
               : fmt::format("expected a size between 1B and {}B ({}), got {}", max, what, v->Scalar()));
    return b;
  };
  auto count = [&](const char* key, std::uint32_t& out, const char* what) {
    if (auto v = get(key)) out = std::uint32_t(read_int(*v, path(key), 1, what));
  };
  auto duration = [&](const char* key, sim::Time& out) {
    if (auto v = get(key)) out = read_unit(*v, path(key), "a duration such as 700ns", units::parse_duration);
  };
  const std::uint64_t u32 = std::numeric_limits<std::uint32_t>::max();
  const std::uint64_t u64 = std::numeric_limits<std::uint64_t>::max();
  duration("node_latency", p.node_latency_ps);
  if (auto v = get("dma_bandwidth"))
    p.dma_bytes_per_s = read_rate(*v, "nic.dma_bandwidth", "DMA rate of a TNI");
  if (auto b = size("mtu", u32, "largest payload per packet")) p.mtu_bytes = std::uint32_t(*b);
  if (auto b = size("header_size", u32, "header bytes per packet")) p.header_bytes = std::uint32_t(*b);
  if (auto b = size("max_descriptor_size", u64, "largest transfer of one command"))
    p.max_descriptor_bytes = *b;
  count("command_queue_depth", p.command_queue_depth, "command queue entries per TNI");
  count("completion_queue_depth", p.completion_queue_depth, "completion queue entries per TNI");
  count("notice_queue_depth", p.notice_queue_depth, "notice queue entries per TNI");
  count("registrations", p.registrations, "registration table entries per node");
  if (auto b = size("memory_size", u64, "node memory")) p.memory_bytes = *b;
  duration("memory_latency", p.memory_latency_ps);
  if (auto v = get("memory_bandwidth"))
    p.memory_bytes_per_s = read_rate(*v, "nic.memory_bandwidth", "node memory; leave it out for no limit");
}

void Reader::check_nic(const RouterParams& r, const NicParams& p) {
  if (auto problem = nic_fit_problem(r, p))
    fail_at(pick({"nic.mtu", "nic.header_size", "router.max_packet_flits", "router.flit_size"}, "nic"),
            "nic.mtu", *problem);
  // Times are 64-bit picoseconds: the model adds a node's latencies to the
  // time a DMA moves the largest transfer. Each must stay below 1e17 ps (28
  // hours) so that no sum of them can wrap (2^64 ps is 213 days).
  constexpr double kMaxPs = 1e17;
  for (const auto& [key, ps] : {std::pair<const char*, sim::Time>{"nic.node_latency", p.node_latency_ps},
                                {"nic.memory_latency", p.memory_latency_ps}})
    if (double(ps) > kMaxPs)
      fail_at(pick({key}, "nic"), key,
              fmt::format("expected a duration of at most 1e17ps (28 hours), got {}", units::format_duration(ps)));
  const double largest = double(std::min(p.max_descriptor_bytes, p.memory_bytes));
  for (const auto& [key, rate] : {std::pair<const char*, double>{"nic.dma_bandwidth", p.dma_bytes_per_s},
                                  {"nic.memory_bandwidth", p.memory_bytes_per_s}})
    if (rate > 0 && !(largest * 1e12 / rate <= kMaxPs))
      fail_at(pick({key}, "nic"), key,
              fmt::format("expected a bandwidth that moves the largest transfer ({} bytes: nic.max_descriptor_size "
                          "or nic.memory_size) within 1e17ps (28 hours), i.e. at least {:.3g}B/s, got {}",
                          largest, largest * 1e12 / kMaxPs, units::format_bandwidth(rate)));
}

// ocs.optical_nics: all, "0-7,32-39", or [0, 1, ...]; sorted, distinct.
std::vector<std::uint32_t> Reader::read_node_list(const YAML::Node& n, const std::string& path,
                                                  std::uint64_t nodes) {
  note(path, n);
  const char* expect = "all, a range list such as \"0-7,32-39\" or a list of node ids";
  std::vector<std::uint64_t> ids;
  auto bad = [&](const std::string& what) { fail(path, fmt::format("expected {}; {}", expect, what)); };
  if (n.IsSequence()) {
    for (const YAML::Node& e : n) {
      std::uint64_t v = 0;
      if (!e.IsScalar() || !YAML::convert<std::uint64_t>::decode(e, v)) bad("got " + describe(e));
      ids.push_back(v);
    }
  } else if (n.IsScalar() && n.Scalar() == "all") {
    for (std::uint64_t i = 0; i < nodes; ++i) ids.push_back(i);
  } else if (n.IsScalar()) {
    std::stringstream ss(n.Scalar());
    for (std::string item; std::getline(ss, item, ',');) {
      unsigned long long a = 0, b = 0;
      char dash = 0, extra = 0;
      const int got = std::sscanf(item.c_str(), " %llu %c %llu %c", &a, &dash, &b, &extra);
      if (got == 1) b = a;
      else if (got != 3 || dash != '-' || b < a) bad(fmt::format("got '{}'", item));
      for (unsigned long long i = a; i <= b && i < a + nodes + 1; ++i) ids.push_back(i);
    }
  } else {
    bad("got " + describe(n));
  }
  std::sort(ids.begin(), ids.end());
  std::vector<std::uint32_t> out;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] >= nodes) fail(path, fmt::format("node {} does not exist; nodes are 0 to {}", ids[i], nodes - 1));
    if (i > 0 && ids[i] == ids[i - 1])
      fail(path, fmt::format("node {} is listed twice: a node has at most one optical NIC (seed 002 §2)", ids[i]));
    out.push_back(std::uint32_t(ids[i]));
  }
  return out;
}

void Reader::read_ocs(const YAML::Node& n, Platform& pl) {
  note("ocs", n);
  if (pl.kind != FabricKind::kFatTree || pl.fabric.levels > 0)
    fail("ocs", "only beside a two-level fat tree (topology.fat_tree with edges and hosts_per_edge)");
  if (!n.IsMap()) fail("ocs", fmt::format("expected a mapping of OCS parameters, got {}", describe(n)));
  check_keys(n, "ocs", ocs_keys());
  if (pl.router.network_interfaces != 1)
    fail_at(pick({"router.network_interfaces"}, "ocs"), "router.network_interfaces",
            "expected 1 with an ocs: section: the EPS NIC is TNI 0, the optical NIC TNI 1");
  OcsParams& o = pl.ocs;
  o.present = true;
  auto get = [&](const char* key) { return child(n, key); };
  auto path = [](const char* key) { return std::string("ocs.") + key; };
  auto count = [&](const char* key, int& out, long long min, const char* what) {
    if (auto v = get(key)) out = int(read_int(*v, path(key), min, what));
  };
  auto choice = [&](const char* key, const char* yes, const char* no, bool& out) {
    if (auto v = get(key)) {
      const std::string t = read_text(*v, path(key), fmt::format("{} or {}", yes, no));
      if (t != yes && t != no) fail(path(key), fmt::format("expected {} or {}, got '{}'", yes, no, t));
      out = t == yes;
    }
  };
  if (auto v = get("bandwidth")) o.bytes_per_s = read_rate(*v, "ocs.bandwidth", "an optical link");
  if (auto v = get("latency"))
    o.latency_ps = read_unit(*v, "ocs.latency", "a duration such as 80ns", units::parse_duration);
  if (auto v = get("reconfiguration"))
    o.reconfiguration_ps = read_unit(*v, "ocs.reconfiguration", "a duration such as 10ms", units::parse_duration);
  count("switch_ports", o.switch_ports, 1, "ports per side of a MEMS bank");
  count("banks", o.banks, 1, "ingress banks of the Clos fabric");
  count("middle_banks", o.middle_banks, 1, "middle-stage banks");
  count("pathways", o.pathways, 0, "OCS pathways");
  choice("mode", "rearrangeable", "non_rearrangeable", o.rearrange);
  choice("on_circuit_down", "hold", "error", o.hold);
  if (auto v = get("buffer")) o.buffer_bytes = read_unit(*v, "ocs.buffer", "a size such as 64KiB", units::parse_bytes);
  if (auto v = get("threshold"))
    o.threshold_bytes = read_unit(*v, "ocs.threshold", "a size such as 8192B", units::parse_bytes);
  const std::uint64_t nodes = pl.nodes();
  if (auto v = get("optical_nics")) o.optical_nodes = read_node_list(*v, "ocs.optical_nics", nodes);
  else for (std::uint64_t i = 0; i < nodes; ++i) o.optical_nodes.push_back(std::uint32_t(i));
  const int nics = int(o.optical_nodes.size());
  if (o.middle_banks == 0) o.middle_banks = o.banks;
  if (o.switch_ports == 0) o.switch_ports = std::max(1, (nics + o.banks - 1) / o.banks);
  if (o.switch_ports % o.banks != 0)
    fail(pick({"ocs.banks", "ocs.switch_ports"}, "ocs"),
         fmt::format("expected ocs.banks ({}) to divide ocs.switch_ports ({}): each ingress bank has N/m fibres "
                     "to each middle bank",
                     o.banks, o.switch_ports));
  if (std::int64_t(o.banks) * o.switch_ports < nics)
    fail(pick({"ocs.switch_ports", "ocs.banks", "ocs.optical_nics"}, "ocs"),
         fmt::format("{} optical NICs need {} OCS ports; ocs.banks x ocs.switch_ports = {} x {} gives {}", nics,
                     nics, o.banks, o.switch_ports, o.banks * o.switch_ports));
  if (2 * std::int64_t(o.pathways) > nics)
    fail(pick({"ocs.pathways", "ocs.optical_nics"}, "ocs.pathways"),
         fmt::format("expected at most {} pathways: each takes the optical NICs of two nodes, and {} nodes have one",
                     nics / 2, nics));
  const std::uint64_t packet = std::uint64_t(pl.router.max_packet_flits) * std::uint64_t(pl.router.flit_bytes);
  if (o.buffer_bytes < packet)
    fail("ocs.buffer", fmt::format("expected at least one packet, router.max_packet_flits x router.flit_size = "
                                   "{}B, got {}B",
                                   packet, o.buffer_bytes));
}

}  // namespace

void check_nic_fits_router(const Platform& p) {
  if (auto problem = nic_fit_problem(p.router, p.nic))
    throw ConfigError(fmt::format("{}: nic.mtu: {}", p.source, *problem));
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
    if (c >= 0xC2 && c <= 0xDF) n = 1;
    else if (c == 0xE0) n = 2, lo = 0xA0;
    else if (c >= 0xE1 && c <= 0xEC) n = 2;
    else if (c == 0xED) n = 2, hi = 0x9F;
    else if (c >= 0xEE && c <= 0xEF) n = 2;
    else if (c == 0xF0) n = 3, lo = 0x90;
    else if (c >= 0xF1 && c <= 0xF3) n = 3;
    else if (c == 0xF4) n = 3, hi = 0x8F;
    else return i;
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

Platform parse_platform(const std::string& yaml_text, const std::string& source,
                        const std::vector<std::string>& sets) {
  // YAML is UTF-8; names and descriptions end up in the JSON, which must be too.
  require_utf8(yaml_text, source);
  for (const std::string& s : sets) require_utf8(s, source + ": --set " + s);
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    if (e.mark.is_null()) throw ConfigError(fmt::format("{}: malformed YAML: {}", source, e.msg));
    throw ConfigError(fmt::format("{}:{}: malformed YAML: {}", source, e.mark.line + 1, e.msg));
  }
  Reader reader(source);
  try {
    for (const std::string& s : sets) reader.apply_set(root, s);
    return reader.read(root);
  } catch (const YAML::Exception& e) {
    // Not expected (the reader checks node types first); keep it a ConfigError.
    throw ConfigError(fmt::format("{}: {}", source, e.what()));
  }
}

}  // namespace kairo::platforms
