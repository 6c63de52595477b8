// The child runner of kairo's variants (run --compare/--param sizes=, traffic
// --sweep): each variant in a forked child, since SystemC elaborates once per
// process; the child's text (its JSON summary) comes back through a pipe.
#pragma once
#include <functional>
#include <string>

namespace kairo::app {

struct ChildResult {
  int exit_code = 0;  // the child's exit code; kExitSimFailure when it died of a signal
  std::string text;   // what the child gave back; empty when it gave nothing
};

// Forks a child that runs `body`, sends back what `body` put in its string
// and exits with the code `body` returned. An exception out of `body` goes on
// in the child as it would have in the parent. Throws std::runtime_error when
// the pipe or the child cannot be made.
ChildResult run_in_child(const std::function<int(std::string& text)>& body);

}  // namespace kairo::app
