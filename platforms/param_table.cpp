// The parameter table: the platform's own keys (name, topology, links,
// ranks), read by hand in platforms/yaml/, and the keys each block declares
// beside its model (router, ocs, nic). `kairo --list-params` prints it and
// docs/parameters.md's table is generated from it (tools/gen_params.sh).
#include <fmt/format.h>

#include "platforms/platform.h"

namespace kairo::platforms {

namespace {

// A key of the platform's own shape, read by hand.
ParamInfo own(const char* key, const char* unit, const char* deflt, const char* doc) {
  ParamInfo p;
  p.key = key;
  p.kind = sim::ParamKind::kShape;
  p.unit = unit;
  p.deflt = deflt;
  p.doc = doc;
  return p;
}

std::vector<ParamInfo> topology_keys() {
  return {
      own("name", "name", "(required)", "platform name, as `kairo platforms` lists it"),
      own("description", "text", "\"\"", "what the platform models and where its numbers come from"),
      own("topology.dims", "list", "(required)",
          "1 to 6 dimensions {name, size, wrap}; node ids count dimension 0 fastest"),
      own("topology.dims.<DIM>.name", "name", "(required)",
          "dimension name, letters only (X, Y, Z, A, B, C)"),
      own("topology.dims.<DIM>.size", "count", "(required)",
          "routers along the dimension; size 2 has one link per node, size 1 none"),
      own("topology.dims.<DIM>.wrap", "bool", "false",
          "true: torus (wrap-around link; size >= 3 makes a ring with a dateline); false: mesh"),
      own("topology.fat_tree", "map", "-",
          "{edges, hosts_per_edge, uplinks_per_edge, spines}: a two-level fat tree; or {levels, radix, "
          "hosts_per_edge}: a k-ary n-tree (k = radix / 2) (instead of dims)"),
      own("topology.clusters", "map", "-",
          "{count, hosts}: clusters of one switch each, joined by wide-area links between their gateways "
          "(instead of dims)"),
      own("topology.dragonfly", "map", "-",
          "{p, a, h, groups}: a dragonfly (instead of dims): groups of a routers joined all to all by local "
          "links, each router with p hosts and h global links; BookSim's dragonflynew wiring "
          "(hw/router/dragonfly_routing.h)"),
      own("topology.dragonfly.p", "count", "(required)", "hosts per router"),
      own("topology.dragonfly.a", "count", "(required)", "routers per group"),
      own("topology.dragonfly.h", "count", "(required)", "global links per router"),
      own("topology.dragonfly.groups", "count", "a x h + 1",
          "groups, at most a x h + 1 (then one global link joins every two groups); with fewer, the last "
          "routers of a group have fewer global ports"),
  };
}

std::vector<ParamInfo> fabric_keys() {
  return {
      own("links.host.bandwidth", "GB/s", "(required)",
          "switched fabrics: host <-> edge switch, per direction"),
      own("links.host.latency", "ns", "0ns", "propagation delay of a host link"),
      own("links.host.buffer", "B", "= router.vc_buffer_flits", "receiver's buffer per VC on a host link"),
      own("links.up.bandwidth", "GB/s", "(required)",
          "edge switch <-> spine (fat tree) or cluster switch <-> its gateway (clusters), per direction"),
      own("links.up.latency", "ns", "0ns", "propagation delay of an up link"),
      own("links.up.buffer", "B", "= router.vc_buffer_flits", "receiver's buffer per VC on an up link"),
      own("links.up.multiplier", "count", "1",
          "Takizawa et al. 2008's U: the class's bandwidth is multiplied by it (0.25, 5, ...); also "
          "links.host/wan.multiplier"),
      own("links.local.bandwidth", "GB/s", "(required for a > 1)",
          "dragonfly: router <-> router of one group, per direction"),
      own("links.local.latency", "ns", "0ns", "propagation delay of a local link"),
      own("links.local.buffer", "B", "= router.vc_buffer_flits", "receiver's buffer per VC on a local link"),
      own("links.global.bandwidth", "GB/s", "(required for groups > 1)",
          "dragonfly: group <-> group, per direction"),
      own("links.global.latency", "ns", "0ns", "propagation delay of a global link"),
      own("links.global.buffer", "B", "= router.vc_buffer_flits",
          "receiver's buffer per VC on a global link"),
      own("links.ports", "list", "-",
          "cables with their own values: [{switch, port, bandwidth, latency, buffer}], names as kairo check "
          "--ports lists them"),
      own("links.wan.bandwidth", "GB/s", "(required for clusters)", "gateway <-> gateway wide-area link"),
      own("links.wan.latency", "ns", "0ns", "propagation delay of a wide-area link (e.g. 10ms)"),
      own("links.wan.buffer", "B", "= router.vc_buffer_flits",
          "receiver's buffer per VC on a wide-area link; bandwidth x round trip keeps it busy"),
      own("links.wan.flow_control", "name", "credit",
          "credit: lossless, credit flow control; loss: each inter-cluster stream (source host, destination "
          "host) runs a TCP-like window (slow start, AIMD, fast retransmit, timeout) through a drop-tail "
          "bottleneck (hw/router/wan_path.h)"),
      own("links.wan.queue", "B", "256KiB",
          "flow_control: loss: the bottleneck's drop-tail buffer in front of the wide-area link (assumed)"),
      own("links.wan.rto", "ns", "200ms",
          "flow_control: loss: retransmission timeout, from the lost transmission (Linux's minimum)"),
      own("links.wan.initial_window", "count", "3",
          "flow_control: loss: a stream's initial congestion window in segments (one segment = one packet; "
          "RFC 3390)"),
      own("ranks.map", "name", "linear",
          "the node each rank runs on: linear (rank r on node r), random (a seeded permutation, ranks.seed) "
          "or an explicit list of distinct node ids, one per rank (fewer ranks than nodes allowed)"),
      own("ranks.seed", "count", "1", "seed of ranks.map: random"),
  };
}

std::string cell(std::string s) {
  for (std::size_t i = 0; (i = s.find('|', i)) != std::string::npos; i += 2) s.insert(i, "\\");
  return s;
}

}  // namespace

const std::vector<ParamInfo>& param_table() {
  static const std::vector<ParamInfo> table = [] {
    std::vector<ParamInfo> t = topology_keys();
    auto add = [&t](const std::vector<ParamInfo>& keys) { t.insert(t.end(), keys.begin(), keys.end()); };
    add(router::router_param_decls());
    add(fabric_keys());
    add(ocs::ocs_param_decls());
    add(nic::nic_param_decls());
    return t;
  }();
  return table;
}

std::string param_table_text() {
  std::string out;
  for (const ParamInfo& p : param_table())
    out += fmt::format("{:<32} {:<8} {:<14} {}\n", p.key, p.unit, p.deflt, p.doc);
  return out;
}

std::string param_table_markdown() {
  std::string out = "| Key | Unit | Default | Meaning |\n|---|---|---|---|\n";
  for (const ParamInfo& p : param_table())
    out += fmt::format("| `{}` | {} | {} | {} |\n", p.key, cell(p.unit), cell(p.deflt), cell(p.doc));
  return out;
}

}  // namespace kairo::platforms
