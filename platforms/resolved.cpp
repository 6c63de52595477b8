// A platform's resolved configuration (platforms/resolved.h): the declared
// keys read back through their declarations, the platform's own shapes by
// hand, each with the source the loader recorded (Platform::sources).
#include "platforms/resolved.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <typeinfo>

#include "platforms/topology_params.h"
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
    case ParamKind::kReal:  // below its bound: the block derives it ("= model")
      return v.number < d.min_real ? json(d.deflt) : json(v.number);
    case ParamKind::kName:
      return v.choice >= 0 ? json(d.choices[std::size_t(v.choice)]) : json(nullptr);
    case ParamKind::kBool:
      return v.flag;
    case ParamKind::kShape:
      break;
  }
  return nullptr;
}

// The struct of `p` a declaration reads from (a mesh/torus dimension's is
// the dimension's own, below).
const void* owner_of(const Platform& p, const sim::ParamDecl& d) {
  const std::type_info& t = *d.owner;
  if (t == typeid(RouterParams)) return &p.router;
  if (t == typeid(NicParams)) return &p.nic;
  if (t == typeid(OcsParams)) return &p.ocs;
  if (t == typeid(hw::EnergyParams)) return &p.energy;
  if (t == typeid(Platform)) return &p;  // ranks.seed
  if (t == typeid(SwitchedFabric)) return &p.fabric;
  if (t == typeid(WanFlow)) return &p.fabric.wan_flow;
  if (t == typeid(LinkClass))
    return link_class(p, d.key.substr(6, d.key.find('.', 6) - 6));  // links.<class>.*
  throw std::logic_error(d.key + ": no struct of the platform holds it");
}

// The value of one declared key in the struct `s` (with its rules:
// host_bandwidth = the link's; a link's buffer 0 = router.vc_buffer_flits;
// 0 for no limit or no delay: null).
json declared_value(const Platform& p, const sim::ParamDecl& d, const void* s) {
  const sim::ParamValue v = d.get(s);
  if (d.key == "router.host_bandwidth" && v.number == 0) return p.router.link_bytes_per_s / 1e9;
  if (*d.owner == typeid(LinkClass) && d.kind == ParamKind::kBytes && v.bytes == 0)
    return std::uint64_t(p.router.vc_buffer_flits) * std::uint64_t(p.router.flit_bytes);
  if ((d.key == "router.switching_delay" && v.time == 0) ||
      (d.key == "nic.memory_bandwidth" && v.number == 0))
    return nullptr;
  return typed(d, v);
}

// A map whose fields are declared (topology.fat_tree, topology.dragonfly,
// a dimension): the fields of `s` that apply to `form`.
json fields_of(const Platform& p, const std::string& key, const void* s, const std::string& form) {
  json m = json::object();
  for (const sim::ParamDecl* f : yaml::declared_under(key))
    if (f->generic() && yaml::of_form(*f, form)) m[f->leaf()] = declared_value(p, *f, s);
  return m;
}

const std::string kDim = "<DIM>";

// The hand-read shapes: their own structures, or maps of declared fields.
json shape_value(const Platform& p, const std::string& key) {
  if (key == "topology.dims") {
    json dims = json::array();
    for (const auto& d : p.dims) {
      json e = fields_of(p, key + "." + kDim, &d, "");
      e["name"] = d.name;
      dims.push_back(e);
    }
    return dims;
  }
  if (key == "topology.fat_tree") return fields_of(p, key, &p.fabric, fat_tree_form(p));
  if (key.rfind("topology.", 0) == 0) return fields_of(p, key, &p.fabric, "");
  if (key == "links.ports") {
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
  throw std::logic_error(key + ": a shape resolved.cpp does not show");
}

// The topology key of p's form: topology.dims, .fat_tree, .clusters, .dragonfly.
std::string topology_key(const Platform& p) {
  switch (p.kind) {
    case FabricKind::kTorus:
      return "topology.dims";
    case FabricKind::kFatTree:
      return "topology.fat_tree";
    case FabricKind::kClusters:
      return "topology.clusters";
    case FabricKind::kDragonfly:
      return "topology.dragonfly";
  }
  return "";
}

// Whether `d` is a field of a map the table shows whole on its own row
// (topology.fat_tree.edges): shown in that map's value, not on its own.
bool inside_map(const sim::ParamDecl& d) {
  static const std::set<const sim::ParamDecl*> fields = [] {
    const std::vector<ParamInfo>& rows = param_table();
    std::set<std::string> maps;
    for (const ParamInfo& r : rows)
      if (r.kind == ParamKind::kShape) maps.insert(r.key);
    std::set<const sim::ParamDecl*> out;
    for (const ParamInfo* k : declared_keys())
      if ((k < rows.data() || k >= rows.data() + rows.size()) &&
          maps.count(k->key.substr(0, k->key.rfind('.'))))
        out.insert(k);
    return out;
  }();
  return fields.count(&d) > 0;
}

// Whether a declared key applies to this platform: the keys its file could give.
bool applies(const Platform& p, const sim::ParamDecl& d) {
  if (inside_map(d)) return false;
  const std::string section = d.section();
  if (section == "topology") return (d.key + ".").rfind(topology_key(p) + ".", 0) == 0;
  if (section == "links")  // links.ports, or a key of one of p's classes
    return p.kind != FabricKind::kTorus &&
           (d.kind == ParamKind::kShape || link_class(p, d.key.substr(6, d.key.find('.', 6) - 6)));
  if (section == "ocs") return p.ocs.present;
  return yaml::of_form(d, network_form(p));
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

}  // namespace

std::vector<std::pair<std::string, json>> resolved_entries(const Platform& p) {
  std::vector<std::pair<std::string, json>> out;
  for (const ParamInfo* dp : declared_keys()) {
    const ParamInfo& d = *dp;
    if (!applies(p, d)) continue;
    const std::string& key = d.key;
    if (const auto at = key.find(kDim); at != std::string::npos) {  // one entry per dimension
      const std::string field = key.substr(at + kDim.size() + 1);
      for (const auto& dim : p.dims) {
        const std::string k = key.substr(0, at) + dim.name + "." + field;
        if (d.generic())
          add(out, p, k, declared_value(p, d, &dim), source_of(p, k));
        else  // the name, which the file always gives
          add(out, p, k, dim.name, ParamSource::kFile);
      }
      continue;
    }
    json v = d.generic() ? declared_value(p, d, owner_of(p, d)) : shape_value(p, key);
    add(out, p, key, std::move(v), source_of(p, key));
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
