// User rules for the ordering checker (docs/rdma.md, "The ordering checker"):
// a YAML file of "event A before event B within a scope", read into OpRule
// (op_check.h) and checked over a log.
//
//   rules:
//     - name: notice after every write
//       before: {event: dma_write, kind: data}
//       after: {event: notice}
//       scope: operation        # operation | channel | address
//
// A malformed file, an unknown key, a bad value or a missing field is a
// std::invalid_argument naming FILE:LINE:COL and what was expected.
#pragma once
#include <string>
#include <vector>

#include "observe/op_check.h"

namespace kairo::observe {

// The rules in `text`, named `name` in errors.
std::vector<OpRule> parse_op_rules(const std::string& text, const std::string& name);
std::vector<OpRule> read_op_rules_file(const std::string& path);

}  // namespace kairo::observe
