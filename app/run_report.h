// kairo run's report: the JSON summary of a run, the TNI counters (CSV), and
// the text tables of its variants (--param sizes=, --compare).
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/run_assembly.h"
#include "app/run_machine.h"

namespace kairo::app {

// The summary of a run that ended: the workload's outcome, the machine's
// counters, the run's totals, the OCS's work and the run's cost.
nlohmann::json run_summary(const RunArgs& a, const RunPlan& plan, RunMachine& m, const RunTotals& t,
                           const sw::Outcome& o, const RunCost& cost);

// One line per TNI that did anything (--tni-counters); throws sim::OutputError.
void write_tni_csv(const std::string& path, platforms::RdmaMachine& m, const RunTotals& t);

// --param sizes=: one line per size.
std::string sizes_table(const std::vector<std::string>& sizes, const std::vector<nlohmann::json>& runs);

// --compare key=...: one line per value, in the order the values were given,
// the lowest latency marked "yes" in the last column, fastest (every one of a tie).
std::string compare_table(const std::string& key, const std::vector<std::string>& values,
                          const std::vector<nlohmann::json>& runs);

// Where the fastest of two values changes between two sizes.
struct Crossover {
  std::size_t from, to;  // the values, fastest below and above
  std::uint64_t above_bytes, at_most_bytes;
};

// --compare key=... with --param sizes=: every value's latency at every size
// (latency[v][i]), the fastest at each (fastest[i]), then the crossovers.
std::string size_compare_table(const std::string& key, const std::vector<std::string>& values,
                               const std::vector<std::string>& sizes,
                               const std::vector<std::vector<double>>& latency,
                               const std::vector<std::size_t>& fastest,
                               const std::vector<Crossover>& crossovers);

}  // namespace kairo::app
