// What a run records besides its result: waveforms (--vcd/--fst with the
// --trace-* selection, and --gtkw, a GTKWave save file for them) and counter logs (--counters/--interval).
// Shared by `kairo run` and `kairo traffic`; nothing is attached when none is asked.
#pragma once
#include <CLI/CLI.hpp>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "platforms/counter_log.h"
#include "platforms/tracing.h"
#include "sim/mpi_world.h"
#include "sim/output_file.h"
#include "sim/trace.h"

namespace kairo::app {

class Observe {
 public:
  void add_options(CLI::App* c);
  bool tracing() const { return !vcd_.empty() || !fst_.empty(); }
  bool any() const { return tracing() || !counters_.empty(); }
  // Throws std::invalid_argument naming the option on bad input.
  void attach(platforms::Network& net, platforms::RdmaMachine* machine, sim::EventQueue& q);
  // Throws std::invalid_argument naming the option when an output path cannot be written.
  void check_outputs() const;
  // The files asked for, as (option, path): --vcd, --fst, --gtkw, --counters.
  sim::NamedOutputs outputs() const {
    return {{"--vcd", vcd_}, {"--fst", fst_}, {"--gtkw", gtkw_}, {"--counters", counters_}};
  }
  // The routers' counters restart at `now` (a traffic run's warm-up end):
  // before and after, so that the counter log carries its totals across.
  // The save file (--gtkw) then opens in the measurement window that starts
  // there, unless --trace-from named where to look.
  void around_reset(bool after, sim::Time now) {
    if (log_) after ? log_->after_reset(now) : log_->before_reset(now);
    if (after) measure_from_ = now;
  }
  // Just before the run starts (after the workload configured the machine:
  // the hybrid's preset circuits are the same in every process).
  void begin_run() { run_changes_from_ = trace_.num_changes(); }
  // Writes the files (also after a failed run); throws sim::OutputError when one cannot be written.
  // Under mpirun every process calls it: the run was split, and process 0
  // gathers the others' records and writes the files.
  void finish();
  // Drops the tracer and the counter log (they hold probes in the blocks they
  // watch); call before the network they are attached to is destroyed.
  void detach();
  void summarize(nlohmann::json& j) const;

 private:
  void gather_trace(const sim::MpiWorld& world);

  std::string vcd_, fst_, gtkw_, from_, to_, counters_, interval_ = "10us";
  platforms::TraceSelection sel_;
  sim::Trace trace_;
  std::size_t run_changes_from_ = 0;
  sim::Time measure_from_ = 0;  // a traffic run's measurement window starts here
  std::unique_ptr<platforms::Tracer> tracer_;
  std::unique_ptr<platforms::CounterLog> log_;
  bool detached_ = false;
  nlohmann::json summary_ = nlohmann::json::object();  // summarize()'s figures, kept by detach()
};

}  // namespace kairo::app
