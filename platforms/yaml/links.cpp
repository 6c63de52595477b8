// The `links:` section of a switched fabric: its link classes (host, up,
// wan, local, global) and the per-port overrides of links.ports, read
// through their declarations (platforms/link_params.cpp).
#include "platforms/yaml/reader.h"

namespace kairo::platforms::yaml {

void Reader::read_links(const YAML::Node& root, Platform& pl) {
  auto links = child(root, "links");
  if (pl.kind == FabricKind::kTorus) {
    if (links)
      fail("links",
           "only for fat_tree, clusters and dragonfly topologies; a mesh/torus takes router.link_bandwidth "
           "and router.cable_latency");
    return;
  }
  const std::vector<std::string> classes = link_classes(pl);
  if (!links)
    fail("links", fmt::format("required key missing; expected links: {{{}}}, each {{bandwidth, latency}}",
                              join(classes)));
  note("links", *links);
  if (!links->IsMap())
    fail("links", fmt::format("expected a mapping {{{}}}, got {}", join(classes), describe(*links)));
  std::vector<std::string> keys = classes;
  keys.push_back("ports");
  check_keys(*links, "links", keys);
  if (auto ports = child(*links, "ports")) read_link_ports(*ports, pl);
  for (const std::string& c : classes)
    read_link_class(*links, c, *link_class(pl, c), link_class_required(pl, c), pl);
}

// links.ports: [{switch, port, bandwidth, latency, buffer}], the values read
// as a host link's (the keys and bounds of every class are the same).
void Reader::read_link_ports(const YAML::Node& ports, Platform& pl) {
  note("links.ports", ports);
  const char* expect = "a list of {switch: edge0, port: up3, bandwidth, latency, buffer}";
  if (!ports.IsSequence()) fail("links.ports", fmt::format("expected {}, got {}", expect, describe(ports)));
  const auto values = declared_under("links.host", {"bandwidth", "latency", "buffer"});
  for (std::size_t i = 0; i < ports.size(); ++i) {
    const std::string at = fmt::format("links.ports[{}]", i);
    const YAML::Node& e = ports[i];
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
    read_fields(e, at, at, values, o.values, Need::kNone);
    o.where = locate(at) + ": " + at;
    pl.fabric.ports.push_back(o);
  }
}

// links.<name>: the class's values, its bandwidth times its multiplier; for
// wan also its flow control and the loss model's values (hw/router/wan_path.h).
void Reader::read_link_class(const YAML::Node& links, const std::string& name, LinkClass& c, bool required,
                             Platform& pl) {
  const std::string path = "links." + name;
  auto n = child(links, name);
  if (!n) {
    if (required) fail_at("links", path, "required key missing; expected {bandwidth, latency}");
    return;
  }
  note(path, *n);
  if (!n->IsMap())
    fail(path, fmt::format("expected a mapping {{bandwidth, latency, buffer}}, got {}", describe(*n)));
  check_keys(*n, path, section_keys(path));
  read_fields(*n, path, path, declared_fields(path, typeid(WanFlow)), pl.fabric.wan_flow, Need::kNone);
  if (!child(*n, "bandwidth"))
    fail_at(path, path + ".bandwidth", "required key missing; expected a bandwidth such as 4GB/s");
  read_fields(*n, path, path, declared_fields(path, typeid(LinkClass)), c, Need::kNone);
  c.bytes_per_s *= c.multiplier;
}

}  // namespace kairo::platforms::yaml
