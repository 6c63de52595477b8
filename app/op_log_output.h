// kairo run's operation log (docs/rdma.md, "The operation log"): the options
// --op-log FILE (.csv or .jsonl), --op-log-nodes, --op-log-from and
// --op-log-to, and --check-ops with its rules; the log attached to the
// machine's engines and registration tables, its records put in order (in a
// run split over processes, gathered on process 0) and written. Nothing is
// attached when none of it is asked for.
#pragma once
#include <CLI/CLI.hpp>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "observe/op_log.h"
#include "platforms/rdma_machine.h"

namespace kairo::app {

class OpLogOutput {
 public:
  void add_options(CLI::App* c);
  bool any() const { return !path_.empty() || check_; }
  bool check() const { return check_; }
  const std::string& rules() const { return rules_; }
  // Throws std::invalid_argument naming the option: a bad extension, a path
  // that cannot be written, a selection without a log.
  void check_outputs() const;
  const std::string& path() const { return path_; }  // --op-log FILE, or empty
  // Throws std::invalid_argument naming the option on a bad selection.
  void attach(platforms::RdmaMachine& machine, const sim::EventQueue& q);
  // After the run (also a failed one): the records in the log's order; under
  // mpirun every process calls it and process 0 gathers them, then writes
  // the file. Throws sim::OutputError when it cannot be written.
  void finish();
  // The records, in the log's order (process 0, after finish()).
  const std::vector<observe::OpRecord>& records() const { return records_; }
  void summarize(nlohmann::json& j) const;

 private:
  void write() const;

  std::string path_, nodes_, from_, to_, rules_;
  bool check_ = false;
  std::unique_ptr<observe::OpLog> log_;
  std::vector<observe::OpRecord> records_;
};

}  // namespace kairo::app
