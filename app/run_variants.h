// kairo run's variants: the workload once per size (--param sizes=), once
// per value of a parameter (--compare), or both with the crossover sizes;
// every variant a run of its own in a child process (app/child_runner.h).
#pragma once
#include <string>

#include "app/run_args.h"

namespace kairo::app {

// --param sizes=1KiB,32KiB,1MiB: a CSV table on stdout and, with --json,
// every run's summary. Returns the exit code.
int run_sizes(const RunArgs& a, const std::string& list);

// --compare key=v1,v2 (with --param sizes= as well: every value at every
// size, and the crossovers). Returns the exit code.
int run_compare(const RunArgs& a);

}  // namespace kairo::app
