// kairo traffic's experiments (app/traffic_args.h): --compare, --saturation
// and --seeds as an experiment (app/experiment.h), and what cmd_traffic.cpp shares.
#include <fmt/format.h>

#include <iostream>
#include <sstream>
#include <thread>

#include "app/cli_common.h"
#include "app/experiment.h"
#include "app/experiment_report.h"
#include "app/traffic_args.h"
#include "sim/mpi_world.h"

namespace kairo::app {

int jobs_of(const TrafficArgs& a) {
  if (a.jobs > 0) return a.jobs;
  const int cores = int(std::max(1u, std::thread::hardware_concurrency()));
  return std::max(1, cores / sim::MpiWorld::get().size());
}

std::vector<double> parse_rates(const std::string& list) {
  std::vector<double> rates;
  std::stringstream ss(list);
  std::string item;
  while (std::getline(ss, item, ',')) {
    char* end = nullptr;
    double r = std::strtod(item.c_str(), &end);
    if (item.empty() || *end != '\0' || !(r > 0 && r <= 1))
      throw std::invalid_argument("--sweep: expected a comma-separated list of rates within (0, 1], got '" +
                                  item + "'");
    rates.push_back(r);
  }
  if (rates.empty()) throw std::invalid_argument("--sweep: expected at least one rate");
  return rates;
}

// --compare, --saturation or --seeds: an experiment (app/experiment.h) built from the options.
int compare_and_report(TrafficArgs& a) {
  if (a.observe.any())
    throw std::invalid_argument(
        "--vcd/--fst/--counters record one run: not with --compare, --saturation or --seeds");
  if (a.opt.batch_packets > 0)
    throw std::invalid_argument(
        "--compare/--saturation/--seeds: measure at injection rates; batch mode (--batch) has none");
  if (a.saturation && !a.sweep.empty())
    throw std::invalid_argument("--saturation: searches for the saturation point itself; not with --sweep");
  experiment::Spec s;
  s.file = "kairo traffic";
  s.platform = a.platform;
  s.sets = a.sets;
  s.traffic = a.opt;
  s.traffic.progress = nullptr;
  std::vector<std::pair<std::string, std::vector<experiment::Setting>>> keys;
  for (const std::string& kv : a.compare) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == kv.size())
      throw std::invalid_argument(
          "--compare: expected KEY=V1,V2,... (a platform parameter or a traffic option), got '" + kv + "'");
    const std::string key = kv.substr(0, eq);
    for (const auto& [k, _] : keys)
      if (k == key) throw std::invalid_argument("--compare: key '" + key + "' given twice");
    std::vector<experiment::Setting> values;
    for (const std::string& v : experiment::split_values(kv.substr(eq + 1)))
      values.push_back({key, v, "--compare " + key});
    keys.emplace_back(key, values);
  }
  if (!keys.empty())
    s.configurations = experiment::grid(keys);
  else
    s.configurations.push_back({"as set", {}});
  if (a.saturation) {
    s.measure = experiment::Measure::kSaturation;
    s.rule.precision = a.precision;
  } else if (!a.sweep.empty()) {
    s.measure = experiment::Measure::kSweep;
    s.rates = parse_rates(a.sweep);
  } else {
    s.measure = experiment::Measure::kRate;
    s.rate = a.opt.rate;
  }
  for (std::uint64_t i = 0; i < a.seeds; ++i) s.seeds.push_back(a.opt.seed + i);
  s.seeds.erase(s.seeds.begin());  // the default {1}
  s.csv_path = a.csv_path;
  s.json_path = a.json_path;
  s.plot_path = a.plot_path;
  experiment::check_spec(s);
  experiment::RunOptions opt;
  opt.jobs = jobs_of(a);
  opt.quiet = a.quiet;
  int code = kExitOk;
  const nlohmann::json summary = experiment::run(s, opt, code);
  if (sim::MpiWorld::get().root() && a.csv_path.empty()) std::cout << experiment::markdown_table(summary);
  return code;
}

}  // namespace kairo::app
