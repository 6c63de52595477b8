// An experiment's summary (app/experiment_report.h): per configuration (and
// per rate of a sweep) the mean over seeds with its 95% confidence interval.
#include "app/experiment_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iostream>

#include "app/cli_common.h"
#include "app/plot_bars.h"
#include "app/plot_data.h"
#include "app/stats.h"
#include "platforms/resolved.h"
#include "sim/output_file.h"

namespace kairo::app::experiment {

using nlohmann::json;

json record_json(const RunRecord& r) {
  return {{"rate", r.rate},
          {"offered", r.offered},
          {"accepted", r.accepted},
          {"latency", r.latency},
          {"p99", r.p99},
          {"pj_per_flit", r.pj_per_flit},
          {"deadlock", r.deadlock},
          {"drain_limited", r.drain_limited},
          {"lost", r.lost},
          {"error", r.error},
          {"warmup_unconverged", r.warmup_unconverged}};
}

RunRecord record_from_json(const json& j) {
  RunRecord r;
  r.rate = j["rate"], r.offered = j["offered"], r.accepted = j["accepted"], r.latency = j["latency"];
  r.p99 = j["p99"], r.deadlock = j["deadlock"], r.drain_limited = j["drain_limited"], r.lost = j["lost"];
  r.error = j["error"];
  r.warmup_unconverged = j.value("warmup_unconverged", false);
  r.pj_per_flit = j.value("pj_per_flit", 0.0);  // kept by a build that reported no energy: 0
  return r;
}

namespace {

struct Figure {
  const char* name;   // JSON and CSV name
  const char* title;  // Markdown column
};

const char* measure_name(Measure m) {
  return m == Measure::kRate ? "rate" : m == Measure::kSweep ? "sweep" : "saturation";
}

// The value a configuration gives a varying key: its own, else the value
// its platform resolved to (a default or the file's) or the fixed traffic option.
std::string cell(const Spec& s, const Configuration& c, const std::string& key, const json& resolved) {
  for (const Setting& v : c.settings)
    if (v.key == key) return v.value;
  if (resolved.contains(key)) return platforms::resolved_text(key, resolved[key]["value"]);
  const traffic::TrafficOptions& o = s.traffic;
  if (key == "pattern") return o.pattern;
  if (key == "packet_flits") return std::to_string(o.packet_flits);
  if (key == "injection") return o.injection;
  if (key == "warmup_cycles") return std::to_string(o.warmup_cycles);
  if (key == "measure_cycles") return std::to_string(o.measure_cycles);
  return "as set";
}

// One row: a configuration (at a rate, for a sweep) and its figures over seeds.
json row(const Spec& s, std::size_t c, const json& resolved,
         const std::vector<std::pair<const Figure*, std::vector<double>>>& figures, std::size_t seeds,
         const json& rate = nullptr) {
  json settings = json::object();
  for (const auto& k : s.varying) settings[k] = cell(s, s.configurations[c], k, resolved);
  json r = {{"configuration", s.configurations[c].name}, {"settings", settings}, {"seeds", seeds}};
  if (!rate.is_null()) r["rate"] = rate;
  for (const auto& [f, xs] : figures) r[f->name] = stats::to_json(stats::summarize(xs), xs);
  return r;
}

const Figure kSatThroughput{"saturation_throughput", "saturation throughput (flits/node/cycle)"};
const Figure kSatRate{"saturation_rate", "highest stable offered load"};
const Figure kZeroLoad{"zero_load_latency_cycles", "zero-load latency (cycles)"};
const Figure kAccepted{"accepted", "accepted (flits/node/cycle)"};
const Figure kOffered{"offered", "offered (flits/node/cycle)"};
const Figure kLatency{"avg_packet_latency_cycles", "average packet latency (cycles)"};
const Figure kP99{"p99_latency_cycles", "p99 latency (cycles)"};
const Figure kEnergy{"dynamic_pj_per_flit", "dynamic energy (pJ per delivered flit)"};
const Figure kSatEnergy{"dynamic_pj_per_flit_at_saturation",
                        "dynamic energy at the highest stable load (pJ/flit)"};

// The rows of every configuration; `failed` when a run failed.
json rows(const Spec& s, const std::vector<TaskResult>& results, const json& resolved, json& per_seed,
          bool& failed) {
  json out = json::array();
  for (std::size_t c = 0; c < s.configurations.size(); ++c) {
    std::vector<const TaskResult*> mine;
    for (const TaskResult& t : results)
      if (t.config == c) mine.push_back(&t);
    for (const TaskResult* t : mine)
      for (const auto& [rate, r] : t->runs) {
        failed = failed || !r.error.empty() || r.deadlock || r.lost;
        per_seed.push_back(
            {{"configuration", s.configurations[c].name}, {"seed", t->seed}, {"run", record_json(r)}});
      }
    std::size_t unsettled = 0;
    for (const TaskResult* t : mine)
      for (const auto& [rate, r] : t->runs) unsettled += r.warmup_unconverged;
    if (s.measure == Measure::kSaturation) {
      std::vector<double> thr, rate, zero, energy;
      for (const TaskResult* t : mine) {
        zero.push_back(t->runs.at(s.rule.low).latency);
        if (t->below_range) continue;  // no stable rate in the range: no saturation figure
        rate.push_back(t->lo);
        thr.push_back(t->runs.at(t->lo).accepted);
        energy.push_back(t->runs.at(t->lo).pj_per_flit);
      }
      json r = row(s, c, resolved[c],
                   {{&kSatThroughput, thr}, {&kSatRate, rate}, {&kZeroLoad, zero}, {&kSatEnergy, energy}},
                   mine.size());
      std::size_t above = 0;
      for (const TaskResult* t : mine) above += t->hi >= s.rule.high && !t->runs.count(s.rule.high);
      if (above)
        r["note"] =
            fmt::format("{} seed(s) found no saturated rate below {}: a lower bound", above, s.rule.high);
      if (thr.size() < mine.size())
        r["note"] =
            fmt::format("{} seed(s) saturated at the lowest rate {}", mine.size() - thr.size(), s.rule.low);
      if (unsettled) r["warmup_unconverged_runs"] = unsettled;
      out.push_back(r);
    } else {
      const std::vector<double> rates = s.measure == Measure::kRate ? std::vector<double>{s.rate} : s.rates;
      for (double rate : rates) {
        std::vector<double> off, acc, lat, p99, energy;
        for (const TaskResult* t : mine) {
          const RunRecord& r = t->runs.at(rate);
          off.push_back(r.offered), acc.push_back(r.accepted), lat.push_back(r.latency), p99.push_back(r.p99);
          energy.push_back(r.pj_per_flit);
        }
        out.push_back(
            row(s, c, resolved[c],
                {{&kOffered, off}, {&kAccepted, acc}, {&kLatency, lat}, {&kP99, p99}, {&kEnergy, energy}},
                mine.size(), rate));
        if (unsettled) out.back()["warmup_unconverged_runs"] = unsettled;
      }
    }
  }
  return out;
}

std::vector<const Figure*> figures_of(Measure m) {
  if (m == Measure::kSaturation) return {&kSatThroughput, &kSatRate, &kZeroLoad, &kSatEnergy};
  return {&kOffered, &kAccepted, &kLatency, &kP99, &kEnergy};
}

std::string csv_field(const std::string& v) {
  if (v.find_first_of(",\"\n") == std::string::npos) return v;
  std::string q = "\"";
  for (char ch : v) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return q + "\"";
}

std::string csv_table(const json& summary) {
  const Measure m = summary["measure"]["kind"] == "saturation" ? Measure::kSaturation
                    : summary["measure"]["kind"] == "rate"     ? Measure::kRate
                                                               : Measure::kSweep;
  std::string out = "configuration";
  for (const auto& k : summary["varying"]) out += "," + csv_field(k.get<std::string>());
  out += m == Measure::kSaturation ? ",seeds" : ",rate,seeds";
  for (const Figure* f : figures_of(m)) out += fmt::format(",{0}_mean,{0}_ci95", f->name);
  out += ",best,note\n";  // note: why a row's figures stand on fewer seeds, or are a bound
  for (const auto& r : summary["rows"]) {
    out += csv_field(r["configuration"]);
    for (const auto& k : summary["varying"]) out += "," + csv_field(r["settings"][k.get<std::string>()]);
    if (m != Measure::kSaturation) out += fmt::format(",{}", r["rate"].get<double>());
    out += fmt::format(",{}", r["seeds"].get<std::size_t>());
    for (const Figure* f : figures_of(m)) {
      const json& x = r[f->name];
      out += x["n"] == 0 ? std::string(",,") : fmt::format(",{:.6g}", x["mean"].get<double>());
      if (x["n"] != 0) out += x["ci95"].is_null() ? "," : fmt::format(",{:.3g}", x["ci95"].get<double>());
    }
    out += r.value("best", false) ? ",yes," : ",,";
    out += csv_field(r.value("note", std::string())) + "\n";
  }
  return out;
}

std::string mean_ci(const json& x) {
  if (x["n"] == 0) return "-";
  if (x["ci95"].is_null()) return fmt::format("{:.4g}", x["mean"].get<double>());
  return fmt::format("{:.4g} ± {:.2g}", x["mean"].get<double>(), x["ci95"].get<double>());
}

}  // namespace

std::string markdown_table(const json& summary) {
  const bool sat = summary["measure"]["kind"] == "saturation";
  const std::vector<const Figure*> figs = figures_of(sat ? Measure::kSaturation : Measure::kRate);
  std::string head = "| configuration |", rule = "|---|";
  for (const auto& k : summary["varying"]) head += " " + k.get<std::string>() + " |", rule += "---|";
  if (!sat) head += " rate |", rule += "---:|";
  head += " seeds |", rule += "---:|";
  for (const Figure* f : figs) head += std::string(" ") + f->title + " |", rule += "---:|";
  head += " best | note |", rule += "---|---|";
  std::string out = head + "\n" + rule + "\n";
  for (const auto& r : summary["rows"]) {
    out += "| " + r["configuration"].get<std::string>() + " |";
    for (const auto& k : summary["varying"])
      out += " " + r["settings"][k.get<std::string>()].get<std::string>() + " |";
    if (!sat) out += fmt::format(" {} |", r["rate"].get<double>());
    out += fmt::format(" {} |", r["seeds"].get<std::size_t>());
    for (const Figure* f : figs) out += " " + mean_ci(r[f->name]) + " |";
    out += r.value("best", false) ? " ★ |" : " |";
    out += " " + r.value("note", std::string()) + " |\n";
  }
  return out;
}

json summarize(const Spec& s, const std::vector<platforms::Platform>& plats,
               const std::vector<TaskResult>& results, const Counts& counts, int& code) {
  // Each configuration's whole resolved configuration (platforms/resolved.h).
  json resolved = json::array(), configurations = json::array();
  for (std::size_t c = 0; c < s.configurations.size(); ++c) {
    resolved.push_back(platforms::resolved_json(plats[c]));
    json settings = json::object();
    for (const Setting& v : s.configurations[c].settings) settings[v.key] = v.value;
    configurations.push_back(
        {{"name", s.configurations[c].name}, {"settings", settings}, {"resolved", resolved.back()}});
  }
  json per_seed = json::array();
  bool failed = false;
  json table = rows(s, results, resolved, per_seed, failed);
  // The best configuration: highest saturation throughput, or lowest latency at a rate.
  const char* key = s.measure == Measure::kSaturation ? kSatThroughput.name : kLatency.name;
  std::map<json, std::size_t> best;  // by rate (null for saturation)
  for (std::size_t i = 0; i < table.size(); ++i) {
    if (table[i][key]["n"] == 0) continue;
    const json at = table[i].value("rate", json(nullptr));
    auto it = best.find(at);
    const double v = table[i][key]["mean"],
                 b = it == best.end() ? 0 : table[it->second][key]["mean"].get<double>();
    if (it == best.end() || (s.measure == Measure::kSaturation ? v > b : v < b)) best[at] = i;
  }
  for (const auto& [at, i] : best) table[i]["best"] = true;
  json measure = {{"kind", measure_name(s.measure)}};
  if (s.measure == Measure::kRate) measure["rate"] = s.rate;
  if (s.measure == Measure::kSweep) measure["rates"] = s.rates;
  if (s.measure == Measure::kSaturation)
    measure["rule"] = {{"low", s.rule.low},
                       {"high", s.rule.high},
                       {"precision", s.rule.precision},
                       {"accepted_fraction", s.rule.accepted_fraction},
                       {"latency_factor", s.rule.latency_factor},
                       {"saturated_when",
                        "accepted < accepted_fraction x offered, or average packet latency > "
                        "latency_factor x the zero-load latency (the low rate's), or the "
                        "measured packets did not drain, or a deadlock"}};
  const traffic::TrafficOptions& o = s.traffic;
  json summary = {
      {"experiment", s.file},
      {"platform", s.platform},
      {"sets", plot::sets_json(s.sets)},
      {"traffic",
       {{"pattern", o.pattern},
        {"packet_flits", o.packet_flits},
        {"warmup_cycles", o.warmup_cycles},
        {"measure_cycles", o.measure_cycles},
        {"drain_cycles", o.drain_cycles},
        {"packet_sizes", o.packet_sizes},
        {"injection", o.injection},
        {"burst_alpha", o.burst_alpha},
        {"burst_beta", o.burst_beta},
        {"warmup_converge", o.warmup_converge}}},
      {"measure", measure},
      {"seeds", s.seeds},
      {"varying", s.varying},
      {"configurations", configurations},
      {"rows", table},
      {"runs", per_seed},
      {"runs_made", counts.ran},
      {"runs_kept", counts.kept},
      {"wall_s", counts.wall_s},
      {"confidence", "95% two-sided Student-t interval of the mean over seeds (ci95: half-width)"}};
  if (failed) code = kExitSimFailure;
  auto write = [&](const std::string& option, const std::string& path, const std::string& text) {
    if (path.empty()) return;
    try {
      sim::write_output_file(option, path, text);
    } catch (const std::exception& e) {
      code = bad_input(e.what());
    }
  };
  write("--csv", s.csv_path, csv_table(summary));
  write("--json", s.json_path, summary.dump(2) + "\n");
  write("--markdown", s.markdown_path, markdown_table(summary));
  if (!s.plot_path.empty()) write("--plot", s.plot_path, plot::experiment_svg(summary));
  return summary;
}

}  // namespace kairo::app::experiment
