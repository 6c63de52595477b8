// `kairo experiment FILE.yaml`: a whole experiment from one file
// (app/experiment.h, docs/experiments.md).
#include <fmt/format.h>

#include <iostream>
#include <thread>

#include "app/cli_common.h"
#include "app/experiment.h"
#include "app/experiment_report.h"
#include "sim/mpi_world.h"

namespace kairo::app {
namespace {

struct ExperimentArgs {
  std::string file;
  int jobs = 0;  // 0: the machine's cores, shared among mpirun's processes
  bool fresh = false, quiet = false;
};

// Every process reads the file; all go on only when every one could.
bool agreed(const sim::MpiWorld& world, bool ok) {
  if (!world.parallel()) return ok;
  std::vector<std::uint64_t> failures{ok ? 0u : 1u};
  world.sum(failures);
  if (failures[0] != 0) world.mark_agreed();
  return failures[0] == 0;
}

int run_experiment_command(const ExperimentArgs& a) {
  const sim::MpiWorld& world = sim::MpiWorld::get();
  experiment::Spec spec;
  std::string error;
  try {
    spec = experiment::read_spec(a.file);
  } catch (const std::exception& e) {
    error = e.what();
  }
  if (!agreed(world, error.empty())) {
    if (!error.empty() && (world.root() || !world.parallel())) return bad_input(error);
    if (!error.empty()) std::cerr << fmt::format("kairo: error: process {}: {}\n", world.rank(), error);
    return kExitBadInput;
  }
  experiment::RunOptions opt;
  const int cores = int(std::max(1u, std::thread::hardware_concurrency()));
  opt.jobs = a.jobs > 0 ? a.jobs : std::max(1, cores / world.size());
  opt.fresh = a.fresh;
  opt.quiet = a.quiet;
  int code = kExitOk;
  nlohmann::json summary;
  try {
    summary = experiment::run(spec, opt, code);
  } catch (const std::exception& e) {
    if (world.parallel()) fail_in_parallel(e.what(), kExitBadInput);
    return bad_input(e.what());
  }
  if (!world.root()) return code;
  std::cout << experiment::markdown_table(summary) << std::flush;
  std::cerr << fmt::format(
      "kairo experiment: {} configuration(s) x {} seed(s): {} run(s) made, {} kept from an earlier run, "
      "{:.1f} s; "
      "summary in {}/summary.{{csv,json,md,svg}}\n",
      spec.configurations.size(), spec.seeds.size(), summary["runs_made"].get<std::uint64_t>(),
      summary["runs_kept"].get<std::uint64_t>(), summary["wall_s"].get<double>(), spec.out_dir);
  return code;
}

}  // namespace

void add_experiment_command(CLI::App& app, int& exit_code) {
  auto a = std::make_shared<ExperimentArgs>();
  CLI::App* c = app.add_subcommand(
      "experiment",
      "run an experiment file: a grid of configurations, a measure, seeds (docs/experiments.md)");
  c->add_option("file", a->file, "the experiment (YAML)")->required();
  c->add_option("-j,--jobs", a->jobs,
                "runs at once on this machine (default: its cores, shared among mpirun's "
                "processes)")
      ->check(CLI::Range(1, 1024));
  c->add_flag("--fresh", a->fresh, "run every point again, ignoring the runs kept in the output directory");
  c->add_flag("--quiet", a->quiet, "no line per finished run on stderr");
  c->callback([a, &exit_code] { exit_code = run_experiment_command(*a); });
}

}  // namespace kairo::app
