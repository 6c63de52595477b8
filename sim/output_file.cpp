#include "sim/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace kairo::sim {
namespace {

std::string cannot(const std::string& option, const std::string& path, const std::string& why) {
  return (option.empty() ? std::string() : option + ": ") + "cannot write '" + path + "': " + why;
}

// Why `path`'s directory cannot take a new file, or "" when it can. kairo does
// not create directories for its outputs: a missing one is usually a typo.
std::string parent_problem(const std::string& path) {
  std::filesystem::path p(path);
  const std::filesystem::path dir = p.has_parent_path() ? p.parent_path() : std::filesystem::path(".");
  std::error_code ec;
  const auto st = std::filesystem::status(dir, ec);
  if (!std::filesystem::exists(st)) return "the directory " + dir.string() + " does not exist";
  if (!std::filesystem::is_directory(st)) return dir.string() + " is not a directory";
  return "";
}

bool is_regular(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// Removes a partly written regular file; says so in the message.
std::string remove_partial(const std::string& path) {
  if (!is_regular(path) || ::unlink(path.c_str()) != 0) return "";
  return " (the incomplete file was removed)";
}

}  // namespace

void check_distinct_outputs(const NamedOutputs& outputs) {
  std::vector<std::pair<std::string, const std::string*>> seen;  // the file as a path, its option
  for (const auto& [option, path] : outputs) {
    if (path.empty()) continue;
    std::error_code ec;
    std::string file = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec).string();
    if (ec) file = path;
    for (const auto& [other, by] : seen)
      if (other == file)
        throw std::invalid_argument(option + " " + path + ": the same file as " + *by +
                                    "; give each output a file of its own");
    seen.emplace_back(file, &option);
  }
}

void check_output_path(const std::string& option, const std::string& path) {
  if (path.empty()) throw std::invalid_argument(option + ": expected a file name, got an empty one");
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw std::invalid_argument(cannot(option, path, "it is a directory"));
    if (!S_ISREG(st.st_mode)) return;  // a FIFO or a device (/dev/stdout): opening one may wait for a reader
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);  // no O_TRUNC: the file stays as it is
    if (fd < 0) throw std::invalid_argument(cannot(option, path, std::strerror(errno)));
    ::close(fd);
    return;
  }
  if (std::string e = parent_problem(path); !e.empty()) throw std::invalid_argument(cannot(option, path, e));
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) throw std::invalid_argument(cannot(option, path, std::strerror(errno)));
  ::close(fd);
  ::unlink(path.c_str());
}

OutputFile::OutputFile(std::string option, std::string path)
    : option_(std::move(option)), path_(std::move(path)) {
  f_ = std::fopen(path_.c_str(), "wb");
  if (!f_) {
    const int err = errno;
    const std::string why = parent_problem(path_);
    throw OutputError(cannot(option_, path_, why.empty() ? std::strerror(err) : why));
  }
}

OutputFile::~OutputFile() {
  if (f_) discard();
}

std::string OutputFile::discard() {
  std::fclose(f_);
  f_ = nullptr;
  return remove_partial(path_);
}

void OutputFile::fail(int err) {
  const std::string removed = discard();
  throw OutputError(cannot(option_, path_, std::strerror(err ? err : EIO)) + removed);
}

void OutputFile::write(std::string_view bytes) {
  if (!f_) throw OutputError(cannot(option_, path_, "the file is already closed"));
  if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), f_) != bytes.size()) fail(errno);
}

void OutputFile::close() {
  if (!f_) return;
  if (std::ferror(f_)) {
    // A formatted write failed earlier (its errno is gone): flushing again
    // says why, e.g. "No space left on device".
    std::clearerr(f_);
    errno = 0;
    const int err = std::fflush(f_) != 0 ? errno : 0;
    fail(err);
  }
  if (std::fflush(f_) != 0) fail(errno);
  std::FILE* f = f_;
  f_ = nullptr;
  if (std::fclose(f) != 0) {
    const int err = errno;
    throw OutputError(cannot(option_, path_, std::strerror(err ? err : EIO)) + remove_partial(path_));
  }
}

void write_output_file(const std::string& option, const std::string& path, std::string_view text) {
  OutputFile f(option, path);
  f.write(text);
  f.close();
}

}  // namespace kairo::sim
