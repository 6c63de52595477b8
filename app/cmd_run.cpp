// `kairo run`: a named program on every rank of a platform with its NICs.
// Workloads so far: pingpong (see sw/workloads/pingpong.h).
#include <sys/resource.h>

#include <chrono>
#include <iostream>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/cli_common.h"
#include "firmware/rank.h"
#include "platforms/rdma_machine.h"
#include "sim/kernel.h"
#include "sim/units.h"
#include "sw/workloads/pingpong.h"

namespace kairo::app {
namespace {

struct RunArgs {
  std::string platform, workload, mode = "data", json_path;
  std::vector<std::string> params, sets;
  bool quiet = false;
};

// --param k=v, each key consumed exactly once; leftovers are errors.
class Params {
 public:
  explicit Params(const std::vector<std::string>& kv) {
    for (const auto& s : kv) {
      auto eq = s.find('=');
      if (eq == std::string::npos || eq == 0)
        throw std::invalid_argument("--param " + s + ": expected key=value");
      values_[s.substr(0, eq)] = s.substr(eq + 1);
    }
  }
  std::string text(const std::string& k, const std::string& dflt) { return take(k).value_or(dflt); }
  std::uint64_t bytes(const std::string& k, std::uint64_t dflt) {
    auto v = take(k);
    if (!v) return dflt;
    try {
      return units::parse_bytes(*v);
    } catch (const units::UnitError& e) {
      throw std::invalid_argument("--param " + k + "=" + *v + ": " + e.what());
    }
  }
  long long integer(const std::string& k, long long dflt, long long lo, long long hi) {
    auto v = take(k);
    if (!v) return dflt;
    char* end = nullptr;
    long long x = std::strtoll(v->c_str(), &end, 10);
    if (v->empty() || *end || x < lo || x > hi)
      throw std::invalid_argument(fmt::format("--param {}={}: expected an integer in [{}, {}]", k, *v, lo, hi));
    return x;
  }
  void check_all_used(const std::string& workload) const {
    for (const auto& [k, v] : values_)
      if (!used_.count(k)) throw std::invalid_argument("--param " + k + ": not a parameter of workload " + workload);
  }

 private:
  std::optional<std::string> take(const std::string& k) {
    auto it = values_.find(k);
    if (it == values_.end()) return std::nullopt;
    used_[k] = true;
    return it->second;
  }
  std::map<std::string, std::string> values_;
  std::map<std::string, bool> used_;
};

double peak_rss_mib() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return double(ru.ru_maxrss) / 1024.0;
}

int run(RunArgs& a) {
  try {
    if (a.workload != "pingpong")
      throw std::invalid_argument("--workload: unknown workload '" + a.workload + "'; expected one of: pingpong");
    if (a.mode != "data" && a.mode != "size-only")
      throw std::invalid_argument("--mode: expected data or size-only, got '" + a.mode + "'");
    platforms::Platform plat = platforms::load_platform(a.platform, a.sets);
    Params prm(a.params);
    sw::PingpongParams pp;
    const std::string op = prm.text("op", "put");
    if (op != "put" && op != "get") throw std::invalid_argument("--param op=" + op + ": expected put or get");
    pp.get = op == "get";
    pp.size = prm.bytes("size", 8);
    std::uint64_t nodes = 1;
    for (const auto& d : plat.dims) nodes *= std::uint64_t(d.size);
    pp.src = int(prm.integer("src", 0, 0, (long long)nodes - 1));
    pp.dst = int(prm.integer("dst", 1, 0, (long long)nodes - 1));
    pp.tni = int(prm.integer("tni", 0, 0, plat.router.network_interfaces - 1));
    prm.check_all_used(a.workload);
    if (pp.src == pp.dst) throw std::invalid_argument("--param src and dst: expected two different ranks");
    if (pp.size > plat.nic.max_descriptor_bytes)
      throw std::invalid_argument(fmt::format("--param size: at most nic.max_descriptor_size ({} B) per operation",
                                              plat.nic.max_descriptor_bytes));

    auto t0 = std::chrono::steady_clock::now();
    const bool data = a.mode == "data";
    sim::EventQueue queue(plat.router.clock_period_ps());
    platforms::RdmaMachine machine(plat, queue, data);
    std::vector<std::vector<nic::Tni*>> tnis(machine.nodes());
    std::vector<nic::MemoryRegistry*> regs;
    for (router::NodeId n = 0; n < machine.nodes(); ++n) {
      for (int i = 0; i < machine.tnis_per_node(); ++i) tnis[n].push_back(&machine.tni(n, i));
      regs.push_back(&machine.registry(n));
    }
    fw::Runtime rt(queue, machine.network().topology(), tnis, regs);
    // The pattern A sends (data mode): byte i = i * 31 + 7.
    std::vector<unsigned char> pattern(pp.size);
    for (std::size_t i = 0; i < pattern.size(); ++i) pattern[i] = static_cast<unsigned char>(i * 31 + 7);
    auto poke = [&](router::NodeId n, std::uint64_t addr, std::vector<unsigned char>& bytes, tlm::tlm_command cmd) {
      tlm::tlm_generic_payload t;
      t.set_command(cmd);
      t.set_address(addr);
      t.set_data_ptr(bytes.data());
      t.set_data_length(unsigned(bytes.size()));
      t.set_streaming_width(unsigned(bytes.size()));
      machine.memory(n).transport_dbg(t);
    };
    const router::NodeId a_node = router::NodeId(pp.src), b_node = router::NodeId(pp.dst);
    if (data && pp.size) poke(pp.get ? b_node : a_node, 0, pattern, tlm::TLM_WRITE_COMMAND);
    sw::PingpongResult res;
    rt.launch([&](fw::Rank& r) { return sw::pingpong(r, pp, &res); });
    sim::Kernel kernel("kernel", queue);
    auto t1 = std::chrono::steady_clock::now();
    kernel.run();
    auto t2 = std::chrono::steady_clock::now();
    if (!rt.all_done()) throw std::runtime_error("the workload did not finish: a rank is still waiting");

    nlohmann::json verified = nullptr;
    if (data) {
      std::vector<unsigned char> got(pp.size);
      // put: B's receive buffer, then A's landing zone for B's answer; get: A's landing zone.
      bool ok = true;
      if (!pp.get) {
        if (pp.size) poke(b_node, 0, got, tlm::TLM_READ_COMMAND);
        ok = got == pattern;
      }
      if (pp.size) poke(a_node, 1 << 20, got, tlm::TLM_READ_COMMAND);
      verified = ok && got == pattern;
    }
    const double lat_ns = double(res.end_ps - res.start_ps) / 1000.0 / (pp.get ? 1.0 : 2.0);
    nlohmann::json j;
    j["platform"] = plat.name;
    j["nodes"] = machine.nodes();
    j["workload"] = a.workload;
    j["params"] = {{"op", op}, {"size", pp.size}, {"src", pp.src}, {"dst", pp.dst}, {"tni", pp.tni}};
    j["mode"] = a.mode;
    j["completion_ns"] = double(queue.now()) / 1000.0;
    j["latency_ns"] = lat_ns;
    j["bandwidth_gbps"] = lat_ns > 0 ? double(pp.size) / lat_ns : 0.0;  // bytes per ns = GB/s
    j["verified"] = verified;
    j["status_ok"] = res.ok;
    j["elaborate_s"] = std::chrono::duration<double>(t1 - t0).count();
    j["wall_s"] = std::chrono::duration<double>(t2 - t0).count();
    j["events"] = queue.events_processed();
    j["peak_rss_mib"] = peak_rss_mib();
    machine.keep_until_exit();
    if (!a.json_path.empty()) write_text_file(a.json_path, j.dump(2) + "\n");
    else std::cout << j.dump(2) << "\n";
    if (!res.ok || (verified.is_boolean() && !verified.get<bool>())) {
      std::cerr << "kairo: pingpong failed: " << (res.ok ? "data mismatch" : "an operation completed with an error")
                << "\n";
      return kExitSimFailure;
    }
    return kExitOk;
  } catch (const platforms::ConfigError& e) {
    return bad_input(e.what());
  } catch (const std::invalid_argument& e) {
    return bad_input(e.what());
  }
}

}  // namespace

void add_run_command(CLI::App& app, int& exit_code) {
  auto a = std::make_shared<RunArgs>();
  CLI::App* c = app.add_subcommand("run", "run a workload on every rank of a platform");
  c->add_option("platform", a->platform, "shipped platform name or YAML file")->required();
  c->add_option("--workload", a->workload, "pingpong")->required();
  c->add_option("--param", a->params, "workload parameter key=value (repeatable)");
  c->add_option("--set", a->sets, "override a platform parameter, key=value (repeatable)");
  c->add_option("--mode", a->mode, "data (real bytes, verified) or size-only (identical timing)")->capture_default_str();
  c->add_option("--json", a->json_path, "write the result summary (JSON) here");
  c->add_flag("--quiet", a->quiet, "no progress on stderr");
  c->callback([a, &exit_code] { exit_code = run(*a); });
}

}  // namespace kairo::app
