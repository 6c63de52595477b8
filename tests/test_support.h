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
  int signal = 0;                         // sent to the child after signal_after_ms (SIGINT, SIGTERM)
  unsigned signal_after_ms = 0;
};

// Runs the built `kairo` binary with the given arguments (no shell quoting
// issues: arguments are passed as they are). Waits for it to finish.
CommandResult run_kairo(const std::vector<std::string>& args, const RunLimits& limits = {});

// While one lives, files this process writes stop at `bytes`
// (RLIMIT_FSIZE), as on a full disk: a write past it fails (SIGXFSZ ignored).
class FileSizeLimit {
 public:
  explicit FileSizeLimit(std::uint64_t bytes);
  ~FileSizeLimit();
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;

 private:
  std::uint64_t old_cur_ = 0;
  void (*old_handler_)(int) = nullptr;
};

// A fresh temporary directory for one test, removed by nobody (under /tmp).
std::string temp_dir();
std::string write_file(const std::string& dir, const std::string& name, const std::string& text);
std::string read_file(const std::string& path);

// Kahn's algorithm on a directed graph given as successor lists: true iff
// every vertex can be removed, i.e. the graph has no cycle (a channel
// dependency graph: the routing is deadlock-free, Dally & Seitz).
// `out`: one container of successor indices per vertex.
template <class Graph>
bool acyclic(const Graph& out) {
  std::vector<int> indeg(out.size(), 0), ready;
  for (const auto& s : out)
    for (int v : s) ++indeg[std::size_t(v)];
  for (std::size_t c = 0; c < out.size(); ++c)
    if (indeg[c] == 0) ready.push_back(int(c));
  std::size_t removed = 0;
  while (!ready.empty()) {
    const int c = ready.back();
    ready.pop_back();
    ++removed;
    for (int v : out[std::size_t(c)])
      if (--indeg[std::size_t(v)] == 0) ready.push_back(v);
  }
  return removed == out.size();
}

}  // namespace kairo::test
