// `--set key=value` overrides: each is applied to the YAML tree before it is
// read, so that the value is checked like the file's own and its messages
// name the --set that supplied it.
#include <algorithm>

#include "platforms/yaml/reader.h"

namespace kairo::platforms::yaml {

namespace {

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
        m[d] = YAML::Node(units::format_duration(RouterParams::kDefaultCablePs));
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

}  // namespace

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
  const auto& rkeys = section_keys("router");
  const auto& nkeys = section_keys("nic");
  const auto& okeys = section_keys("ocs");

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
             (std::find(kLinkKeys.begin(), kLinkKeys.end(), parts[2]) != kLinkKeys.end() ||
              (parts[1] == "wan" &&
               std::find(kWanKeys.begin(), kWanKeys.end(), parts[2]) != kWanKeys.end()))) {
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
               std::find(kClusterKeys.begin(), kClusterKeys.end(), parts[2]) != kClusterKeys.end()) ||
              (parts[1] == "dragonfly" &&
               std::find(kDragonflyKeys.begin(), kDragonflyKeys.end(), parts[2]) != kDragonflyKeys.end()))) {
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
             std::find(okeys.begin(), okeys.end(), parts[1]) != okeys.end()) {
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
        "topology.dragonfly.<key> ({}), "
        "links.<host|up|wan|local|global>.<bandwidth|latency|buffer|multiplier>, "
        "links.wan.<flow_control|queue|rto|initial_window>, "
        "links.ports, ranks.map, ranks.seed, "
        "ocs.<key> ({})",
        source_, set, key, join(rkeys), join(nkeys), join(kFatTreeKeys), join(kClusterKeys),
        join(kDragonflyKeys), join(okeys)));
  }
}

}  // namespace kairo::platforms::yaml
