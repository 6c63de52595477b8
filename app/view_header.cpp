// The header of kairo view's pages (app/view_header.h).
#include "app/view_header.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace kairo::app::view {
namespace {

namespace fs = std::filesystem;

// A time in ns as the time axes show it (ns, µs or ms by its size).
std::string duration(double ns) {
  const auto [unit, scale] = time_unit(ns * 1e-9);
  return fmt::format("{:.4g} {}", ns * 1e-9 / scale, unit);
}

std::string text(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_float()) return fmt::format("{:.4g}", v.get<double>());
  return v.dump();
}

void add(Fields& f, const nlohmann::json& j, const char* key, const std::string& label,
         const std::string& unit = "") {
  if (j.contains(key) && !j[key].is_null()) f.emplace_back(label, text(j[key]) + unit);
}

}  // namespace

nlohmann::json read_summary(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot be read");
  nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded() || !is_summary(j))
    throw std::runtime_error(path + ": not a run summary (kairo run --json or kairo traffic --json)");
  return j;
}

bool is_summary(const nlohmann::json& j) {
  return j.is_object() && j.contains("platform") && j["platform"].is_string() &&
         (j.contains("workload") || j.contains("pattern"));
}

std::string summary_beside(const std::string& log) {
  const fs::path p(log);
  for (const fs::path& c : {fs::path(p).replace_extension(".json"), p.parent_path() / "run.json"}) {
    std::error_code ec;
    if (fs::is_regular_file(c, ec)) return c.string();
  }
  return {};
}

Fields summary_fields(const nlohmann::json& j) {
  Fields f;
  add(f, j, "platform", "platform");
  if (j.contains("workload")) {  // kairo run
    add(f, j, "workload", "workload");
    std::string params;
    const nlohmann::json p = j.value("params", nlohmann::json::object());
    for (const auto& [k, v] : p.items()) params += (params.empty() ? "" : " ") + k + "=" + text(v);
    if (!params.empty()) f.emplace_back("params", params);
    add(f, j, "mode", "mode");
    add(f, j, "nodes", "nodes");
    add(f, j, "ranks", "ranks");
    if (j.contains("completion_ns")) f.emplace_back("completion", duration(j["completion_ns"].get<double>()));
    if (j.contains("latency_ns")) f.emplace_back("latency", duration(j["latency_ns"].get<double>()));
    add(f, j, "bandwidth_gbps", "bandwidth", " GB/s");
    if (j.contains("details") && j["details"].contains("ratio_to_bound"))
      f.emplace_back("ratio to bound", text(j["details"]["ratio_to_bound"]));
    add(f, j, "verified", "verified");
    if (j.contains("network"))
      add(f, j["network"], "packets", "packets"), add(f, j["network"], "packet_hops", "packet hops");
  } else {  // kairo traffic
    add(f, j, "pattern", "pattern");
    add(f, j, "mode", "injection");
    add(f, j, "rate", "offered", " flits/node/cycle");
    add(f, j, "seed", "seed");
    add(f, j, "nodes", "nodes");
    add(f, j, "accepted_flits_per_node_cycle", "accepted", " flits/node/cycle");
    add(f, j, "avg_packet_latency_cycles", "packet latency", " cycles");
    add(f, j, "avg_hops", "hops");
    add(f, j, "packets_delivered", "packets delivered");
    add(f, j, "packets_lost", "lost");
    add(f, j, "deadlock", "deadlock");
  }
  return f;
}

Fields log_fields(const Model& m, const std::string& log, std::size_t links) {
  const double end = m.start_s.back() + m.seconds.back();
  return {{"counter log", fs::path(log).filename().string()},
          {"interval", duration(m.interval_s * 1e9)},
          {"shown", duration(m.start_s.front() * 1e9) + " to " + duration(end * 1e9) + " (" +
                        std::to_string(m.seconds.size()) + " intervals)"},
          {"links", std::to_string(links)},
          {"VCs", std::to_string(m.vcs)}};
}

nlohmann::json header_json(const nlohmann::json* summary, const std::string& summary_path, const Model& m,
                           const std::string& log, std::size_t links) {
  nlohmann::json h;
  h["log"] = log_fields(m, log, links);
  if (summary) {
    h["platform"] = (*summary)["platform"];
    h["fields"] = summary_fields(*summary);
    h["source"] = "run summary: " + fs::path(summary_path).filename().string();
    h["title"] = (*summary)["platform"].get<std::string>() + ", " +
                 text(summary->contains("workload") ? (*summary)["workload"] : (*summary)["pattern"]);
  } else {
    h["platform"] = nullptr;
    h["fields"] = nlohmann::json::array();
    h["source"] =
        "no run summary: platform, workload and totals are not in the counter log; pass --summary RUN.json "
        "(the run's --json output) or keep run.json next to the log";
    h["title"] = fs::path(log).filename().string();
  }
  return h;
}

}  // namespace kairo::app::view
