// The `topology:` section: a mesh/torus's dimensions, or a switched fabric's
// counts (a two-level fat tree, a k-ary n-tree, clusters or a dragonfly),
// read through their declarations (platforms/topology_params.cpp), whose
// checks across keys run as soon as their values are in.
#include <algorithm>
#include <cctype>
#include <limits>

#include "platforms/topology_params.h"
#include "platforms/yaml/reader.h"

namespace kairo::platforms::yaml {

void Reader::read_topology(const YAML::Node& root, Platform& pl) {
  const char* kExpect =
      "topology: {dims: [...]} (mesh/torus), {fat_tree: {...}}, {clusters: {...}} or {dragonfly: {...}}";
  auto topo = child(root, "topology");
  if (!topo) fail("topology", fmt::format("required key missing; expected {}", kExpect));
  note("topology", *topo);
  if (!topo->IsMap())
    fail("topology", fmt::format("expected a mapping: {}, got {}", kExpect, describe(*topo)));
  check_keys(*topo, "topology", section_keys("topology"));
  if (topo->size() != 1)
    fail("topology", fmt::format("expected exactly one of dims, fat_tree, clusters or dragonfly, got {} keys",
                                 topo->size()));
  if (auto t = child(*topo, "dragonfly")) {
    pl.kind = FabricKind::kDragonfly;
    return read_dragonfly(*t, pl);
  }
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
  if (!list->IsSequence() || list->size() < 1 || list->size() > std::size_t(hw::kMaxDims))
    fail("topology.dims",
         fmt::format("expected {}, got {}", kDimsExpect,
                     list->IsSequence() ? fmt::format("{} dimensions", list->size()) : describe(*list)));

  std::vector<hw::DimSpec> dims;
  std::uint64_t nodes = 1;
  for (std::size_t i = 0; i < list->size(); ++i) {
    hw::DimSpec d = read_dim((*list)[i], i, dims);
    nodes *= std::uint64_t(d.size);
    if (nodes > std::numeric_limits<hw::NodeId>::max())
      fail("topology.dims." + d.name + ".size",
           fmt::format("expected a machine of at most {} nodes; the dimensions so far give {}",
                       std::numeric_limits<hw::NodeId>::max(), nodes));
    dims.push_back(d);
  }
  pl.dims = dims;
}

// topology.fat_tree or topology.clusters: the counts, checked one by one
// here and together (with the ports they make) by switched_problem.
void Reader::read_switched(const YAML::Node& n, const std::string& path, Platform& pl) {
  const bool tree = pl.kind == FabricKind::kFatTree;
  const std::vector<std::string>& keys = section_keys(path);
  note(path, n);
  if (!n.IsMap()) fail(path, fmt::format("expected a mapping {{{}}}, got {}", join(keys), describe(n)));
  check_keys(n, path, keys);
  SwitchedFabric& f = pl.fabric;
  const std::type_info& type = typeid(SwitchedFabric);
  const auto formed = declared_fields(path, type, [](const sim::ParamDecl& d) { return !d.only.empty(); });
  const auto given = [&n](const sim::ParamDecl* d) { return bool(child(n, d->leaf())); };
  if (tree && std::any_of(formed.begin(), formed.end(), [&](const sim::ParamDecl* d) {
        return of_form(*d, "k-ary") && given(d);
      })) {  // a k-ary n-tree: its own keys, then the derived counts, then the keys of both forms
    std::vector<const sim::ParamDecl*> own;
    std::vector<std::string> names;
    for (const sim::ParamDecl* d : formed)
      if (of_form(*d, "k-ary")) own.push_back(d), names.push_back(d->leaf());
    for (const sim::ParamDecl* d : formed)
      if (!of_form(*d, "k-ary") && given(d))
        fail(d->key,
             fmt::format("not with {}: a k-ary n-tree has k^(n-1) switches per level and k uplinks each",
                         join(names, " and ")));
    read_fields(n, path, path, own, f, Need::kAll);
    report(kary_problem(f));
    const int k = f.k();
    f.edges = 1;
    for (int l = 1; l < f.levels; ++l) f.edges *= k;
    f.spines = (f.levels - 1) * f.edges;
    f.uplinks_per_edge = f.levels > 1 ? k : 0;
    f.hosts_per_edge = k;
    read_fields(n, path, path,
                declared_fields(path, type, [](const sim::ParamDecl& d) { return d.only.empty(); }), f);
    return;
  }
  const auto fields = declared_fields(
      path, type, [tree](const sim::ParamDecl& d) { return !tree || of_form(d, "two-level"); });
  read_fields(n, path, path, fields, f, Need::kAll);
}

// topology.dragonfly {p, a, h, groups}: hosts per router, routers per
// group, global ports per router, and groups (a*h + 1 unless given: one
// global link between every two groups).
void Reader::read_dragonfly(const YAML::Node& n, Platform& pl) {
  const std::string path = "topology.dragonfly";
  note(path, n);
  if (!n.IsMap())
    fail(path, fmt::format("expected a mapping {{{}}}, got {}", join(section_keys(path)), describe(n)));
  check_keys(n, path, section_keys(path));
  SwitchedFabric& f = pl.fabric;
  read_fields(n, path, path, declared_fields(path, typeid(SwitchedFabric)), f);
  if (!child(n, "groups")) {  // one global link between every two groups
    const long long most = (long long)f.group_routers * f.global_ports + 1;
    f.groups = int(std::min<long long>(most, 1 << 20));
  }
  report(dragonfly_problem(f));
  f.edges = f.group_routers * f.groups;
}

hw::DimSpec Reader::read_dim(const YAML::Node& e, std::size_t i, const std::vector<hw::DimSpec>& before) {
  const std::string at = fmt::format("topology.dims[{}]", i);
  note(at, e);
  if (!e.IsMap())
    fail(at,
         fmt::format("expected a dimension such as {{name: X, size: 8, wrap: false}}, got {}", describe(e)));
  check_keys(e, at, section_keys("topology.dims.<DIM>"));
  hw::DimSpec d;
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
  read_fields(e, at, path, declared_fields("topology.dims.<DIM>", typeid(hw::DimSpec)), d);
  return d;
}

}  // namespace kairo::platforms::yaml
