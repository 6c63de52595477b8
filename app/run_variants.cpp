// kairo run's variants (app/run_variants.h).
#include "app/run_variants.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/child_runner.h"
#include "app/cli_common.h"
#include "app/plot_data.h"
#include "app/run_report.h"
#include "sim/mpi_world.h"
#include "sim/output_file.h"
#include "sim/units.h"

namespace kairo::app {
namespace {

// One run per value of `key` (replacing any --param key=... and drop=...),
// each in a child process. Under mpirun value i runs on process i mod N and
// every process gets every result (one process's order), so that all of
// them take the same decisions. Returns the exit code of the first run that
// did not succeed, else 0, with every summary up to it in `runs`.
int run_each(const RunArgs& a, const std::string& key, const std::vector<std::string>& values,
             const std::string& drop, std::vector<nlohmann::json>& runs) {
  const sim::MpiWorld& world = sim::MpiWorld::get();
  std::vector<ChildResult> results(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!a.quiet) std::cerr << "kairo run: " << key << "=" << values[i] << "\n";
    if (int(i % std::size_t(world.size())) != world.rank()) continue;
    RunArgs b = a;
    b.compare.clear();
    b.params.clear();
    for (const auto& kv : a.params)
      if (kv.rfind(drop + "=", 0) != 0 && kv.rfind(key + "=", 0) != 0) b.params.push_back(kv);
    b.params.push_back(key + "=" + values[i]);
    b.json_path.clear();
    b.plot_path.clear();
    b.tni_csv.clear();
    b.quiet = true;
    // A pipe or fork that fails throws (std::runtime_error, reported by main).
    results[i] = run_in_child([&b](std::string& summary) {
      b.summary_to = &summary;  // the child runs in one process, without MPI
      return run_workload(b);
    });
  }
  if (world.parallel()) {
    std::vector<char> mine;
    sim::ByteWriter w(mine);
    for (std::size_t i = std::size_t(world.rank()); i < values.size(); i += std::size_t(world.size())) {
      w.put(std::int32_t(results[i].exit_code));
      w.put_string(results[i].text);
    }
    std::vector<char> all;
    for (const auto& bytes : world.gather(mine)) all.insert(all.end(), bytes.begin(), bytes.end());
    world.broadcast(all);  // process by process, each its values in order
    sim::ByteReader r(all);
    for (int p = 0; p < world.size(); ++p)
      for (std::size_t i = std::size_t(p); i < values.size(); i += std::size_t(world.size())) {
        results[i].exit_code = r.get<std::int32_t>();
        results[i].text = r.get_string();
      }
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    const ChildResult& child = results[i];
    if (child.exit_code == kExitBadInput) return kExitBadInput;  // the child said what was wrong
    if (child.text.empty()) {
      std::cerr << "kairo: the run with " << key << "=" << values[i] << " failed\n";
      return kExitSimFailure;
    }
    runs.push_back(nlohmann::json::parse(child.text));
    if (child.exit_code != kExitOk) return child.exit_code;
  }
  return kExitOk;
}

std::vector<std::string> split_list(const std::string& list) {
  std::vector<std::string> v;
  std::stringstream ss(list);
  for (std::string item; std::getline(ss, item, ',');) v.push_back(item);
  return v;
}

// Every run of the variants has the same platform: its resolved
// configuration goes once to the top of their JSON, and its adjustments are
// said once (process 0: every process has every run).
void hoist_resolved(nlohmann::json& j) {
  std::vector<nlohmann::json*> runs;
  for (const char* key : {"sweep", "compare"})
    if (j.contains(key) && j[key].is_array())
      for (auto& r : j[key]) runs.push_back(&r);
  if (j.contains("runs") && j["runs"].is_object())
    for (auto& [value, list] : j["runs"].items())
      for (auto& r : list) runs.push_back(&r);
  for (nlohmann::json* r : runs)
    if (r->is_object() && r->contains("resolved")) {
      if (!j.contains("resolved")) j["resolved"] = (*r)["resolved"];
      if ((*r)["resolved"] == j["resolved"]) r->erase("resolved");
    }
  if (j.contains("resolved") && sim::MpiWorld::get().root()) say_adjustments(j["resolved"]);
}

// The variants' JSON to --json (or nothing) and their figure to --plot
// (or nothing); kExitBadInput when either could not be written, else kExitOk.
int write_variants(const RunArgs& a, nlohmann::json j) {
  hoist_resolved(j);
  int code = kExitOk;
  if (!a.json_path.empty() && write_summary("--json", a.json_path, j.dump(2) + "\n") != kExitOk)
    code = kExitBadInput;
  if (!a.plot_path.empty()) {
    try {
      sim::write_output_file("--plot", a.plot_path, plot::svg_of_run(j, "--plot"));
    } catch (const std::exception& e) {
      code = bad_input(e.what());
    }
  }
  return code;
}

// One run of `key`=`value` at `bytes`; its latency, or a negative exit code.
double latency_at(const RunArgs& a, const std::string& key, const std::string& value, std::uint64_t bytes,
                  int& code) {
  RunArgs b = a;
  b.params.clear();
  for (const auto& kv : a.params)
    if (kv.rfind("sizes=", 0) != 0 && kv.rfind(key + "=", 0) != 0) b.params.push_back(kv);
  b.params.push_back(key + "=" + value);
  std::vector<nlohmann::json> runs;
  code = run_each(b, "size", {std::to_string(bytes) + "B"}, "sizes", runs);
  return code == kExitOk ? runs[0]["latency_ns"].get<double>() : -1.0;
}

// Every value at every size, ranked at each, and where the fastest changes
// between two sizes, the crossover size found by bisection.
int compare_sizes(const RunArgs& a, const std::string& key, const std::vector<std::string>& values,
                  const std::string& list) {
  const std::vector<std::string> sizes = split_list(list);
  std::vector<std::uint64_t> bytes;
  try {
    for (const auto& item : sizes) bytes.push_back(units::parse_bytes(item));
  } catch (const units::UnitError& e) {
    return bad_input("--param sizes=" + list + ": " + e.what());
  }
  if (sizes.empty() || values.empty())
    return bad_input(
        "--compare with --param sizes=: expected values and sizes, e.g. algo=a,b and sizes=1KiB,1MiB");
  for (std::size_t i = 1; i < bytes.size(); ++i)
    if (bytes[i] <= bytes[i - 1]) return bad_input("--param sizes=" + list + ": expected increasing sizes");
  // latency[v][i]: value v at size i
  std::vector<std::vector<double>> latency(values.size());
  nlohmann::json all = nlohmann::json::object();
  for (std::size_t v = 0; v < values.size(); ++v) {
    RunArgs b = a;
    b.params.clear();
    for (const auto& kv : a.params)
      if (kv.rfind(key + "=", 0) != 0) b.params.push_back(kv);
    b.params.push_back(key + "=" + values[v]);
    std::vector<nlohmann::json> runs;
    const int code = run_each(b, "size", sizes, "sizes", runs);
    if (code != kExitOk) return code;
    for (const auto& r : runs) latency[v].push_back(r["latency_ns"].get<double>());
    all[values[v]] = runs;
  }
  std::vector<std::size_t> fastest(sizes.size(), 0);
  for (std::size_t i = 0; i < sizes.size(); ++i)
    for (std::size_t v = 1; v < values.size(); ++v)
      if (latency[v][i] < latency[fastest[i]][i]) fastest[i] = v;
  // Crossovers: bisect (geometrically, in 8-byte steps) between two sizes
  // whose fastest differ, comparing just those two, until the interval is
  // within 1/32 of its size.
  std::vector<Crossover> crossovers;
  nlohmann::json crossovers_json = nlohmann::json::array();
  for (std::size_t i = 0; i + 1 < sizes.size(); ++i) {
    const std::size_t x = fastest[i], y = fastest[i + 1];
    if (x == y) continue;
    std::uint64_t lo = bytes[i], hi = bytes[i + 1];
    while (hi - lo > std::max<std::uint64_t>(8, lo / 32)) {
      std::uint64_t mid = std::uint64_t(std::sqrt(double(lo) * double(hi))) / 8 * 8;
      if (mid <= lo) mid = lo + 8;
      if (mid >= hi) break;
      int cx = 0, cy = 0;
      const double tx = latency_at(a, key, values[x], mid, cx), ty = latency_at(a, key, values[y], mid, cy);
      if (cx != kExitOk) return cx;
      if (cy != kExitOk) return cy;
      (ty < tx ? hi : lo) = mid;
    }
    crossovers.push_back({x, y, lo, hi});
    crossovers_json.push_back(
        {{"from", values[x]}, {"to", values[y]}, {"above_bytes", lo}, {"at_most_bytes", hi}});
  }
  std::cout << size_compare_table(key, values, sizes, latency, fastest, crossovers);
  return write_variants(a, {{"compare", key},
                            {"values", values},
                            {"sizes", sizes},
                            {"sets", plot::sets_json(a.sets)},
                            {"runs", all},
                            {"crossovers", crossovers_json}});
}

}  // namespace

int run_sizes(const RunArgs& a, const std::string& list) {
  const std::vector<std::string> sizes = split_list(list);
  try {
    for (const auto& item : sizes) units::parse_bytes(item);
  } catch (const units::UnitError& e) {
    return bad_input("--param sizes=" + list + ": " + e.what());
  }
  if (sizes.empty())
    return bad_input("--param sizes=: expected a comma-separated list of sizes, e.g. 1KiB,32KiB");
  for (const auto& kv : a.params)
    if (kv.rfind("size=", 0) == 0) return bad_input("--param size and --param sizes: give one of them");
  std::vector<nlohmann::json> runs;
  const int code = run_each(a, "size", sizes, "sizes", runs);
  if (code == kExitBadInput) return code;
  std::cout << sizes_table(sizes, runs);
  if (write_variants(a, {{"sets", plot::sets_json(a.sets)}, {"sweep", runs}}) != kExitOk)
    return kExitBadInput;
  return code;
}

int run_compare(const RunArgs& a) {
  const auto eq = a.compare.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == a.compare.size())
    return bad_input("--compare " + a.compare +
                     ": expected key=value,value,..., e.g. algo=ring,recursive-doubling");
  const std::string key = a.compare.substr(0, eq);
  const std::vector<std::string> values = split_list(a.compare.substr(eq + 1));
  for (const auto& kv : a.params)
    if (kv.rfind("sizes=", 0) == 0) return compare_sizes(a, key, values, kv.substr(6));
  std::vector<nlohmann::json> runs;
  const int code = run_each(a, key, values, key, runs);
  if (code == kExitBadInput) return code;
  std::cout << compare_table(key, values, runs);
  if (write_variants(a, {{"sets", plot::sets_json(a.sets)}, {"compare", runs}}) != kExitOk)
    return kExitBadInput;
  return code;
}

}  // namespace kairo::app
