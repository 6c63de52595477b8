// The experiment file (app/experiment.h, docs/experiments.md): read key by
// key, every failure "FILE:LINE:COL: KEY: what was expected".
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "app/experiment.h"
#include "platforms/platform.h"
#include "sw/workloads/scenario_reader.h"

namespace kairo::app::experiment {
namespace {

using sw::scenario::Fields;
using sw::scenario::Reader;

double number(const std::string& key, const std::string& v, double lo, double hi, bool open_lo = false) {
  char* end = nullptr;
  errno = 0;
  const double x = std::strtod(v.c_str(), &end);
  const bool ok =
      !v.empty() && *end == '\0' && errno == 0 && std::isfinite(x) && x <= hi && (open_lo ? x > lo : x >= lo);
  if (!ok)
    throw std::invalid_argument(
        fmt::format("{}: expected a number in {}{}, {}], got '{}'", key, open_lo ? "(" : "[", lo, hi, v));
  return x;
}

// A value as --set takes it: a scalar as written, a list or mapping in YAML's flow form.
std::string flow(const YAML::Node& n) {
  if (n.IsScalar()) return n.Scalar();
  YAML::Emitter out;
  out << YAML::Flow << n;
  return out.c_str();
}

std::string where(const Reader& r, const YAML::Node& n) {
  const auto w = r.at(n);
  return fmt::format("{}:{}:{}", r.file(), w.line, w.column);
}

// A key of `grid:` or of a `configurations:` entry: a platform parameter
// (dotted) or a traffic option.
void check_key(const Reader& r, const YAML::Node& key_node, const std::string& what) {
  const std::string k = key_node.Scalar();
  if (k.find('.') != std::string::npos) return;  // the platform loader judges it
  for (const auto& [name, _] : traffic_keys())
    if (name == k) return;
  std::string names;
  for (const auto& [name, _] : traffic_keys()) names += (names.empty() ? "" : ", ") + name;
  r.fail(key_node, fmt::format("{}: unknown key '{}'; expected a platform parameter such as router.vcs "
                               "(kairo --list-params) or a traffic option: {}",
                               what, k, names));
}

std::vector<std::pair<std::string, std::vector<Setting>>> read_grid(const Reader& r, const YAML::Node& g) {
  if (!g.IsMap() || g.size() == 0)
    r.fail(g, fmt::format("grid: expected a mapping of keys to lists of values, got {}",
                          g.IsMap() ? "an empty mapping" : Reader::describe(g)));
  Fields f(r, g, "grid");  // keys given twice are refused here
  std::vector<std::pair<std::string, std::vector<Setting>>> keys;
  for (const auto& kv : g) {
    const std::string k = kv.first.Scalar();
    check_key(r, kv.first, "grid");
    const YAML::Node values = kv.second;
    if (!values.IsSequence() || values.size() == 0)
      r.fail(values.IsNull() ? kv.first : values,
             fmt::format("grid: {}: expected a non-empty list of values, got {}", k,
                         values.IsSequence() ? "an empty list" : Reader::describe(values)));
    std::vector<Setting> list;
    for (const auto& v : values) list.push_back({k, flow(v), where(r, v)});
    keys.emplace_back(k, std::move(list));
  }
  return keys;
}

Configuration read_configuration(const Reader& r, const YAML::Node& n) {
  if (!n.IsMap() || n.size() == 0)
    r.fail(n,
           fmt::format("configurations: expected a mapping of keys to values (and an optional name), got {}",
                       Reader::describe(n)));
  Fields f(r, n, "configurations");
  Configuration c;
  for (const auto& kv : n) {
    const std::string k = kv.first.Scalar();
    if (k == "name") {
      c.name = r.text(kv.second, "name");
      continue;
    }
    check_key(r, kv.first, "configurations");
    if (!kv.second.IsDefined() || kv.second.IsNull())
      r.fail(kv.first, fmt::format("configurations: '{}' has no value", k));
    c.settings.push_back({k, flow(kv.second), where(r, kv.second)});
  }
  return c;
}

std::vector<double> read_rates(const Reader& r, const YAML::Node& n) {
  std::vector<double> rates;
  for (const auto& v : r.list(n, "measure.rates")) try {
      rates.push_back(number("measure.rates", r.text(v, "measure.rates"), 0, 1, true));
    } catch (const std::invalid_argument& e) {
      r.fail(v, e.what());
    }
  if (rates.empty()) r.fail(n, "measure.rates: expected at least one rate");
  return rates;
}

void read_measure(const Reader& r, const YAML::Node& n, Spec& s) {
  Fields f(r, n, "measure");
  const YAML::Node kind = f.need("kind");
  const std::string k = r.text(kind, "measure.kind");
  auto num = [&](const char* key, double& out, double lo, double hi, bool open_lo) {
    if (auto v = f.get(key)) try {
        out = number(std::string("measure.") + key, r.text(*v, key), lo, hi, open_lo);
      } catch (const std::invalid_argument& e) {
        r.fail(*v, e.what());
      }
  };
  if (k == "rate") {
    s.measure = Measure::kRate;
    num("rate", s.rate, 0, 1, true);
  } else if (k == "sweep") {
    s.measure = Measure::kSweep;
    s.rates = read_rates(r, f.need("rates"));
  } else if (k == "saturation") {
    s.measure = Measure::kSaturation;
    num("low", s.rule.low, 0, 1, true);
    num("high", s.rule.high, 0, 1, true);
    num("precision", s.rule.precision, 0, 0.5, true);
    num("accepted_fraction", s.rule.accepted_fraction, 0, 1, true);
    num("latency_factor", s.rule.latency_factor, 1, 1e6, true);
    if (s.rule.low >= s.rule.high)
      r.fail(n, fmt::format("measure: low ({}) must be below high ({})", s.rule.low, s.rule.high));
  } else {
    r.fail(kind, fmt::format("measure.kind: expected rate, sweep or saturation, got '{}'", k));
  }
  f.done();
}

std::vector<std::uint64_t> read_seeds(const Reader& r, const YAML::Node& n) {
  std::vector<std::uint64_t> seeds;
  if (n.IsScalar()) {  // a count: 1, 2, ..., N
    const auto count = r.unsigned_integer(n, "seeds", 1000);
    if (count == 0) r.fail(n, "seeds: expected a count of at least 1 or a list of seeds");
    for (std::uint64_t i = 1; i <= count; ++i) seeds.push_back(i);
    return seeds;
  }
  for (const auto& v : r.list(n, "seeds")) {
    const auto seed = r.unsigned_integer(v, "seeds");
    if (std::find(seeds.begin(), seeds.end(), seed) != seeds.end())
      r.fail(v, fmt::format("seeds: seed {} given twice", seed));
    seeds.push_back(seed);
  }
  if (seeds.empty()) r.fail(n, "seeds: expected at least one seed");
  return seeds;
}

}  // namespace

Spec read_spec(const std::string& path) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    throw std::invalid_argument(path + ": cannot read the experiment file");
  } catch (const YAML::Exception& e) {
    throw std::invalid_argument(
        fmt::format("{}:{}:{}: not YAML: {}", path, e.mark.line + 1, e.mark.column + 1, e.msg));
  }
  const Reader r(path);
  Spec s;
  s.file = path;
  Fields f(r, root, "the experiment");
  s.platform = r.text(f.need("platform"), "platform");
  if (auto sets = f.get("set")) {
    Fields sf(r, *sets, "set");
    for (const auto& kv : *sets) {
      if (kv.first.Scalar().find('.') == std::string::npos)
        r.fail(kv.first,
               fmt::format("set: '{}' is not a platform parameter (KEY.NAME, kairo --list-params); traffic "
                           "options go under traffic:",
                           kv.first.Scalar()));
      s.sets.push_back(kv.first.Scalar() + "=" + flow(kv.second));
    }
  }
  if (auto t = f.get("traffic")) {
    Fields tf(r, *t, "traffic");
    for (const auto& kv : *t) {
      const std::string k = kv.first.Scalar();
      try {
        if (!apply_traffic_key(s.traffic, k, flow(kv.second))) check_key(r, kv.first, "traffic");
      } catch (const std::invalid_argument& e) {
        r.fail(kv.second, std::string("traffic.") + e.what());
      }
      if (k.find('.') != std::string::npos)
        r.fail(kv.first, fmt::format("traffic: '{}' is a platform parameter: put it under set:", k));
    }
  }
  std::vector<std::pair<std::string, std::vector<Setting>>> keys;
  if (auto g = f.get("grid")) keys = read_grid(r, *g);
  if (!keys.empty()) s.configurations = grid(keys);
  if (auto list = f.get("configurations"))
    for (const auto& c : r.list(*list, "configurations"))
      s.configurations.push_back(read_configuration(r, c));
  if (s.configurations.empty()) s.configurations.push_back({"as set", {}});  // the fixed configuration alone
  read_measure(r, f.need("measure"), s);
  if (auto seeds = f.get("seeds")) s.seeds = read_seeds(r, *seeds);
  const YAML::Node out = f.need("outputs");
  Fields of(r, out, "outputs");
  s.out_dir = r.text(of.need("dir"), "outputs.dir");
  if (s.out_dir.empty()) r.fail(out, "outputs.dir: expected a directory");
  of.done();
  f.done();
  s.csv_path = s.out_dir + "/summary.csv";
  s.json_path = s.out_dir + "/summary.json";
  s.markdown_path = s.out_dir + "/summary.md";
  s.plot_path = s.out_dir + "/summary.svg";
  check_spec(s);
  return s;
}

std::vector<Configuration> grid(const std::vector<std::pair<std::string, std::vector<Setting>>>& keys) {
  std::vector<Configuration> out{{}};
  for (const auto& [key, values] : keys) {
    std::vector<Configuration> next;
    for (const Configuration& c : out)
      for (const Setting& v : values) {
        Configuration d = c;
        d.settings.push_back(v);
        next.push_back(std::move(d));
      }
    out = std::move(next);
  }
  for (Configuration& c : out)
    for (const Setting& v : c.settings) c.name += (c.name.empty() ? "" : " ") + v.key + "=" + v.value;
  return out;
}

void check_spec(Spec& s) {
  s.varying.clear();
  for (Configuration& c : s.configurations) {
    if (c.name.empty())
      for (const Setting& v : c.settings) c.name += (c.name.empty() ? "" : " ") + v.key + "=" + v.value;
    std::vector<std::string> sets = s.sets;
    traffic::TrafficOptions o = s.traffic;
    for (const Setting& v : c.settings) {
      if (std::find(s.varying.begin(), s.varying.end(), v.key) == s.varying.end()) s.varying.push_back(v.key);
      if (v.key.find('.') != std::string::npos)
        sets.push_back(v.key + "=" + v.value);
      else
        try {
          apply_traffic_key(o, v.key, v.value);
        } catch (const std::invalid_argument& e) {
          throw std::invalid_argument(v.where + ": " + e.what());
        }
    }
    // The platform with this configuration's overrides, and the traffic
    // options on it; a failure is placed at the setting its message names.
    try {
      const platforms::Platform plat = platforms::load_platform(s.platform, sets);
      o.rate = s.measure == Measure::kSweep  ? s.rates.front()
               : s.measure == Measure::kRate ? s.rate
                                             : s.rule.low;
      traffic::validate(o, plat);
    } catch (const std::exception& e) {
      const std::string msg = e.what();
      for (const Setting& v : c.settings)
        if (msg.find(v.key) != std::string::npos)
          throw std::invalid_argument(fmt::format("{}: {}", v.where, msg));
      throw std::invalid_argument(
          fmt::format("{}: configuration '{}': {}", s.file, c.name.empty() ? "as set" : c.name, msg));
    }
  }
}

}  // namespace kairo::app::experiment
