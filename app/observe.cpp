#include "app/observe.h"

#include "platforms/gtkw.h"
#include "sim/mpi_world.h"
#include "sim/output_file.h"
#include "sim/units.h"

namespace kairo::app {

void Observe::add_options(CLI::App* c) {
  c->add_option("--vcd", vcd_, "write a waveform (VCD) of the selected routers and NICs here");
  c->add_option("--fst", fst_, "write a waveform (FST, GTKWave's compressed format) here");
  c->add_option(
      "--gtkw", gtkw_,
      "write a GTKWave save file for the --vcd/--fst waveform here (and its state filters beside it)");
  c->add_option("--trace-nodes", sel_.nodes, "trace these nodes: ids or ranges, e.g. 0,5,17 or 0-15");
  c->add_option("--trace-box", sel_.box, "trace a coordinate box of a mesh/torus, e.g. X=0:3,Y=1");
  c->add_option("--trace-switches", sel_.switches,
                "trace these switches of a switched fabric, e.g. edge0,spine1");
  c->add_option("--trace-dims", sel_.dims, "trace router ports of these dimensions, e.g. X,Z,ni");
  c->add_option("--trace-tnis", sel_.tnis, "trace these TNIs of the traced nodes, e.g. 0,1");
  c->add_option(
      "--trace-signals", sel_.classes,
      "trace these signal classes: link, vc, tni, ocs, rtl, alloc, credit (default all but credit)");
  c->add_option("--trace-from", from_, "record from this simulated time, e.g. 10us");
  c->add_option("--trace-to", to_, "record up to this simulated time");
  c->add_option(
      "--counters", counters_,
      "write per-interval link and NIC counters here (.csv, or .kcl: compact binary; docs/counters.md)");
  c->add_option("--interval", interval_, "the counter log's interval")->capture_default_str();
}

void Observe::attach(platforms::Network& net, platforms::RdmaMachine* machine, sim::EventQueue& q) {
  const bool selection = !sel_.nodes.empty() || !sel_.box.empty() || !sel_.switches.empty() ||
                         !sel_.dims.empty() || !sel_.tnis.empty() || !sel_.classes.empty() ||
                         !from_.empty() || !to_.empty();
  if (!tracing() && selection)
    throw std::invalid_argument("--trace-*: a trace selection needs --vcd FILE or --fst FILE");
  if (tracing()) {
    sim::Time from = 0, to = sim::kNever;
    try {
      if (!from_.empty()) from = units::parse_duration(from_);
      if (!to_.empty()) to = units::parse_duration(to_);
    } catch (const units::UnitError& e) {
      throw std::invalid_argument(std::string("--trace-from/--trace-to: ") + e.what());
    }
    if (to < from) throw std::invalid_argument("--trace-to: before --trace-from");
    trace_.set_window(from, to);
    tracer_ = std::make_unique<platforms::Tracer>(net, machine, sel_, trace_);
    run_changes_from_ = trace_.num_changes();  // the tracer's initial values: the same in every process
  }
  if (!counters_.empty()) {
    sim::Time interval = 0;
    try {
      interval = units::parse_duration(interval_);
    } catch (const units::UnitError& e) {
      throw std::invalid_argument(std::string("--interval: ") + e.what());
    }
    log_ =
        std::make_unique<platforms::CounterLog>(net, machine, q, interval, counters_, &sim::MpiWorld::get());
    log_->start();
  }
}

void Observe::check_outputs() const {
  if (!vcd_.empty()) sim::check_output_path("--vcd", vcd_);
  if (!fst_.empty()) {
    sim::check_output_path("--fst", fst_);
    sim::Trace::check_fst_temp(fst_);
  }
  if (!gtkw_.empty() && !tracing())
    throw std::invalid_argument("--gtkw: a save file needs a waveform: add --vcd FILE or --fst FILE");
  if (!gtkw_.empty()) sim::check_output_path("--gtkw", gtkw_);
  if (!counters_.empty()) sim::check_output_path("--counters", counters_);
}

// A split run (docs/parallel.md): every process recorded the signals of the
// blocks it ran; process 0 appends the others' changes, process by process,
// so each signal's changes keep their order, and alone writes the files.
void Observe::gather_trace(const sim::MpiWorld& world) {
  const auto& changes = trace_.changes();
  std::vector<char> mine;
  if (!world.root()) {
    sim::ByteWriter w(mine);
    for (std::size_t i = run_changes_from_; i < changes.size(); ++i) w.put(changes[i]);
  }
  const auto all = world.gather(mine);
  if (!world.root()) return;
  // Which process changed each signal: a signal changed by two would be
  // merged out of order, so that is a modeling error, never a silent mix.
  std::vector<int> changed_by(trace_.num_signals(), -1);
  for (std::size_t i = run_changes_from_; i < changes.size(); ++i) changed_by[changes[i].s] = 0;
  for (std::size_t p = 1; p < all.size(); ++p) {
    sim::ByteReader r(all[p]);
    while (!r.done()) {
      const auto c = r.get<sim::Trace::Change>();
      if (c.s >= changed_by.size()) throw std::logic_error("trace: a change of an unknown signal");
      if (changed_by[c.s] != int(p) && changed_by[c.s] >= 0)
        throw std::logic_error("trace: signal " + trace_.name(c.s) + " changed in processes " +
                               std::to_string(changed_by[c.s]) + " and " + std::to_string(p));
      changed_by[c.s] = int(p);
      trace_.append(c);
    }
  }
}

void Observe::finish() {
  const sim::MpiWorld& world = sim::MpiWorld::get();
  const bool split = world.parallel();  // --vcd/--fst/--counters record one run: a split one under mpirun
  if (split && tracing()) gather_trace(world);
  const bool write_trace = !split || world.root();
  // Each file is written even when another one failed; the first failure is reported.
  std::string failed;
  auto attempt = [&](auto&& write) {
    try {
      write();
    } catch (const std::runtime_error& e) {
      if (failed.empty()) failed = e.what();
    }
  };
  if (log_) attempt([&] { log_->finish(); });
  if (!vcd_.empty() && write_trace) attempt([&] { trace_.write_vcd(vcd_); });
  if (!fst_.empty() && write_trace) attempt([&] { trace_.write_fst(fst_); });
  if (!gtkw_.empty() && write_trace)  // the compressed waveform when there are both
    attempt([&] {
      platforms::write_gtkw(trace_, gtkw_, fst_.empty() ? vcd_ : fst_, from_.empty() ? measure_from_ : 0);
    });
  if (!failed.empty()) throw sim::OutputError(failed);
}

void Observe::detach() {
  if (!detached_) summarize(summary_);
  detached_ = true;
  tracer_.reset();
  log_.reset();
}

void Observe::summarize(nlohmann::json& j) const {
  if (detached_) {
    for (const auto& [k, v] : summary_.items()) j[k] = v;
    return;
  }
  if (log_) j["counter_log"] = {{"intervals", log_->intervals()}, {"rows", log_->rows()}};
  if (tracer_) {
    nlohmann::json t = {{"signals", trace_.num_signals()}, {"changes", trace_.num_changes()}};
    for (const auto& [kind, n] : tracer_->traced()) t[kind] = n;  // "routers", "tnis"
    j["trace"] = std::move(t);
  }
}

}  // namespace kairo::app
