// `--set key=value` overrides: each is applied to the YAML tree before it is
// read, so that the value is checked like the file's own (against its
// declaration) and its messages name the --set that supplied it. Any
// declared key can be set (declared_keys()), at the place its key names in
// the tree, except the topology's forms and lists, which the file chooses.
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

// `router:` as a mapping, created if absent; nullopt when the file has
// something else there (validation reports that).
std::optional<YAML::Node> router_map(YAML::Node& root) {
  YAML::Node r = root["router"];
  if (r.IsDefined() && r.IsMap()) return r;
  if (r.IsDefined() && !r.IsNull()) return std::nullopt;
  YAML::Node m(YAML::NodeType::Map);
  root["router"] = m;
  return m;
}

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

// What --set may change: every declared key but the topology's own shapes
// (its form, its dimension list and names).
bool settable(const sim::ParamDecl& d) {
  return !(d.kind == sim::ParamKind::kShape && d.key.rfind("topology.", 0) == 0);
}

// Whether `parts` name the declared key `d` (<DIM> stands for any dimension).
bool names(const std::vector<std::string>& parts, const sim::ParamDecl& d) {
  std::size_t i = 0, b = 0;
  for (;; ++i) {
    const auto e = d.key.find('.', b);
    const std::string part = d.key.substr(b, e - b);
    if (i >= parts.size() || (part != parts[i] && part != "<DIM>")) return false;
    if (e == std::string::npos) return i + 1 == parts.size();
    b = e + 1;
  }
}

// The keys --set takes, for the message about an unknown one: the keys of
// one parent together ("router.<key> (<key>: vcs, ...)"), parents with the
// same keys merged ("links.<host|up|local|global>.<key>"), two keys or fewer
// in full.
std::string settable_patterns() {
  std::vector<std::pair<std::string, std::vector<std::string>>> groups;  // parent, leaves
  for (const ParamInfo* p : declared_keys()) {
    if (!settable(*p)) continue;
    const auto dot = p->key.rfind('.');
    const std::string parent = dot == std::string::npos ? "" : p->key.substr(0, dot);
    if (groups.empty() || groups.back().first != parent) groups.push_back({parent, {}});
    groups.back().second.push_back(p->leaf());
  }
  std::vector<std::string> out;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const auto& [parent, leaves] = groups[g];
    if (parent.empty()) continue;  // a top-level key's group is its own (below)
    std::string name = parent;
    const auto dot = parent.rfind('.');
    if (dot != std::string::npos) {  // merge the next parents with the same keys under the same grandparent
      std::vector<std::string> same = {parent.substr(dot + 1)};
      while (g + 1 < groups.size() && groups[g + 1].second == leaves &&
             groups[g + 1].first.rfind(parent.substr(0, dot + 1), 0) == 0 &&
             groups[g + 1].first.find('.', dot + 1) == std::string::npos)
        same.push_back(groups[++g].first.substr(dot + 1));
      if (same.size() > 1) name = parent.substr(0, dot + 1) + "<" + join(same, "|") + ">";
    }
    if (leaves.size() <= 2) {
      for (const std::string& l : leaves) out.push_back(name + "." + l);
    } else {
      out.push_back(fmt::format("{}.<key> (<key>: {})", name, join(leaves)));
    }
    if (parent == "router") out.push_back("router.cable_latency.<DIM>");  // one entry of its map
  }
  std::vector<std::string> top;
  for (const auto& [parent, leaves] : groups)
    if (parent.empty()) top.insert(top.end(), leaves.begin(), leaves.end());
  top.insert(top.end(), out.begin(), out.end());
  return join(top);
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

  // The router's per-dimension cable latency: one entry of its map.
  if (parts.size() == 3 && parts[0] == "router" && parts[1] == "cable_latency") {
    const std::string dim = dim_of(parts[2]);
    set_cable(root, dims, dim, parsed());
    set_origin_["router.cable_latency." + dim] = set;
    return;
  }
  const sim::ParamDecl* decl = nullptr;
  for (const ParamInfo* p : declared_keys())
    if (settable(*p) && names(parts, *p)) decl = p;
  if (!decl)
    throw ConfigError(fmt::format("{}: --set {}: unknown key '{}'; expected one of: {}", source_, set, key,
                                  settable_patterns()));
  if (parts.size() == 1) {  // name, description: plain text, not YAML
    root[key] = YAML::Node(value);
    set_origin_[key] = set;
    return;
  }
  if (decl->key.find("<DIM>") != std::string::npos) {  // topology.dims.<DIM>.size
    const std::string dim = dim_of(parts[2]);
    set_dim(root, dim, parts[3], parsed());
    set_origin_["topology.dims." + dim + "." + parts[3]] = set;
    return;
  }
  const YAML::Node v = parsed();
  YAML::Node at = root;  // the maps on the way, created where absent
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    YAML::Node next = at[parts[i]];
    if (next.IsDefined() && next.IsMap()) {
      at.reset(next);
      continue;
    }
    if (parts[0] == "topology")  // the file chooses the topology's form; --set changes its values
      set_error(source_, set, key, fmt::format("the platform has no topology.{} to change", parts[1]));
    if (next.IsDefined() && !next.IsNull()) {  // something else there: validation reports it
      set_origin_[key] = set;
      return;
    }
    at[parts[i]] = YAML::Node(YAML::NodeType::Map);
    at.reset(at[parts[i]]);
  }
  at[parts.back()] = v;
  set_origin_[key] = set;
}

}  // namespace kairo::platforms::yaml
