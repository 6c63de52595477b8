// kairo run's report (app/run_report.h).
#include "app/run_report.h"

#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>

#include "app/cli_common.h"
#include "platforms/observe_blocks.h"
#include "platforms/resolved.h"

namespace kairo::app {
namespace {

double peak_rss_mib() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return double(ru.ru_maxrss) / 1024.0;
}

// The optical network: circuits at the end, the controller's work and its
// log (requests, ups, moves, tear-downs, refusals), the first 256.
nlohmann::json ocs_summary(platforms::OpticalNetwork& h) {
  const ocs::CircuitController& c = h.controller();
  int up = 0;
  for (int p = 0; p < h.ocs().ports(); ++p) up += h.ocs().state(p) == ocs::PortState::kUp;
  nlohmann::json log = nlohmann::json::array();
  for (std::size_t k = 0; k < c.log().size() && k < 256; ++k) {
    const auto& e = c.log()[k];
    log.push_back({{"ns", double(e.time_ps) / 1000.0}, {"in", e.in}, {"out", e.out}, {"what", e.what}});
  }
  return {{"optical_ports", h.ocs().ports()},
          {"circuits_up_at_end", up},
          {"reconfigurations", c.reconfigurations()},
          {"requests_refused", c.requests_refused()},
          {"log_entries", c.log().size()},
          {"log", log}};
}

std::string row(const std::string& value, const nlohmann::json& j) {
  return fmt::format("{},{},{},{},{}\n", value, j["completion_ns"].dump(), j["latency_ns"].dump(),
                     j["bandwidth_gbps"].dump(), j["verified"].dump());
}

}  // namespace

nlohmann::json run_summary(const RunArgs& a, const RunPlan& plan, RunMachine& m, const RunTotals& t,
                           const sw::Outcome& o, const RunCost& cost) {
  platforms::RdmaMachine& machine = m.machine;
  const fw::Runtime& rt = *m.rt;
  nlohmann::json j;
  j["platform"] = plan.plat.name;
  j["nodes"] = machine.nodes();
  j["ranks"] = rt.size();
  j["tnis_per_node"] = machine.tnis_per_node();
  j["workload"] = a.workload;
  j["params"] = plan.work->params();
  j["mode"] = a.mode;
  j["resolved"] = platforms::resolved_json(plan.plat);
  j["completion_ns"] = double(t.finished_at) / 1000.0;  // the last rank's program ends
  j["latency_ns"] = o.latency_ns;
  j["bandwidth_gbps"] = o.bandwidth_gbps;
  j["verified"] = o.verified ? nlohmann::json(*o.verified) : nlohmann::json(nullptr);
  j["status_ok"] = o.ok;
  j["measured_from_ns"] = double(o.start_ps) / 1000.0;
  j["measured_to_ns"] = double(o.end_ps) / 1000.0;
  j["details"] = o.details;
  j["nic_counters"] = t.nic_counters.is_null() ? platforms::nic_counter_summary(machine) : t.nic_counters;
  {  // the OCS's energy over the run (to the last program's end), beside the rest counted
    platforms::EnergyTally energy = t.energy;
    if (platforms::OpticalNetwork* h = machine.network().optical())
      platforms::add_ocs_energy(energy, plan.plat.energy, h->ocs().ports(),
                                h->controller().reconfigurations(), t.finished_at);
    j["energy"] =
        platforms::energy_json(plan.plat, energy, t.finished_at, double(t.dma_bytes_written), "byte");
  }
  j["network"] = {{"packets", j["nic_counters"]["packets_sent"]},
                  {"packet_hops", t.packet_hops},
                  {"flit_hops", t.flit_hops}};
  j["elaborate_s"] = cost.elaborate_s;
  j["wall_s"] = cost.wall_s;
  j["events"] = t.events;
  for (std::size_t b = 0; b < sim::kEventBlocks; ++b)
    j["events_by_block"][sim::event_block_name(sim::EventBlock(b))] = t.events_by_block[b];
  j["peak_rss_mib"] = peak_rss_mib();
  j["runtime_bytes_per_rank"] =
      (double(rt.footprint_bytes()) + double(fw::FrameBytes::peak)) / double(rt.size());
  j["coroutine_frame_bytes_peak"] = fw::FrameBytes::peak;
  if (m.hybrid) j["ocs"] = ocs_summary(*m.hybrid);
  if (const platforms::Network& net = machine.network(); net.wan_loss()) {
    const router::WanPath::Stats w = net.wan_stats();
    j["wan"] = {{"segments_sent", w.sent},
                {"segments_dropped", w.drops},
                {"fast_retransmits", w.fast_retransmits},
                {"timeouts", w.timeouts},
                {"peak_queue_bytes", w.peak_queue_bytes}};
  }
  return j;
}

void write_tni_csv(const std::string& path, platforms::RdmaMachine& m, const RunTotals& t) {
  write_text_file(path, t.tni_table.empty() ? platforms::tni_table(m) : t.tni_table, "--tni-counters");
}

std::string sizes_table(const std::vector<std::string>& sizes, const std::vector<nlohmann::json>& runs) {
  std::string table = "size,completion_ns,latency_ns,bandwidth_gbps,verified\n";
  for (std::size_t i = 0; i < runs.size(); ++i) table += row(sizes[i], runs[i]);
  return table;
}

std::string compare_table(const std::string& key, const std::vector<std::string>& values,
                          const std::vector<nlohmann::json>& runs) {
  double best = 0;
  for (std::size_t i = 0; i < runs.size(); ++i)
    if (i == 0 || runs[i]["latency_ns"].get<double>() < best) best = runs[i]["latency_ns"].get<double>();
  std::string table = key + ",completion_ns,latency_ns,bandwidth_gbps,verified,fastest\n";
  for (std::size_t i = 0; i < runs.size(); ++i) {
    std::string line = row(values[i], runs[i]);
    line.insert(line.size() - 1, runs[i]["latency_ns"].get<double>() == best ? ",yes" : ",");
    table += line;
  }
  return table;
}

std::string size_compare_table(const std::string& key, const std::vector<std::string>& values,
                               const std::vector<std::string>& sizes,
                               const std::vector<std::vector<double>>& latency,
                               const std::vector<std::size_t>& fastest,
                               const std::vector<Crossover>& crossovers) {
  std::string table = "size";
  for (const auto& v : values) table += "," + key + "=" + v;
  table += ",fastest\n";
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    table += sizes[i];
    for (std::size_t v = 0; v < values.size(); ++v) table += fmt::format(",{}", latency[v][i]);
    table += "," + values[fastest[i]] + "\n";
  }
  for (const Crossover& c : crossovers)
    table += fmt::format("crossover: {}={} is faster than {}={} from between {} and {} bytes\n", key,
                         values[c.to], key, values[c.from], c.above_bytes, c.at_most_bytes);
  return table;
}

}  // namespace kairo::app
