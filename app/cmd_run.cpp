// `kairo run`: a named program (sw/workloads) on every rank of a platform
// with its NICs (platforms::RdmaMachine), through the SystemC kernel. The
// command line and the flow of a run: its assembly (run_assembly.h), the
// run and its diagnosis (run_machine.h), its report (run_report.h), and its
// variants, each run in a child process (run_variants.h).
#include <chrono>
#include <iostream>

#include "app/cli_common.h"
#include "app/run_args.h"
#include "app/run_assembly.h"
#include "app/run_machine.h"
#include "app/run_report.h"
#include "app/run_variants.h"
#include "sim/output_file.h"

namespace kairo::app {
namespace {

// One run: assembled, launched, run, diagnosed and reported.
int run_once(RunArgs& a) {
  try {
    RunPlan plan(a);
    const auto t0 = std::chrono::steady_clock::now();
    RunMachine m(plan);
    Observe& observe = *a.observe;  // waveforms and counter logs, if asked for
    observe.attach(m.machine.network(), &m.machine, m.queue);
    // The tracer and the counter log hold probes in the machine's blocks: they
    // go before the machine does.
    struct Detach {
      Observe& o;
      ~Detach() { o.detach(); }
    } detach{observe};
    launch(plan, m);
    sim::Kernel kernel("kernel", m.queue);
    const RunCost cost = simulate(kernel, m, a.quiet, t0);
    // Output files are written also when the run failed: they help to see why.
    // A file that cannot be written is reported (exit 2) without losing the rest.
    int output_code = kExitOk;
    try {
      if (!a.tni_csv.empty()) write_tni_csv(a.tni_csv, m.machine);
    } catch (const sim::OutputError& e) {
      output_code = bad_input(e.what());
    }
    try {
      observe.finish();
    } catch (const std::runtime_error& e) {
      output_code = bad_input(e.what());
    }
    if (const int code = diagnose(plan, m); code != kExitOk) return code;
    const sw::Outcome o = plan.work->outcome(plan.data ? &m.memory : nullptr);
    nlohmann::json j = run_summary(a, plan, m, o, cost);
    observe.summarize(j);
    const std::string summary = j.dump(2) + "\n";
    if (a.summary_to)
      *a.summary_to = summary;  // a variant's child hands it back
    else if (write_summary("--json", a.json_path, summary) != kExitOk)
      output_code = kExitBadInput;
    if (!o.ok || (o.verified && !*o.verified)) {
      std::cerr << "kairo: " << a.workload << " failed: " << o.failure << "\n";
      return kExitSimFailure;
    }
    return output_code;
  } catch (const platforms::ConfigError& e) {
    return bad_input(e.what());
  } catch (const std::invalid_argument& e) {
    return bad_input(e.what());
  }
}

}  // namespace

int run_workload(RunArgs& a) {
  if (const int code = check_run_options(a); code != kExitOk) return code;
  if (!a.compare.empty()) return run_compare(a);
  for (const auto& kv : a.params)
    if (kv.rfind("sizes=", 0) == 0) return run_sizes(a, kv.substr(6));
  return run_once(a);
}

void add_run_command(CLI::App& app, int& exit_code) {
  auto a = std::make_shared<RunArgs>();
  CLI::App* c = app.add_subcommand("run", "run a workload on every rank of a platform");
  c->add_option("platform", a->platform, "shipped platform name or YAML file")->required();
  c->add_option("--workload", a->workload, sw::workload_names())->required();
  c->add_option("--param", a->params, "workload parameter key=value (repeatable)");
  c->add_option("--set", a->sets, "override a platform parameter, key=value (repeatable)");
  c->add_option("--mode", a->mode, "data (real bytes, verified) or size-only (identical timing)")
      ->capture_default_str();
  c->add_option("--json", a->json_path, "write the result summary (JSON) here");
  c->add_option("--tni-counters", a->tni_csv, "write every active TNI's counters (CSV) here");
  c->add_option("--seed", a->seed, "seed of the workload's random choices (random-ring's ring)")
      ->capture_default_str()
      ->check(whole_number());
  c->add_option("--compare", a->compare,
                "run once per value of a parameter and rank by latency, e.g. algo=ring,recursive-doubling");
  c->add_flag("--quiet", a->quiet, "no progress on stderr");
  a->observe->add_options(c);
  c->callback([a, &exit_code] { exit_code = run_workload(*a); });
}

}  // namespace kairo::app
