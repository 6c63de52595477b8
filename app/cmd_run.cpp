// `kairo run`: a named program (sw/workloads) on every rank of a platform
// with its NICs (platforms::RdmaMachine), through the SystemC kernel.
#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <chrono>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "app/cli_common.h"
#include "firmware/rank.h"
#include "app/observe.h"
#include "platforms/hybrid_netlist.h"
#include "platforms/observe_blocks.h"
#include "platforms/rdma_machine.h"
#include "sim/host_memory.h"
#include "sim/kernel.h"
#include "sim/output_file.h"
#include "sim/units.h"
#include "sw/workloads/workload.h"

namespace kairo::app {
namespace {

struct RunArgs {
  std::string platform, workload, mode = "data", json_path, tni_csv;
  std::vector<std::string> params, sets;
  bool quiet = false;
  std::uint64_t seed = 1;
  std::string compare;  // --compare key=v1,v2,...
  std::shared_ptr<Observe> observe = std::make_shared<Observe>();  // waveforms and counter logs
};

double peak_rss_mib() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return double(ru.ru_maxrss) / 1024.0;
}

// Ranks' node memories through their debug transport (no simulated time).
class MachineMemory final : public sw::HostMemory {
 public:
  MachineMemory(platforms::RdmaMachine& m, const platforms::Platform& p) : m_(m), p_(p) {}
  void write(int node, std::uint64_t address, const unsigned char* bytes, std::size_t n) override {
    transport(node, address, const_cast<unsigned char*>(bytes), n, tlm::TLM_WRITE_COMMAND);
  }
  void read(int node, std::uint64_t address, unsigned char* bytes, std::size_t n) override {
    transport(node, address, bytes, n, tlm::TLM_READ_COMMAND);
  }

 private:
  void transport(int rank, std::uint64_t address, unsigned char* bytes, std::size_t n, tlm::tlm_command cmd) {
    if (n == 0) return;
    const router::NodeId node = p_.node_of_rank(std::uint64_t(rank));
    tlm::tlm_generic_payload t;
    nic::set_payload(t, cmd, address, bytes, n);
    if (m_.memory(node).transport_dbg(t) != n)
      throw std::runtime_error(fmt::format(
          "host access to rank {}'s memory (node {}) at {:#x} (+{} B) failed", rank, node, address, n));
  }
  platforms::RdmaMachine& m_;
  const platforms::Platform& p_;
};

int sweep(RunArgs& a, const std::string& list);
int compare(RunArgs& a);

int run(RunArgs& a) {
  bool several = !a.compare.empty();
  for (const auto& kv : a.params) several |= kv.rfind("sizes=", 0) == 0;
  if (several && a.observe->any())
    return bad_input("--vcd/--fst/--counters record one run: not with --compare or --param sizes");
  // Every output path is checked before anything runs: a long run must not
  // end in "cannot write".
  try {
    if (!a.json_path.empty()) sim::check_output_path("--json", a.json_path);
    if (!a.tni_csv.empty()) sim::check_output_path("--tni-counters", a.tni_csv);
    a.observe->check_outputs();
  } catch (const std::invalid_argument& e) {
    return bad_input(e.what());
  }
  if (!a.compare.empty()) return compare(a);
  for (const auto& kv : a.params)
    if (kv.rfind("sizes=", 0) == 0) return sweep(a, kv.substr(6));
  try {
    const sw::WorkloadInfo* info = nullptr;
    for (const auto& w : sw::workloads())
      if (a.workload == w.name) info = &w;
    if (!info)
      throw std::invalid_argument("--workload: unknown workload '" + a.workload +
                                  "'; expected one of: " + sw::workload_names());
    if (a.mode != "data" && a.mode != "size-only")
      throw std::invalid_argument("--mode: expected data or size-only, got '" + a.mode + "'");
    platforms::Platform plat = platforms::load_platform(a.platform, a.sets);
    platforms::check_nic_fits_router(plat);
    sim::check_host_memory(fmt::format("platform {} ({} nodes, {} ranks) with its NICs", plat.name, plat.nodes(),
                                       plat.ranks()),
                           platforms::estimated_host_bytes(plat, true));
    const bool data = a.mode == "data";
    std::optional<router::Topology> topo;
    if (plat.kind == platforms::FabricKind::kTorus) topo.emplace(plat.dims);
    sw::MachineInfo mi;
    mi.platform = &plat;
    mi.topology = topo ? &*topo : nullptr;
    mi.nodes = int(plat.ranks());  // ranks (== nodes unless ranks.map says otherwise)
    mi.tnis = plat.router.network_interfaces;
    mi.data = data;
    mi.seed = a.seed;
    sw::Params prm(a.params);
    std::unique_ptr<sw::Workload> work = info->make(prm, mi);
    prm.check_all_used(a.workload);
    // The one host-memory rule, from the parameters alone: before the
    // machine is built and before any rank allocates.
    sw::check_footprint(*work, mi, a.workload);

    auto t0 = std::chrono::steady_clock::now();
    sim::EventQueue queue(plat.router.clock_period_ps());
    platforms::RdmaMachine machine(plat, queue, data);
    machine.keep_until_exit();
    // Rank r runs on node plat.node_of_rank(r) (the platform's ranks.map).
    const std::size_t ranks = std::size_t(plat.ranks());
    std::vector<std::vector<nic::Tni*>> tnis(ranks);
    std::vector<nic::MemoryRegistry*> regs;
    std::vector<router::NodeId> rank_nodes;
    for (std::size_t r = 0; r < ranks; ++r) {
      const router::NodeId n = plat.node_of_rank(r);
      const int per = work->uses_optical() ? machine.tnis_per_node() : plat.router.network_interfaces;
      for (int i = 0; i < per; ++i) tnis[r].push_back(&machine.tni(n, i));
      regs.push_back(&machine.registry(n));
      rank_nodes.push_back(n);
    }
    fw::Runtime rt(queue, machine.network().torus(), tnis, regs, rank_nodes);
    rt.set_memory_bytes(plat.nic.memory_bytes);
    std::vector<tlm::tlm_fw_transport_if<>*> mems;
    for (router::NodeId n : rank_nodes) mems.push_back(machine.memory(n).target());
    rt.set_memories(std::move(mems));
    auto* hybrid = dynamic_cast<platforms::HybridNetlist*>(&machine.network());  // the OCS, if any
    if (hybrid)
      rt.set_circuit_control(
          [hybrid](router::NodeId a, router::NodeId b, bool up) { return hybrid->request_pathway(a, b, up); });
    Observe& observe = *a.observe;  // waveforms and counter logs, if asked for
    observe.attach(machine.network(), &machine, queue);
    // The tracer and the counter log hold probes in the machine's blocks: they
    // go before the machine does.
    struct Detach {
      Observe& o;
      ~Detach() { o.detach(); }
    } detach{observe};
    MachineMemory memory(machine, plat);
    if (data) work->setup(memory);
    work->attach(machine.network());
    rt.launch([&](fw::Rank& r) { return work->program(r); });
    sim::Kernel kernel("kernel", queue);
    if (!a.quiet)
      kernel.set_progress([&](double wall) {
        std::cerr << fmt::format("kairo run: {} simulated, {}/{} ranks done, {:.2f} M events/s\n",
                                 units::format_duration(queue.now()), rt.finished(), rt.size(),
                                 double(queue.events_processed()) / wall / 1e6);
      });
    auto t1 = std::chrono::steady_clock::now();
    kernel.run();
    auto t2 = std::chrono::steady_clock::now();
    // Output files are written also when the run failed: they help to see why.
    // A file that cannot be written is reported (exit 2) without losing the rest.
    int output_code = kExitOk;
    try {
      if (!a.tni_csv.empty()) write_text_file(a.tni_csv, platforms::tni_table(machine), "--tni-counters");
    } catch (const sim::OutputError& e) {
      output_code = bad_input(e.what());
    }
    try {
      observe.finish();
    } catch (const std::runtime_error& e) {
      output_code = bad_input(e.what());
    }
    if (machine.network().watchdog().fired()) {
      std::cerr << fmt::format(
          "kairo: deadlock: no packet moved for {} cycles with {} packet(s) in the network; "
          "blocked ports and VCs:\n",
          plat.router.watchdog_cycles, machine.network().activity().in_network);
      for (auto& line : machine.network().watchdog().blocked()) std::cerr << "  " << line << "\n";
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
    sw::Outcome o = work->outcome(data ? &memory : nullptr);

    nlohmann::json j;
    j["platform"] = plat.name;
    j["nodes"] = machine.nodes();
    j["ranks"] = rt.size();
    j["tnis_per_node"] = machine.tnis_per_node();
    j["workload"] = a.workload;
    j["params"] = work->params();
    j["mode"] = a.mode;
    j["completion_ns"] = double(rt.finished_at()) / 1000.0;  // the last rank's program ends
    j["latency_ns"] = o.latency_ns;
    j["bandwidth_gbps"] = o.bandwidth_gbps;
    j["verified"] = o.verified ? nlohmann::json(*o.verified) : nlohmann::json(nullptr);
    j["status_ok"] = o.ok;
    j["measured_from_ns"] = double(o.start_ps) / 1000.0;
    j["measured_to_ns"] = double(o.end_ps) / 1000.0;
    j["details"] = o.details;
    j["nic_counters"] = platforms::nic_counter_summary(machine);
    const router::NetworkActivity& act = machine.network().activity();
    j["network"] = {{"packets", j["nic_counters"]["packets_sent"]},
                    {"packet_hops", act.packet_hops},
                    {"flit_hops", act.flit_hops}};
    j["elaborate_s"] = std::chrono::duration<double>(t1 - t0).count();
    j["wall_s"] = std::chrono::duration<double>(t2 - t0).count();
    j["events"] = queue.events_processed();
    j["peak_rss_mib"] = peak_rss_mib();
    j["runtime_bytes_per_rank"] =
        (double(rt.footprint_bytes()) + double(fw::FrameBytes::peak)) / double(rt.size());
    j["coroutine_frame_bytes_peak"] = fw::FrameBytes::peak;
    if (platforms::HybridNetlist* h = hybrid) {
      // The optical network: circuits at the end, the controller's work and
      // its log (requests, ups, moves, tear-downs, refusals), the first 256.
      const ocs::CircuitController& c = h->controller();
      int up = 0;
      for (int p = 0; p < h->ocs().ports(); ++p) up += h->ocs().state(p) == ocs::PortState::kUp;
      nlohmann::json log = nlohmann::json::array();
      for (std::size_t k = 0; k < c.log().size() && k < 256; ++k) {
        const auto& e = c.log()[k];
        log.push_back({{"ns", double(e.time_ps) / 1000.0}, {"in", e.in}, {"out", e.out}, {"what", e.what}});
      }
      j["ocs"] = {{"optical_ports", h->ocs().ports()}, {"circuits_up_at_end", up},
                  {"reconfigurations", c.reconfigurations()}, {"requests_refused", c.requests_refused()},
                  {"log_entries", c.log().size()}, {"log", log}};
    }
    observe.summarize(j);
    if (write_summary("--json", a.json_path, j.dump(2) + "\n") != kExitOk) output_code = kExitBadInput;
    if (!o.ok || (o.verified && !*o.verified)) {
      std::cerr << "kairo: " << a.workload << " failed: " << o.failure << "\n";
      return kExitSimFailure;
    }
    return output_code;
  } catch (const platforms::ConfigError& e) {
    return bad_input(e.what());
  } catch (const std::invalid_argument& e) {
    return bad_input(e.what());
  }
}

// One run per value of `key` (replacing any --param key=...), each in a
// child process (SystemC elaborates once per process). Returns the exit code
// of the first run that did not succeed, else 0, with every summary in `runs`.
int run_variants(const RunArgs& a, const std::string& key, const std::vector<std::string>& values,
                 const std::string& drop, std::vector<nlohmann::json>& runs) {
  char dir_template[] = "/tmp/kairo-runs-XXXXXX";
  if (!::mkdtemp(dir_template)) return bad_input("cannot create a temporary directory under /tmp");
  for (std::size_t i = 0; i < values.size(); ++i) {
    RunArgs b = a;
    b.compare.clear();
    b.params.clear();
    for (const auto& kv : a.params)
      if (kv.rfind(drop + "=", 0) != 0 && kv.rfind(key + "=", 0) != 0) b.params.push_back(kv);
    b.params.push_back(key + "=" + values[i]);
    b.json_path = std::string(dir_template) + "/" + std::to_string(i) + ".json";
    b.tni_csv.clear();
    b.quiet = true;
    if (!a.quiet) std::cerr << "kairo run: " << key << "=" << values[i] << "\n";
    std::cout.flush();
    const pid_t pid = ::fork();
    if (pid == 0) ::_exit(run(b));
    int status = 0;
    ::waitpid(pid, &status, 0);
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : kExitSimFailure;
    if (code == kExitBadInput) return kExitBadInput;  // the child said what was wrong
    std::ifstream in(b.json_path);
    if (!in) {
      std::cerr << "kairo: the run with " << key << "=" << values[i] << " failed\n";
      return kExitSimFailure;
    }
    runs.push_back(nlohmann::json::parse(in));
    if (code != kExitOk) return code;
  }
  return kExitOk;
}

std::vector<std::string> split_list(const std::string& list) {
  std::vector<std::string> v;
  std::stringstream ss(list);
  for (std::string item; std::getline(ss, item, ',');) v.push_back(item);
  return v;
}

std::string row(const std::string& value, const nlohmann::json& j) {
  return fmt::format("{},{},{},{},{}\n", value, j["completion_ns"].dump(), j["latency_ns"].dump(),
                     j["bandwidth_gbps"].dump(), j["verified"].dump());
}

// --param sizes=1KiB,32KiB,1MiB: the workload once per size; a CSV table on
// stdout and, with --json, every run's summary.
int sweep(RunArgs& a, const std::string& list) {
  const std::vector<std::string> sizes = split_list(list);
  try {
    for (const auto& item : sizes) units::parse_bytes(item);
  } catch (const units::UnitError& e) {
    return bad_input("--param sizes=" + list + ": " + e.what());
  }
  if (sizes.empty())
    return bad_input("--param sizes=: expected a comma-separated list of sizes, e.g. 1KiB,32KiB");
  for (const auto& kv : a.params)
    if (kv.rfind("size=", 0) == 0) return bad_input("--param size and --param sizes: give one of them");
  std::vector<nlohmann::json> runs;
  const int code = run_variants(a, "size", sizes, "sizes", runs);
  if (code == kExitBadInput) return code;
  std::string table = "size,completion_ns,latency_ns,bandwidth_gbps,verified\n";
  for (std::size_t i = 0; i < runs.size(); ++i) table += row(sizes[i], runs[i]);
  std::cout << table;
  if (!a.json_path.empty() && write_summary("--json", a.json_path, nlohmann::json{{"sweep", runs}}.dump(2) + "\n"))
    return kExitBadInput;
  return code;
}

int compare_sizes(RunArgs& a, const std::string& key, const std::vector<std::string>& values,
                  const std::string& list);

// --compare algo=a,b,c: the workload once per value, ranked by latency
// (fastest first); a CSV table on stdout and, with --json, every summary.
// With --param sizes= as well: every value at every size, and where the
// fastest changes between two sizes, the crossover size found by bisection.
int compare(RunArgs& a) {
  const auto eq = a.compare.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == a.compare.size())
    return bad_input("--compare " + a.compare +
                     ": expected key=value,value,..., e.g. algo=ring,recursive-doubling");
  const std::string key = a.compare.substr(0, eq);
  const std::vector<std::string> values = split_list(a.compare.substr(eq + 1));
  for (const auto& kv : a.params)
    if (kv.rfind("sizes=", 0) == 0) return compare_sizes(a, key, values, kv.substr(6));
  std::vector<nlohmann::json> runs;
  const int code = run_variants(a, key, values, key, runs);
  if (code == kExitBadInput) return code;
  std::vector<std::size_t> order(runs.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    return runs[x]["latency_ns"].get<double>() < runs[y]["latency_ns"].get<double>();
  });
  std::string table = "rank," + key + ",completion_ns,latency_ns,bandwidth_gbps,verified\n";
  for (std::size_t r = 0; r < order.size(); ++r)
    table += std::to_string(r + 1) + "," + row(values[order[r]], runs[order[r]]);
  std::cout << table;
  if (!a.json_path.empty() &&
      write_summary("--json", a.json_path, nlohmann::json{{"compare", runs}}.dump(2) + "\n"))
    return kExitBadInput;
  return code;
}

// One run of `key`=`value` at `bytes`; its latency, or a negative exit code.
double latency_at(const RunArgs& a, const std::string& key, const std::string& value, std::uint64_t bytes,
                  int& code) {
  RunArgs b = a;
  b.params.clear();
  for (const auto& kv : a.params)
    if (kv.rfind("sizes=", 0) != 0 && kv.rfind(key + "=", 0) != 0) b.params.push_back(kv);
  b.params.push_back(key + "=" + value);
  std::vector<nlohmann::json> runs;
  code = run_variants(b, "size", {std::to_string(bytes) + "B"}, "sizes", runs);
  return code == kExitOk ? runs[0]["latency_ns"].get<double>() : -1.0;
}

int compare_sizes(RunArgs& a, const std::string& key, const std::vector<std::string>& values,
                  const std::string& list) {
  const std::vector<std::string> sizes = split_list(list);
  std::vector<std::uint64_t> bytes;
  try {
    for (const auto& item : sizes) bytes.push_back(units::parse_bytes(item));
  } catch (const units::UnitError& e) {
    return bad_input("--param sizes=" + list + ": " + e.what());
  }
  if (sizes.empty() || values.empty())
    return bad_input("--compare with --param sizes=: expected values and sizes, e.g. algo=a,b and sizes=1KiB,1MiB");
  for (std::size_t i = 1; i < bytes.size(); ++i)
    if (bytes[i] <= bytes[i - 1]) return bad_input("--param sizes=" + list + ": expected increasing sizes");
  // latency[v][i]: value v at size i
  std::vector<std::vector<double>> latency(values.size());
  nlohmann::json all = nlohmann::json::object();
  for (std::size_t v = 0; v < values.size(); ++v) {
    RunArgs b = a;
    b.params.clear();
    for (const auto& kv : a.params)
      if (kv.rfind(key + "=", 0) != 0) b.params.push_back(kv);
    b.params.push_back(key + "=" + values[v]);
    std::vector<nlohmann::json> runs;
    const int code = run_variants(b, "size", sizes, "sizes", runs);
    if (code != kExitOk) return code;
    for (const auto& r : runs) latency[v].push_back(r["latency_ns"].get<double>());
    all[values[v]] = runs;
  }
  auto fastest = [&](std::size_t i) {
    std::size_t best = 0;
    for (std::size_t v = 1; v < values.size(); ++v)
      if (latency[v][i] < latency[best][i]) best = v;
    return best;
  };
  std::string table = "size";
  for (const auto& v : values) table += "," + key + "=" + v;
  table += ",fastest\n";
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    table += sizes[i];
    for (std::size_t v = 0; v < values.size(); ++v) table += fmt::format(",{}", latency[v][i]);
    table += "," + values[fastest(i)] + "\n";
  }
  // Crossovers: bisect (geometrically, in 8-byte steps) between two sizes
  // whose fastest differ, comparing just those two, until the interval is
  // within 1/32 of its size.
  nlohmann::json crossovers = nlohmann::json::array();
  for (std::size_t i = 0; i + 1 < sizes.size(); ++i) {
    const std::size_t x = fastest(i), y = fastest(i + 1);
    if (x == y) continue;
    std::uint64_t lo = bytes[i], hi = bytes[i + 1];
    while (hi - lo > std::max<std::uint64_t>(8, lo / 32)) {
      std::uint64_t mid = std::uint64_t(std::sqrt(double(lo) * double(hi))) / 8 * 8;
      if (mid <= lo) mid = lo + 8;
      if (mid >= hi) break;
      int cx = 0, cy = 0;
      const double tx = latency_at(a, key, values[x], mid, cx), ty = latency_at(a, key, values[y], mid, cy);
      if (cx != kExitOk) return cx;
      if (cy != kExitOk) return cy;
      (ty < tx ? hi : lo) = mid;
    }
    crossovers.push_back({{"from", values[x]}, {"to", values[y]}, {"above_bytes", lo}, {"at_most_bytes", hi}});
    table += fmt::format("crossover: {}={} is faster than {}={} from between {} and {} bytes\n", key, values[y], key,
                         values[x], lo, hi);
  }
  std::cout << table;
  if (!a.json_path.empty())
    return write_summary("--json", a.json_path,
                         nlohmann::json{{"compare", key}, {"values", values}, {"sizes", sizes}, {"runs", all},
                                        {"crossovers", crossovers}}
                                 .dump(2) +
                             "\n");
  return kExitOk;
}

}  // namespace

void add_run_command(CLI::App& app, int& exit_code) {
  auto a = std::make_shared<RunArgs>();
  CLI::App* c = app.add_subcommand("run", "run a workload on every rank of a platform");
  c->add_option("platform", a->platform, "shipped platform name or YAML file")->required();
  c->add_option("--workload", a->workload, sw::workload_names())->required();
  c->add_option("--param", a->params, "workload parameter key=value (repeatable)");
  c->add_option("--set", a->sets, "override a platform parameter, key=value (repeatable)");
  c->add_option("--mode", a->mode, "data (real bytes, verified) or size-only (identical timing)")
      ->capture_default_str();
  c->add_option("--json", a->json_path, "write the result summary (JSON) here");
  c->add_option("--tni-counters", a->tni_csv, "write every active TNI's counters (CSV) here");
  c->add_option("--seed", a->seed, "seed of the workload's random choices (random-ring's ring)")
      ->capture_default_str()
      ->check(whole_number());
  c->add_option("--compare", a->compare,
                "run once per value of a parameter and rank by latency, e.g. algo=ring,recursive-doubling");
  c->add_flag("--quiet", a->quiet, "no progress on stderr");
  a->observe->add_options(c);
  c->callback([a, &exit_code] { exit_code = run(*a); });
}

}  // namespace kairo::app
