// An experiment's results (app/experiment.h): what one run gave, what a task
// (a configuration at one seed) found, and the summary over seeds: mean and
// 95% confidence interval per configuration, written as CSV, JSON, Markdown
// and a figure.
#pragma once
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/experiment.h"
#include "platforms/platform.h"

namespace kairo::app::experiment {

// What an experiment keeps of one traffic run.
struct RunRecord {
  double rate = 0;  // offered load asked for
  double offered = 0, accepted = 0, latency = 0, p99 = 0;
  double pj_per_flit = 0;  // dynamic energy per delivered flit (the run's energy object)
  bool deadlock = false, drain_limited = false, lost = false;
  bool warmup_unconverged = false;  // warmup_converge: the longest warm-up passed without settling
  std::string error;                // the run did not give a result
};

RunRecord record_of(double rate, const nlohmann::json& traffic_json);
nlohmann::json record_json(const RunRecord& r);
RunRecord record_from_json(const nlohmann::json& j);
// The saturation rule (SaturationRule) applied to one run.
bool saturated(const SaturationRule& rule, const RunRecord& r, double zero_load_latency);

// A traffic run in a child process (app/child_runner.h): its JSON, or {"error": ...}.
std::function<int(std::string&)> traffic_child(const platforms::Platform& plat, traffic::TrafficOptions o);

struct TaskResult {
  std::size_t config = 0;
  std::uint64_t seed = 0;
  std::map<double, RunRecord> runs;  // by rate
  double lo = 0, hi = 0;             // saturation: highest stable and lowest saturated rate
  bool below_range = false;          // saturation: the search's low rate saturated
};

struct Counts {
  std::uint64_t ran = 0, kept = 0;  // runs made now, runs taken from OUT/runs
  double wall_s = 0;
};

// The summary document; writes the spec's CSV, JSON, Markdown and plot
// (each when its path is set) and sets `code` (1 when a run failed, 2 when a
// file could not be written).
nlohmann::json summarize(const Spec& s, const std::vector<platforms::Platform>& plats,
                         const std::vector<TaskResult>& results, const Counts& counts, int& code);

// The summary's table as Markdown (what kairo traffic --compare prints).
std::string markdown_table(const nlohmann::json& summary);

}  // namespace kairo::app::experiment
