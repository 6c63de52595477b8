#include "sim/output_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "sim/interrupt.h"

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

// An output that is (or is to be) a regular file is written through its
// part file, .NAME.kairo-part beside it, and renamed into place when whole;
// a FIFO or a device (/dev/stdout, /dev/null) is written directly. A
// symbolic link is followed: the file it names is the one replaced.
bool written_directly(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode);
}

std::string target_of(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
  std::error_code ec;
  const std::filesystem::path t = std::filesystem::weakly_canonical(path, ec);
  return ec ? path : t.string();
}

const char* const kBusy = "another process is writing it (it holds the lock on ";

// Opens and locks `part` (created if missing). Returns the descriptor, or -1
// with errno set; EWOULDBLOCK when another process holds the lock.
int open_locked(const std::string& part, bool* created) {
  int fd = ::open(part.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  *created = fd >= 0;
  if (fd < 0 && errno == EEXIST) fd = ::open(part.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    ::close(fd);
    errno = err;
    return -1;
  }
  return fd;
}

}  // namespace

std::string part_file(const std::string& path) {
  const std::filesystem::path p(path);
  return (p.parent_path() / ("." + p.filename().string() + ".kairo-part")).string();
}

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

void check_output_path(const std::string& option, const std::string& given) {
  if (given.empty()) throw std::invalid_argument(option + ": expected a file name, got an empty one");
  note_output_requested(option, given);
  const std::string path = target_of(given);
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw std::invalid_argument(cannot(option, given, "it is a directory"));
    if (!S_ISREG(st.st_mode)) return;  // a FIFO or a device (/dev/stdout): opening one may wait for a reader
    if (::access(path.c_str(), W_OK) != 0)
      throw std::invalid_argument(cannot(option, given, std::strerror(errno)));
  } else if (std::string e = parent_problem(path); !e.empty()) {
    throw std::invalid_argument(cannot(option, given, e));
  }
  // The part file the run will write: its directory must take it, and no
  // other process may be writing this output now.
  const std::string part = part_file(path);
  bool created = false;
  const int fd = open_locked(part, &created);
  if (fd < 0) {
    const int err = errno;
    if (err == EWOULDBLOCK) throw std::invalid_argument(cannot(option, given, kBusy + part + ")"));
    throw std::invalid_argument(cannot(option, given, "cannot create " + part + ": " + std::strerror(err)));
  }
  if (created) ::unlink(part.c_str());
  ::close(fd);
}

OutputFile::OutputFile(std::string option, std::string path)
    : option_(std::move(option)), path_(std::move(path)) {
  const std::string target = target_of(path_);
  if (written_directly(target)) {
    f_ = std::fopen(target.c_str(), "wb");
    if (!f_) throw OutputError(cannot(option_, path_, std::strerror(errno)));
    return;
  }
  target_ = target;
  part_ = part_file(target);
  bool created = false;
  const int fd = open_locked(part_, &created);
  if (fd < 0) {
    const int err = errno;
    if (err == EWOULDBLOCK) throw OutputError(cannot(option_, path_, kBusy + part_ + ")"));
    const std::string why = parent_problem(target);
    throw OutputError(cannot(option_, path_, why.empty() ? std::strerror(err) : why));
  }
  if (::ftruncate(fd, 0) != 0 || !(f_ = ::fdopen(fd, "wb"))) {
    const int err = errno;
    ::close(fd);
    ::unlink(part_.c_str());
    throw OutputError(cannot(option_, path_, std::strerror(err)));
  }
}

OutputFile::~OutputFile() {
  if (f_) discard();
}

std::string OutputFile::discard() {
  // The part file goes (an existing output under the final name is left
  // as it was); the lock goes with the descriptor.
  if (!part_.empty()) ::unlink(part_.c_str());
  std::fclose(f_);
  f_ = nullptr;
  return part_.empty() ? "" : " (nothing was written to it; the incomplete " + part_ + " was removed)";
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
  // Whole: renamed into place while the lock is still held.
  if (!part_.empty() && std::rename(part_.c_str(), target_.c_str()) != 0) fail(errno);
  std::FILE* f = f_;
  f_ = nullptr;
  if (std::fclose(f) != 0) {
    const int err = errno;
    throw OutputError(cannot(option_, path_, std::strerror(err ? err : EIO)) + remove_partial(target_));
  }
  note_output_written(path_);
}

void write_output_file(const std::string& option, const std::string& path, std::string_view text) {
  OutputFile f(option, path);
  f.write(text);
  f.close();
}

}  // namespace kairo::sim
