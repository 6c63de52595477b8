// An experiment's figure (docs/experiments.md): for a saturation search or a
// fixed rate, one horizontal bar per configuration with its 95% confidence
// interval as a whisker; for a load sweep, the latency-load curves of
// app/plot_data.h, one per configuration, each point with its interval.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace kairo::app::plot {

// The SVG of an experiment's summary document (app/experiment_report.h).
std::string experiment_svg(const nlohmann::json& summary);

}  // namespace kairo::app::plot
