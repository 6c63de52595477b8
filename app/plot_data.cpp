// kairo's sweeps as charts (app/plot_data.h).
#include "app/plot_data.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numeric>
#include <sstream>
#include <stdexcept>

#include "platforms/resolved.h"

namespace kairo::app::plot {
namespace {

using nlohmann::json;

enum class Source { kTraffic, kSizes };

// One curve: where it came from, what describes it, and its points in order
// of x (traffic: offered load; runs: message size).
struct Curve {
  Source source = Source::kTraffic;
  std::size_t input = 0;
  std::vector<std::pair<std::string, std::string>> fields;  // key, legend text
  std::vector<double> rate, x, y, accepted;                 // accepted: traffic only
  std::vector<double> y_err, accepted_err;                  // 95% intervals (an experiment's means), else 0
  std::vector<double> energy, energy_err;                   // dynamic pJ per delivered flit; NaN: not given
  const json* resolved = nullptr;                           // the run's resolved configuration, if it has one
};

// An optional number (an interval), 0 when absent.
double optional_number(const json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_number() ? j[key].get<double>() : 0.0;
}

[[noreturn]] void bad(const Input& in, const std::string& what) {
  throw std::invalid_argument(in.name + ": " + what);
}

double number(const Input& in, const json& j, const char* key, const std::string& where) {
  if (!j.is_object() || !j.contains(key) || !j[key].is_number())
    bad(in, fmt::format("{} has no number '{}'", where, key));
  return j[key].get<double>();
}

std::string text_of(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

// The parameters of a curve: its JSON's resolved configuration (fields made
// in resolved_fields), or for a JSON written before kairo recorded one, its
// --set overrides as given.
void add_parameters(Curve& c, const json& j) {
  if (j.contains("resolved") && j["resolved"].is_object()) {
    c.resolved = &j["resolved"];
    return;
  }
  if (!j.contains("sets") || !j["sets"].is_object()) return;
  for (const auto& [k, v] : j["sets"].items()) c.fields.emplace_back(k, k + "=" + text_of(v));
}

// The resolved parameters a legend or title names, with their real values:
// each whose value differs between the curves, and each a --set gave (equal
// on every curve, it goes to the title). Between curves of different
// platforms, values only their files make differ are the platform's doing
// (its name is in the legend): those are left out.
void resolved_fields(std::vector<Curve>& curves) {
  std::vector<const json*> rs;
  for (const Curve& c : curves)
    if (c.resolved) rs.push_back(c.resolved);
  if (rs.empty()) return;
  auto field = [](const Curve& c, const std::string& key) {
    for (const auto& f : c.fields)
      if (f.first == key) return f.second;
    return std::string();
  };
  bool one_platform = true;
  for (const Curve& c : curves)
    one_platform = one_platform && field(c, "platform") == field(curves[0], "platform");
  std::vector<std::string> keys;
  for (const json* r : rs)
    for (const auto& [k, e] : r->items()) {
      if (k == "name" || k == "description" || std::find(keys.begin(), keys.end(), k) != keys.end()) continue;
      bool differs = false, set = false;
      for (const json* o : rs) {
        differs = differs || !o->contains(k) || (*o)[k].value("value", json()) != e.value("value", json());
        set = set || (o->contains(k) && (*o)[k].value("source", "") == "set");
      }
      if (set || (differs && one_platform)) keys.push_back(k);
    }
  for (Curve& c : curves) {
    if (!c.resolved) continue;
    for (const std::string& k : keys)
      c.fields.emplace_back(
          k, c.resolved->contains(k)
                 ? k + "=" + platforms::resolved_text(k, (*c.resolved)[k].value("value", json()))
                 : k + " absent");
  }
}

// A `kairo traffic --sweep` JSON: one curve, its points sorted by rate.
Curve traffic_curve(const Input& in, std::size_t index) {
  const json& j = in.data;
  Curve c;
  c.input = index;
  if (j.contains("platform")) c.fields.emplace_back("platform", text_of(j["platform"]));
  if (j.contains("pattern")) c.fields.emplace_back("pattern", text_of(j["pattern"]) + " traffic");
  if (j.contains("packet_flits"))
    c.fields.emplace_back("packet_flits", text_of(j["packet_flits"]) + "-flit packets");
  add_parameters(c, j);
  const json& pts = j["sweep"];
  std::vector<std::size_t> order(pts.size());
  std::iota(order.begin(), order.end(), 0);
  std::vector<double> rate;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    const std::string where = fmt::format("sweep point {}", i + 1);
    const json& p = pts[i];
    rate.push_back(p.contains("rate") ? number(in, p, "rate", where)
                                      : number(in, p, "offered_flits_per_node_cycle", where));
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return rate[a] < rate[b]; });
  for (std::size_t i : order) {
    const std::string where = fmt::format("sweep point {}", i + 1);
    c.rate.push_back(rate[i]);
    c.x.push_back(number(in, pts[i], "offered_flits_per_node_cycle", where));
    c.y.push_back(number(in, pts[i], "avg_packet_latency_cycles", where));
    c.accepted.push_back(number(in, pts[i], "accepted_flits_per_node_cycle", where));
    c.y_err.push_back(optional_number(pts[i], "avg_packet_latency_cycles_ci95"));
    c.accepted_err.push_back(optional_number(pts[i], "accepted_flits_per_node_cycle_ci95"));
    // A traffic point's energy object, or an experiment's mean; NaN when the JSON predates them.
    const json& p = pts[i];
    const bool run =
        p.contains("energy") && p["energy"].is_object() && p["energy"].contains("dynamic_pj_per_flit");
    c.energy.push_back(run ? number(in, p["energy"], "dynamic_pj_per_flit", where)
                       : p.contains("dynamic_pj_per_flit") ? number(in, p, "dynamic_pj_per_flit", where)
                                                           : std::nan(""));
    c.energy_err.push_back(optional_number(p, "dynamic_pj_per_flit_ci95"));
  }
  return c;
}

// Runs of `kairo run` at several sizes (or values): one curve, sorted by size.
Curve run_curve(const Input& in, std::size_t index, const json& runs, const json& top) {
  Curve c;
  c.source = Source::kSizes;
  c.input = index;
  if (!runs.empty() && runs[0].is_object()) {
    const json& r0 = runs[0];
    if (r0.contains("platform")) c.fields.emplace_back("platform", text_of(r0["platform"]));
    if (r0.contains("workload")) c.fields.emplace_back("workload", text_of(r0["workload"]));
    if (r0.contains("params") && r0["params"].is_object())
      for (const auto& [k, v] : r0["params"].items())
        if (k != "size") c.fields.emplace_back(k, k + "=" + text_of(v));
  }
  add_parameters(c, !runs.empty() && runs[0].is_object() && runs[0].contains("resolved") ? runs[0] : top);
  std::vector<std::pair<double, double>> pts;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const std::string where = fmt::format("run {}", i + 1);
    const json& r = runs[i];
    if (!r.is_object() || !r.contains("params") || !r["params"].contains("size") ||
        !r["params"]["size"].is_number())
      bad(in, where + " has no message size (params.size): expected a workload with a size");
    const double size = r["params"]["size"].get<double>(), t = number(in, r, "latency_ns", where);
    if (!(size > 0) || !(t > 0)) bad(in, where + ": a log-log plot needs a size and a latency above 0");
    pts.emplace_back(size, t);
  }
  std::stable_sort(pts.begin(), pts.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [s, t] : pts) {
    c.x.push_back(s);
    c.y.push_back(t);
  }
  return c;
}

const char* kExpected =
    "expected the JSON of `kairo traffic --sweep` or of `kairo run` with --param sizes= or --compare "
    "(or a `kairo traffic --sweep` CSV table)";

// The curves one input holds.
std::vector<Curve> curves_of(const Input& in, std::size_t index) {
  const json& j = in.data;
  if (!j.is_object()) bad(in, std::string(kExpected) + ", found no JSON object");
  if (j.contains("sweep")) {
    const json& s = j["sweep"];
    if (!s.is_array() || s.empty()) bad(in, "'sweep' holds no points; " + std::string(kExpected));
    if (s[0].is_object() && s[0].contains("offered_flits_per_node_cycle")) return {traffic_curve(in, index)};
    return {run_curve(in, index, s, j)};
  }
  if (j.contains("compare") && j["compare"].is_array()) {  // --compare at one size: a point per value
    if (j["compare"].empty()) bad(in, "'compare' holds no runs");
    std::vector<Curve> out;
    for (const json& r : j["compare"]) {
      out.push_back(run_curve(in, index, json::array({r}), j));
      if (r.is_object() && r.contains("resolved")) out.back().resolved = &r["resolved"];  // not the copy's
    }
    return out;
  }
  if (j.contains("compare") && j.contains("runs") && j["runs"].is_object()) {  // --compare with sizes
    std::vector<Curve> out;
    const json& values = j.contains("values") && j["values"].is_array() ? j["values"] : json::array();
    for (const json& v : values) {
      const std::string value = text_of(v);
      if (!j["runs"].contains(value) || !j["runs"][value].is_array() || j["runs"][value].empty())
        bad(in, "'runs' holds no runs for " + text_of(j["compare"]) + "=" + value);
      out.push_back(run_curve(in, index, j["runs"][value], j));
    }
    if (out.empty()) bad(in, "'values' names no variants; " + std::string(kExpected));
    return out;
  }
  bad(in, std::string(kExpected) + "; found no sweep points (a single run's summary?)");
}

std::string source_name(Source s) {
  return s == Source::kTraffic ? "a traffic sweep (kairo traffic --sweep)"
                               : "runs at several message sizes (kairo run --param sizes= or --compare)";
}

std::string kind_name(Kind k) {
  return k == Kind::kLatency      ? "latency"
         : k == Kind::kThroughput ? "throughput"
         : k == Kind::kEnergy     ? "energy"
                                  : "time-size";
}

// The chart's kind from the curves' sources; bad input names the file.
Kind resolve_kind(const std::vector<Input>& inputs, const std::vector<Curve>& curves, Kind kind) {
  if (kind == Kind::kAuto) {
    for (const Curve& c : curves)
      if (c.source != curves[0].source)
        throw std::invalid_argument(fmt::format(
            "{} holds {} but {} holds {}: they make different plots; plot them apart (or force one "
            "with --kind)",
            inputs[c.input].name, source_name(c.source), inputs[curves[0].input].name,
            source_name(curves[0].source)));
    return curves[0].source == Source::kTraffic ? Kind::kLatency : Kind::kTimeSize;
  }
  const Source want = kind == Kind::kTimeSize ? Source::kSizes : Source::kTraffic;
  for (const Curve& c : curves)
    if (c.source != want)
      bad(inputs[c.input], fmt::format("--kind {} needs {}, found {}", kind_name(kind), source_name(want),
                                       source_name(c.source)));
  return kind;
}

// Each curve's legend entry: the fields that differ between the curves
// (the rest go in the title), or --label.
std::vector<std::string> labels(const std::vector<Input>& inputs, const std::vector<Curve>& curves,
                                std::string& title) {
  std::vector<std::string> keys;
  for (const Curve& c : curves)
    for (const auto& f : c.fields)
      if (std::find(keys.begin(), keys.end(), f.first) == keys.end()) keys.push_back(f.first);
  auto field = [](const Curve& c, const std::string& key) {
    for (const auto& f : c.fields)
      if (f.first == key) return f.second;
    return key + " unset";  // a JSON without a resolved configuration, its --set not given
  };
  std::vector<std::string> differing, common;
  for (const auto& k : keys) {
    bool same = true;
    for (const Curve& c : curves) same = same && field(c, k) == field(curves[0], k);
    (same ? common : differing).push_back(k);
  }
  for (const auto& k : common) title += (title.empty() ? "" : ", ") + field(curves[0], k);
  std::vector<std::string> out;
  for (const Curve& c : curves) {
    std::string l;
    for (const auto& k : differing) l += (l.empty() ? "" : ", ") + field(c, k);
    const Input& in = inputs[c.input];
    if (!in.label.empty()) l = l.empty() || curves.size() == inputs.size() ? in.label : in.label + ": " + l;
    if (l.empty()) l = curves.size() == 1 ? title : std::filesystem::path(in.name).stem().string();
    out.push_back(l);
  }
  return out;
}

Chart traffic_chart(const std::vector<Curve>& curves, Kind kind) {
  Chart ch;
  ch.x = {"offered load (flits/node/cycle)", Scale::kLinear, true};
  const bool thr = kind == Kind::kThroughput, energy = kind == Kind::kEnergy;
  ch.y = thr      ? Axis{"accepted throughput (flits/node/cycle)", Scale::kLinear, true}
         : energy ? Axis{"dynamic energy (pJ per delivered flit)", Scale::kLinear, true}
                  : Axis{"average packet latency (cycles)", Scale::kLinear, true};
  ch.diagonal = thr;
  ch.mark_legend = "saturation";
  bool any_mark = false;
  for (const Curve& c : curves) {
    Series s;
    for (std::size_t i = 0; i < c.x.size(); ++i)
      s.points.push_back({c.x[i],
                          thr      ? c.accepted[i]
                          : energy ? c.energy[i]
                                   : c.y[i],
                          thr      ? c.accepted_err[i]
                          : energy ? c.energy_err[i]
                                   : c.y_err[i]});
    const int sat = saturation_index(c.x, c.accepted, c.y);
    if (sat >= 0) s.marked = std::size_t(sat);
    any_mark = any_mark || sat >= 0;
    ch.series.push_back(s);
  }
  if (any_mark)
    ch.caption =
        "Ring: saturation (docs/traffic.md), the lowest swept load whose accepted throughput is below 0.95 x "
        "offered or whose average packet latency exceeds 3 x that at the lowest load.";
  return ch;
}

}  // namespace

Kind parse_kind(const std::string& name, const std::string& option) {
  if (name == "auto") return Kind::kAuto;
  if (name == "latency") return Kind::kLatency;
  if (name == "throughput") return Kind::kThroughput;
  if (name == "energy") return Kind::kEnergy;
  if (name == "time-size") return Kind::kTimeSize;
  throw std::invalid_argument(option + ": expected auto, latency, throughput, energy or time-size, got '" +
                              name + "'");
}

int saturation_index(const std::vector<double>& offered, const std::vector<double>& accepted,
                     const std::vector<double>& latency) {
  for (std::size_t i = 0; i < offered.size(); ++i)
    if (accepted[i] < 0.95 * offered[i] || latency[i] > 3 * latency[0]) return int(i);
  return -1;
}

json parse_input(const std::string& name, const std::string& text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && (text[first] == '{' || text[first] == '[')) {
    try {
      return json::parse(text);
    } catch (const json::parse_error& e) {
      throw std::invalid_argument(name + ": not valid JSON (" + e.what() + ")");
    }
  }
  // The --sweep CSV table (app/cmd_traffic.cpp): the columns a plot needs.
  std::istringstream in(text);
  std::string line;
  std::getline(in, line);
  const std::string head =
      "rate,offered_flits_per_node_cycle,accepted_flits_per_node_cycle,avg_packet_latency_cycles";
  if (line.rfind(head, 0) != 0)
    throw std::invalid_argument(name + ": " + kExpected + "; the first line is not the sweep table's header");
  json pts = json::array();
  for (int row = 2; std::getline(in, line); ++row) {
    if (line.empty()) continue;
    std::istringstream cells(line);
    std::string cell;
    double v[4];
    for (double& x : v) {
      char* end = nullptr;
      if (!std::getline(cells, cell, ',') ||
          (x = std::strtod(cell.c_str(), &end), cell.empty() || *end != '\0'))
        throw std::invalid_argument(
            fmt::format("{}: line {}: expected four numbers first, got '{}'", name, row, line));
    }
    pts.push_back({{"rate", v[0]},
                   {"offered_flits_per_node_cycle", v[1]},
                   {"accepted_flits_per_node_cycle", v[2]},
                   {"avg_packet_latency_cycles", v[3]}});
  }
  return {{"sweep", pts}};
}

Chart make_chart(const std::vector<Input>& inputs, Kind kind, double y_max) {
  if (inputs.empty()) throw std::invalid_argument("expected at least one input file");
  std::vector<Curve> curves;
  for (std::size_t i = 0; i < inputs.size(); ++i)
    for (Curve& c : curves_of(inputs[i], i)) curves.push_back(std::move(c));
  resolved_fields(curves);
  kind = resolve_kind(inputs, curves, kind);
  if (kind == Kind::kEnergy)
    for (const Curve& c : curves)
      for (std::size_t i = 0; i < c.energy.size(); ++i)
        if (std::isnan(c.energy[i]))
          bad(inputs[c.input],
              fmt::format("--kind energy needs each sweep point's energy per flit; the point at "
                          "offered load {} has none (a JSON written before runs reported energy)",
                          c.x[i]));
  Chart ch;
  if (kind == Kind::kTimeSize) {
    ch.x = {"message size (bytes)", Scale::kLog, false};
    ch.y = {"latency (ns)", Scale::kLog, false};
    for (const Curve& c : curves) {
      Series s;
      for (std::size_t i = 0; i < c.x.size(); ++i) s.points.push_back({c.x[i], c.y[i]});
      ch.series.push_back(s);
    }
  } else {
    ch = traffic_chart(curves, kind);
  }
  std::string title;
  const std::vector<std::string> names = labels(inputs, curves, title);
  for (std::size_t i = 0; i < curves.size(); ++i) ch.series[i].label = names[i];
  const std::string what = kind == Kind::kLatency      ? "latency against offered load"
                           : kind == Kind::kThroughput ? "accepted against offered throughput"
                           : kind == Kind::kEnergy     ? "energy per flit against offered load"
                                                       : "time against message size";
  ch.title = title.empty() ? what : title + ": " + what;
  ch.y_max = y_max;
  return ch;
}

std::string svg_of_run(const json& data, const std::string& option, Kind kind) {
  return render_svg(make_chart({Input{option, data, ""}}, kind));
}

json sets_json(const std::vector<std::string>& sets) {
  json j = json::object();
  for (const auto& kv : sets) {
    const auto eq = kv.find('=');
    j[kv.substr(0, eq)] = eq == std::string::npos ? "" : kv.substr(eq + 1);
  }
  return j;
}

}  // namespace kairo::app::plot
