// What kairo's sweeps wrote, as charts (docs/plots.md): latency against
// offered load and accepted against offered throughput from `kairo traffic
// --sweep` (JSON or CSV), time against message size from `kairo run` with
// --param sizes= or --compare. `kairo plot` and the runs' --plot both come
// here, so a file plotted later gives the picture the run drew.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/plot_svg.h"

namespace kairo::app::plot {

enum class Kind { kAuto, kLatency, kThroughput, kEnergy, kTimeSize };

// "auto", "latency", "throughput", "energy", "time-size"; throws std::invalid_argument naming `option`.
Kind parse_kind(const std::string& name, const std::string& option = "--kind");

struct Input {
  std::string name;  // the file, in messages and as a last-resort legend entry
  nlohmann::json data;
  std::string label;  // --label, or empty
};

// A file's contents as an Input's data: JSON, or a `kairo traffic --sweep`
// CSV table turned into the JSON's shape. Throws std::invalid_argument naming `name`.
nlohmann::json parse_input(const std::string& name, const std::string& text);

// The chart of these inputs; throws std::invalid_argument naming the input
// (or --kind) when an input holds no sweep or the inputs make different kinds.
Chart make_chart(const std::vector<Input>& inputs, Kind kind = Kind::kAuto, double y_max = 0);

// The saturation rule of docs/traffic.md, applied to one sweep's points in
// rate order: the index of the first point whose accepted throughput is below
// 0.95 x offered or whose average packet latency exceeds 3 x the first's; -1 if none.
int saturation_index(const std::vector<double>& offered, const std::vector<double>& accepted,
                     const std::vector<double>& latency);

// The SVG of one run's JSON (a run's --plot): what `kairo plot --kind KIND`
// draws from that file. Bad input (no message sizes) names `option`.
std::string svg_of_run(const nlohmann::json& data, const std::string& option, Kind kind = Kind::kAuto);

// The --set overrides as an object, key to value, the last of a key winning:
// written into a sweep's JSON so that a plot's legend can name them.
nlohmann::json sets_json(const std::vector<std::string>& sets);

}  // namespace kairo::app::plot
