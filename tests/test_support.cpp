#include "tests/test_support.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <systemc>

namespace kairo::test {
namespace {

// A SystemC warning is a test failure: in every test executable (they all
// link this file) warnings reach this handler, which fails the running test
// (or the suite's set-up) and then reports as SystemC would. The kairo
// binary's warnings are caught by run_kairo below.
void fail_on_warning(const sc_core::sc_report& report, const sc_core::sc_actions& actions) {
  if (report.get_severity() == sc_core::SC_WARNING)
    ADD_FAILURE() << "SystemC warning " << report.get_msg_type() << ": " << report.get_msg();
  sc_core::sc_report_handler::default_handler(report, actions);
}

[[maybe_unused]] const bool kHandlerInstalled = [] {
  sc_core::sc_report_handler::set_handler(fail_on_warning);
  return true;
}();

}  // namespace

CommandResult run_kairo(const std::vector<std::string>& args, const RunLimits& limits) {
  std::string dir = temp_dir();
  std::string out_path = dir + "/stdout", err_path = dir + "/stderr";
  const auto t0 = std::chrono::steady_clock::now();
  pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    int o = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int e = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int in = ::open("/dev/null", O_RDONLY);
    ::dup2(o, 1);
    ::dup2(e, 2);
    ::dup2(in, 0);
    if (limits.address_space_bytes) {
      const rlimit as{rlim_t(limits.address_space_bytes), rlim_t(limits.address_space_bytes)};
      ::setrlimit(RLIMIT_AS, &as);
    }
    if (limits.seconds) ::alarm(limits.seconds);
    std::vector<char*> argv;
    std::string bin = KAIRO_BIN;
    argv.push_back(bin.data());
    std::vector<std::string> copy = args;
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(bin.c_str(), argv.data());
    ::_exit(127);
  }
  if (limits.signal) {
    ::usleep(limits.signal_after_ms * 1000u);
    ::kill(pid, limits.signal);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  CommandResult r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read_file(out_path);
  r.err = read_file(err_path);
  // SystemC prints its warnings as "Warning: (Wnnn) ..." on stdout or stderr.
  for (const std::string* text : {&r.out, &r.err})
    if (const auto at = text->find("Warning: (W"); at != std::string::npos)
      ADD_FAILURE() << "kairo printed a SystemC warning: " << text->substr(at, text->find('\n', at) - at);
  return r;
}

FileSizeLimit::FileSizeLimit(std::uint64_t bytes) {
  rlimit lim{};
  if (::getrlimit(RLIMIT_FSIZE, &lim) != 0) throw std::runtime_error("getrlimit failed");
  old_cur_ = lim.rlim_cur;
  old_handler_ = ::signal(SIGXFSZ, SIG_IGN);
  lim.rlim_cur = rlim_t(bytes);
  if (::setrlimit(RLIMIT_FSIZE, &lim) != 0) throw std::runtime_error("setrlimit failed");
}

FileSizeLimit::~FileSizeLimit() {
  rlimit lim{};
  ::getrlimit(RLIMIT_FSIZE, &lim);
  lim.rlim_cur = rlim_t(old_cur_);
  ::setrlimit(RLIMIT_FSIZE, &lim);
  ::signal(SIGXFSZ, old_handler_);
}

std::string temp_dir() {
  char tmpl[] = "/tmp/kairo_test_XXXXXX";
  char* d = ::mkdtemp(tmpl);
  if (!d) throw std::runtime_error("mkdtemp failed");
  return d;
}

std::string write_file(const std::string& dir, const std::string& name, const std::string& text) {
  std::string path = dir + "/" + name;
  std::ofstream f(path);
  f << text;
  return path;
}

std::string read_file(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace kairo::test

// libsystemc refers to sc_main; the test executables use gtest's main().
extern "C" int sc_main(int, char**) { return 0; }
