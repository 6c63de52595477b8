// kairo run's run and diagnosis (app/run_machine.h).
#include "app/run_machine.h"

#include <fmt/format.h>

#include <iostream>

#include "app/cli_common.h"
#include "sim/units.h"

namespace kairo::app {

void launch(RunPlan& plan, RunMachine& m) {
  if (plan.data) plan.work->setup(m.memory);
  plan.work->attach(m.machine.network());
  m.rt->launch([work = plan.work.get()](fw::Rank& r) { return work->program(r); });
}

RunCost simulate(sim::Kernel& kernel, RunMachine& m, bool quiet,
                 std::chrono::steady_clock::time_point started) {
  fw::Runtime& rt = *m.rt;
  sim::EventQueue& queue = m.queue;
  if (!quiet)
    kernel.set_progress([&rt, &queue](double wall) {
      std::cerr << fmt::format("kairo run: {} simulated, {}/{} ranks done, {:.2f} M events/s\n",
                               units::format_duration(queue.now()), rt.finished(), rt.size(),
                               double(queue.events_processed()) / wall / 1e6);
    });
  const auto t1 = std::chrono::steady_clock::now();
  kernel.run();
  const auto t2 = std::chrono::steady_clock::now();
  return {std::chrono::duration<double>(t1 - started).count(),
          std::chrono::duration<double>(t2 - started).count()};
}

int diagnose(const RunPlan& plan, RunMachine& m) {
  platforms::Network& net = m.machine.network();
  fw::Runtime& rt = *m.rt;
  if (net.watchdog().fired()) {
    std::cerr << fmt::format(
        "kairo: deadlock: no packet moved for {} cycles with {} packet(s) in the network; "
        "blocked ports and VCs:\n",
        plan.plat.router.watchdog_cycles, net.activity().in_network);
    for (auto& line : net.watchdog().blocked()) std::cerr << "  " << line << "\n";
    return kExitSimFailure;
  }
  try {
    rt.all_done();  // rethrows a program's own error
  } catch (const std::exception& e) {
    std::cerr << "kairo: a rank's program failed: " << e.what() << "\n";
    return kExitSimFailure;
  }
  if (rt.finished() < rt.size()) {
    std::string who;
    for (int r : rt.unfinished(8)) who += (who.empty() ? "" : ", ") + std::to_string(r);
    std::cerr << fmt::format(
        "kairo: {} of {} ranks never finished (the network is idle and nothing will wake "
        "them; first: {}): a program waits for a notice or completion that never comes\n",
        rt.size() - rt.finished(), rt.size(), who);
    return kExitSimFailure;
  }
  return kExitOk;
}

}  // namespace kairo::app
