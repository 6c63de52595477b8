// `kairo run`: a named program (sw/workloads) on every rank of a platform
// with its NICs (platforms::RdmaMachine), through the SystemC kernel. The
// command line and the flow of a run: its assembly (run_assembly.h), the
// run and its diagnosis (run_machine.h), its report (run_report.h), and its
// variants, each run in a child process (run_variants.h).
#include <chrono>
#include <iostream>

#include "app/check_ops.h"
#include "app/cli_common.h"
#include "app/run_args.h"
#include "app/run_assembly.h"
#include "app/run_machine.h"
#include "app/run_parallel.h"
#include "app/run_report.h"
#include "app/run_variants.h"
#include "sim/output_file.h"
#include "sw/workloads/scenario.h"

namespace kairo::app {
namespace {

// One run: assembled, launched, run, diagnosed and reported. Under mpirun
// (a.split) the machine is split over the processes (app/run_parallel.h):
// every process takes each step, process 0 reports, and every process ends
// with process 0's exit code.
int run_once(RunArgs& a) {
  const sim::MpiWorld& world = sim::MpiWorld::get();
  try {
    RunPlan plan(a);
    // A variant's child stays silent: its parent says them once (app/run_variants.cpp).
    if (!a.summary_to && (!a.split || world.root())) say_adjustments(plan.plat);
    const auto t0 = std::chrono::steady_clock::now();
    std::unique_ptr<SplitRun> split;  // made first: it says what this process builds
    if (a.split) split = std::make_unique<SplitRun>(plan, a);
    RunMachine m(plan, split ? split->owned_part() : platforms::OwnedPart{});
    if (split) split->prepare(m);
    Observe& observe = *a.observe;  // waveforms and counter logs, if asked for
    observe.attach(m.machine.network(), &m.machine, m.queue);
    OpLogOutput& op_log = *a.op_log;  // the operation log, if asked for
    op_log.attach(m.machine, m.queue);
    // The tracer and the counter log hold probes in the machine's blocks: they
    // go before the machine does.
    struct Detach {
      Observe& o;
      ~Detach() { o.detach(); }
    } detach{observe};
    launch(plan, m);
    observe.begin_run();
    RunCost cost;
    RunTotals totals;
    // Output files are written also when the run failed: they help to see why.
    // A file that cannot be written is reported (exit 2) without losing the rest.
    int output_code = kExitOk;
    auto finish_outputs = [&] {
      try {
        observe.finish();
      } catch (const std::runtime_error& e) {
        output_code = !a.split || world.root() ? bad_input(e.what()) : kExitBadInput;
      }
      try {
        op_log.finish();
      } catch (const std::runtime_error& e) {
        if (output_code == kExitOk)
          output_code = !a.split || world.root() ? bad_input(e.what()) : kExitBadInput;
      }
    };
    if (split) {
      try {
        split->install_boundary();
        const auto t1 = std::chrono::steady_clock::now();
        split->run(a.quiet);
        const auto t2 = std::chrono::steady_clock::now();
        cost = {std::chrono::duration<double>(t1 - t0).count(),
                std::chrono::duration<double>(t2 - t0).count()};
        finish_outputs();
        totals = run_totals(m, &split->partition(), world.rank());
        split->gather(totals);
      } catch (const std::exception& e) {
        fail_in_parallel(e.what(), kExitSimFailure);
      }
    } else {
      sim::Kernel kernel("kernel", m.queue);
      cost = simulate(kernel, m, a.quiet, t0);
      finish_outputs();
      totals = run_totals(m);
    }
    nlohmann::json parallel;
    if (split) parallel = split->report();
    // Process 0 reports; in a split run the others wait for its exit code.
    auto report = [&]() -> int {
      try {
        if (!a.tni_csv.empty()) write_tni_csv(a.tni_csv, m.machine, totals);
      } catch (const sim::OutputError& e) {
        output_code = bad_input(e.what());
      }
      if (const int code = diagnose(plan, m, totals); code != kExitOk) return code;
      const sw::Outcome o = plan.work->outcome(plan.data ? &m.memory : nullptr);
      nlohmann::json j = run_summary(a, plan, m, totals, o, cost);
      observe.summarize(j);
      op_log.summarize(j);
      if (split) j["parallel"] = parallel;
      const std::string summary = j.dump(2) + "\n";
      if (a.summary_to)
        *a.summary_to = summary;  // a variant's child hands it back
      else if (write_summary("--json", a.json_path, summary) != kExitOk)
        output_code = kExitBadInput;
      // The ordering checker over the run's operation log, on stderr (stdout
      // may carry the JSON); also when the workload failed: it may say why.
      const int check_code =
          op_log.check() ? check_ops(op_log.records(), op_log.rules(), std::cerr) : kExitOk;
      if (!o.ok || (o.verified && !*o.verified)) {
        std::cerr << "kairo: " << a.workload << " failed: " << o.failure << "\n";
        return kExitSimFailure;
      }
      return check_code != kExitOk ? check_code : output_code;
    };
    if (!split) return report();
    int code = kExitOk;
    if (world.root()) {
      try {
        code = report();
      } catch (const std::exception& e) {
        code = bad_input(e.what());
      }
    }
    code = int(world.max(std::uint64_t(code)));  // the others give 0
    world.mark_agreed();
    return code;
  } catch (const platforms::ConfigError& e) {
    return bad_input(e.what());
  } catch (const std::invalid_argument& e) {
    return bad_input(e.what());
  }
}

}  // namespace

int run_workload(RunArgs& a) {
  const sim::MpiWorld& world = sim::MpiWorld::get();
  // A variant's child (app/run_variants.cpp) runs in one process, without MPI.
  if (a.summary_to) return run_once(a);
  try {
    platforms::parse_partition_method(a.partition);  // checked in one process too: it matters under mpirun
  } catch (const std::invalid_argument& e) {
    return bad_input(e.what());
  }
  // Output paths are checked by process 0 alone; every process gets the verdict.
  if (const int code = on_process_zero(world, [&] { check_run_options(a); }); code != kExitOk) return code;
  if (!a.scenario.empty()) a.workload = sw::scenario_workload().name;
  bool variants = !a.compare.empty();
  for (const auto& kv : a.params) variants |= kv.rfind("sizes=", 0) == 0;
  if (world.parallel()) {
    // Variants share their runs out over the processes (app/run_variants.cpp);
    // a single run is split over them.
    a.split = !variants;
    if (variants && !world.root()) {  // process 0 writes the table's JSON and figure
      a.json_path.clear();
      a.plot_path.clear();
    }
  }
  if (!a.compare.empty()) return run_compare(a);
  for (const auto& kv : a.params)
    if (kv.rfind("sizes=", 0) == 0) return run_sizes(a, kv.substr(6));
  return run_once(a);
}

void add_run_command(CLI::App& app, int& exit_code) {
  auto a = std::make_shared<RunArgs>();
  CLI::App* c = app.add_subcommand("run", "run a workload on every rank of a platform");
  c->add_option("platform", a->platform, "shipped platform name or YAML file")->required();
  c->add_option("--workload", a->workload, sw::workload_names());
  c->add_option("--scenario", a->scenario,
                "run the steps and check the expectations of a scenario file (YAML) instead of a --workload "
                "(docs/rdma.md, \"Scenarios\")");
  c->add_option("--param", a->params, "workload parameter key=value (repeatable)");
  c->add_option("--set", a->sets, "override a platform parameter, key=value (repeatable)");
  c->add_option("--mode", a->mode, "data (real bytes, verified) or size-only (identical timing)")
      ->capture_default_str();
  c->add_option("--json", a->json_path, "write the result summary (JSON) here");
  c->add_option(
      "--plot", a->plot_path,
      "with --compare or --param sizes=: draw time against message size (SVG) here (docs/plots.md)");
  c->add_option("--tni-counters", a->tni_csv, "write every active TNI's counters (CSV) here");
  c->add_option("--seed", a->seed, "seed of the workload's random choices (random-ring's ring)")
      ->capture_default_str()
      ->check(whole_number());
  c->add_option("--compare", a->compare,
                "run once per value of a parameter and rank by latency, e.g. algo=ring,recursive-doubling");
  c->add_flag("--quiet", a->quiet, "no progress on stderr");
  c->add_option(
       "--partition", a->partition,
       "under mpirun: how the platform is split over the processes, auto|blocks|metis (docs/parallel.md)")
      ->capture_default_str();
  a->observe->add_options(c);
  a->op_log->add_options(c);
  c->callback([a, &exit_code] { exit_code = run_workload(*a); });
}

}  // namespace kairo::app
