// Benchmark: what one firmware rank costs with each candidate mechanism
// (the firmware runtime's rank mechanism was chosen by these figures).
//
//   threads N STACK   N SC_THREADs (sc_spawn, given stack bytes), each waiting
//                     on its own event K times: peak RSS and wall time.
//   coroutines N      N C++20 coroutines driven by kairo's event queue, each
//                     resuming K times: peak RSS and wall time.
//
// Build and run: see docs/performance.md ("Firmware ranks").
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <systemc>
#include <vector>

#include "firmware/task.h"
#include "sim/event_queue.h"

namespace {

double peak_rss_mib() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return double(ru.ru_maxrss) / 1024.0;
}

constexpr int kResumes = 4;

// --- SC_THREADs --------------------------------------------------------------
struct ThreadRanks : sc_core::sc_module {
  std::vector<sc_core::sc_event> events;
  std::uint64_t resumed = 0;
  ThreadRanks(sc_core::sc_module_name n, int ranks, int stack) : sc_module(n), events(std::size_t(ranks)) {
    for (int r = 0; r < ranks; ++r) {
      sc_core::sc_spawn_options o;
      o.set_stack_size(stack);
      sc_core::sc_spawn([this, r] { body(r); }, sc_core::sc_gen_unique_name("rank"), &o);
    }
    SC_THREAD(driver);
  }
  SC_HAS_PROCESS(ThreadRanks);
  void body(int r) {
    for (int k = 0; k < kResumes; ++k) {
      wait(events[std::size_t(r)]);
      ++resumed;
    }
  }
  void driver() {
    for (int k = 0; k < kResumes; ++k) {
      wait(sc_core::sc_time(1, sc_core::SC_US));
      for (auto& e : events) e.notify(sc_core::SC_ZERO_TIME);
    }
  }
};

// --- C++20 coroutines on the event queue (the firmware runtime's own Task) --
std::uint64_t g_resumed = 0;
kairo::fw::Task rank_body(kairo::sim::EventQueue& q, kairo::fw::Resumer& r) {
  for (int k = 0; k < kResumes; ++k) {
    co_await kairo::fw::Delay{q, r, 1000000};
    ++g_resumed;
  }
}

}  // namespace

int sc_main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s threads N STACK | coroutines N\n", argv[0]);
    return 2;
  }
  const int n = std::atoi(argv[2]);
  const double rss0 = peak_rss_mib();
  auto t0 = std::chrono::steady_clock::now();
  std::uint64_t resumed = 0;
  if (std::strcmp(argv[1], "threads") == 0) {
    ThreadRanks m("ranks", n, argc > 3 ? std::atoi(argv[3]) : 0);
    sc_core::sc_start();
    resumed = m.resumed;
  } else {
    kairo::sim::EventQueue q(1000);
    kairo::fw::Resumer r;
    std::vector<kairo::fw::Task> tasks;
    tasks.reserve(std::size_t(n));
    for (int i = 0; i < n; ++i) {
      tasks.push_back(rank_body(q, r));
      tasks.back().start(q, r);
    }
    q.run_direct();
    resumed = g_resumed;
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double rss = peak_rss_mib();
  std::printf("%s ranks=%d resumes=%llu wall_s=%.3f peak_rss_mib=%.1f per_rank_bytes=%.0f\n", argv[1], n,
              (unsigned long long)resumed, wall, rss, (rss - rss0) * 1048576.0 / n);
  return 0;
}
