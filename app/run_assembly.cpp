// kairo run's assembly (app/run_assembly.h).
#include "app/run_assembly.h"

#include <fmt/format.h>

#include <stdexcept>

#include "app/cli_common.h"
#include "sim/host_memory.h"
#include "sim/mpi_world.h"
#include "sim/output_file.h"
#include "sw/workloads/scenario.h"

namespace kairo::app {
namespace {

// The named workload (or the scenario's), with --mode checked.
const sw::WorkloadInfo* find_workload(const RunArgs& a) {
  const sw::WorkloadInfo* info = a.scenario.empty() ? nullptr : &sw::scenario_workload();
  for (const auto& w : sw::workloads())
    if (a.workload == w.name) info = &w;
  if (!info)
    throw std::invalid_argument("--workload: unknown workload '" + a.workload +
                                "'; expected one of: " + sw::workload_names());
  if (a.mode != "data" && a.mode != "size-only")
    throw std::invalid_argument("--mode: expected data or size-only, got '" + a.mode + "'");
  return info;
}

// The platform, checked to fit its router and the host's memory. A
// scenario's `set:` comes first, so the command line's --set wins.
platforms::Platform load_checked(const RunArgs& a) {
  std::vector<std::string> sets =
      a.scenario.empty() ? std::vector<std::string>{} : sw::scenario_sets(a.scenario);
  sets.insert(sets.end(), a.sets.begin(), a.sets.end());
  platforms::Platform plat = platforms::load_platform(a.platform, sets);
  platforms::check_nic_fits_router(plat);
  sim::check_host_memory(
      fmt::format("platform {} ({} nodes, {} ranks) with its NICs", plat.name, plat.nodes(), plat.ranks()),
      platforms::estimated_host_bytes(plat, true));
  return plat;
}

std::optional<hw::Topology> torus_of(const platforms::Platform& plat) {
  std::optional<hw::Topology> topo;
  if (plat.kind == platforms::FabricKind::kTorus) topo.emplace(plat.dims);
  return topo;
}

}  // namespace

void check_run_options(const RunArgs& a) {
  if (a.scenario.empty() == a.workload.empty())
    throw std::invalid_argument(a.scenario.empty() ? "give --workload NAME (" + sw::workload_names() +
                                                         ") or --scenario FILE.yaml"
                                                   : "--workload and --scenario: give one of them, not both");
  if (!a.scenario.empty() && (!a.params.empty() || !a.compare.empty()))
    throw std::invalid_argument(std::string(a.params.empty() ? "--compare" : "--param") +
                                ": not with --scenario (a scenario file takes no parameters)");
  bool several = !a.compare.empty();
  for (const auto& kv : a.params) several |= kv.rfind("sizes=", 0) == 0;
  if (several && a.observe->any())
    throw std::invalid_argument("--vcd/--fst/--counters record one run: not with --compare or --param sizes");
  if (several && a.op_log->any())
    throw std::invalid_argument("--op-log/--check-ops record one run: not with --compare or --param sizes");
  if (!a.plot_path.empty() && !several)
    throw std::invalid_argument("--plot: draws the runs of --compare or --param sizes=; give one of them");
  if (!a.json_path.empty()) sim::check_output_path("--json", a.json_path);
  if (!a.plot_path.empty()) sim::check_output_path("--plot", a.plot_path);
  if (!a.tni_csv.empty()) sim::check_output_path("--tni-counters", a.tni_csv);
  a.observe->check_outputs();
  a.op_log->check_outputs();
  sim::NamedOutputs outputs = {
      {"--json", a.json_path}, {"--plot", a.plot_path}, {"--tni-counters", a.tni_csv}};
  for (const auto& o : a.observe->outputs()) outputs.push_back(o);
  outputs.emplace_back("--op-log", a.op_log->path());
  sim::check_distinct_outputs(outputs);
}

RunPlan::RunPlan(const RunArgs& a)
    : info(find_workload(a)),
      plat(load_checked(a)),
      data(a.mode == "data"),
      topo(torus_of(plat)),
      prm(a.scenario.empty() ? a.params : std::vector<std::string>{"file=" + a.scenario}) {
  mi.platform = &plat;
  mi.topology = topo ? &*topo : nullptr;
  mi.nodes = int(plat.ranks());  // ranks (== nodes unless ranks.map says otherwise)
  mi.tnis = plat.router.network_interfaces;
  mi.data = data;
  mi.seed = a.seed;
  mi.processes = a.split ? sim::MpiWorld::get().size() : 1;
  work = info->make(prm, mi);
  prm.check_all_used(a.workload);
  // The one host-memory rule, from the parameters alone: before the
  // machine is built and before any rank allocates.
  sw::check_footprint(*work, mi, a.workload);
}

void MachineMemory::write(int node, std::uint64_t address, const unsigned char* bytes, std::size_t n) {
  if (!owned_.empty() && !owned_[std::size_t(node)]) return;
  transport(node, address, const_cast<unsigned char*>(bytes), n, tlm::TLM_WRITE_COMMAND);
}

void MachineMemory::read(int node, std::uint64_t address, unsigned char* bytes, std::size_t n) {
  transport(node, address, bytes, n, tlm::TLM_READ_COMMAND);
}

void MachineMemory::transport(int rank, std::uint64_t address, unsigned char* bytes, std::size_t n,
                              tlm::tlm_command cmd) {
  if (n == 0) return;
  const hw::NodeId node = p_.node_of_rank(std::uint64_t(rank));
  tlm::tlm_generic_payload t;
  nic::set_payload(t, cmd, address, bytes, n);
  if (m_.memory(node).transport_dbg(t) != n)
    throw std::runtime_error(fmt::format("host access to rank {}'s memory (node {}) at {:#x} (+{} B) failed",
                                         rank, node, address, n));
}

RunMachine::RunMachine(RunPlan& plan, const platforms::OwnedPart& part)
    : queue(plan.plat.router.clock_period_ps()),
      machine(plan.plat, queue, plan.data, part),
      memory(machine, plan.plat) {
  const platforms::Platform& plat = plan.plat;
  machine.keep_until_exit();
  // Rank r runs on node plat.node_of_rank(r) (the platform's ranks.map).
  const std::size_t ranks = std::size_t(plat.ranks());
  std::vector<std::vector<nic::HostInterface*>> tnis(ranks);
  std::vector<nic::MemoryRegistry*> regs;
  std::vector<hw::NodeId> rank_nodes;
  for (std::size_t r = 0; r < ranks; ++r) {
    const hw::NodeId n = plat.node_of_rank(r);
    rank_nodes.push_back(n);
    if (!machine.has_node(n)) {  // another process's rank (a partial build): it runs there
      regs.push_back(nullptr);
      continue;
    }
    const int per = plan.work->uses_optical() ? machine.tnis_per_node() : plat.router.network_interfaces;
    for (int i = 0; i < per; ++i) tnis[r].push_back(&machine.tni(n, i));
    regs.push_back(&machine.registry(n));
  }
  rt = std::make_unique<fw::Runtime>(queue, machine.network().torus(), tnis, regs, rank_nodes);
  rt->set_memory_bytes(plat.nic.memory_bytes);
  std::vector<tlm::tlm_fw_transport_if<>*> mems;
  for (hw::NodeId n : rank_nodes) mems.push_back(machine.has_node(n) ? machine.memory(n).target() : nullptr);
  rt->set_memories(std::move(mems));
  hybrid = machine.network().optical();  // the OCS, if any
  if (hybrid)
    rt->set_circuit_control(
        [h = hybrid](hw::NodeId a, hw::NodeId b, bool up) { return h->request_pathway(a, b, up); });
}

}  // namespace kairo::app
