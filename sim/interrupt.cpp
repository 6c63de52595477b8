#include "sim/interrupt.h"

#include <algorithm>
#include <csignal>
#include <cstring>

namespace kairo::sim {
namespace {

volatile std::sig_atomic_t g_signal = 0;
volatile std::sig_atomic_t g_scopes = 0;  // InterruptibleScopes alive

extern "C" void on_signal(int s) {
  if (g_scopes == 0 || g_signal == s) {  // outside a run, or the second one: as if kairo had no handler
    std::signal(s, SIG_DFL);
    std::raise(s);
    return;
  }
  g_signal = s;
}

struct Outputs {
  std::vector<std::pair<std::string, std::string>> requested;  // (option, path)
  std::vector<std::string> written;
};
Outputs& outputs() {
  static Outputs o;
  return o;
}

}  // namespace

void install_interrupt_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

int interrupted() { return int(g_signal); }

InterruptibleScope::InterruptibleScope() { g_scopes = g_scopes + 1; }
InterruptibleScope::~InterruptibleScope() { g_scopes = g_scopes - 1; }

void note_output_requested(const std::string& option, const std::string& path) {
  auto& r = outputs().requested;
  if (std::find(r.begin(), r.end(), std::make_pair(option, path)) == r.end()) r.emplace_back(option, path);
}

void note_output_written(const std::string& path) { outputs().written.push_back(path); }

std::string interruption_summary(int signal) {
  const Outputs& o = outputs();
  std::string written, missing;
  auto add = [](std::string& list, const std::string& item) { list += (list.empty() ? "" : ", ") + item; };
  for (const std::string& path : o.written) {
    std::string option;
    for (const auto& [opt, p] : o.requested)
      if (p == path) option = opt + " ";
    add(written, option + path);
  }
  for (const auto& [option, path] : o.requested)
    if (std::find(o.written.begin(), o.written.end(), path) == o.written.end())
      add(missing, option + " " + path);
  std::string s = std::string("interrupted by ") + (signal == SIGINT    ? "SIGINT"
                                                    : signal == SIGTERM ? "SIGTERM"
                                                                        : strsignal(signal));
  s += written.empty() ? "; nothing was written" : "; written: " + written;
  if (!missing.empty()) s += "; not written: " + missing;
  return s;
}

}  // namespace kairo::sim
