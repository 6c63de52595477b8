// The energy model against DSENT, its laws, the `energy` object of kairo
// traffic and kairo run, and bad energy keys.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "hw/common/energy.h"
#include "tests/test_support.h"

namespace kairo {
namespace {

// bench/data/dsent_45nm.csv: DSENT's router over 34 shapes (bench/dsent_reference.py).
std::vector<std::map<std::string, std::string>> dsent_rows() {
  std::ifstream in(std::string(KAIRO_SOURCE_DIR) + "/bench/data/dsent_45nm.csv");
  std::vector<std::string> head;
  std::vector<std::map<std::string, std::string>> rows;
  std::string line;
  auto split = [](const std::string& s) {
    std::vector<std::string> v;
    std::stringstream ss(s);
    for (std::string f; std::getline(ss, f, ',');) v.push_back(f);
    return v;
  };
  while (std::getline(in, line)) {
    if (head.empty()) {
      head = split(line);
      continue;
    }
    const auto f = split(line);
    std::map<std::string, std::string> r;
    for (std::size_t i = 0; i < head.size() && i < f.size(); ++i) r[head[i]] = f[i];
    rows.push_back(r);
  }
  return rows;
}

double num(const std::map<std::string, std::string>& r, const char* k) { return std::stod(r.at(k)); }

// Every DSENT shape at its own technology: per-event energies, leakage and
// area by component within 10% at 45 nm (the fitted node), and within 20%
// at 32 nm, reached by the scaling rules alone.
TEST(EnergyModel, RouterMatchesDsentAtEveryShapeAndNode) {
  const auto rows = dsent_rows();
  ASSERT_EQ(rows.size(), 34u);
  for (const auto& r : rows) {
    const std::string tech = r.at("tech");
    if (tech == "Bulk22LVT") continue;  // documented: 22 nm is outside the scaling's 20% (docs/energy.md)
    hw::EnergyParams e;
    e.node_nm = tech == "Bulk45LVT" ? 45 : 32;
    e.vdd = tech == "Bulk45LVT" ? 1.0 : 0.9;
    const double tol = tech == "Bulk45LVT" ? 0.10 : 0.20;
    const hw::RouterCost c = hw::router_cost(
        e, {int(num(r, "ports")), int(num(r, "vcs")), int(num(r, "depth")), int(num(r, "flit_bits"))});
    const std::string what = tech + " " + r.at("ports") + " ports " + r.at("flit_bits") + " bits " +
                             r.at("vcs") + "x" + r.at("depth");
    auto near = [&](double got, double want, const char* field) {
      EXPECT_NEAR(got / want, 1.0, tol) << what << ": " << field << " " << got << " against DSENT's " << want;
    };
    near(c.write_pj, num(r, "write_pj"), "buffer write pJ");
    near(c.read_pj, num(r, "read_pj"), "buffer read pJ");
    near(c.crossbar_pj, num(r, "crossbar_pj"), "crossbar pJ");
    near(c.arbitration_pj, num(r, "arbitrate1_pj") + num(r, "arbitrate2_pj"), "arbitration pJ");
    near(c.clock_pj, num(r, "clock_pj"), "clock pJ");
    near(c.buffer_leak_w * 1e3, num(r, "leak_buffer_mw"), "buffer leakage mW");
    near(c.crossbar_leak_w * 1e3, num(r, "leak_crossbar_mw"), "crossbar leakage mW");
    near(c.allocator_leak_w * 1e3, num(r, "leak_switch_allocator_mw"), "allocator leakage mW");
    near(c.buffer_um2, num(r, "area_buffer_um2"), "buffer area");
    // DSENT's 32 nm crossbar, wire-bound, keeps 0.885 of its 45 nm area (its
    // global wires barely shrink); the model's area scales with the node's
    // square (0.51) and is checked at 45 nm only (docs/energy.md).
    if (tech == "Bulk45LVT") near(c.crossbar_um2, num(r, "area_crossbar_um2"), "crossbar area");
    near(c.allocator_um2, num(r, "area_switch_allocator_um2"), "allocator area");
  }
}

// Buffer area grows with VCs x depth and nothing else of the buffer: equal
// steps of VCs x depth add equal area, whichever of the two makes them.
TEST(EnergyModel, BufferAreaIsProportionalToVcsTimesDepth) {
  const hw::EnergyParams e;
  auto area = [&](int vcs, int depth) { return hw::router_cost(e, {5, vcs, depth, 64}).buffer_um2; };
  const double step = area(2, 8) - area(1, 8);  // 8 entries more
  EXPECT_NEAR(area(4, 4) - area(2, 4), step, 1e-9 * step);
  EXPECT_NEAR(area(1, 16) - area(1, 8), step, 1e-9 * step);
  EXPECT_NEAR((area(8, 8) - area(1, 8)) / step, (64.0 - 8.0) / 8.0, 1e-9);
}

// A link's energy per flit is the wire model's: bits x C x L x V^2 / 4.
TEST(EnergyModel, LinkEnergyFollowsTheWireModel) {
  hw::EnergyParams e;
  e.wire_ff_per_mm = 200, e.link_length_mm = 2.5, e.vdd = 0.8;
  EXPECT_NEAR(hw::link_cost(e, 128).flit_pj, 128 * 200e-3 * 2.5 * 0.64 / 4, 1e-12);
  e.link_pj_per_mm = 3;  // a given coefficient replaces the model
  EXPECT_NEAR(hw::link_cost(e, 128).flit_pj, 3 * 2.5, 1e-12);
}

std::vector<std::string> words(const std::string& s) {
  std::vector<std::string> v;
  std::stringstream ss(s);
  for (std::string w; ss >> w;) v.push_back(w);
  return v;
}

// kairo with `args` and a JSON summary: the summary, after checking it exited 0.
nlohmann::json kairo_json(const std::string& args) {
  const std::string path = test::temp_dir() + "/run.json";
  std::vector<std::string> argv = words(args);
  argv.insert(argv.end(), {"--quiet", "--json", path});
  const test::CommandResult r = test::run_kairo(argv);
  EXPECT_EQ(r.exit_code, 0) << args << ": " << r.err;
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

nlohmann::json traffic(const std::string& args) { return kairo_json("traffic mesh-8x8 " + args); }

// With every coefficient but the link's set to zero, the dynamic energy is
// the flits that crossed links times the link's energy per flit: it follows
// the flit-hops of the load, and the static energy the window's length.
TEST(EnergyTraffic, DynamicEnergyFollowsFlitHopsAndStaticEnergyTheWindow) {
  const std::string only_links =
      "--set energy.buffer_write=0 --set energy.buffer_read=0 --set energy.crossbar=0 --set "
      "energy.arbitration=0 "
      "--set energy.clock=0 --set energy.vc_allocation=0 --set energy.link=2 --set energy.link_length=1.5 "
      "--warmup-cycles 500 ";
  for (const char* rate : {"0.05", "0.2"}) {
    const auto j = traffic(only_links + "--measure-cycles 2000 --rate " + rate);
    const double flits = j["window_link_flits"];
    ASSERT_GT(flits, 0);
    EXPECT_NEAR(double(j["energy"]["total_dynamic_j"]), flits * 2 * 1.5 * 1e-12, 64 * 1e-15)
        << "rate " << rate;
  }
  const auto a = traffic("--rate 0.1 --warmup-cycles 500 --measure-cycles 2000");
  const auto b = traffic("--rate 0.1 --warmup-cycles 500 --measure-cycles 4000");
  EXPECT_NEAR(double(b["energy"]["total_static_j"]) / double(a["energy"]["total_static_j"]), 2.0, 1e-6);
  EXPECT_NEAR(double(b["energy"]["dynamic_j"]["clock"]) / double(a["energy"]["dynamic_j"]["clock"]), 2.0,
              1e-6);
  // The classes add up to the totals, and the average power is energy over time.
  double dyn = 0;
  for (const auto& [k, v] : a["energy"]["dynamic_j"].items()) dyn += double(v);
  EXPECT_NEAR(dyn, double(a["energy"]["total_dynamic_j"]), 1e-15 * 16);
  EXPECT_NEAR(double(a["energy"]["average_w"]),
              double(a["energy"]["total_j"]) / double(a["energy"]["window_s"]), 1e-9);
}

// kairo run: the NICs' DMA energy is their bytes moved times energy.dma
// plus their commands times energy.nic_command (a 4 KiB put: 4096 bytes
// read at the initiator, 4096 written at the target).
TEST(EnergyRun, NicEnergyIsDmaBytesAndCommandsTimesTheirCoefficients) {
  const auto j = kairo_json(
      "run mesh-8x8 --workload pingpong --param size=4KiB "
      "--set energy.dma=2 --set energy.nic_command=1000");
  const auto& c = j["nic_counters"];
  const double bytes = double(c["dma_bytes_read"]) + double(c["dma_bytes_written"]);
  const double commands = double(c["commands"]);
  ASSERT_GT(bytes, 0);
  EXPECT_NEAR(double(j["energy"]["dynamic_j"]["nic"]), (bytes * 2 + commands * 1000) * 1e-12, 1e-15);
  EXPECT_EQ(double(j["energy"]["delivered_bytes"]), double(c["dma_bytes_written"]));
}

// A sweep's points each carry their energy, its table a column of it, and
// `--plot-kind energy` / `kairo plot --kind energy` draw it against offered
// load; a sweep without energy (an older JSON) is refused by name.
TEST(EnergyOutputs, SweepsTablesAndPlotsCarryEnergyPerFlit) {
  const std::string dir = test::temp_dir();
  const auto j =
      kairo_json("traffic mesh-8x8 --sweep 0.05,0.2 --warmup-cycles 500 --measure-cycles 1000 --csv " + dir +
                 "/s.csv --plot " + dir + "/s.svg --plot-kind energy");
  ASSERT_EQ(j["sweep"].size(), 2u);
  std::ifstream csv(dir + "/s.csv");
  std::string head, row;
  std::getline(csv, head);
  EXPECT_NE(head.find(",dynamic_pj_per_flit"), std::string::npos) << head;
  for (const auto& p : j["sweep"]) {
    std::getline(csv, row);
    const double e = p["energy"]["dynamic_pj_per_flit"];
    EXPECT_GT(e, 0);
    EXPECT_NEAR(std::stod(row.substr(row.rfind(',') + 1)), e, 1e-3) << row;
  }
  std::ifstream svg(dir + "/s.svg");
  const std::string text((std::istreambuf_iterator<char>(svg)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("pJ per delivered flit"), std::string::npos);

  nlohmann::json old = j;
  for (auto& p : old["sweep"]) p.erase("energy");
  const std::string old_path = test::write_file(dir, "old.json", old.dump());
  const test::CommandResult r =
      test::run_kairo({"plot", old_path, "--kind", "energy", "--out", dir + "/o.svg"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("old.json"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("energy"), std::string::npos) << r.err;
}

// An experiment's rows report the mean energy per flit of their seeds' runs.
TEST(EnergyOutputs, ExperimentRowsAverageTheirRunsEnergyPerFlit) {
  const std::string dir = test::temp_dir();
  const std::string file = test::write_file(dir, "e.yaml",
                                            "platform: mesh-8x8\n"
                                            "traffic: {warmup_cycles: 500, measure_cycles: 1000}\n"
                                            "grid: {router.vcs: [2, 4]}\n"
                                            "measure: {kind: rate, rate: 0.1}\n"
                                            "seeds: 2\n"
                                            "outputs: {dir: " +
                                                dir + "/out}\n");
  const test::CommandResult r = test::run_kairo({"experiment", file, "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(dir + "/out/summary.json");
  const auto s = nlohmann::json::parse(in);
  ASSERT_EQ(s["rows"].size(), 2u);
  for (const auto& row : s["rows"]) {
    double sum = 0;
    int n = 0;
    for (const auto& run : s["runs"])
      if (run["configuration"] == row["configuration"]) sum += double(run["run"]["pj_per_flit"]), ++n;
    ASSERT_EQ(n, 2);
    EXPECT_NEAR(double(row["dynamic_pj_per_flit"]["mean"]), sum / n, 1e-9 * sum);
  }
  // More VCs, deeper buffers: more energy per flit at the same load.
  EXPECT_GT(double(s["rows"][1]["dynamic_pj_per_flit"]["mean"]),
            double(s["rows"][0]["dynamic_pj_per_flit"]["mean"]));
}

// The counter log's energy_fj column: over every interval and router port
// it adds up to the run's dynamic router and link energy (each total rounds
// to a femtojoule per port in the log and per router and class in the JSON);
// kairo view draws it as the power view beside utilization.
TEST(EnergyOutputs, CounterLogEnergyAddsUpToTheRunsAndTheViewDrawsPower) {
  const std::string dir = test::temp_dir();
  const auto j = kairo_json("run mesh-8x8 --workload alltoall --param size=4KiB --counters " + dir +
                            "/c.csv --interval 2us");
  std::ifstream in(dir + "/c.csv");
  std::string line, header;
  std::getline(in, line);  // the comment line
  std::getline(in, header);
  const std::vector<std::string> cols = [&] {
    std::vector<std::string> v;
    std::stringstream ss(header);
    for (std::string f; std::getline(ss, f, ',');) v.push_back(f);
    return v;
  }();
  const auto at = [&](const char* name) {
    return std::size_t(std::find(cols.begin(), cols.end(), name) - cols.begin());
  };
  const std::size_t energy = at("energy_fj"), kind = at("kind");
  ASSERT_LT(energy, cols.size()) << header;
  double fj = 0;
  std::set<std::string> ports;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string c; std::getline(ss, c, ',');) f.push_back(c);
    if (f.size() <= energy || f[kind] != "link") continue;
    fj += std::stod(f[energy]);
    ports.insert(f[at("unit")] + "." + f[at("port")]);
  }
  const auto& d = j["energy"]["dynamic_j"];
  const double want =
      (double(d["buffer"]) + double(d["crossbar"]) + double(d["allocator"]) + double(d["link"])) * 1e15;
  ASSERT_GT(want, 0);
  EXPECT_NEAR(fj, want, double(ports.size()) + 4 * 64) << "ports " << ports.size();

  const test::CommandResult v = test::run_kairo({"view", dir + "/c.csv", "--out", dir + "/view"});
  ASSERT_EQ(v.exit_code, 0) << v.err;
  for (const char* f : {"topology_power.svg", "timeseries_power.svg", "topology_util.svg"})
    EXPECT_TRUE(std::ifstream(dir + "/view/" + f).good()) << f;
  std::ifstream page(dir + "/view/index.html");
  const std::string html((std::istreambuf_iterator<char>(page)), std::istreambuf_iterator<char>());
  EXPECT_NE(html.find("\"power\":[\"power\""), std::string::npos);
}

// Bad coefficients and unknown keys: exit 2, naming the key and the range.
TEST(EnergyBadInput, NegativeAbsurdAndUnknownKeysAreRefusedByName) {
  struct Case {
    std::string set, want;
  };
  const std::vector<Case> cases = {
      {"energy.vdd=-1", "energy.vdd: expected a number > 0 and at most 5"},
      {"energy.node=1e9", "energy.node: expected a number > 1 and at most 1000"},
      {"energy.buffer_write=-3", "energy.buffer_write: expected a number >= 0 and at most 1000000"},
      {"energy.link_length=abc", "energy.link_length: expected a number > 0"},
      {"energy.leakage=1", "unknown key 'energy.leakage'"},
  };
  for (const Case& c : cases) {
    const test::CommandResult r = test::run_kairo({"check", "mesh-8x8", "--set", c.set});
    EXPECT_EQ(r.exit_code, 2) << c.set;
    EXPECT_NE(r.err.find(c.want), std::string::npos) << c.set << ": " << r.err;
  }
}

}  // namespace
}  // namespace kairo
