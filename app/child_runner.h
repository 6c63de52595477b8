// The child runner of kairo's variants (run --compare/--param sizes=, traffic
// --sweep, experiments): each variant in a forked child, since SystemC
// elaborates once per process; the child's text (its JSON summary) comes back
// through a pipe. A ChildPool keeps several children running at once.
#pragma once
#include <sys/types.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "sim/interrupt.h"

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

// Children running side by side: start() forks one (as run_in_child) and
// returns at once; next_done() waits for whichever finishes first. Children
// left running when the pool goes are killed and reaped.
class ChildPool {
 public:
  ChildPool() = default;
  ChildPool(const ChildPool&) = delete;
  ChildPool& operator=(const ChildPool&) = delete;
  ~ChildPool();

  // Starts `body` in a child, known to the caller as `tag`.
  void start(std::size_t tag, const std::function<int(std::string& text)>& body);
  std::size_t running() const { return children_.size(); }
  // Waits for a child to finish (one must be running): its tag and result.
  std::pair<std::size_t, ChildResult> next_done();

 private:
  struct Child {
    std::size_t tag;
    pid_t pid;
    int fd;
    std::string text;
  };
  // While runs go on, SIGINT and SIGTERM stop them (next_done throws
  // sim::Interrupted; the destructor ends the children).
  sim::InterruptibleScope scope_;
  std::vector<Child> children_;
};

}  // namespace kairo::app
