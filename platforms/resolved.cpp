// A platform's resolved configuration (platforms/resolved.h): the declared
// keys read back through their declarations, the platform's own shapes by
// hand, each with the source the loader recorded (Platform::sources).
#include "platforms/resolved.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <typeinfo>

#include "platforms/yaml/reader.h"
#include "sim/units.h"

namespace kairo::platforms {

namespace {

using nlohmann::json;
using sim::ParamKind;

const char* source_name(ParamSource s) {
  switch (s) {
    case ParamSource::kDefault:
      return "default";
    case ParamSource::kFile:
      return "file";
    case ParamSource::kSet:
      return "set";
    case ParamSource::kAdjusted:
      return "adjusted";
  }
  return "default";
}

// The key's own source, or the strongest of the paths below it (a --set of
// router.cable_latency.X makes router.cable_latency "set").
ParamSource source_of(const Platform& p, const std::string& key) {
  auto it = p.sources.find(key);
  ParamSource s = it == p.sources.end() ? ParamSource::kDefault : it->second;
  const std::string below = key + ".";
  for (auto c = p.sources.lower_bound(below); c != p.sources.end() && c->first.rfind(below, 0) == 0; ++c)
    s = std::max(s, c->second);
  return s;
}

double ns(sim::Time ps) { return double(ps) / 1000.0; }

// A declared value in the unit of its table row.
json typed(const sim::ParamDecl& d, const sim::ParamValue& v) {
  switch (d.kind) {
    case ParamKind::kCount:
    case ParamKind::kFlits:
    case ParamKind::kCycles:
      return v.count;
    case ParamKind::kBytes:
      return v.bytes;
    case ParamKind::kRate:
      return v.number / 1e9;
    case ParamKind::kDuration:
      return ns(v.time);
    case ParamKind::kFrequency:
      return v.number / 1e6;
    case ParamKind::kName:
      return v.choice >= 0 ? json(d.choices[std::size_t(v.choice)]) : json(nullptr);
    case ParamKind::kBool:
      return v.flag;
    case ParamKind::kShape:
      break;
  }
  if (d.unit == "B") return v.bytes;  // a hand-read size (links.<class>.buffer)
  if (d.unit == "ns") return ns(v.time);
  return v.count;
}

// The struct of `p` a block's declaration reads from.
const void* owner_of(const Platform& p, const sim::ParamDecl& d) {
  if (*d.owner == typeid(RouterParams)) return &p.router;
  if (*d.owner == typeid(NicParams)) return &p.nic;
  if (*d.owner == typeid(OcsParams)) return &p.ocs;
  if (*d.owner == typeid(Platform)) return &p;  // ranks.seed
  return nullptr;
}

json link_class(const Platform& p, const LinkClass& c, const std::string& field) {
  if (field == "bandwidth") return c.bytes_per_s / 1e9;
  if (field == "latency") return ns(c.latency_ps);
  if (field == "multiplier") return c.multiplier;
  // buffer: 0 stands for router.vc_buffer_flits
  return c.buffer_bytes > 0 ? c.buffer_bytes
                            : std::uint64_t(p.router.vc_buffer_flits) * std::uint64_t(p.router.flit_bytes);
}

const LinkClass* class_of(const Platform& p, const std::string& name) {
  const SwitchedFabric& f = p.fabric;
  const bool dragonfly = p.kind == FabricKind::kDragonfly;
  if (name == "host") return &f.host;
  if (name == "up" && !dragonfly) return &f.up;
  if (name == "wan" && p.kind == FabricKind::kClusters) return &f.wan;
  if (name == "local" && dragonfly) return &f.local;
  if (name == "global" && dragonfly) return &f.global;
  return nullptr;
}

// links.*: the value of `key` on a switched fabric, or nothing when the
// platform has no such link class.
std::optional<json> link_value(const Platform& p, const std::string& key) {
  if (p.kind == FabricKind::kTorus) return std::nullopt;
  const std::string rest = key.substr(6);  // after "links."
  if (rest == "ports") {
    json list = json::array();
    for (const auto& o : p.fabric.ports) {
      json e = {{"switch", o.sw}, {"port", o.port}};
      if (o.bandwidth) e["bandwidth"] = o.values.bytes_per_s / 1e9;
      if (o.latency) e["latency"] = ns(o.values.latency_ps);
      if (o.buffer) e["buffer"] = o.values.buffer_bytes;
      list.push_back(e);
    }
    return list;
  }
  const std::string cls = rest.substr(0, rest.find('.')), field = rest.substr(rest.find('.') + 1);
  const LinkClass* c = class_of(p, cls);
  if (!c) return std::nullopt;
  const auto& w = p.fabric.wan_flow;
  if (field == "flow_control") return json(w.loss ? "loss" : "credit");
  if (field == "queue") return json(w.queue_bytes);
  if (field == "rto") return json(ns(w.rto_ps));
  if (field == "initial_window") return json(w.initial_window);
  return link_class(p, *c, field);
}

// topology.*: the shape the platform has, or nothing when it has another.
std::optional<json> topology_value(const Platform& p, const std::string& key) {
  const SwitchedFabric& f = p.fabric;
  if (key == "topology.dims" && p.kind == FabricKind::kTorus) {
    json dims = json::array();
    for (const auto& d : p.dims) dims.push_back({{"name", d.name}, {"size", d.size}, {"wrap", d.wrap}});
    return dims;
  }
  if (key == "topology.fat_tree" && p.kind == FabricKind::kFatTree) {
    if (f.levels > 0)
      return json{{"levels", f.levels}, {"radix", f.radix}, {"hosts_per_edge", f.hosts_per_edge}};
    return json{{"edges", f.edges},
                {"hosts_per_edge", f.hosts_per_edge},
                {"uplinks_per_edge", f.uplinks_per_edge},
                {"spines", f.spines}};
  }
  if (key == "topology.clusters" && p.kind == FabricKind::kClusters)
    return json{{"count", f.edges}, {"hosts", f.hosts_per_edge}};
  if (p.kind != FabricKind::kDragonfly) return std::nullopt;
  if (key == "topology.dragonfly")
    return json{{"p", f.hosts_per_edge}, {"a", f.group_routers}, {"h", f.global_ports}, {"groups", f.groups}};
  if (key == "topology.dragonfly.p") return json(f.hosts_per_edge);
  if (key == "topology.dragonfly.a") return json(f.group_routers);
  if (key == "topology.dragonfly.h") return json(f.global_ports);
  if (key == "topology.dragonfly.groups") return json(f.groups);
  return std::nullopt;
}

// The hand-read router and OCS shapes.
json shape_value(const Platform& p, const std::string& key) {
  if (key == "router.cable_latency") {
    const auto& c = p.router.cable_ps;
    if (std::all_of(c.begin(), c.end(), [&](sim::Time t) { return t == c.front(); }))
      return ns(c.empty() ? RouterParams::kDefaultCablePs : c.front());
    json m = json::object();
    for (std::size_t d = 0; d < c.size() && d < p.dims.size(); ++d) m[p.dims[d].name] = ns(c[d]);
    return m;
  }
  if (key == "router.routing_order") {
    json order = json::array();
    for (int d : p.router.routing_order) order.push_back(p.dims[std::size_t(d)].name);
    return order;
  }
  if (key == "ocs.optical_nics") {
    if (p.ocs.optical_nodes.size() == p.nodes()) return "all";
    return p.ocs.optical_nodes;
  }
  if (key == "ranks.map") {
    if (p.ranks_random) return "random";
    if (p.rank_nodes.empty()) return "linear";
    return p.rank_nodes;
  }
  if (key == "name") return p.name;
  if (key == "description") return p.description;
  return nullptr;
}

// Whether a table key applies to this platform: the keys its file could give.
bool applies(const Platform& p, const sim::ParamDecl& d) {
  const std::string section = d.section();
  if (section == "ocs") return p.ocs.present;
  if (section == "router" && p.kind != FabricKind::kTorus) {
    const std::string leaf = d.leaf();
    const auto& torus_only = yaml::kTorusOnlyRouterKeys;
    const bool dragonfly_too =
        p.kind == FabricKind::kDragonfly && (leaf == "routing" || leaf == "flow_control");
    return dragonfly_too || std::find(torus_only.begin(), torus_only.end(), leaf) == torus_only.end();
  }
  return true;
}

// The value of one declared key (with its rules: host_bandwidth = the link's;
// 0 for no limit or no delay: null).
json declared_value(const Platform& p, const sim::ParamDecl& d) {
  const sim::ParamValue v = d.get(owner_of(p, d));
  if (d.key == "router.host_bandwidth" && v.number == 0) return p.router.link_bytes_per_s / 1e9;
  if ((d.key == "router.switching_delay" && v.time == 0) ||
      (d.key == "nic.memory_bandwidth" && v.number == 0))
    return nullptr;
  return typed(d, v);
}

void add(std::vector<std::pair<std::string, json>>& out, const Platform& p, const std::string& key,
         json value, ParamSource source) {
  json e = {{"value", std::move(value)}, {"source", source_name(source)}};
  if (source == ParamSource::kAdjusted)
    for (const Adjustment& a : p.adjustments)
      if (a.key == key)
        for (const ParamInfo& d : param_table())
          if (d.key == key) e["requested"] = typed(d, a.requested), e["reason"] = a.reason;
  out.emplace_back(key, std::move(e));
}

const std::string kDim = "<DIM>";

}  // namespace

std::vector<std::pair<std::string, json>> resolved_entries(const Platform& p) {
  std::vector<std::pair<std::string, json>> out;
  for (const ParamInfo& d : param_table()) {
    const std::string& key = d.key;
    if (const auto at = key.find(kDim); at != std::string::npos) {  // one entry per dimension
      if (p.kind != FabricKind::kTorus) continue;
      const std::string field = key.substr(at + kDim.size() + 1);
      for (const auto& dim : p.dims) {
        const std::string k = key.substr(0, at) + dim.name + "." + field;
        const json v = field == "name" ? json(dim.name) : field == "size" ? json(dim.size) : json(dim.wrap);
        add(out, p, k, v, field == "name" ? ParamSource::kFile : source_of(p, k));
      }
      continue;
    }
    std::optional<json> v;
    if (key.rfind("topology.", 0) == 0)
      v = topology_value(p, key);
    else if (key.rfind("links.", 0) == 0)
      v = link_value(p, key);
    else if (!applies(p, d))
      continue;
    else
      v = d.generic() ? declared_value(p, d) : shape_value(p, key);
    if (v) add(out, p, key, std::move(*v), source_of(p, key));
  }
  return out;
}

json resolved_json(const Platform& p) {
  json out = json::object();
  for (auto& [key, entry] : resolved_entries(p)) out[key] = std::move(entry);
  return out;
}

std::string resolved_unit(const std::string& key) {
  for (const ParamInfo& d : param_table()) {
    const auto at = d.key.find(kDim);
    if (d.key == key) return d.unit;
    if (at != std::string::npos && key.rfind(d.key.substr(0, at), 0) == 0 &&
        key.substr(key.rfind('.')) == d.key.substr(d.key.rfind('.')))
      return d.unit;
  }
  return "";
}

std::string resolved_text(const std::string& key, const json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_null()) {
    for (const ParamInfo& d : param_table())
      if (d.key == key) return d.deflt;
    return "none";
  }
  if (!value.is_number()) return value.dump();
  const std::string unit = resolved_unit(key);
  const double x = value.get<double>();
  if (unit == "B" && value.is_number_integer()) return units::format_bytes(value.get<std::uint64_t>());
  if (unit == "GB/s") return units::format_bandwidth(x * 1e9);
  if (unit == "ns") return units::format_duration(sim::Time(x * 1000.0 + 0.5));
  if (unit == "MHz") return units::format_frequency(x * 1e6);
  return value.is_number_integer() ? value.dump() : fmt::format("{}", x);
}

std::vector<std::string> adjustment_notes(const json& resolved, const std::string& skip_prefix) {
  std::vector<std::string> notes;
  if (!resolved.is_object()) return notes;
  for (const auto& [key, e] : resolved.items()) {
    if (!e.is_object() || e.value("source", "") != "adjusted") continue;
    if (!skip_prefix.empty() && key.rfind(skip_prefix, 0) == 0) continue;
    notes.push_back(fmt::format("{} {} adjusted to {}: {}", key,
                                resolved_text(key, e.value("requested", json())),
                                resolved_text(key, e["value"]), e.value("reason", "")));
  }
  return notes;
}

}  // namespace kairo::platforms
