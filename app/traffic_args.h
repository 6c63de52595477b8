// The options of `kairo traffic`, as the command line gives them
// (cmd_traffic.cpp), and what its files share: --sweep's rates, -j, and the
// experiment that --compare, --saturation and --seeds make (traffic_compare.cpp).
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/observe.h"
#include "traffic/traffic_run.h"

namespace kairo::app {

struct TrafficArgs {
  std::string platform;
  std::vector<std::string> sets;
  traffic::TrafficOptions opt;
  std::string json_path, csv_path, plot_path, sweep;
  std::string plot_kind = "latency";  // --plot-kind
  std::string partition = "auto";
  std::vector<std::uint32_t> hotspots;
  bool quiet = false;
  Observe observe;                   // waveforms and counter logs
  std::vector<std::string> compare;  // --compare KEY=V1,V2,... (repeatable): a grid
  bool saturation = false;           // --saturation: search for the saturation point
  double precision = 0.005;          // --precision: of the search
  std::uint64_t seeds = 1;           // --seeds N: seeds --seed .. --seed + N - 1
  int jobs = 0;                      // -j: runs at once (0: the machine's cores)
  // --booksim FILE [key=value ...] (traffic/booksim_config.h); --print-config.
  std::string booksim;
  std::vector<std::string> overrides;
  bool print_config = false;
  nlohmann::json booksim_run;
};

// -j, or the machine's cores shared among mpirun's processes.
int jobs_of(const TrafficArgs& a);
// --sweep's rates; throws std::invalid_argument naming --sweep.
std::vector<double> parse_rates(const std::string& list);
// --compare, --saturation or --seeds: an experiment (app/experiment.h) from
// the options; its table on stdout (or --csv), summary to --json, figure to --plot.
int compare_and_report(TrafficArgs& a);

}  // namespace kairo::app
