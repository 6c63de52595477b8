// The ordering checker on the command line (docs/rdma.md, "The ordering
// checker"): `kairo check-ops LOG`, and `kairo run --check-ops` over the log
// the run recorded.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "observe/op_log.h"

namespace kairo::app {

// Checks `log` against the built-in invariants and the rules of `rules_path`
// (none when empty). Prints each violation (the first 20, then how many
// more) and a one-line summary to `out`. Returns 0 when the log is clean, 1
// on a violation; a bad rules file throws std::invalid_argument (exit 2)
// before anything is printed.
int check_ops(const std::vector<observe::OpRecord>& log, const std::string& rules_path, std::ostream& out);

}  // namespace kairo::app
