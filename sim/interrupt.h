// SIGINT and SIGTERM (docs/reliability.md, "Interrupted runs"). Inside an
// InterruptibleScope (a simulation running, an experiment's pool of runs)
// kairo's handlers only note the signal; the run stops at the kernel's next check
// (every 65,536 events, a few milliseconds), or at the next agreement of a
// partitioned run's processes, all of them together, by throwing
// Interrupted. Its unwinding removes every output's part file
// (sim::OutputFile); outputs already complete stay. The command then exits
// 128 + the signal (130, 143) saying what was and was not written. A second
// signal of the same kind ends the process at once, as the default would.
// Outside any scope (reading inputs, writing a view) a signal acts as it
// would without kairo's handlers: the process ends; an output it was
// writing is only ever a part file, never under its final name.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace kairo::sim {

// Not a std::exception: no catch of errors may take it for one.
struct Interrupted {
  int signal;
};

void install_interrupt_handlers();
// While one lives, SIGINT and SIGTERM are noted instead of ending kairo.
class InterruptibleScope {
 public:
  InterruptibleScope();
  ~InterruptibleScope();
  InterruptibleScope(const InterruptibleScope&) = delete;
  InterruptibleScope& operator=(const InterruptibleScope&) = delete;
};
// 0, or the signal received (SIGINT, SIGTERM).
int interrupted();
inline void throw_if_interrupted() {
  if (const int s = interrupted()) throw Interrupted{s};
}

// The outputs of this command, as check_output_path saw them, and which of
// them were completed (sim::OutputFile::close): for the closing line.
void note_output_requested(const std::string& option, const std::string& path);
void note_output_written(const std::string& path);
// "interrupted by SIGINT: written: --json a.json; not written: --counters c.kcl"
std::string interruption_summary(int signal);

}  // namespace kairo::sim
