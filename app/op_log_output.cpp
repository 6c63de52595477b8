#include "app/op_log_output.h"

#include "observe/op_rules.h"
#include "platforms/tracing.h"
#include "sim/mpi_world.h"
#include "sim/output_file.h"
#include "sim/units.h"

namespace kairo::app {

namespace {
bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}
}  // namespace

void OpLogOutput::add_options(CLI::App* c) {
  c->add_option(
      "--op-log", path_,
      "write every step of every RDMA operation here (.csv or .jsonl; docs/rdma.md, the operation log)");
  c->add_option("--op-log-nodes", nodes_, "log these nodes only: ids or ranges, e.g. 0,1 or 0-15");
  c->add_option("--op-log-from", from_, "log from this simulated time, e.g. 10us");
  c->add_option("--op-log-to", to_, "log up to this simulated time");
  c->add_flag("--check-ops", check_,
              "check the operation log against the engine's ordering invariants (exit 1 on a violation)");
  c->add_option("--check-ops-rules", rules_, "with --check-ops: user rules (YAML) checked as well");
}

void OpLogOutput::check_outputs() const {
  if (!path_.empty()) {
    if (!ends_with(path_, ".csv") && !ends_with(path_, ".jsonl"))
      throw std::invalid_argument("--op-log: expected a file name ending in .csv or .jsonl, got '" + path_ +
                                  "'");
    sim::check_output_path("--op-log", path_);
  }
  if (!any() && (!nodes_.empty() || !from_.empty() || !to_.empty()))
    throw std::invalid_argument(
        "--op-log-nodes/--op-log-from/--op-log-to: a selection needs --op-log FILE "
        "or --check-ops");
  if (!rules_.empty() && !check_)
    throw std::invalid_argument("--check-ops-rules: rules are checked with --check-ops; add it");
  if (!rules_.empty()) observe::read_op_rules_file(rules_);  // a bad rules file before the run
}

void OpLogOutput::attach(platforms::RdmaMachine& machine, const sim::EventQueue& q) {
  if (!any()) return;
  observe::OpLog::Filter f;
  if (!nodes_.empty()) {
    f.nodes.assign(machine.nodes(), false);
    for (std::uint64_t n : platforms::id_set("--op-log-nodes", nodes_, machine.nodes())) f.nodes[n] = true;
  }
  try {
    if (!from_.empty()) f.from = units::parse_duration(from_);
    if (!to_.empty()) f.to = units::parse_duration(to_);
  } catch (const units::UnitError& e) {
    throw std::invalid_argument(std::string("--op-log-from/--op-log-to: ") + e.what());
  }
  if (f.to < f.from) throw std::invalid_argument("--op-log-to: before --op-log-from");
  log_ = std::make_unique<observe::OpLog>(q, std::move(f));
  machine.set_op_log(log_.get());
}

// A split run: each process recorded its own nodes' steps, in its execution
// order; process 0 takes them all. A node's records all come from the
// process that ran it, so ordering by time and node (stably) keeps each
// node's execution order whichever process order they arrive in.
void OpLogOutput::finish() {
  if (!log_) return;
  records_ = std::move(log_->records());
  const sim::MpiWorld& world = sim::MpiWorld::get();
  if (world.parallel()) {
    std::vector<char> mine;
    if (!world.root()) {
      sim::ByteWriter w(mine);
      for (const observe::OpRecord& r : records_) w.put(r);
      records_.clear();
    }
    const auto all = world.gather(mine);
    if (!world.root()) return;
    for (std::size_t p = 1; p < all.size(); ++p) {
      sim::ByteReader r(all[p]);
      while (!r.done()) records_.push_back(r.get<observe::OpRecord>());
    }
  }
  observe::sort_records(records_);
  if (!path_.empty()) write();
}

void OpLogOutput::write() const {
  const bool csv = ends_with(path_, ".csv");
  sim::OutputFile f("--op-log", path_);
  std::string chunk;
  if (csv) {
    chunk = std::string(observe::kOpLogColumns);
    chunk += '\n';
  }
  for (std::size_t i = 0; i < records_.size(); ++i) {
    csv ? observe::append_csv(chunk, i, records_[i]) : observe::append_jsonl(chunk, i, records_[i]);
    if (chunk.size() > (1u << 20)) {
      f.write(chunk);
      chunk.clear();
    }
  }
  f.write(chunk);
  f.close();
}

void OpLogOutput::summarize(nlohmann::json& j) const {
  if (!log_) return;
  j["op_log"] = {{"records", records_.size()}};
}

}  // namespace kairo::app
