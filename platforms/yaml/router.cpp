// The `router:` section: the declared keys (hw/router/router_params.cpp),
// read generically, and the shapes read by hand: the per-dimension cable
// latencies and the routing order. The checks across keys are the router's
// (router_params.cpp).
#include "platforms/topology_params.h"
#include "platforms/yaml/reader.h"

namespace kairo::platforms::yaml {

void Reader::read_router(const YAML::Node& r, const Platform& pl, RouterParams& p) {
  const std::vector<hw::DimSpec>& dims = pl.dims;
  if (r.IsMap()) check_keys(r, "router", section_keys("router"));
  auto get = [&](const char* key) { return child(r, key); };
  const bool dragonfly = pl.kind == FabricKind::kDragonfly;
  for (const sim::ParamDecl& d : router::router_param_decls())
    if (!of_form(d, network_form(pl)) && get(d.leaf().c_str()))
      fail(d.key, dragonfly
                      ? "only for mesh/torus topologies; a dragonfly takes links.host, links.local and "
                        "links.global, router.routing (" +
                            router::routing_names(router::own_dragonfly_routing) + ") and router.flow_control"
                      : "only for mesh/torus and dragonfly topologies; a fat tree or clusters take "
                        "links.host, links.up and links.wan, and route by destination tables");
  read_declared(r, router::router_param_decls(), p);
  report(router::routing_problem(p, dragonfly));
  std::vector<std::string> names;
  for (const auto& d : dims) names.push_back(d.name);
  read_cables(get("cable_latency"), names, p);
  p.routing_order.clear();
  if (auto n = get("routing_order"))
    read_order(*n, names, p);
  else
    for (std::size_t d = 0; d < dims.size(); ++d) p.routing_order.push_back(int(d));
}

void Reader::read_cables(const std::optional<YAML::Node>& n, const std::vector<std::string>& names,
                         RouterParams& p) {
  const std::string path = "router.cable_latency";
  const char* expect = "a duration such as 5ns, or one per dimension such as {X: 10ns, A: 2ns}";
  p.cable_ps.assign(names.size(), RouterParams::kDefaultCablePs);
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

}  // namespace kairo::platforms::yaml
