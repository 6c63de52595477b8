// `kairo plot`: the figures of sweeps kairo wrote (docs/plots.md), as SVG;
// latency and accepted throughput against offered load from traffic sweeps,
// time against message size from runs at several sizes.
#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

#include "app/cli_common.h"
#include "app/plot_bars.h"
#include "app/plot_data.h"
#include "sim/input_file.h"
#include "sim/output_file.h"

namespace kairo::app {
namespace {

struct PlotArgs {
  std::vector<std::string> files, labels;
  std::string out, kind = "auto";
  double y_max = 0;
};

std::string read_input(const std::string& path) {
  return sim::read_bounded(path, sim::kResultFileLimitBytes, "input", "");
}

int plot_files(const PlotArgs& a) {
  try {
    const plot::Kind kind = plot::parse_kind(a.kind);
    if (!a.labels.empty() && a.labels.size() != a.files.size())
      throw std::invalid_argument(fmt::format("--label: expected one per input file ({} files), got {}",
                                              a.files.size(), a.labels.size()));
    if (!(a.y_max >= 0))
      throw std::invalid_argument(fmt::format("--y-max: expected a value above 0, got {}", a.y_max));
    sim::check_output_path("--out", a.out);
    std::vector<plot::Input> inputs;
    for (std::size_t i = 0; i < a.files.size(); ++i) {
      const std::string& f = a.files[i];
      inputs.push_back({f, plot::parse_input(f, read_input(f)), a.labels.empty() ? "" : a.labels[i]});
    }
    // An experiment's summary (docs/experiments.md) is drawn as the experiment draws it.
    if (inputs.size() == 1 && inputs[0].data.contains("rows") && inputs[0].data.contains("measure")) {
      sim::write_output_file("--out", a.out, plot::experiment_svg(inputs[0].data));
      return kExitOk;
    }
    sim::write_output_file("--out", a.out, plot::render_svg(plot::make_chart(inputs, kind, a.y_max)));
    return kExitOk;
  } catch (const std::invalid_argument& e) {
    return bad_input(e.what());
  } catch (const sim::OutputError& e) {
    return bad_input(e.what());
  }
}

}  // namespace

void add_plot_command(CLI::App& app, int& exit_code) {
  auto a = std::make_shared<PlotArgs>();
  CLI::App* c = app.add_subcommand(
      "plot", "draw the JSON (or CSV) of sweeps and comparisons as an SVG figure (docs/plots.md)");
  c->add_option("files", a->files,
                "JSON of kairo traffic --sweep or kairo run --param sizes=/--compare, or a sweep's CSV")
      ->required();
  c->add_option("--out", a->out, "the SVG file to write")->required();
  c->add_option(
       "--kind", a->kind,
       "auto|latency|throughput|energy|time-size: latency, accepted throughput or dynamic energy per "
       "delivered flit against offered load, "
       "time against message size (default: from the input)")
      ->capture_default_str();
  c->add_option(
      "--y-max", a->y_max,
      "end the y axis here and cut off what lies above (latency past saturation), in the axis's unit");
  c->add_option("--label", a->labels, "legend entry per input file, in order (repeatable)");
  c->callback([a, &exit_code] { exit_code = plot_files(*a); });
}

}  // namespace kairo::app
