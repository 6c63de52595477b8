// Blocks report themselves (observe/registry.h): the counter log takes its
// tables and columns from the counter sets the blocks registered and names
// none itself, a run's log carries exactly the router's and the engine's
// registered columns, and the JSON summary's nic_counters are the engine's
// registered counters.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "hw/nic/tni_observe.h"
#include "hw/router/router_observe.h"
#include "observe/registry.h"
#include "platforms/counter_log.h"
#include "platforms/observe_blocks.h"
#include "platforms/platform.h"
#include "platforms/rdma_machine.h"
#include "sim/event_queue.h"
#include "tests/test_support.h"

namespace kairo {
namespace {

// A block the counter log has never heard of: lamps counting the photons
// they emit, and whether they are lit.
struct Lamps : sim::EventTarget {
  std::vector<std::uint64_t> photons = {0, 0};
  std::uint64_t lit = 0;
  void on_event(std::uint32_t, std::uint32_t arg, void*) override {
    photons[arg] += 7;
    lit = 1;
  }
  observe::CounterSet counters(const std::string& table) {
    observe::CounterSet s;
    s.table = table;
    s.scope = "lamp";
    s.counters = {{"photons", "photons", "photons emitted", observe::Kind::kTotal, observe::kInLog, ""},
                  {"secret", "photons", "not for the log", observe::Kind::kTotal, observe::kInSummary, ""},
                  {"lit", "", "1 while lit", observe::Kind::kLevel, observe::kInLog, "is_lit"}};
    s.blocks = photons.size();
    s.read = [this](std::size_t i, sim::Time, std::uint64_t* out) {
      out[0] = photons[i], out[1] = 99, out[2] = i == 0 ? lit : 0;
    };
    s.place = [](std::size_t i) {
      return observe::Place{
          "lamp" + std::to_string(i), "bulb", "c" + std::to_string(i), "", "", "", "", int(i)};
    };
    return s;
  }
};

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> v;
  std::stringstream ss(text);
  for (std::string l; std::getline(ss, l);) v.push_back(l);
  return v;
}

TEST(Observe, ABlocksRegisteredCountersAreTheCounterLogsColumns) {
  Lamps lamps;
  observe::Registry reg;
  reg.add(lamps.counters("link"));
  reg.add(platforms::tni_blocks(nullptr));  // the engines' columns, no engine
  sim::EventQueue q;
  q.at(5, sim::kPrioState, &lamps, 0, 0);
  q.at(25, sim::kPrioState, &lamps, 0, 0);
  const std::string path = test::temp_dir() + "/lamps.csv";
  {
    platforms::CounterLog log(std::move(reg), q, 10, 1, path, nullptr);
    log.start();
    q.run_until(1000);
    log.finish();
    EXPECT_EQ(log.intervals(), 3u);
  }
  const auto l = lines(test::read_file(path));
  ASSERT_EQ(l.size(), 5u);
  std::string header =
      "kind,interval_start_ps,interval_end_ps,unit,port,coord,peer,peer_port,dim,dir,photons,is_lit";
  for (const auto& c : nic::tni_counters())
    if (c.shown & observe::kInLog) header += "," + c.column();
  EXPECT_EQ(l[1], header);
  const std::string tni_blanks(8, ',');
  // Totals as the interval's difference, a level as it is; the second lamp never moved.
  EXPECT_EQ(l[2], "link,0,10,lamp0,bulb,c0,,,,,7,1" + tni_blanks);
  EXPECT_EQ(l[3], "link,10,20,lamp0,bulb,c0,,,,,0,1" + tni_blanks);
  EXPECT_EQ(l[4], "link,20,30,lamp0,bulb,c0,,,,,7,1" + tni_blanks);
  EXPECT_EQ(observe::CounterSet(lamps.counters("link")).name(0), "lamp c0.bulb");
}

TEST(Observe, SetsOfOneTableMustLogTheSameColumns) {
  Lamps lamps;
  observe::Registry reg;
  reg.add(lamps.counters("link"));
  observe::CounterSet other = lamps.counters("link");
  other.counters[0].name = "lumens";
  reg.add(other);
  sim::EventQueue q;
  EXPECT_THROW(platforms::CounterLog(std::move(reg), q, 10, 1, test::temp_dir() + "/x.csv", nullptr),
               std::logic_error);
}

TEST(Observe, ARunsLogAndSummaryCarryTheBlocksRegisteredCounters) {
  const std::string dir = test::temp_dir();
  auto r = test::run_kairo({"run", "tofu-small", "--workload", "pingpong", "--counters", dir + "/c.csv",
                            "--json", dir + "/run.json", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto l = lines(test::read_file(dir + "/c.csv"));
  ASSERT_GE(l.size(), 2u);
  int vcs = 0;
  ASSERT_EQ(
      std::sscanf(l[0].c_str(), "# kairo counter log v1: interval_ps=%*u clock_period_ps=%*u vcs=%d", &vcs),
      1);
  std::string header = "kind,interval_start_ps,interval_end_ps,unit,port,coord,peer,peer_port,dim,dir";
  for (const auto& c : router::port_counters(vcs)) header += "," + c.column();
  header += ",energy_fj";  // beside the router's counts, the energy model's (platforms/observe_blocks.cpp)
  for (const auto& c : nic::tni_counters())
    if (c.shown & observe::kInLog) header += "," + c.column();
  EXPECT_EQ(l[1], header);
  // nic_counters: every counter the engine shows in the summary, under its summary name.
  const auto nic = nlohmann::json::parse(test::read_file(dir + "/run.json"))["nic_counters"];
  std::set<std::string> expected, got;
  for (const auto& c : nic::tni_counters()) {
    if (!(c.shown & observe::kInSummary)) continue;
    const bool ps = c.name.size() > 3 && c.name.substr(c.name.size() - 3) == "_ps";
    expected.insert(c.kind == observe::Kind::kHigh ? c.name + "_max"
                    : ps                           ? c.name.substr(0, c.name.size() - 3) + "_ns"
                                                   : c.name);
  }
  for (const auto& [k, v] : nic.items()) got.insert(k);
  EXPECT_EQ(got, expected);
  EXPECT_GT(nic["commands"].get<std::uint64_t>(), 0u);
}

TEST(Observe, AMachinesBlocksRegisterUnderHierarchicalNames) {
  const platforms::Platform plat = platforms::load_platform("tofu-small");
  sim::EventQueue q(plat.router.clock_period_ps());
  platforms::RdmaMachine m(plat, q, /*data=*/false);
  const observe::Registry reg = platforms::observe_blocks(m.network(), &m);
  EXPECT_EQ(reg.tables(), (std::vector<std::string>{"link", "tni"}));
  ASSERT_EQ(reg.sets().size(), 2u);
  const observe::CounterSet& ports = reg.sets()[0];
  const observe::CounterSet& engines = reg.sets()[1];
  EXPECT_EQ(ports.name(0), "rtr " + m.network().node_name(0) + "." + m.network().router_at(0).port_name(0));
  EXPECT_EQ(engines.blocks, m.nodes() * std::size_t(m.tnis_per_node()));
  EXPECT_EQ(engines.name(std::size_t(m.tnis_per_node()) + 1), "tni " + m.network().node_name(1) + ".1");
  // Every counter says what it is.
  for (const observe::CounterSet* s : {&ports, &engines})
    for (const observe::Counter& c : s->counters) {
      EXPECT_FALSE(c.name.empty());
      EXPECT_NE(std::string(c.unit), "") << c.name;
      EXPECT_NE(std::string(c.meaning), "") << c.name;
    }
}

}  // namespace
}  // namespace kairo
