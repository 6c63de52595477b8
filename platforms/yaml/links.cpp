// The `links:` section of a switched fabric: its link classes (host, up,
// wan) and the per-port overrides of links.ports.
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
  const bool wan = pl.kind == FabricKind::kClusters;
  const bool dragonfly = pl.kind == FabricKind::kDragonfly;
  const std::vector<std::string> classes = wan         ? std::vector<std::string>{"host", "up", "wan"}
                                           : dragonfly ? std::vector<std::string>{"host", "local", "global"}
                                                       : std::vector<std::string>{"host", "up"};
  if (!links)
    fail("links", fmt::format("required key missing; expected links: {{{}}}, each {{bandwidth, latency}}",
                              join(classes)));
  note("links", *links);
  if (!links->IsMap())
    fail("links", fmt::format("expected a mapping {{{}}}, got {}", join(classes), describe(*links)));
  std::vector<std::string> keys = classes;
  keys.push_back("ports");
  check_keys(*links, "links", keys);
  // A link's latency and buffer, where a class or a port override gives them.
  auto read_latency_and_buffer = [&](const YAML::Node& n, const std::string& path, LinkClass& c) {
    if (auto l = child(n, "latency"))
      c.latency_ps = read_unit(*l, path + ".latency", "a duration such as 20ns", units::parse_duration);
    if (auto b = child(n, "buffer")) {
      c.buffer_bytes = read_unit(*b, path + ".buffer", "a size such as 64KiB", units::parse_bytes);
      if (c.buffer_bytes < 1)
        fail(path + ".buffer", fmt::format("expected a size >= 1B, got {}", b->Scalar()));
    }
  };
  auto read_values = [&](const YAML::Node& n, const std::string& path, LinkClass& c) {
    if (auto bw = child(n, "bandwidth")) c.bytes_per_s = read_rate(*bw, path + ".bandwidth", "per direction");
    read_latency_and_buffer(n, path, c);
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
    std::vector<std::string> allowed = kLinkKeys;
    if (name == "wan") allowed.insert(allowed.end(), kWanKeys.begin(), kWanKeys.end());
    check_keys(*n, path, allowed);
    if (name == "wan") read_wan_flow(*n, pl.fabric.wan_flow);
    auto bw = child(*n, "bandwidth");
    if (!bw) fail_at(path, path + ".bandwidth", "required key missing; expected a bandwidth such as 4GB/s");
    c.bytes_per_s = read_rate(*bw, path + ".bandwidth", "per direction");
    if (auto m = child(*n, "multiplier")) {
      note(path + ".multiplier", *m);
      double u = 0;
      if (!m->IsScalar() || !YAML::convert<double>::decode(*m, u) || !(u > 0))
        fail(path + ".multiplier",
             fmt::format("expected a number > 0 (Takizawa et al. 2008's U: bandwidth x U), got {}",
                         describe(*m)));
      c.bytes_per_s *= u;
      c.multiplier = u;
    }
    read_latency_and_buffer(*n, path, c);
  };
  const SwitchedFabric& f = pl.fabric;
  read_class("host", pl.fabric.host, true);
  if (dragonfly) {
    read_class("local", pl.fabric.local, f.group_routers > 1);
    read_class("global", pl.fabric.global, f.groups > 1);
    return;
  }
  read_class("up", pl.fabric.up, wan ? f.edges > 1 : f.edges > 1 || f.uplinks_per_edge > 0);
  if (wan) read_class("wan", pl.fabric.wan, f.edges > 1);
}

// links.wan.flow_control and, for `loss`, the bottleneck and window values
// (hw/router/wan_path.h).
void Reader::read_wan_flow(const YAML::Node& n, SwitchedFabric::WanFlow& w) {
  if (auto fc = child(n, "flow_control")) {
    const std::string v = read_text(*fc, "links.wan.flow_control", "credit or loss");
    if (v != "credit" && v != "loss")
      fail("links.wan.flow_control",
           fmt::format("expected credit (lossless, credit flow control) or loss (TCP-like streams through "
                       "a drop-tail bottleneck), got {}",
                       v));
    w.loss = v == "loss";
  }
  if (auto q = child(n, "queue")) {
    w.queue_bytes = read_unit(*q, "links.wan.queue", "a size such as 1MiB", units::parse_bytes);
    if (w.queue_bytes < 1)
      fail("links.wan.queue",
           fmt::format("expected a size >= 1B (the bottleneck's buffer), got {}", q->Scalar()));
  }
  if (auto r = child(n, "rto")) {
    w.rto_ps = read_unit(*r, "links.wan.rto", "a duration such as 200ms", units::parse_duration);
    if (w.rto_ps <= 0)
      fail("links.wan.rto",
           fmt::format("expected a duration > 0 (the retransmission timeout), got {}", r->Scalar()));
  }
  if (auto iw = child(n, "initial_window"))
    w.initial_window = std::uint32_t(
        read_int(*iw, "links.wan.initial_window", 1, "a count of segments >= 1 (e.g. 3)", 1 << 20));
}

}  // namespace kairo::platforms::yaml
