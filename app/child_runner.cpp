// The child runner: fork, pipe, wait (app/child_runner.h).
#include "app/child_runner.h"

#include <sys/wait.h>
#include <unistd.h>

#include <iostream>
#include <stdexcept>

#include "app/cli_common.h"

namespace kairo::app {

ChildResult run_in_child(const std::function<int(std::string& text)>& body) {
  int fd[2];
  if (::pipe(fd) != 0) throw std::runtime_error("pipe failed");
  std::cout.flush();  // nothing buffered is written twice
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fd[0]);
    ::close(fd[1]);
    throw std::runtime_error("fork failed");
  }
  if (pid == 0) {
    ::close(fd[0]);
    std::string out;
    const int code = body(out);
    std::size_t off = 0;
    while (off < out.size()) {
      const ssize_t n = ::write(fd[1], out.data() + off, out.size() - off);
      if (n <= 0) break;
      off += std::size_t(n);
    }
    ::_exit(code);
  }
  ::close(fd[1]);
  ChildResult r;
  char buf[65536];
  ssize_t n;
  while ((n = ::read(fd[0], buf, sizeof buf)) > 0) r.text.append(buf, std::size_t(n));
  ::close(fd[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : kExitSimFailure;
  return r;
}

}  // namespace kairo::app
