// The `router:` section: the declared keys (hw/router/router_params.cpp),
// read generically, and the shapes read by hand: the per-dimension cable
// latencies and the routing order; then the checks across keys.
#include "platforms/yaml/reader.h"

namespace kairo::platforms::yaml {

void Reader::read_router(const YAML::Node& r, const Platform& pl, RouterParams& p) {
  const std::vector<hw::DimSpec>& dims = pl.dims;
  if (r.IsMap()) check_keys(r, "router", section_keys("router"));
  auto get = [&](const char* key) { return child(r, key); };
  const bool dragonfly = pl.kind == FabricKind::kDragonfly;
  if (pl.kind != FabricKind::kTorus)
    for (const std::string& k : kTorusOnlyRouterKeys)
      if (get(k.c_str()) && !(dragonfly && (k == "routing" || k == "flow_control")))
        fail("router." + k,
             dragonfly ? "only for mesh/torus topologies; a dragonfly takes links.host, links.local and "
                         "links.global, router.routing (minimal, valiant or ugal) and router.flow_control"
                       : "only for mesh/torus and dragonfly topologies; a fat tree or clusters take "
                         "links.host, links.up and links.wan, and route by destination tables");
  read_declared(r, router::router_param_decls(), p);
  using router::RoutingAlgorithm;
  const bool dfly_routing = p.routing == RoutingAlgorithm::kMinimal ||
                            p.routing == RoutingAlgorithm::kValiant || p.routing == RoutingAlgorithm::kUgal;
  if (dragonfly && p.routing == RoutingAlgorithm::kMinimalAdaptive)
    fail("router.routing",
         "expected minimal, valiant or ugal on a dragonfly (or dimension_order, the same as minimal), got "
         "minimal_adaptive (meshes and tori only)");
  if (dragonfly && p.bubble())
    fail("router.flow_control",
         "expected cut_through or wormhole on a dragonfly, got bubble (bubble flow control keeps the rings "
         "of a mesh/torus free of deadlock; a dragonfly's phases take VC classes instead)");
  if (!dragonfly && p.ejection_vc == router::EjectionVc::kPhase)
    fail("router.ejection_vc",
         "expected any on a mesh/torus, got phase (routing phases are a dragonfly's; a mesh or torus packet "
         "may eject on any VC, as in BookSim)");
  if (!dragonfly && dfly_routing)
    fail("router.routing",
         "expected dimension_order or minimal_adaptive on a mesh/torus; minimal, valiant and "
         "ugal route dragonflies");
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

void Reader::check_router(const std::vector<hw::DimSpec>& dims, const RouterParams& p) {
  auto pick = [&](std::initializer_list<std::string> keys) { return this->pick(keys, "router"); };
  for (const auto& d : dims) {
    if (d.wrap && d.size >= 3 && p.vcs < 2 && !p.bubble())
      fail_at(pick({"router.vcs", "topology.dims." + d.name + ".size", "topology.dims." + d.name + ".wrap"}),
              "router.vcs",
              fmt::format(
                  "expected an integer >= 2 because dimension {} is a ring (wrap: true, size {}) and needs "
                  "two dateline VC classes, got {} (router.flow_control: bubble needs no classes)",
                  d.name, d.size, p.vcs));
  }
  if (p.routing == router::RoutingAlgorithm::kMinimalAdaptive) {
    bool ring = false;
    for (const auto& d : dims) ring = ring || (d.wrap && d.size >= 3);
    const bool two = ring && !p.bubble();  // dateline classes; bubble needs one escape VC
    const int escape = two ? 2 : 1;
    if (p.vcs <= escape)
      fail_at(
          pick({"router.vcs", "router.routing"}), "router.vcs",
          fmt::format("expected an integer >= {} because router.routing is minimal_adaptive, whose escape "
                      "network takes {} ({}) and needs at least one adaptive VC beside, got {}",
                      escape + 1, escape == 2 ? "VCs 0 and 1" : "VC 0",
                      two    ? "the topology has a ring: two dateline classes"
                      : ring ? "bubble flow control keeps its rings with one"
                             : "no ring",
                      p.vcs));
  }
  if (p.routing == router::RoutingAlgorithm::kMinimalAdaptive &&
      p.adaptive_selection == router::AdaptiveSelection::kVcAllocator && p.vc_allocator == "none")
    fail_at(pick({"router.adaptive_selection", "router.vc_allocator"}), "router.adaptive_selection",
            "expected most_credits while router.vc_allocator is none: vc_allocator lets the VC allocation "
            "stage pick the way; name an allocator in router.vc_allocator (e.g. islip)");
  if (p.speculative && p.vc_allocator == "none")
    fail_at(
        pick({"router.speculative", "router.vc_allocator"}), "router.speculative",
        "expected false while router.vc_allocator is none: speculation overlaps switch allocation with a VC "
        "allocation stage; name an allocator in router.vc_allocator (e.g. islip) or drop "
        "router.speculative");
  if (p.bubble() && p.max_packet_flits > 32767)
    fail_at(pick({"router.max_packet_flits", "router.flow_control"}), "router.max_packet_flits",
            fmt::format("expected at most 32767 flits under router.flow_control: bubble (a packet entering a "
                        "ring asks for two of them), got {}",
                        p.max_packet_flits));
  if (p.bubble() && std::int64_t(p.vc_buffer_flits) < 2 * std::int64_t(p.max_packet_flits))
    fail_at(
        pick({"router.vc_buffer_flits", "router.max_packet_flits", "router.flow_control"}),
        "router.vc_buffer_flits",
        fmt::format("expected at least 2 x router.max_packet_flits ({0}) flits under router.flow_control: "
                    "bubble, got {1}: a packet enters a ring only into a VC with room for two of the "
                    "largest packets; raise router.vc_buffer_flits to at least {0} or lower "
                    "router.max_packet_flits",
                    2 * std::int64_t(p.max_packet_flits), p.vc_buffer_flits));
  if (!p.wormhole() && p.vc_buffer_flits < p.max_packet_flits)
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

}  // namespace kairo::platforms::yaml
