// kairo run under mpirun (app/run_parallel.h).
#include "app/run_parallel.h"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <stdexcept>

#include "app/cli_common.h"
#include "app/run_progress.h"
#include "hw/nic/tni_observe.h"
#include "observe/registry.h"
#include "platforms/observe_blocks.h"
#include "sim/units.h"
#include "sw/workloads/results.h"

namespace kairo::app {

namespace {
// Whether process 0 must hold every block at the end (see the file comment).
bool needs_whole_machine(const RunArgs& a, const RunPlan& plan) {
  return plan.plat.kind != platforms::FabricKind::kTorus  // switched fabrics have no partial build
         || a.observe->any() || plan.data || plan.work->reads_blocks_at_end();
}
}  // namespace

SplitRun::SplitRun(RunPlan& plan, const RunArgs& a)
    : plan_(plan),
      whole_(needs_whole_machine(a, plan)),
      tni_table_(!a.tni_csv.empty()),
      world_(sim::MpiWorld::get()) {
  part_ = make_run_partition(plan.plat, world_.size(), a.partition);
  const std::size_t ranks = std::size_t(plan.plat.ranks());
  owned_ranks_.resize(ranks);
  for (std::size_t r = 0; r < ranks; ++r)
    owned_ranks_[r] = part_.owner_of_host(plan.plat.node_of_rank(r)) == world_.rank();
}

SplitRun::~SplitRun() = default;

platforms::OwnedPart SplitRun::owned_part() const {
  if (whole_) return {};
  return {&part_, world_.rank()};
}

void SplitRun::prepare(RunMachine& m) {
  m_ = &m;
  if (m.hybrid)
    if (const std::string why = plan_.work->requests_circuits(); !why.empty())
      throw std::invalid_argument(
          "mpirun: " + why +
          " changes the OCS circuits during the run, which a split run cannot do identically (the "
          "controller's "
          "answers depend on every process's circuits at once; docs/parallel.md); preset them "
          "(--param circuits=preset) or run in one process");
  watch_ = platforms::parallel_watch(m.machine.network(), world_);
  m.rt->split(owned_ranks_);
  m.memory.only(owned_ranks_);
  if (m.hybrid)  // a program that asks anyway is told why (the workloads say so before the run)
    m.rt->set_circuit_control([](hw::NodeId, hw::NodeId, bool) {
      return std::string("circuits cannot change during a run split over processes (docs/parallel.md)");
    });
}

void SplitRun::install_boundary() {
  boundary_ = std::make_unique<platforms::RouterBoundary>(
      m_->machine.network(), part_, world_.rank(), m_->machine.packet_pool(), &m_->machine.payload_codec());
  std::vector<sim::Boundary*> parts = {boundary_.get(), &m_->rt->registrations()};
  if (m_->hybrid) {
    optical_ = std::make_unique<platforms::OcsBoundary>(
        m_->hybrid->ocs(), part_, world_.rank(), m_->machine.packet_pool(), &m_->machine.payload_codec());
    parts.push_back(optical_.get());
  }
  both_ = std::make_unique<sim::Boundaries>(std::move(parts));
}

void SplitRun::run(bool quiet) {
  sim::WindowProgress progress;  // one process's line (app/run_progress.h), from every process's sums
  fw::Runtime& rt = *m_->rt;
  sim::EventQueue& queue = m_->queue;
  progress.figures = [&rt, &queue, this] {
    const fw::Runtime::Work& w = rt.work();
    return std::vector<std::uint64_t>{std::uint64_t(rt.finished()), queue.events_processed(), w.planned_ranks,
                                      w.total, dma_bytes_read(m_->machine)};
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
  windows_ = sim::run_windows(m_->queue, world_, *both_, part_.lookahead_ps, opt);
}

void SplitRun::gather(RunTotals& t) {
  // The latest end, then the static energy to it of this process's routers;
  // the counts that add up, and the first ranks that failed or never
  // finished (process 0 keeps the lowest).
  t.finished_at = world_.max(t.finished_at);
  platforms::add_network_static(t.energy, m_->machine.network(), plan_.plat, t.finished_at, &part_.owner,
                                world_.rank());
  std::uint64_t* const counts[] = {&t.in_network, &t.packet_hops, &t.flit_hops, &t.events,
                                   &t.dma_bytes_written};
  std::vector<std::uint64_t> sums;
  for (const std::uint64_t* c : counts) sums.push_back(*c);
  sums.insert(sums.end(), t.events_by_block.begin(), t.events_by_block.end());
  sums.push_back(std::uint64_t(t.finished));
  const std::vector<std::uint64_t> energy = t.energy.flat();
  sums.insert(sums.end(), energy.begin(), energy.end());
  world_.sum(sums);
  t.energy = platforms::EnergyTally::from_flat(
      std::vector<std::uint64_t>(sums.end() - std::ptrdiff_t(energy.size()), sums.end()));
  sums.resize(sums.size() - energy.size());
  for (std::size_t k = 0; k < std::size(counts); ++k) *counts[k] = sums[k];
  std::copy_n(sums.begin() + std::ptrdiff_t(std::size(counts)), t.events_by_block.size(),
              t.events_by_block.begin());
  t.finished = int(sums.back());
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
  if (whole_) {
    mirror_memory();
    mirror_blocks();
  } else {
    t.nic_counters = nic_counters();
    if (tni_table_) t.tni_table = tni_table();
  }
}

// A partial build's --tni-counters lines: each process's own, in engine
// order on process 0 (each process sends them in that order).
std::string SplitRun::tni_table() const {
  std::vector<char> mine;
  sim::ByteWriter w(mine);
  for (const auto& [engine, line] : platforms::tni_table_rows(m_->machine)) {
    w.put(engine);
    w.put_string(line);
  }
  const auto all = world_.gather(mine);
  if (!world_.root()) return {};
  std::vector<std::pair<std::uint64_t, std::string>> rows;
  for (const auto& bytes : all) {
    sim::ByteReader r(bytes);
    while (!r.done()) {
      const auto engine = r.get<std::uint64_t>();
      rows.emplace_back(engine, r.get_string());
    }
  }
  std::sort(rows.begin(), rows.end());
  std::string out = platforms::tni_table_header();
  for (const auto& row : rows) out += row.second;
  return out;
}

// A partial build's engines' counters for the JSON summary: each process's
// totals, summed over the processes (the high-water marks: the most).
nlohmann::json SplitRun::nic_counters() const {
  const std::vector<observe::Counter>& counters = nic::tni_counters();
  std::vector<std::uint64_t> sums = platforms::nic_counter_totals(m_->machine);
  std::vector<std::uint64_t> low(sums.size(), ~std::uint64_t{0});  // the most as the least complement
  for (std::size_t k = 0; k < counters.size(); ++k)
    if (counters[k].kind == observe::Kind::kHigh) low[k] = ~sums[k], sums[k] = 0;
  world_.sum(sums);
  world_.min(low);
  for (std::size_t k = 0; k < counters.size(); ++k)
    if (counters[k].kind == observe::Kind::kHigh) sums[k] = ~low[k];
  return observe::summary(counters, sums);
}

// Every block this process ran that did something (observe/registry.h: the
// blocks' state), into process 0's copies: a workload's outcome and the
// JSON's counters read them there (the pattern workload reads the switches'
// and the OCS ports'). Per set, the blocks' indices and states, ended by kEnd.
void SplitRun::mirror_blocks() {
  constexpr std::uint64_t kEnd = ~std::uint64_t{0};
  const observe::Registry reg = platforms::observe_blocks(m_->machine.network(), &m_->machine);
  auto mine_here = [this](const observe::Home& h) {
    const int owner =
        h.where == observe::Home::kRouter ? part_.owner[std::size_t(h.index)] : part_.owner_of_host(h.index);
    return owner == world_.rank();
  };
  std::vector<char> mine;
  if (!world_.root()) {
    sim::ByteWriter w(mine);
    for (const observe::CounterSet& s : reg.sets()) {
      if (!s.state.save) continue;
      for (std::size_t i = 0; i < s.blocks; ++i)
        if (mine_here(s.state.home(i)) && s.state.touched(i)) {
          w.put(std::uint64_t(i));
          s.state.save(i, w);
        }
      w.put(kEnd);
    }
  }
  const auto all = world_.gather(mine);
  if (!world_.root()) return;
  if (m_->hybrid) m_->hybrid->ocs().set_remote(nullptr, {});  // the run is over: every port is here now
  for (const auto& bytes : all) {
    if (bytes.empty()) continue;  // process 0's own
    sim::ByteReader r(bytes);
    for (const observe::CounterSet& s : reg.sets()) {
      if (!s.state.save) continue;
      for (auto i = r.get<std::uint64_t>(); i != kEnd; i = r.get<std::uint64_t>()) s.state.load(i, r);
    }
  }
}

// In data mode, every page written on the nodes this process ran, into
// process 0's copies of their memories.
void SplitRun::mirror_memory() {
  platforms::RdmaMachine& machine = m_->machine;
  std::vector<char> mine;
  if (!world_.root() && plan_.data) {
    sim::ByteWriter w(mine);
    std::vector<unsigned char> page(nic::NodeMemory::kPageBytes);
    for (hw::NodeId n = 0; n < machine.nodes(); ++n) {
      if (part_.owner_of_host(n) != world_.rank()) continue;
      const std::vector<std::uint64_t> pages = machine.memory(n).pages();
      if (pages.empty()) continue;
      w.put(std::uint64_t(n));
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
      const auto n = hw::NodeId(r.get<std::uint64_t>());
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
