// Helpers shared by the test executables: running the kairo binary as a user
// would and reading what it printed.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace kairo::test {

struct CommandResult {
  int exit_code = -1;
  std::string out;     // stdout
  std::string err;     // stderr
  double seconds = 0;  // wall time from start to exit
};

// Limits the child runs under; 0 = none.
struct RunLimits {
  unsigned seconds = 0;                   // SIGALRM after this long (exit code 128 + 14)
  std::uint64_t address_space_bytes = 0;  // RLIMIT_AS
};

// Runs the built `kairo` binary with the given arguments (no shell quoting
// issues: arguments are passed as they are). Waits for it to finish.
CommandResult run_kairo(const std::vector<std::string>& args, const RunLimits& limits = {});

// A fresh temporary directory for one test, removed by nobody (under /tmp).
std::string temp_dir();
std::string write_file(const std::string& dir, const std::string& name, const std::string& text);
std::string read_file(const std::string& path);

}  // namespace kairo::test
