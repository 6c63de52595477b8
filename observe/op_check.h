// The ordering checker (docs/rdma.md, "The ordering checker"): the built-in
// invariants of the RDMA operations and the NIC's ordering promises, and
// user rules ("event A before event B" within a scope), over an operation
// log (op_log.h, read back by op_log_read.h).
//
// "A before B" means A's place in the log (its seq) is lower: the log's order
// is the model's causal order (time, then node, then execution order on the
// node). The checker reads only the records: it knows nothing of the NIC's
// state, so a log from another model (or hardware) can be checked the same way.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "observe/op_log.h"

namespace kairo::observe {

// Which side of its operation a step is on: the initiator posts the command,
// sends the requests (put data, get and atomic requests) and takes the
// answers; the target takes the requests and sends the answers
// (acknowledgements, get and atomic responses). A put to its own node has
// both sides on one node: the role comes from the step, not the node.
enum class OpRole { kInitiator, kTarget };
// None on a registration record.
std::optional<OpRole> role_of(const OpRecord& r);

// A broken invariant or rule: its name, a sentence saying what broke, and the
// two records (indices into the log, `first` the earlier one).
struct OpViolation {
  std::string rule;
  std::string what;
  std::size_t first = 0, second = 0;
};

struct OpCheckReport {
  std::vector<OpViolation> violations;  // the first ones found (at most the `keep` asked for)
  std::size_t total = 0;                // all violations found
  std::size_t operations = 0;           // distinct operations in the log
  std::size_t checks = 0;               // built-in invariants plus user rules
};

// A user rule: within each scope group, every record matching `before`
// precedes every record matching `after`. A field left out matches anything.
struct OpMatch {
  std::optional<OpEvent> event;
  std::optional<OpKind> kind;
  std::optional<OpRole> role;
  std::optional<std::uint8_t> status;
  bool matches(const OpRecord& r) const;
};
// operation: one operation's records. channel: the records of the operations
// one engine (initiator node and TNI) sends to one target node. address: the
// records on one node whose [addr, addr + bytes) ranges overlap.
enum class OpScope { kOperation, kChannel, kAddress };
struct OpRule {
  std::string name;
  OpMatch before, after;
  OpScope scope = OpScope::kOperation;
};

// The built-in invariants: name and definition, in the order they are checked.
struct OpInvariant {
  std::string_view name, definition;
};
const std::vector<OpInvariant>& op_invariants();

// Checks `log` (record i has seq i) against every built-in invariant and
// `rules`; keeps the first `keep` violations and counts all of them.
OpCheckReport check_op_log(const std::vector<OpRecord>& log, const std::vector<OpRule>& rules = {},
                           std::size_t keep = 20);

}  // namespace kairo::observe
