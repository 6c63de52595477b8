// The child runner: fork, pipe, wait (app/child_runner.h).
#include "app/child_runner.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <iostream>
#include <stdexcept>

#include "app/cli_common.h"
#include "sim/interrupt.h"

namespace kairo::app {
namespace {

int reap(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : kExitSimFailure;
}

}  // namespace

ChildResult run_in_child(const std::function<int(std::string& text)>& body) {
  ChildPool pool;
  pool.start(0, body);
  return pool.next_done().second;
}

void ChildPool::start(std::size_t tag, const std::function<int(std::string& text)>& body) {
  int fd[2];
  if (::pipe(fd) != 0) throw std::runtime_error("pipe failed");
  std::cout.flush();  // nothing buffered is written twice
  std::cerr.flush();
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fd[0]);
    ::close(fd[1]);
    throw std::runtime_error("fork failed");
  }
  if (pid == 0) {
    ::close(fd[0]);
    for (const Child& c : children_) ::close(c.fd);  // the siblings' pipes are not this child's
    std::string out;
    int code = 0;
    try {
      code = body(out);
    } catch (const sim::Interrupted& i) {  // never into the parent's code, which this copy holds
      ::_exit(128 + i.signal);
    }
    std::size_t off = 0;
    while (off < out.size()) {
      const ssize_t n = ::write(fd[1], out.data() + off, out.size() - off);
      if (n <= 0) break;
      off += std::size_t(n);
    }
    ::_exit(code);
  }
  ::close(fd[1]);
  children_.push_back({tag, pid, fd[0], {}});
}

std::pair<std::size_t, ChildResult> ChildPool::next_done() {
  if (children_.empty()) throw std::logic_error("ChildPool::next_done: no child is running");
  std::vector<pollfd> fds(children_.size());
  char buf[65536];
  for (;;) {
    sim::throw_if_interrupted();
    for (std::size_t i = 0; i < children_.size(); ++i) fds[i] = {children_[i].fd, POLLIN, 0};
    if (::poll(fds.data(), fds.size(), -1) < 0) {
      // SIGINT or SIGTERM: the pool's destructor ends the children.
      if (errno == EINTR) {
        sim::throw_if_interrupted();
        continue;
      }
      throw std::runtime_error("poll failed");
    }
    for (std::size_t i = 0; i < children_.size(); ++i) {
      if (fds[i].revents == 0) continue;
      const ssize_t n = ::read(children_[i].fd, buf, sizeof buf);
      if (n > 0) {
        children_[i].text.append(buf, std::size_t(n));
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      Child c = std::move(children_[i]);  // end of its pipe: the child is done
      children_.erase(children_.begin() + std::ptrdiff_t(i));
      ::close(c.fd);
      ChildResult r;
      r.text = std::move(c.text);
      r.exit_code = reap(c.pid);
      return {c.tag, std::move(r)};
    }
  }
}

ChildPool::~ChildPool() {
  for (const Child& c : children_) {
    ::kill(c.pid, SIGKILL);
    ::close(c.fd);
    reap(c.pid);
  }
}

}  // namespace kairo::app
