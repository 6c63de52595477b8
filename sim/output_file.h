// The files a run writes. kairo's contract for them (docs/reliability.md):
// every output path is checked before the run starts, so a long run never ends
// in "cannot write"; every write is checked, the flush at close included; and
// a file that could not be written completely is removed, never left
// half-written. The errors name the option and the path.
#pragma once
#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kairo::sim {

// A write that failed (disk full, I/O error): the message names the option,
// the path and the system's reason.
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws std::invalid_argument ("--json: cannot write '/x/y.json': Not a
// directory") unless `path` can be written: its directory must exist (kairo
// creates none) and take the part file, an existing file must be writable
// (it is not touched), and no other process may be writing it now (the
// part file's lock). `option` names the option (or key) the path came from.
void check_output_path(const std::string& option, const std::string& path);

// Where an output is written before it is whole: .NAME.kairo-part beside it.
std::string part_file(const std::string& path);

// Outputs as (option, path). Two options naming one file would keep only
// the one written last: throws std::invalid_argument naming both options and
// the file. Paths are compared as files (./a.json and a.json are one).
using NamedOutputs = std::vector<std::pair<std::string, std::string>>;
void check_distinct_outputs(const NamedOutputs& outputs);

// One output file, written through a stdio buffer, whole or not at all: a
// regular file is written as its part file (part_file(path), beside it,
// held under an advisory lock: a second process writing the same output is
// refused, "another process is writing it") and renamed over `path` by
// close(), so an interrupted or failed run leaves no partial file under the
// final name and an existing one as it was. A FIFO or device is written
// directly. Every failure, including the flush at close(), throws
// OutputError; the part file is then removed. A file destroyed without
// close() is removed too.
class OutputFile {
 public:
  OutputFile(std::string option, std::string path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  void write(std::string_view bytes);
  void write(const void* data, std::size_t n) { write(std::string_view(static_cast<const char*>(data), n)); }
  // For formatted writers (fprintf): errors are caught by close().
  std::FILE* stream() { return f_; }
  // Flushes and closes; throws OutputError (and removes the file) on any failure.
  void close();
  const std::string& path() const { return path_; }

 private:
  [[noreturn]] void fail(int err);
  std::string discard();  // closes and removes a regular file; says so

  std::string option_, path_;
  std::string target_, part_;  // the file replaced (a link followed) and its part file; empty: direct
  std::FILE* f_ = nullptr;
};

// The whole of `text` to `path` through an OutputFile.
void write_output_file(const std::string& option, const std::string& path, std::string_view text);

}  // namespace kairo::sim
