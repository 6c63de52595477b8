// kairo run's run and diagnosis (app/run_machine.h).
#include "app/run_machine.h"

#include <fmt/format.h>

#include <iostream>
#include <tuple>

#include "app/cli_common.h"
#include "app/run_progress.h"
#include "sim/host_memory.h"
#include "sim/units.h"

namespace kairo::app {

void launch(RunPlan& plan, RunMachine& m) {
  if (plan.data) plan.work->setup(m.memory);
  plan.work->attach(m.machine.network());
  plan.work->attach_nics(m.machine);
  m.rt->launch([work = plan.work.get()](fw::Rank& r) { return work->program(r); });
}

RunCost simulate(sim::Kernel& kernel, RunMachine& m, bool quiet,
                 std::chrono::steady_clock::time_point started) {
  fw::Runtime& rt = *m.rt;
  sim::EventQueue& queue = m.queue;
  RunProgress progress(quiet);  // lines unless quiet; a long run's warning always
  sim::HugePagesOnceLong huge_pages;
  kernel.set_progress([&rt, &queue, &progress, &m, &huge_pages](double wall) {
    huge_pages.tick(wall);
    const fw::Runtime::Work& w = rt.work();
    progress.report(wall, {queue.now(), std::uint64_t(rt.finished()), std::uint64_t(rt.size()),
                           queue.events_processed(), w.planned_ranks, w.total, dma_bytes_read(m.machine), 1});
  });
  const auto t1 = std::chrono::steady_clock::now();
  kernel.run();
  const auto t2 = std::chrono::steady_clock::now();
  return {std::chrono::duration<double>(t1 - started).count(),
          std::chrono::duration<double>(t2 - started).count()};
}

RunTotals run_totals(RunMachine& m, const platforms::Partition* part, int rank) {
  const fw::Runtime& rt = *m.rt;
  const hw::NetworkActivity& act = m.machine.network().activity();
  RunTotals t;
  t.ranks = rt.size();
  t.finished = rt.finished();
  t.finished_at = rt.finished_at();
  t.unfinished = rt.unfinished(RunTotals::kUnfinishedShown);
  std::tie(t.failed_rank, t.failure) = rt.first_failure();
  t.in_network = act.in_network;
  t.packet_hops = act.packet_hops;
  t.flit_hops = act.flit_hops;
  t.events = m.queue.events_processed();
  t.events_by_block = m.queue.events_by_block();
  platforms::RdmaMachine& machine = m.machine;
  const platforms::Platform& p = machine.network().platform();
  platforms::add_network_dynamic(t.energy, machine.network(), p, m.queue.now(), part ? &part->owner : nullptr,
                                 rank);
  std::uint64_t dma = 0, commands = 0;
  for (hw::NodeId n = 0; n < machine.nodes(); ++n) {
    if (part && part->owner_of_host(n) != rank) continue;
    for (int i = 0; i < machine.tnis_per_node(); ++i) {
      const nic::TniCounters& c = machine.tni(n, i).counters();
      dma += c.dma_bytes_read + c.dma_bytes_written, commands += c.commands;
      t.dma_bytes_written += c.dma_bytes_written;
    }
  }
  platforms::add_nic_energy(t.energy, p.energy, dma, commands);
  // Static energy to the last program's end: a split run's end is known once
  // the processes agree on it (SplitRun::gather adds each one's routers').
  if (!part) platforms::add_network_static(t.energy, machine.network(), p, t.finished_at);
  return t;
}

int diagnose(const RunPlan& plan, RunMachine& m, const RunTotals& t) {
  platforms::Network& net = m.machine.network();
  if (net.watchdog().fired()) {
    std::cerr << fmt::format(
        "kairo: deadlock: no packet moved for {} cycles with {} packet(s) in the network; "
        "blocked ports and VCs:\n",
        plan.plat.router.watchdog_cycles, t.in_network);
    for (auto& line : net.watchdog().blocked()) std::cerr << "  " << line << "\n";
    return kExitSimFailure;
  }
  if (t.failed_rank >= 0) {
    std::cerr << "kairo: a rank's program failed: " << t.failure << "\n";
    return kExitSimFailure;
  }
  if (t.finished < t.ranks) {
    std::string who;
    for (int r : t.unfinished) who += (who.empty() ? "" : ", ") + std::to_string(r);
    std::cerr << fmt::format(
        "kairo: {} of {} ranks never finished (the network is idle and nothing will wake "
        "them; first: {}): a program waits for a notice or completion that never comes\n",
        t.ranks - t.finished, t.ranks, who);
    for (int r : t.unfinished)
      if (std::string w = plan.work->waiting(r); !w.empty()) std::cerr << "  rank " << r << ": " << w << "\n";
    return kExitSimFailure;
  }
  return kExitOk;
}

}  // namespace kairo::app
