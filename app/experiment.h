// Experiments (docs/experiments.md): one platform, fixed overrides and
// traffic options, a set of configurations (a grid's cartesian product and
// any listed beside it), what to measure at each (a fixed rate, a load
// sweep, or a saturation search), several seeds, and one summary table.
// `kairo experiment FILE.yaml` reads the file; `kairo traffic --compare
// KEY=V1,V2 ...` builds the same thing from its options. The runs go over the
// machine's cores (-j) and over the processes of an mpirun; each finished run
// is kept in the output directory, so an interrupted experiment resumes.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "traffic/traffic_run.h"

namespace kairo::app::experiment {

// One value of one key: a platform parameter (a dotted key, as --set takes
// it) or a traffic option (pattern, packet_flits, ...: traffic_keys()).
struct Setting {
  std::string key, value;
  std::string where;  // "FILE:LINE:COL" of the value, or the option that gave it
};

struct Configuration {
  std::string name;  // the settings, "router.vcs=2 router.allocator=islip", or the name given
  std::vector<Setting> settings;
};

enum class Measure { kRate, kSweep, kSaturation };

// The saturation search: bisection on offered load between `low` (which must
// be below saturation; its run gives the zero-load latency) and `high`
// (taken as saturated) until the bracket is at most `precision` wide. A run
// is saturated when its accepted throughput is below accepted_fraction x its
// offered load, its average packet latency passes latency_factor x the
// zero-load latency, its measured packets did not drain (drain_limited), or
// it deadlocked.
struct SaturationRule {
  double low = 0.005, high = 1.0, precision = 0.005;
  double accepted_fraction = 0.95, latency_factor = 3.0;
};

struct Spec {
  std::string file;                 // the experiment file, or "kairo traffic" for --compare
  std::string platform;             // shipped name or YAML file
  std::vector<std::string> sets;    // fixed key=value overrides
  traffic::TrafficOptions traffic;  // fixed traffic options (rate and seed are the measure's)
  std::vector<Configuration> configurations;
  std::vector<std::string> varying;  // the keys configurations set, in first-seen order
  Measure measure = Measure::kSaturation;
  double rate = 0.1;          // kRate
  std::vector<double> rates;  // kSweep
  SaturationRule rule;        // kSaturation
  std::vector<std::uint64_t> seeds{1};
  std::string out_dir;  // runs/ and the summary files; empty: nothing kept (kairo traffic --compare)
  std::string csv_path, json_path, markdown_path, plot_path;  // each empty: not written
};

// The traffic options a configuration may set, with what each expects.
const std::vector<std::pair<std::string, std::string>>& traffic_keys();
// Sets traffic option `key` to `value`; false when `key` is not a traffic
// option; throws std::invalid_argument("KEY: expected ..., got ...") on a bad value.
bool apply_traffic_key(traffic::TrafficOptions& o, const std::string& key, const std::string& value);

// "a,b,[c, d]": values split at the commas outside brackets and braces.
std::vector<std::string> split_values(const std::string& list);

// Reads an experiment file; throws std::invalid_argument "FILE:LINE:COL: ..."
// naming the key. Checks every configuration (its platform loads, its
// traffic options are valid) before anything runs.
Spec read_spec(const std::string& path);

// Checks every configuration of `spec`: the platform loads with its
// overrides and the traffic options are valid; a failure names the setting's
// place (Setting::where) and the key. Fills Spec::varying.
void check_spec(Spec& spec);

// The configurations of a grid: every combination of the keys' values, the
// first key varying slowest.
std::vector<Configuration> grid(const std::vector<std::pair<std::string, std::vector<Setting>>>& keys);

struct RunOptions {
  int jobs = 1;  // children at once on this process
  bool quiet = false;
  bool fresh = false;  // ignore runs kept in out_dir/runs
};

// Runs the experiment and writes its outputs (process 0 under mpirun).
// Returns the summary document and sets `code` (0, 1 when a run failed in
// the simulated hardware, 2 when an output could not be written).
nlohmann::json run(const Spec& spec, const RunOptions& options, int& code);

}  // namespace kairo::app::experiment
