// `kairo traffic`: synthetic traffic on any platform (mesh/torus, fat tree,
// clusters, the hybrid network's packet switches).
#include <fmt/format.h>

#include <iostream>
#include <sstream>

#include "app/child_runner.h"
#include "app/cli_common.h"
#include "app/observe.h"
#include "app/plot_data.h"
#include "platforms/partition.h"
#include "platforms/resolved.h"
#include "sim/host_memory.h"
#include "sim/mpi_world.h"
#include "sim/output_file.h"
#include "traffic/pattern.h"
#include "traffic/traffic_run.h"

namespace kairo::app {
namespace {

struct TrafficArgs {
  std::string platform;
  std::vector<std::string> sets;
  traffic::TrafficOptions opt;
  std::string json_path, csv_path, plot_path, sweep;
  std::string plot_kind = "latency";  // --plot-kind
  std::string partition = "auto";
  std::vector<std::uint32_t> hotspots;
  bool quiet = false;
  Observe observe;  // waveforms and counter logs
};

// Runs one traffic point in a child process (app/child_runner.h) and
// returns its JSON.
nlohmann::json run_point_in_child(const platforms::Platform& plat, traffic::TrafficOptions opt) {
  const ChildResult child = run_in_child([&](std::string& out) {
    try {
      opt.exiting_after = true;
      auto r = traffic::run_traffic(plat, opt);
      out = r.json.dump();
      return r.deadlock || r.lost_or_duplicated ? 1 : 0;
    } catch (const std::exception& e) {
      out = nlohmann::json{{"error", e.what()}}.dump();
      return 2;
    }
  });
  if (child.text.empty())
    throw std::runtime_error("sweep point at rate " + std::to_string(opt.rate) + " crashed");
  return nlohmann::json::parse(child.text);
}

std::vector<double> parse_rates(const std::string& list) {
  std::vector<double> rates;
  std::stringstream ss(list);
  std::string item;
  while (std::getline(ss, item, ',')) {
    char* end = nullptr;
    double r = std::strtod(item.c_str(), &end);
    if (item.empty() || *end != '\0' || !(r > 0 && r <= 1))
      throw std::invalid_argument("--sweep: expected a comma-separated list of rates within (0, 1], got '" +
                                  item + "'");
    rates.push_back(r);
  }
  if (rates.empty()) throw std::invalid_argument("--sweep: expected at least one rate");
  return rates;
}

// Every sweep point's JSON, in rate order. Under mpirun the points are
// shared out (point i on process i mod N, each a one-process run in a child
// process as always) and process 0 gathers them; the others get an empty list.
std::vector<nlohmann::json> sweep_points(const platforms::Platform& plat, TrafficArgs& a,
                                         const std::vector<double>& rates) {
  const sim::MpiWorld& world = sim::MpiWorld::get();
  std::vector<nlohmann::json> results(rates.size());
  std::vector<char> mine;
  sim::ByteWriter w(mine);
  for (std::size_t i = 0; i < rates.size(); ++i) {
    if (int(i % std::size_t(world.size())) != world.rank()) continue;
    traffic::TrafficOptions o = a.opt;
    o.rate = rates[i];
    o.partition = nullptr;
    if (!a.quiet) std::cerr << fmt::format("kairo traffic: sweep point rate {}\n", rates[i]);
    try {
      results[i] = run_point_in_child(plat, o);
    } catch (const std::runtime_error& e) {  // the point's child crashed: the error is the point's
      results[i] = nlohmann::json{{"error", e.what()}};
    }
    w.put(std::uint64_t(i));
    w.put_string(results[i].dump());
  }
  if (!world.parallel()) return results;
  const auto all = world.gather(mine);
  if (!world.root()) return {};
  for (const auto& bytes : all) {
    sim::ByteReader r(bytes);
    while (!r.done()) {
      const auto i = r.get<std::uint64_t>();
      results.at(i) = nlohmann::json::parse(r.get_string());
    }
  }
  return results;
}

// Saturation: the first swept rate where accepted throughput falls below 95%
// of offered or average packet latency exceeds 3x the lowest rate's.
nlohmann::json sweep(const platforms::Platform& plat, TrafficArgs& a, int& code, std::string& csv) {
  std::vector<double> rates = parse_rates(a.sweep);
  nlohmann::json points = nlohmann::json::array();
  csv =
      "rate,offered_flits_per_node_cycle,accepted_flits_per_node_cycle,avg_packet_latency_cycles,"
      "avg_network_latency_cycles,p99_latency_cycles,avg_hops,deadlock\n";
  double zero_load = 0, max_accepted = 0;
  nlohmann::json saturation = nullptr, last_stable = nullptr;
  const std::vector<nlohmann::json> results = sweep_points(plat, a, rates);
  if (!sim::MpiWorld::get().root()) return nullptr;  // process 0 reports
  for (std::size_t i = 0; i < rates.size(); ++i) {
    const double r = rates[i];
    const nlohmann::json& p = results[i];
    if (p.contains("error")) throw std::invalid_argument(p["error"].get<std::string>());
    points.push_back(p);
    points.back().erase("resolved");  // the sweep's own, below, is every point's
    double offered = p["offered_flits_per_node_cycle"], accepted = p["accepted_flits_per_node_cycle"];
    double lat = p["avg_packet_latency_cycles"];
    if (p["deadlock"] == true || p["packets_lost"] != 0) code = kExitSimFailure;
    csv += fmt::format("{},{:.6f},{:.6f},{:.3f},{:.3f},{},{:.4f},{}\n", r, offered, accepted, lat,
                       p["avg_network_latency_cycles"].get<double>(),
                       p["latency_percentiles_cycles"]["p99"].get<std::uint64_t>(),
                       p["avg_hops"].get<double>(), p["deadlock"].get<bool>());
    if (zero_load == 0) zero_load = lat;
    max_accepted = std::max(max_accepted, accepted);
    bool saturated = accepted < 0.95 * offered || lat > 3 * zero_load;
    if (saturated && saturation.is_null()) saturation = r;
    if (!saturated && saturation.is_null()) last_stable = r;
  }
  return {
      {"platform", plat.name},
      {"pattern", a.opt.pattern},
      {"packet_flits", a.opt.packet_flits},
      {"sets", plot::sets_json(a.sets)},
      {"resolved", platforms::resolved_json(plat)},
      {"sweep", points},
      {"saturation_rate", saturation},
      {"last_stable_rate", last_stable},
      {"max_accepted_flits_per_node_cycle", max_accepted},
      {"saturation_rule", "first rate with accepted < 0.95 x offered or latency > 3 x the lowest rate's"}};
}

int sweep_and_report(const platforms::Platform& plat, TrafficArgs& a);

// --sweep under mpirun: the points run on every process (sweep_points);
// process 0 prints the table and tells the others the exit code.
int parallel_sweep(const platforms::Platform& plat, TrafficArgs& a) {
  const sim::MpiWorld& world = sim::MpiWorld::get();
  int code = kExitOk;
  try {
    code = sweep_and_report(plat, a);
  } catch (const std::exception& e) {
    code = world.root() ? bad_input(e.what()) : kExitBadInput;
  }
  std::vector<char> shared(1, char(code));
  world.broadcast(shared);
  return shared.at(0);
}

// --sweep: the table (--csv or stdout) and the JSON (--json or nothing more).
int sweep_and_report(const platforms::Platform& plat, TrafficArgs& a) {
  if (a.observe.any()) throw std::invalid_argument("--vcd/--fst/--counters record one run: not with --sweep");
  if (a.opt.batch_packets > 0)
    throw std::invalid_argument("--sweep: sweeps injection rates; batch mode (--batch) has no rate");
  int code = kExitOk;
  std::string csv;
  const nlohmann::json result = sweep(plat, a, code, csv);
  if (!sim::MpiWorld::get().root()) return code;
  if (!a.csv_path.empty()) {
    if (write_summary("--csv", a.csv_path, csv) != kExitOk) code = kExitBadInput;
  } else {
    std::cout << csv;
  }
  if (!a.json_path.empty() && write_summary("--json", a.json_path, result.dump(2) + "\n") != kExitOk &&
      code == kExitOk)
    code = kExitBadInput;
  if (!a.plot_path.empty()) {
    try {
      sim::write_output_file(
          "--plot", a.plot_path,
          plot::svg_of_run(result, "--plot", plot::parse_kind(a.plot_kind, "--plot-kind")));
    } catch (const std::exception& e) {
      code = bad_input(e.what());
    }
  }
  return code;
}

int run_traffic_command(TrafficArgs& a) {
  try {
    platforms::Platform plat = platforms::load_platform(a.platform, a.sets);
    // A traffic run builds no NICs: their adjustments are recorded, not said.
    if (sim::MpiWorld::get().root()) say_adjustments(plat, "nic.");
    a.opt.hotspots.assign(a.hotspots.begin(), a.hotspots.end());
    if (!a.quiet) a.opt.progress = [](const std::string& line) { std::cerr << line << "\n"; };
    a.opt.warn = [](const std::string& line) { std::cerr << line << "\n"; };
    traffic::validate(a.opt, plat);
    platforms::parse_partition_method(a.partition);  // checked in one process too: it matters under mpirun
    sim::check_host_memory(fmt::format("platform {} ({} nodes)", plat.name, plat.nodes()),
                           platforms::estimated_host_bytes(plat, false));
    if (!a.csv_path.empty() && a.sweep.empty())
      throw std::invalid_argument("--csv: writes the --sweep table; give --sweep RATES");
    if (!a.plot_path.empty() && a.sweep.empty())
      throw std::invalid_argument("--plot: draws the --sweep points; give --sweep RATES");
    if (const plot::Kind k = plot::parse_kind(a.plot_kind, "--plot-kind");
        k != plot::Kind::kLatency && k != plot::Kind::kThroughput)
      throw std::invalid_argument("--plot-kind: a sweep draws latency or throughput, got '" + a.plot_kind +
                                  "'");
    // Every output path is checked before anything runs (under mpirun by
    // process 0 alone, which writes them: two processes trying one new file
    // at once would see each other's).
    const sim::MpiWorld& world = sim::MpiWorld::get();
    if (int code = on_process_zero(world, [&] {
          if (!a.json_path.empty()) sim::check_output_path("--json", a.json_path);
          if (!a.csv_path.empty()) sim::check_output_path("--csv", a.csv_path);
          if (!a.plot_path.empty()) sim::check_output_path("--plot", a.plot_path);
          a.observe.check_outputs();
        }))
      return code;
    // Under mpirun: one run split over the processes (docs/parallel.md).
    platforms::Partition part;
    if (world.parallel()) {
      if (!a.sweep.empty()) return parallel_sweep(plat, a);
      part = make_run_partition(plat, world.size(), a.partition);
      a.opt.partition = &part;
    }
    int code = kExitOk;
    nlohmann::json result;
    if (!a.sweep.empty()) {
      return sweep_and_report(plat, a);
    } else {
      a.opt.exiting_after = true;
      a.opt.on_built = [&a](platforms::Network& net, sim::EventQueue& q) {
        a.observe.attach(net, nullptr, q);
      };
      a.opt.around_reset = [&a](bool after, sim::Time now) { a.observe.around_reset(after, now); };
      std::string output_error;  // a waveform or counter log that could not be written
      a.opt.on_finished = [&a, &output_error] {
        try {
          a.observe.finish();
        } catch (const std::runtime_error& e) {
          output_error = e.what();
        }
        a.observe.detach();  // before the network goes
      };
      traffic::TrafficResult r;
      if (world.parallel()) {
        try {
          r = traffic::run_traffic(plat, a.opt);
        } catch (const std::exception& e) {
          fail_in_parallel(e.what(), kExitSimFailure);
        }
        if (!world.root()) return r.deadlock || r.lost_or_duplicated ? kExitSimFailure : kExitOk;
      } else {
        r = traffic::run_traffic(plat, a.opt);
      }
      result = r.json;
      a.observe.summarize(result);
      if (r.deadlock) {
        std::cerr << fmt::format(
            "kairo: deadlock: no packet moved for {} cycles with {} packet(s) in the network; "
            "blocked ports and VCs:\n",
            plat.router.watchdog_cycles,
            result["packets_created"].get<std::uint64_t>() -
                result["packets_delivered"].get<std::uint64_t>());
        for (auto& line : r.blocked) std::cerr << "  " << line << "\n";
        code = kExitSimFailure;
      } else if (r.lost_or_duplicated) {
        std::cerr << fmt::format("kairo: packets lost: {}, duplicated: {}\n", result["packets_lost"].dump(),
                                 result["packets_duplicated"].dump());
        code = kExitSimFailure;
      }
      if (!output_error.empty()) {
        bad_input(output_error);
        if (code == kExitOk) code = kExitBadInput;
      }
    }
    // Without --json the summary goes to stdout, except after a sweep (its table did).
    if ((!a.json_path.empty() || a.sweep.empty()) &&
        write_summary("--json", a.json_path, result.dump(2) + "\n") != kExitOk && code == kExitOk)
      code = kExitBadInput;
    return code;
  } catch (const platforms::ConfigError& e) {
    return bad_input(e.what());
  } catch (const std::invalid_argument& e) {
    return bad_input(e.what());
  } catch (const std::runtime_error& e) {
    return bad_input(e.what());
  }
}

}  // namespace

void add_traffic_command(CLI::App& app, int& exit_code) {
  auto a = std::make_shared<TrafficArgs>();
  CLI::App* c = app.add_subcommand("traffic", "run synthetic traffic on a platform (any fabric)");
  c->add_option("platform", a->platform, "shipped platform name (see `kairo platforms`) or YAML file")
      ->required();
  std::string patterns;
  for (const auto& n : traffic::pattern_names()) patterns += (patterns.empty() ? "" : "|") + n;
  c->add_option("--pattern", a->opt.pattern, patterns + " (docs/traffic.md)")->capture_default_str();
  c->add_option("--rate", a->opt.rate, "injection rate, flits per node per router cycle, in (0, 1]")
      ->capture_default_str();
  c->add_option("--packet-flits", a->opt.packet_flits, "packet size in flits")->capture_default_str();
  c->add_option("--warmup-cycles", a->opt.warmup_cycles, "warm-up cycles (not measured)")
      ->capture_default_str()
      ->check(whole_number());
  c->add_option("--measure-cycles", a->opt.measure_cycles, "measurement window in cycles")
      ->capture_default_str()
      ->check(whole_number());
  c->add_option("--drain-cycles", a->opt.drain_cycles,
                "longest drain with sources still on (default: warm-up + measure)")
      ->check(whole_number());
  c->add_option("--seed", a->opt.seed, "random seed")->capture_default_str()->check(whole_number());
  c->add_option("--batch", a->opt.batch_packets, "batch mode: every node sends N packets as fast as it can")
      ->check(whole_number());
  c->add_option("--hotspot-nodes", a->hotspots, "hotspot pattern: node ids that attract traffic")
      ->delimiter(',')
      ->check(whole_number());
  c->add_option("--hotspot-fraction", a->opt.hotspot_fraction,
                "hotspot pattern: share of packets sent to hotspots")
      ->capture_default_str();
  c->add_option("--sweep", a->sweep, "comma-separated rates: latency/throughput table and saturation point");
  c->add_option("--csv", a->csv_path, "with --sweep: write the table here (default: stdout)");
  c->add_option("--json", a->json_path, "write the result summary (JSON) here");
  c->add_option("--plot", a->plot_path,
                "with --sweep: draw latency against offered load (SVG) here (docs/plots.md)");
  c->add_option("--plot-kind", a->plot_kind,
                "what --plot draws: latency (against offered load) or throughput (accepted against "
                "offered, saturation marked)")
      ->capture_default_str();
  c->add_option("--set", a->sets, "override a platform parameter, key=value (repeatable)");
  c->add_option(
       "--partition", a->partition,
       "under mpirun: how the platform is split over the processes, auto|blocks|metis (docs/parallel.md)")
      ->capture_default_str();
  a->observe.add_options(c);
  c->add_flag("--quiet", a->quiet, "no progress on stderr");
  c->callback([a, &exit_code] { exit_code = run_traffic_command(*a); });
}

}  // namespace kairo::app
