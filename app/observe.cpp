#include "app/observe.h"

#include "sim/mpi_world.h"
#include "sim/output_file.h"
#include "sim/units.h"

namespace kairo::app {

void Observe::add_options(CLI::App* c) {
  c->add_option("--vcd", vcd_, "write a waveform (VCD) of the selected routers and NICs here");
  c->add_option("--fst", fst_, "write a waveform (FST, GTKWave's compressed format) here");
  c->add_option("--trace-nodes", sel_.nodes, "trace these nodes: ids or ranges, e.g. 0,5,17 or 0-15");
  c->add_option("--trace-box", sel_.box, "trace a coordinate box of a mesh/torus, e.g. X=0:3,Y=1");
  c->add_option("--trace-switches", sel_.switches,
                "trace these switches of a switched fabric, e.g. edge0,spine1");
  c->add_option("--trace-dims", sel_.dims, "trace router ports of these dimensions, e.g. X,Z,ni");
  c->add_option("--trace-tnis", sel_.tnis, "trace these TNIs of the traced nodes, e.g. 0,1");
  c->add_option("--trace-signals", sel_.classes, "trace these signal classes: link, vc, tni (default all)");
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
  if (!fst_.empty()) sim::check_output_path("--fst", fst_);
  if (!counters_.empty()) sim::check_output_path("--counters", counters_);
}

void Observe::finish() {
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
  if (!vcd_.empty()) attempt([&] { trace_.write_vcd(vcd_); });
  if (!fst_.empty()) attempt([&] { trace_.write_fst(fst_); });
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
  if (tracer_)
    j["trace"] = {{"routers", tracer_->routers()},
                  {"tnis", tracer_->tnis()},
                  {"signals", trace_.num_signals()},
                  {"changes", trace_.num_changes()}};
}

}  // namespace kairo::app
