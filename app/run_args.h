// The options of `kairo run`, as the command line gives them (cmd_run.cpp).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/observe.h"
#include "app/op_log_output.h"

namespace kairo::app {

struct RunArgs {
  std::string platform, workload, mode = "data", json_path, tni_csv;
  std::string scenario;   // --scenario FILE.yaml: the file's steps instead of a --workload (docs/rdma.md)
  std::string plot_path;  // --plot: the variants' figure (docs/plots.md)
  std::vector<std::string> params, sets;
  bool quiet = false;
  std::uint64_t seed = 1;
  std::string compare;             // --compare key=v1,v2,...
  std::string partition = "auto";  // --partition, under mpirun
  bool split = false;              // this run is split over mpirun's processes (docs/parallel.md)
  std::shared_ptr<Observe> observe = std::make_shared<Observe>();         // waveforms and counter logs
  std::shared_ptr<OpLogOutput> op_log = std::make_shared<OpLogOutput>();  // the operation log and its check
  // A variant's child (app/run_variants.cpp) hands its summary back here
  // instead of writing it to --json or stdout.
  std::string* summary_to = nullptr;
};

// `kairo run` with these options: one run, or its variants (cmd_run.cpp).
// Returns the exit code.
int run_workload(RunArgs& a);

}  // namespace kairo::app
