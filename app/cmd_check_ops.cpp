// `kairo check-ops LOG [--rules RULES.yaml]`: reads an operation log (CSV or
// JSON Lines) and checks the order of its steps (docs/rdma.md, "The ordering
// checker"). Exit codes: 0 clean, 1 a violation, 2 bad input (the log or the
// rules file, named with its line).
#include <fmt/format.h>

#include <iostream>
#include <set>

#include "app/check_ops.h"
#include "app/cli_common.h"
#include "observe/op_check.h"
#include "observe/op_log_read.h"
#include "observe/op_rules.h"

namespace kairo::app {

namespace {

constexpr std::size_t kShown = 20;  // violations printed in full

// A violation: what broke, both records as the log's CSV rows, the
// operations they belong to and where to look in the waveform.
void print_violation(const std::vector<observe::OpRecord>& log, const observe::OpViolation& v,
                     std::ostream& out) {
  const observe::OpRecord &a = log[v.first], &b = log[v.second];
  std::string rows;
  observe::append_csv(rows, v.first, a);
  observe::append_csv(rows, v.second, b);
  std::set<std::string> ops;
  for (const observe::OpRecord* r : {&a, &b})
    if (r->op) ops.insert(observe::op_text(r->op));
  std::string op_list;
  for (const std::string& o : ops) op_list += (op_list.empty() ? "" : ", ") + o;
  out << fmt::format("violation: {}: {}\n", v.rule, v.what);
  out << "  " << observe::kOpLogColumns << "\n";
  for (std::size_t p = 0, n; p < rows.size(); p = n + 1) {
    n = rows.find('\n', p);
    out << "  " << rows.substr(p, n - p) << "\n";
  }
  if (!op_list.empty()) out << fmt::format("  operation{}: {}\n", ops.size() > 1 ? "s" : "", op_list);
  out << fmt::format("  open the waveform at {} ps ({:.6f} us)\n", a.time_ps, double(a.time_ps) * 1e-6);
}

int check_ops_file(const std::string& log_path, const std::string& rules_path) {
  std::vector<observe::OpRecord> log;
  try {
    if (!rules_path.empty()) observe::read_op_rules_file(rules_path);  // a bad rules file before a long read
    log = observe::read_op_log_file(log_path);
    return check_ops(log, rules_path, std::cout);
  } catch (const std::invalid_argument& e) {
    return bad_input(e.what());
  }
}

}  // namespace

int check_ops(const std::vector<observe::OpRecord>& log, const std::string& rules_path, std::ostream& out) {
  const std::vector<observe::OpRule> rules =
      rules_path.empty() ? std::vector<observe::OpRule>{} : observe::read_op_rules_file(rules_path);
  const observe::OpCheckReport report = observe::check_op_log(log, rules, kShown);
  for (const observe::OpViolation& v : report.violations) print_violation(log, v, out);
  if (report.total > report.violations.size())
    out << fmt::format("... and {} more violations\n", report.total - report.violations.size());
  out << fmt::format(
      "check-ops: {} records, {} operations, {} invariants checked ({} built-in, {} rules): {}\n", log.size(),
      report.operations, report.checks, observe::op_invariants().size(), rules.size(),
      report.total == 0 ? std::string("no violation")
                        : fmt::format("{} violation{}", report.total, report.total > 1 ? "s" : ""));
  return report.total == 0 ? kExitOk : kExitSimFailure;
}

void add_check_ops_command(CLI::App& app, int& exit_code) {
  auto log = std::make_shared<std::string>();
  auto rules = std::make_shared<std::string>();
  CLI::App* c = app.add_subcommand(
      "check-ops", "check the order of an operation log's steps (kairo run --op-log): exit 1 on a violation");
  c->add_option("log", *log, "the operation log, FILE.csv or FILE.jsonl")->required();
  c->add_option("--rules", *rules, "a YAML file of rules \"event A before event B\" (docs/rdma.md)");
  c->callback([log, rules, &exit_code] { exit_code = check_ops_file(*log, *rules); });
}

}  // namespace kairo::app
