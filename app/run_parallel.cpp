// kairo run under mpirun (app/run_parallel.h).
#include "app/run_parallel.h"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <stdexcept>

#include "app/cli_common.h"
#include "app/run_progress.h"
#include "sim/units.h"
#include "sw/workloads/results.h"

namespace kairo::app {

SplitRun::SplitRun(RunPlan& plan, RunMachine& m, const std::string& method)
    : plan_(plan), m_(m), world_(sim::MpiWorld::get()) {
  if (m.hybrid)
    if (const std::string why = plan.work->requests_circuits(); !why.empty())
      throw std::invalid_argument(
          "mpirun: " + why +
          " changes the OCS circuits during the run, which a split run cannot do identically (the "
          "controller's "
          "answers depend on every process's circuits at once; docs/parallel.md); preset them "
          "(--param circuits=preset) or run in one process");
  part_ = make_run_partition(plan.plat, world_.size(), method);
  const std::size_t ranks = std::size_t(plan.plat.ranks());
  owned_ranks_.resize(ranks);
  for (std::size_t r = 0; r < ranks; ++r)
    owned_ranks_[r] = part_.owner_of_host(plan.plat.node_of_rank(r)) == world_.rank();
}

SplitRun::~SplitRun() = default;

void SplitRun::prepare() {
  watch_ = platforms::parallel_watch(m_.machine.network(), world_);
  m_.rt->split(owned_ranks_);
  m_.memory.only(owned_ranks_);
  if (m_.hybrid)  // a program that asks anyway is told why (the workloads say so before the run)
    m_.rt->set_circuit_control([](router::NodeId, router::NodeId, bool) {
      return std::string("circuits cannot change during a run split over processes (docs/parallel.md)");
    });
}

void SplitRun::install_boundary() {
  boundary_ = std::make_unique<platforms::RouterBoundary>(
      m_.machine.network(), part_, world_.rank(), m_.machine.packet_pool(), &m_.machine.payload_codec());
  std::vector<sim::Boundary*> parts = {boundary_.get(), &m_.rt->registrations()};
  if (m_.hybrid) {
    optical_ = std::make_unique<platforms::OcsBoundary>(
        m_.hybrid->ocs(), part_, world_.rank(), m_.machine.packet_pool(), &m_.machine.payload_codec());
    parts.push_back(optical_.get());
  }
  both_ = std::make_unique<sim::Boundaries>(std::move(parts));
}

void SplitRun::run(bool quiet) {
  sim::WindowProgress progress;  // one process's line (app/run_progress.h), from every process's sums
  fw::Runtime& rt = *m_.rt;
  sim::EventQueue& queue = m_.queue;
  progress.figures = [&rt, &queue, this] {
    const fw::Runtime::Work& w = rt.work();
    return std::vector<std::uint64_t>{std::uint64_t(rt.finished()), queue.events_processed(), w.planned_ranks,
                                      w.total, dma_bytes_read(m_.machine)};
  };
  RunProgress lines(quiet);
  progress.print = [&rt, &lines, n = world_.size()](sim::Time now, const std::vector<std::uint64_t>& sums,
                                                    double wall) {
    lines.report(wall, {now, sums[0], std::uint64_t(rt.size()), sums[1], sums[2], sums[3], sums[4], n});
  };
  const std::vector<int> peers = platforms::neighbour_processes(plan_.plat, part_, world_.rank());
  sim::WindowOptions opt;
  opt.watch = &watch_;
  opt.progress = &progress;
  opt.peers = &peers;
  windows_ = sim::run_windows(m_.queue, world_, *both_, part_.lookahead_ps, opt);
}

void SplitRun::gather(RunTotals& t) {
  // The counts that add up, the latest end, and the first ranks that failed
  // or never finished (process 0 keeps the lowest).
  std::uint64_t* const counts[] = {&t.in_network, &t.packet_hops, &t.flit_hops, &t.events};
  std::vector<std::uint64_t> sums;
  for (const std::uint64_t* c : counts) sums.push_back(*c);
  sums.push_back(std::uint64_t(t.finished));
  world_.sum(sums);
  for (std::size_t k = 0; k < std::size(counts); ++k) *counts[k] = sums[k];
  t.finished = int(sums.back());
  t.finished_at = world_.max(t.finished_at);
  std::vector<char> mine;
  sim::ByteWriter w(mine);
  w.put(std::int64_t(t.failed_rank));
  w.put_string(t.failure);
  w.put(std::uint64_t(t.unfinished.size()));
  for (int r : t.unfinished) w.put(std::int64_t(r));
  const auto all = world_.gather(mine);
  if (world_.root()) {
    t.unfinished.clear();
    for (const auto& bytes : all) {
      sim::ByteReader r(bytes);
      const auto failed = int(r.get<std::int64_t>());
      std::string why = r.get_string();
      if (failed >= 0 && (t.failed_rank < 0 || failed < t.failed_rank)) {
        t.failed_rank = failed;
        t.failure = std::move(why);
      }
      for (auto n = r.get<std::uint64_t>(); n > 0; --n) t.unfinished.push_back(int(r.get<std::int64_t>()));
    }
    std::sort(t.unfinished.begin(), t.unfinished.end());
    if (t.unfinished.size() > RunTotals::kUnfinishedShown) t.unfinished.resize(RunTotals::kUnfinishedShown);
  }
  sw::gather_results(*plan_.work, world_);
  mirror_machine();
  mirror_network();
}

// Every router port that carried a packet, and every optical port, into
// process 0's copies: a workload's outcome may read the network's counters
// (the pattern workload reads the switches' and the OCS ports').
void SplitRun::mirror_network() {
  platforms::Network& net = m_.machine.network();
  std::vector<char> mine;
  if (!world_.root()) {
    sim::ByteWriter w(mine);
    for (std::uint32_t i = 0; i < net.num_routers(); ++i) {
      if (part_.owner[i] != world_.rank()) continue;
      router::Router& r = net.router_at(i);
      for (int port = 0; port < r.num_ports(); ++port) {
        const router::LinkCounters& c = r.link_counters(port);
        if (!c.packets_sent && !c.packets_received) continue;  // untouched: as in every copy
        w.put(i);
        w.put(std::uint32_t(port));
        r.save_port_counters(port, w);
      }
    }
    w.put(~std::uint32_t{0});
    if (m_.hybrid) {
      ocs::OcsFabric& f = m_.hybrid->ocs();
      for (int port = 0; port < f.ports(); ++port) {
        if (part_.owner_of_host(f.node_of(port)) != world_.rank()) continue;
        w.put(std::uint32_t(port));
        f.save_port(port, w);
      }
    }
  }
  const auto all = world_.gather(mine);
  if (!world_.root()) return;
  if (m_.hybrid) m_.hybrid->ocs().set_remote(nullptr, {});  // the run is over: every port is here now
  for (const auto& bytes : all) {
    if (bytes.empty()) continue;  // process 0's own
    sim::ByteReader r(bytes);
    for (auto i = r.get<std::uint32_t>(); i != ~std::uint32_t{0}; i = r.get<std::uint32_t>()) {
      const auto port = int(r.get<std::uint32_t>());
      net.router_at(i).load_port_counters(port, r);
    }
    while (!r.done()) {
      const auto port = int(r.get<std::uint32_t>());
      m_.hybrid->ocs().load_port(port, r);
    }
  }
}

// Every engine's counters and, in data mode, every written page of the
// nodes this process ran, into process 0's copies of them.
void SplitRun::mirror_machine() {
  platforms::RdmaMachine& machine = m_.machine;
  const int per = machine.tnis_per_node();
  std::vector<char> mine;
  if (!world_.root()) {
    sim::ByteWriter w(mine);
    std::vector<unsigned char> page(nic::NodeMemory::kPageBytes);
    for (router::NodeId n = 0; n < machine.nodes(); ++n) {
      if (part_.owner_of_host(n) != world_.rank()) continue;
      bool active = false;
      for (int i = 0; i < per; ++i) {
        const nic::TniCounters& c = machine.tni(n, i).counters();
        active |= c.commands || c.packets_received || c.error_completions;
      }
      const std::vector<std::uint64_t> pages =
          plan_.data ? machine.memory(n).pages() : std::vector<std::uint64_t>{};
      if (!active && pages.empty()) continue;
      w.put(std::uint64_t(n));
      for (int i = 0; i < per; ++i) w.put(machine.tni(n, i).counters());
      w.put(std::uint64_t(pages.size()));
      for (std::uint64_t pg : pages) {
        const std::uint64_t at = pg * nic::NodeMemory::kPageBytes;
        const std::uint64_t len =
            std::min<std::uint64_t>(nic::NodeMemory::kPageBytes, machine.memory(n).params().size_bytes - at);
        tlm::tlm_generic_payload tr;
        nic::set_payload(tr, tlm::TLM_READ_COMMAND, at, page.data(), len);
        if (machine.memory(n).transport_dbg(tr) != len)
          throw std::logic_error("SplitRun: a written page does not read back");
        w.put(pg);
        w.put(len);
        w.put_bytes(page.data(), len);
      }
    }
  }
  const auto all = world_.gather(mine);
  if (!world_.root()) return;
  std::vector<unsigned char> page(nic::NodeMemory::kPageBytes);
  for (const auto& bytes : all) {
    sim::ByteReader r(bytes);
    while (!r.done()) {
      const auto n = router::NodeId(r.get<std::uint64_t>());
      for (int i = 0; i < per; ++i) machine.tni(n, i).set_counters(r.get<nic::TniCounters>());
      for (auto pages = r.get<std::uint64_t>(); pages > 0; --pages) {
        const auto pg = r.get<std::uint64_t>();
        const auto len = r.get<std::uint64_t>();
        r.get_bytes(page.data(), len);
        tlm::tlm_generic_payload tr;
        nic::set_payload(tr, tlm::TLM_WRITE_COMMAND, pg * nic::NodeMemory::kPageBytes, page.data(), len);
        if (machine.memory(n).transport_dbg(tr) != len)
          throw std::logic_error("SplitRun: a page another process wrote does not fit here");
      }
    }
  }
}

nlohmann::json SplitRun::report() const {
  return platforms::split_report(world_, part_, windows_, *boundary_, optical_.get());
}

}  // namespace kairo::app
