// An experiment's runs (app/experiment.h): one task per configuration and
// seed, each a sequence of traffic runs (one at a fixed rate, every rate of a
// sweep, or the steps of a saturation search), run in child processes side
// by side, kept in OUT/runs/ as they finish, shared out over mpirun's processes.
#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "app/child_runner.h"
#include "app/cli_common.h"
#include "app/experiment.h"
#include "app/experiment_report.h"
#include "platforms/platform.h"
#include "sim/mpi_world.h"
#include "sim/output_file.h"

namespace kairo::app::experiment {

using nlohmann::json;

std::function<int(std::string&)> traffic_child(const platforms::Platform& plat, traffic::TrafficOptions o) {
  return [&plat, o](std::string& out) mutable {
    try {
      o.exiting_after = true;
      o.progress = nullptr;
      auto r = traffic::run_traffic(plat, o);
      out = r.json.dump();
      return r.deadlock || r.lost_or_duplicated ? kExitSimFailure : kExitOk;
    } catch (const std::exception& e) {
      out = json{{"error", e.what()}}.dump();
      return kExitBadInput;
    }
  };
}

RunRecord record_of(double rate, const json& j) {
  RunRecord r;
  r.rate = rate;
  if (j.contains("error")) {
    r.error = j["error"].get<std::string>();
    return r;
  }
  r.offered = j.value("offered_flits_per_node_cycle", 0.0);
  r.accepted = j.value("accepted_flits_per_node_cycle", 0.0);
  r.latency = j.value("avg_packet_latency_cycles", 0.0);
  r.p99 = double(j["latency_percentiles_cycles"].value("p99", std::uint64_t(0)));
  if (j.contains("energy")) r.pj_per_flit = j["energy"].value("dynamic_pj_per_flit", 0.0);
  r.deadlock = j.value("deadlock", false);
  r.drain_limited = j.value("drain_limited", false);
  r.lost =
      j.value("packets_lost", std::uint64_t(0)) != 0 || j.value("packets_duplicated", std::uint64_t(0)) != 0;
  if (j.contains("warmup")) r.warmup_unconverged = !j["warmup"].value("converged", true);
  return r;
}

bool saturated(const SaturationRule& rule, const RunRecord& r, double zero_load_latency) {
  return !r.error.empty() || r.deadlock || r.drain_limited ||
         r.accepted < rule.accepted_fraction * r.offered ||
         r.latency > rule.latency_factor * zero_load_latency;
}

namespace {

// One configuration at one seed.
struct Task {
  std::size_t config = 0;
  std::uint64_t seed = 0;
  std::map<double, RunRecord> done;
  std::set<double> in_flight;
  double lo = 0, hi = 0;     // saturation: the bracket
  bool below_range = false;  // saturation: the low rate itself saturated

  std::vector<double> ready(const Spec& s) const {
    std::vector<double> out;
    auto want = [&](double r) {
      if (!done.count(r) && !in_flight.count(r)) out.push_back(r);
    };
    if (s.measure == Measure::kRate) want(s.rate);
    if (s.measure == Measure::kSweep)
      for (double r : s.rates) want(r);
    if (s.measure == Measure::kSaturation && in_flight.empty() && !below_range) {
      if (!done.count(s.rule.low))
        want(s.rule.low);
      else if (hi - lo > s.rule.precision * (1 + 1e-9))
        want(std::round((lo + hi) / 2 * 1e6) / 1e6);
    }
    return out;
  }
  void finished(const Spec& s, const RunRecord& r) {
    in_flight.erase(r.rate);
    done[r.rate] = r;
    if (s.measure != Measure::kSaturation) return;
    if (r.rate == s.rule.low) {
      lo = s.rule.low, hi = s.rule.high;
      below_range = saturated(s.rule, r, HUGE_VAL);  // the latency test needs a zero-load latency
      return;
    }
    (saturated(s.rule, r, done.at(s.rule.low).latency) ? hi : lo) = r.rate;
  }
  // The bracket from the runs alone (a task run by another process): the
  // search only ever narrows it, so it is the highest stable rate and the
  // lowest saturated one.
  void settle(const Spec& s) {
    if (s.measure != Measure::kSaturation || !done.count(s.rule.low)) return;
    const RunRecord& zero = done.at(s.rule.low);
    below_range = saturated(s.rule, zero, HUGE_VAL);
    lo = s.rule.low, hi = s.rule.high;
    for (const auto& [rate, r] : done)
      if (rate != s.rule.low) {
        if (saturated(s.rule, r, zero.latency))
          hi = std::min(hi, rate);
        else
          lo = std::max(lo, rate);
      }
  }
};

// The key a run is kept under: everything that decides its result.
std::string run_key(const Spec& s, const Configuration& c, std::uint64_t seed, double rate) {
  std::string k = "platform=" + s.platform + "\n";
  for (const auto& kv : s.sets) k += "set " + kv + "\n";
  for (const Setting& v : c.settings) k += "config " + v.key + "=" + v.value + "\n";
  const traffic::TrafficOptions& o = s.traffic;
  k += fmt::format(
      "pattern={} packet_flits={} warmup={} measure={} drain={} hotspot_fraction={} hotspots=", o.pattern,
      o.packet_flits, o.warmup_cycles, o.measure_cycles, o.drain_cycles, o.hotspot_fraction);
  for (auto h : o.hotspots) k += std::to_string(h) + ",";
  if (o.warmup_converge)
    k += fmt::format(" converge sample={} threshold={}", o.sample_cycles, o.warmup_threshold);
  if (o.injection != "bernoulli")
    k += fmt::format(" injection={} alpha={} beta={}", o.injection, o.burst_alpha, o.burst_beta);
  for (const auto& [flits, weight] : o.packet_sizes) k += fmt::format(" size={}:{}", flits, weight);
  return k + fmt::format("\nseed={} rate={}\n", seed, rate);
}

std::string run_file(const std::string& dir, const std::string& key) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a, 64 bits
  for (unsigned char ch : key) h = (h ^ ch) * 1099511628211ull;
  return fmt::format("{}/runs/{:016x}.json", dir, h);
}

// A kept run, when its file is there, complete and for this key.
std::optional<json> kept_run(const std::string& path, const std::string& key) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::stringstream ss;
  ss << in.rdbuf();
  const json j = json::parse(ss.str(), nullptr, false);
  if (j.is_discarded() || j.value("key", "") != key || !j.contains("result")) return std::nullopt;
  return j["result"];
}

void keep_run(const std::string& path, const std::string& key, const json& result) {
  // Whole or not at all (sim::OutputFile: a part file renamed into place).
  sim::write_output_file("outputs.dir", path, json{{"key", key}, {"result", result}}.dump() + "\n");
}

void print_done(const Spec& s, const Task& t, const RunRecord& r, bool kept) {
  const Configuration& c = s.configurations[t.config];
  std::string what = !r.error.empty() ? "failed: " + r.error
                                      : fmt::format("accepted {:.4f}, latency {:.1f} cycles{}{}", r.accepted,
                                                    r.latency, r.deadlock ? ", deadlock" : "",
                                                    r.drain_limited ? ", did not drain" : "");
  std::cerr << fmt::format("kairo experiment: {} seed {} rate {}: {}{}\n", c.name, t.seed, r.rate, what,
                           kept ? " (kept from an earlier run)" : "");
}

// Runs this process's tasks to completion, `jobs` children at a time.
void run_tasks(const Spec& s, const std::vector<platforms::Platform>& plats, std::vector<Task*>& tasks,
               const RunOptions& opt, Counts& counts) {
  ChildPool pool;
  std::vector<std::pair<Task*, double>> started;  // by tag
  std::vector<std::string> keys;
  for (;;) {
    bool progress = true;
    while (progress && int(pool.running()) < opt.jobs) {
      progress = false;
      for (Task* t : tasks) {
        for (double rate : t->ready(s)) {
          const Configuration& c = s.configurations[t->config];
          const std::string key = run_key(s, c, t->seed, rate);
          if (!s.out_dir.empty() && !opt.fresh)
            if (auto kept = kept_run(run_file(s.out_dir, key), key)) {
              const RunRecord r = record_of(rate, *kept);
              t->finished(s, r);
              ++counts.kept;
              if (!opt.quiet) print_done(s, *t, r, true);
              progress = true;
              continue;
            }
          if (int(pool.running()) >= opt.jobs) break;
          traffic::TrafficOptions o = s.traffic;
          for (const Setting& v : c.settings)
            if (v.key.find('.') == std::string::npos) apply_traffic_key(o, v.key, v.value);
          o.rate = rate;
          o.seed = t->seed;
          t->in_flight.insert(rate);
          pool.start(started.size(), traffic_child(plats[t->config], o));
          started.emplace_back(t, rate);
          keys.push_back(key);
          progress = true;
        }
      }
    }
    if (pool.running() == 0) return;
    auto [tag, child] = pool.next_done();
    auto [t, rate] = started[tag];
    json result = json::parse(child.text, nullptr, false);
    if (child.text.empty() || result.is_discarded())
      result = json{{"error", fmt::format("the run crashed (exit code {})", child.exit_code)}};
    const RunRecord r = record_of(rate, result);
    ++counts.ran;
    if (!s.out_dir.empty() && r.error.empty()) keep_run(run_file(s.out_dir, keys[tag]), keys[tag], result);
    t->finished(s, r);
    if (!opt.quiet) print_done(s, *t, r, false);
  }
}

// Every task's runs, on process 0: the others send theirs.
void gather(std::vector<Task>& tasks) {
  const sim::MpiWorld& world = sim::MpiWorld::get();
  if (!world.parallel()) return;
  std::vector<char> mine;
  sim::ByteWriter w(mine);
  for (std::size_t i = std::size_t(world.rank()); i < tasks.size(); i += std::size_t(world.size()))
    for (const auto& [rate, r] : tasks[i].done) {
      w.put(std::uint64_t(i));
      w.put(rate);
      w.put_string(record_json(r).dump());
    }
  const auto all = world.gather(mine);
  if (!world.root()) return;
  for (const auto& bytes : all) {
    sim::ByteReader rd(bytes);
    while (!rd.done()) {
      const auto i = rd.get<std::uint64_t>();
      const double rate = rd.get<double>();
      tasks.at(i).done[rate] = record_from_json(json::parse(rd.get_string()));
    }
  }
}

}  // namespace

json run(const Spec& s, const RunOptions& opt, int& code) {
  const auto t0 = std::chrono::steady_clock::now();
  const sim::MpiWorld& world = sim::MpiWorld::get();
  if (!s.out_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(s.out_dir + "/runs", ec);
    if (ec)
      throw std::invalid_argument(
          fmt::format("outputs.dir: cannot make '{}/runs': {}", s.out_dir, ec.message()));
  }
  std::vector<platforms::Platform> plats;
  for (const Configuration& c : s.configurations) {
    std::vector<std::string> sets = s.sets;
    for (const Setting& v : c.settings)
      if (v.key.find('.') != std::string::npos) sets.push_back(v.key + "=" + v.value);
    plats.push_back(platforms::load_platform(s.platform, sets));
  }
  std::vector<Task> tasks;
  for (std::size_t c = 0; c < s.configurations.size(); ++c)
    for (std::uint64_t seed : s.seeds) tasks.push_back({c, seed, {}, {}, 0, 0, false});
  std::vector<Task*> mine;
  for (std::size_t i = std::size_t(world.rank()); i < tasks.size(); i += std::size_t(world.size()))
    mine.push_back(&tasks[i]);
  Counts counts;
  run_tasks(s, plats, mine, opt, counts);
  std::vector<std::uint64_t> sums = {counts.ran, counts.kept};
  if (world.parallel()) world.sum(sums);
  counts.ran = sums[0], counts.kept = sums[1];
  gather(tasks);
  if (!world.root()) return nullptr;
  for (Task& t : tasks) t.settle(s);
  std::vector<TaskResult> results;
  for (const Task& t : tasks) results.push_back({t.config, t.seed, t.done, t.lo, t.hi, t.below_range});
  counts.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return summarize(s, plats, results, counts, code);
}

}  // namespace kairo::app::experiment
