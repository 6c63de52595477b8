// `kairo traffic`: synthetic traffic on any platform (mesh/torus, fat tree,
// clusters, the hybrid network's packet switches).
#include <fmt/format.h>

#include <iostream>
#include <sstream>
#include <thread>

#include "app/child_runner.h"
#include "app/cli_common.h"
#include "app/experiment.h"
#include "app/experiment_report.h"
#include "app/observe.h"
#include "app/plot_data.h"
#include "app/traffic_args.h"
#include "platforms/partition.h"
#include "platforms/resolved.h"
#include "sim/host_memory.h"
#include "sim/mpi_world.h"
#include "sim/output_file.h"
#include "traffic/booksim_config.h"
#include "traffic/injection.h"
#include "traffic/pattern.h"
#include "traffic/traffic_run.h"

namespace kairo::app {
namespace {

// --booksim: the platform and traffic options from a BookSim configuration;
// options given on the command line keep their values.
void take_booksim(TrafficArgs& a, const std::function<bool(const char*)>& given) {
  if (a.booksim.empty()) {
    if (a.platform.empty())
      throw std::invalid_argument("platform: expected a platform name or --booksim FILE.cfg");
    if (!a.overrides.empty() || a.print_config)
      throw std::invalid_argument(
          a.print_config ? "--print-config: prints a --booksim configuration's mapping"
                         : "'" + a.overrides[0] + "': key=value overrides follow --booksim FILE");
    return;
  }
  if (!a.platform.empty() && a.platform.find('=') == std::string::npos)
    throw std::invalid_argument(
        "'" + a.platform +
        "': with --booksim, expected BookSim key=value overrides and no platform (the "
        "configuration names it)");
  if (!a.platform.empty()) a.overrides.insert(a.overrides.begin(), a.platform);
  const traffic::BookSimRun run = traffic::read_booksim(a.booksim, a.overrides);
  traffic::apply_booksim(run, a.platform, a.sets, a.opt, given);
  a.booksim_run = run.json();
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
  ChildPool pool;  // this process's points, -j at a time, written out in rate order
  std::vector<std::size_t> order;
  auto finish = [&] {
    auto [i, child] = pool.next_done();
    results[i] = child.text.empty()
                     ? nlohmann::json{{"error", fmt::format("sweep point at rate {} crashed", rates[i])}}
                     : nlohmann::json::parse(child.text);
  };
  for (std::size_t i = 0; i < rates.size(); ++i) {
    if (int(i % std::size_t(world.size())) != world.rank()) continue;
    traffic::TrafficOptions o = a.opt;
    o.rate = rates[i];
    o.partition = nullptr;
    if (!a.quiet) std::cerr << fmt::format("kairo traffic: sweep point rate {}\n", rates[i]);
    if (int(pool.running()) >= jobs_of(a)) finish();
    pool.start(i, experiment::traffic_child(plat, o));
    order.push_back(i);
  }
  while (pool.running() > 0) finish();
  for (std::size_t i : order) {
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
      "avg_network_latency_cycles,p99_latency_cycles,avg_hops,deadlock,dynamic_pj_per_flit\n";
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
    csv +=
        fmt::format("{},{:.6f},{:.6f},{:.3f},{:.3f},{},{:.4f},{},{:.3f}\n", r, offered, accepted, lat,
                    p["avg_network_latency_cycles"].get<double>(),
                    p["latency_percentiles_cycles"]["p99"].get<std::uint64_t>(), p["avg_hops"].get<double>(),
                    p["deadlock"].get<bool>(), p["energy"]["dynamic_pj_per_flit"].get<double>());
    if (zero_load == 0) zero_load = lat;
    max_accepted = std::max(max_accepted, accepted);
    bool saturated = accepted < 0.95 * offered || lat > 3 * zero_load;
    if (saturated && saturation.is_null()) saturation = r;
    if (!saturated && saturation.is_null()) last_stable = r;
  }
  nlohmann::json out = {
      {"platform", plat.name},
      {"pattern", a.opt.pattern},
      {"sets", plot::sets_json(a.sets)},
      {"resolved", platforms::resolved_json(plat)},
      {"sweep", points},
      {"saturation_rate", saturation},
      {"last_stable_rate", last_stable},
      {"max_accepted_flits_per_node_cycle", max_accepted},
      {"saturation_rule", "first rate with accepted < 0.95 x offered or latency > 3 x the lowest rate's"}};
  if (a.opt.packet_sizes.empty())
    out["packet_flits"] = a.opt.packet_flits;
  else
    out["packet_sizes"] = a.opt.packet_sizes;  // a mix has no one size (the points say the mean)
  if (a.opt.injection != "bernoulli") out["injection"] = a.opt.injection;
  return out;
}

int sweep_and_report(const platforms::Platform& plat, TrafficArgs& a);

// --sweep under mpirun: the points run on every process (sweep_points);
// process 0 prints the table and tells the others the exit code.
int parallel_sweep(const platforms::Platform& plat, TrafficArgs& a) {
  const sim::MpiWorld& world = sim::MpiWorld::get();
  int code = kExitOk;
  try {
    check_same_platform(plat);
    code = sweep_and_report(plat, a);
  } catch (const std::exception& e) {
    code = world.root() ? bad_input(e.what()) : kExitBadInput;
  }
  std::vector<char> shared(1, char(code));
  world.broadcast(shared);
  world.mark_agreed();
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
  // The saturation point, said whatever else is written (the table may have gone to a file).
  if (result["saturation_rate"].is_null())
    std::cerr << fmt::format(
        "kairo traffic: saturation: no swept rate saturated (highest accepted {:.4f} flits/node/cycle); "
        "sweep higher "
        "or use --saturation\n",
        result["max_accepted_flits_per_node_cycle"].get<double>());
  else
    std::cerr << fmt::format(
        "kairo traffic: saturation: at rate {} (the first swept rate with accepted < 0.95 x offered or "
        "latency > 3 "
        "x the lowest rate's); last stable rate {}; highest accepted {:.4f} flits/node/cycle\n",
        result["saturation_rate"].dump(), result["last_stable_rate"].dump(),
        result["max_accepted_flits_per_node_cycle"].get<double>());
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

int run_traffic_command(TrafficArgs& a, const std::function<bool(const char*)>& given) {
  try {
    take_booksim(a, given);
    platforms::Platform plat = platforms::load_platform(a.platform, a.sets);
    // A traffic run builds no NICs: their adjustments are recorded, not said.
    if (sim::MpiWorld::get().root()) say_adjustments(plat, "nic.");
    a.opt.hotspots.assign(a.hotspots.begin(), a.hotspots.end());
    if (!a.quiet) a.opt.progress = [](const std::string& line) { std::cerr << line << "\n"; };
    a.opt.warn = [](const std::string& line) { std::cerr << line << "\n"; };
    traffic::validate(a.opt, plat);
    platforms::parse_partition_method(a.partition);  // checked in one process too: it matters under mpirun
    if (a.print_config) {
      std::cout << a.booksim_run.dump(2) << "\n";
      return kExitOk;
    }
    sim::check_host_memory(fmt::format("platform {} ({} nodes)", plat.name, plat.nodes()),
                           platforms::estimated_host_bytes(plat, false));
    const bool several = !a.sweep.empty() || !a.compare.empty() || a.saturation || a.seeds > 1;
    if (!a.csv_path.empty() && !several)
      throw std::invalid_argument("--csv: writes the table of --sweep, --compare, --saturation or --seeds");
    if (!a.plot_path.empty() && !several)
      throw std::invalid_argument("--plot: draws the points of --sweep, --compare, --saturation or --seeds");
    if (const plot::Kind k = plot::parse_kind(a.plot_kind, "--plot-kind");
        k != plot::Kind::kLatency && k != plot::Kind::kThroughput && k != plot::Kind::kEnergy)
      throw std::invalid_argument("--plot-kind: a sweep draws latency, throughput or energy, got '" +
                                  a.plot_kind + "'");
    // Every output path is checked before anything runs (under mpirun by
    // process 0 alone, which writes them: two processes trying one new file
    // at once would see each other's).
    const sim::MpiWorld& world = sim::MpiWorld::get();
    if (int code = on_process_zero(world, [&] {
          if (!a.json_path.empty()) sim::check_output_path("--json", a.json_path);
          if (!a.csv_path.empty()) sim::check_output_path("--csv", a.csv_path);
          if (!a.plot_path.empty()) sim::check_output_path("--plot", a.plot_path);
          a.observe.check_outputs();
          sim::NamedOutputs outputs = {
              {"--json", a.json_path}, {"--csv", a.csv_path}, {"--plot", a.plot_path}};
          for (const auto& o : a.observe.outputs()) outputs.push_back(o);
          sim::check_distinct_outputs(outputs);
        }))
      return code;
    if (!a.compare.empty() || a.saturation || a.seeds > 1) {
      if (!(a.precision > 0 && a.precision <= 0.5))
        throw std::invalid_argument(
            fmt::format("--precision: expected a load in (0, 0.5], got {}", a.precision));
      return compare_and_report(a);
    }
    // Under mpirun: one run split over the processes (docs/parallel.md).
    platforms::Partition part;
    if (world.parallel()) {
      if (!a.sweep.empty()) return parallel_sweep(plat, a);
      part = make_run_partition(plat, world.size(), a.partition);
      a.opt.partition = &part;
      a.opt.own_part_only = !a.observe.any();  // waveforms and counter logs list every block
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
      a.opt.on_abandoned = [&a] { a.observe.detach(); };
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
  c->add_option("platform", a->platform,
                "shipped platform name (see `kairo platforms`) or YAML file; with --booksim, none");
  c->add_option("overrides", a->overrides, "with --booksim: BookSim key=value overrides after the file");
  c->add_option("--booksim", a->booksim,
                "run a BookSim 2 configuration file (docs/traffic.md): its platform, router and traffic");
  c->add_flag("--print-config", a->print_config,
              "with --booksim: print the kairo settings (JSON), run nothing");
  std::string patterns;
  for (const auto& n : traffic::pattern_names()) patterns += (patterns.empty() ? "" : "|") + n;
  c->add_option("--pattern", a->opt.pattern, patterns + " (docs/traffic.md)")->capture_default_str();
  c->add_option("--rate", a->opt.rate, "injection rate, flits per node per router cycle, in (0, 1]")
      ->capture_default_str();
  CLI::Option* flits =
      c->add_option("--packet-flits", a->opt.packet_flits, "packet size in flits")->capture_default_str();
  c->add_option_function<std::string>(
       "--packet-sizes", [a](const std::string& s) { a->opt.packet_sizes = traffic::parse_packet_sizes(s); },
       "packet sizes in flits with weights, F1:W1,F2:W2,... (instead of --packet-flits)")
      ->excludes(flits);
  std::string processes;
  for (const auto& n : traffic::injection_names()) processes += (processes.empty() ? "" : "|") + n;
  c->add_option("--injection", a->opt.injection, "injection process, " + processes + " (docs/traffic.md)")
      ->capture_default_str();
  c->add_option("--burst-alpha", a->opt.burst_alpha,
                "onoff: probability that an off source turns on, per cycle")
      ->capture_default_str();
  c->add_option("--burst-beta", a->opt.burst_beta,
                "onoff: probability that an on source turns off, per cycle")
      ->capture_default_str();
  c->add_option("--warmup-cycles", a->opt.warmup_cycles, "warm-up cycles (not measured)")
      ->capture_default_str()
      ->check(whole_number());
  c->add_flag(
      "--warmup-converge", a->opt.warmup_converge,
      "end the warm-up once latency and accepted rate settle (BookSim's test, per --sample-cycles period, "
      "within --warmup-threshold); --warmup-cycles is then the longest warm-up");
  c->add_option("--sample-cycles", a->opt.sample_cycles, "--warmup-converge: the sample period in cycles")
      ->capture_default_str()
      ->check(whole_number());
  c->add_option("--warmup-threshold", a->opt.warmup_threshold,
                "--warmup-converge: the largest relative change between periods")
      ->capture_default_str();
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
  c->add_option(
      "--sweep", a->sweep,
      "comma-separated rates: latency/throughput table; the saturation point (the first swept rate past "
      "it) is printed on stderr");
  c->add_option("--csv", a->csv_path, "with --sweep: write the table here (default: stdout)");
  c->add_option("--json", a->json_path, "write the result summary (JSON) here");
  c->add_option("--plot", a->plot_path,
                "with --sweep: draw latency against offered load (SVG) here (docs/plots.md)");
  c->add_option("--plot-kind", a->plot_kind,
                "what --plot draws: latency (against offered load), throughput (accepted against "
                "offered, saturation marked) or energy (dynamic pJ per delivered flit against offered load)")
      ->capture_default_str();
  c->add_option("--set", a->sets, "override a platform parameter, key=value (repeatable)");
  c->add_option("--compare", a->compare,
                "KEY=V1,V2,...: run each value of a platform parameter or traffic option (repeatable: every "
                "combination) and print one table (docs/experiments.md)");
  c->add_flag("--saturation", a->saturation,
              "search for the saturation point by bisection on offered load (docs/experiments.md)");
  c->add_option("--precision", a->precision,
                "--saturation: stop when the bracket is this narrow (flits/node/cycle)")
      ->capture_default_str();
  c->add_option("--seeds", a->seeds,
                "run every point with N seeds (--seed, --seed + 1, ...): mean and 95% interval")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t(1), std::uint64_t(1000)));
  c->add_option("-j,--jobs", a->jobs,
                "runs at once for --sweep, --compare, --saturation, --seeds (default: the cores)")
      ->check(CLI::Range(1, 1024));
  c->add_option(
       "--partition", a->partition,
       "under mpirun: how the platform is split over the processes, auto|blocks|metis (docs/parallel.md)")
      ->capture_default_str();
  a->observe.add_options(c);
  c->add_flag("--quiet", a->quiet, "no progress on stderr");
  c->callback([a, c, &exit_code] {
    exit_code = run_traffic_command(*a, [c](const char* o) { return c->count(o) > 0; });
  });
}

}  // namespace kairo::app
