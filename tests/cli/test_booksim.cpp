// `kairo traffic --booksim FILE.cfg [key=value ...]` (traffic/booksim_config.h):
// BookSim's configuration syntax; every reference configuration of
// tests/validation/booksim_reference/cfg/ mapped as its keys mean in BookSim
// (the expectations below are worked out from each file's values, not read
// from kairo); keys kairo does not model and bad values refused with exit 2
// naming the file and line (or the command-line override) and the key; and
// a run through --booksim giving the JSON of the explicit command line.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/test_support.h"
#include "traffic/booksim_config.h"
#include "traffic/traffic_run.h"

namespace kairo {
namespace {

const std::string kCfgDir = std::string(KAIRO_SOURCE_DIR) + "/tests/validation/booksim_reference/cfg";

bool has(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

TEST(BookSimConfig, ParsesStatementsCommentsAndListsWithTheirLines) {
  const auto e = traffic::parse_booksim_text(
      "// a comment; with = signs\n"
      "topology = torus; k = 8;\n"
      "/* a block\n   comment */ n =\n  2;\n"
      "packet_size = {1, 4};  // a list\n",
      "f.cfg");
  ASSERT_EQ(e.size(), 4u);
  EXPECT_EQ(e[0].key, "topology");
  EXPECT_EQ(e[0].value, "torus");
  EXPECT_EQ(e[0].where, "f.cfg:2");
  EXPECT_EQ(e[1].key, "k");
  EXPECT_EQ(e[1].where, "f.cfg:2");
  EXPECT_EQ(e[2].key, "n");
  EXPECT_EQ(e[2].value, "2");
  EXPECT_EQ(e[2].where, "f.cfg:4") << "a statement is where its key is";
  EXPECT_EQ(e[3].value, "{1, 4}");
  try {
    traffic::parse_booksim_text("k = 8;\nn = 2\n", "g.cfg");
    ADD_FAILURE() << "a statement without ';' must be refused";
  } catch (const std::invalid_argument& x) {
    EXPECT_NE(std::string(x.what()).find("g.cfg:2"), std::string::npos) << x.what();
  }
}

// key -> value of a reference file (one `key = value;` a line there).
std::map<std::string, std::string> read_plain(const std::string& path) {
  std::map<std::string, std::string> kv;
  std::ifstream f(path);
  for (std::string line; std::getline(f, line);) {
    line = line.substr(0, line.find("//"));
    const auto eq = line.find('='), semi = line.find(';');
    if (eq == std::string::npos || semi == std::string::npos) continue;
    auto strip = [](std::string s) {
      s.erase(0, s.find_first_not_of(' '));
      s.erase(s.find_last_not_of(' ') + 1);
      return s;
    };
    kv[strip(line.substr(0, eq))] = strip(line.substr(eq + 1, semi - eq - 1));
  }
  return kv;
}

TEST(BookSimConfig, EachReferenceConfigurationMapsToWhatItsKeysMeanInBookSim) {
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kCfgDir)) {
    const std::string path = entry.path().string();
    SCOPED_TRACE(path);
    auto kv = read_plain(path);
    auto num = [&](const char* k) { return std::stoi(kv.at(k)); };
    const traffic::BookSimRun r = traffic::read_booksim(path, {});
    ++files;
    const std::string topo = kv.at("topology"), routing = kv.at("routing_function");
    const bool torus = topo == "torus", dfly = topo == "dragonflynew";
    EXPECT_EQ(r.platform, dfly ? "dragonfly-342" : topo + "-8x8");
    EXPECT_EQ(r.pattern, kv.at("traffic") == "uniform" ? "uniform_self" : kv.at("traffic"))
        << "BookSim's uniform includes the source";
    EXPECT_EQ(r.packet_flits, num("packet_size"));
    EXPECT_EQ(r.rate_scale, 1.0) << "injection_rate_uses_flits = 1";
    EXPECT_EQ(r.rate, 0.1) << "no injection_rate in the file: BookSim's default, 0.1";
    EXPECT_EQ(r.warmup_cycles, std::uint64_t(num("warmup_periods") * num("sample_period")));
    EXPECT_EQ(r.measure_cycles,
              std::uint64_t((num("max_samples") - num("warmup_periods")) * num("sample_period")));
    EXPECT_EQ(r.seed, std::uint64_t(num("seed")));
    // A hop: the router's delays plus the channel (mesh 1 cycle, torus 2, a
    // dragonfly's local channel 10).
    const int link = dfly ? 10 : torus ? 2 : 1;
    EXPECT_EQ(r.per_hop_cycles, num("routing_delay") + num("vc_alloc_delay") + num("sw_alloc_delay") +
                                    num("st_final_delay") + link);
    const auto& s = r.sets;
    EXPECT_TRUE(has(s, "router.allocator=" + kv.at("sw_allocator")));
    EXPECT_TRUE(has(s, "router.vc_allocator=" + kv.at("vc_allocator")));
    EXPECT_TRUE(has(s, "router.islip_iterations=" + kv.at("alloc_iters")));
    EXPECT_TRUE(has(s, "router.vc_buffer_flits=" + kv.at("vc_buf_size")));
    EXPECT_TRUE(has(s, "router.credit_delay_cycles=" + std::to_string(1 + num("credit_delay"))));
    // min_adapt_torus moves packets between routers on VCs 0, 1 and 3 only.
    const bool torus_adaptive = torus && routing == "min_adapt";
    EXPECT_TRUE(has(s, "router.vcs=" + (torus_adaptive ? std::string("3") : kv.at("num_vcs"))));
    EXPECT_EQ(has(s, "router.speculative=true"), num("speculative") == 1);
    EXPECT_EQ(has(s, "router.flow_control=wormhole"), num("packet_size") > num("vc_buf_size"))
        << "BookSim's router is wormhole; kairo's cut-through is the same while a packet fits a VC";
    if (dfly) {
      EXPECT_TRUE(has(s, routing == "min" ? "router.routing=minimal" : "router.routing=ugal"));
      EXPECT_TRUE(has(s, "links.global.latency=99ns")) << "a 100-cycle global channel: a flit time + 99 ns";
      EXPECT_TRUE(has(s, "links.local.latency=9ns"));
      continue;
    }
    EXPECT_TRUE(has(s, torus ? "router.cable_latency=1ns" : "router.cable_latency=0ns"));
    EXPECT_TRUE(has(s, "router.host_latency=0ns"));
    EXPECT_EQ(has(s, "router.dateline=at_entry"), torus) << "dor_next_torus fixes the class at ring entry";
    EXPECT_EQ(has(s, "router.tie_break=random"), torus) << "dor_next_torus tosses a coin half-way round";
    if (routing == "dim_order") {
      EXPECT_TRUE(has(s, "router.routing=dimension_order"));
    } else {
      EXPECT_TRUE(has(s, "router.routing=minimal_adaptive"));
      EXPECT_TRUE(has(s, "router.adaptive_selection=vc_allocator"))
          << "BookSim's iq router picks by VC allocation";
      EXPECT_EQ(has(s, "router.adaptive_half_way=minus"), torus) << "min_adapt_torus goes - half-way round";
    }
  }
  EXPECT_EQ(files, 30);
}

test::CommandResult booksim(const std::string& text, std::vector<std::string> extra = {}) {
  const std::string dir = test::temp_dir();
  const std::string cfg = test::write_file(dir, "x.cfg", text);
  std::vector<std::string> args = {"traffic", "--booksim", cfg};
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back("--print-config");
  return test::run_kairo(args);
}

const std::string kMesh = "topology = mesh;\nk = 8;\nn = 2;\nrouting_function = dim_order;\nnum_vcs = 4;\n";

void expect_refused(const test::CommandResult& r, const std::string& where, const std::string& key) {
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find(where), std::string::npos) << "names where: " << r.err;
  EXPECT_NE(r.err.find(key), std::string::npos) << "names the key: " << r.err;
}

TEST(BookSimCli, KeysKairoDoesNotModelAndBadValuesAreRefusedNamingFileLineAndKey) {
  const auto plain = booksim(kMesh);
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  expect_refused(booksim(kMesh + "vc_busy_when_full = 1;\n"), "x.cfg:6", "vc_busy_when_full");
  expect_refused(booksim("topology = mesh;\nnum_vcs = four;\nrouting_function = dim_order;\n"), "x.cfg:2",
                 "num_vcs");
  expect_refused(booksim(kMesh + "router = event;\n"), "x.cfg:6",
                 "router");  // kairo's router is BookSim's iq
  expect_refused(booksim(kMesh + "traffic = badperm_yarc;\n"), "x.cfg:6", "traffic");
  // Sources kairo does not have, or BookSim's burst_r1 (kairo derives it): refused by name.
  expect_refused(booksim(kMesh + "injection_process = batch;\n"), "x.cfg:6", "injection_process");
  expect_refused(booksim(kMesh + "burst_r1 = 0.2;\n"), "x.cfg:6", "burst_r1");
  expect_refused(booksim(kMesh + "packet_size = {1, 4};\npacket_size_rate = {1, 2, 3};\n"), "x.cfg:7",
                 "packet_size_rate");
  expect_refused(booksim(kMesh + "injection_rate = {0.1, 0.2};\n"), "x.cfg:6", "injection_rate");
  // BookSim's command-line overrides after the file: named as given.
  expect_refused(booksim(kMesh, {"watch_out=w.txt"}), "command line 'watch_out=w.txt'", "watch_out");
  expect_refused(booksim(kMesh, {"k=1"}), "command line 'k=1'", "k");
  expect_refused(booksim(kMesh + "packet_size = 4;\n", {"injection_rate=0.5"}),
                 "command line 'injection_rate=0.5'",
                 "injection_rate");  // 0.5 packets of 4 flits: 2 flits a cycle
  expect_refused(booksim(kMesh, {"hotspot"}), "'hotspot'", "key=value");
  // A key left at BookSim's default kairo cannot take: no routing function.
  expect_refused(booksim("topology = mesh;\n"), "x.cfg (BookSim's default", "routing_function");
  // Not both a platform and a configuration.
  const auto both =
      test::run_kairo({"traffic", "mesh-8x8", "--booksim", kCfgDir + "/a_mesh8_dor_uniform.cfg"});
  EXPECT_EQ(both.exit_code, 2) << both.err;
  EXPECT_NE(both.err.find("--booksim"), std::string::npos) << both.err;
  const auto neither = test::run_kairo({"traffic", "--rate", "0.1"});
  EXPECT_EQ(neither.exit_code, 2) << neither.err;
  // An override replaces the file's value, as in BookSim.
  const auto over = booksim(kMesh, {"num_vcs=6", "packet_size=2"});
  ASSERT_EQ(over.exit_code, 0) << over.err;
  const auto j = nlohmann::json::parse(over.out);
  EXPECT_EQ(j["packet_flits"], 2);
  EXPECT_EQ(j["rate"], 0.2) << "injection_rate 0.1 packets of 2 flits (injection_rate_uses_flits 0)";
  EXPECT_TRUE(has(j["sets"].get<std::vector<std::string>>(), "router.vcs=6"));
}

nlohmann::json run_json(std::vector<std::string> args) {
  const std::string out = test::temp_dir() + "/r.json";
  args.insert(args.end(), {"--json", out, "--quiet"});
  const auto r = test::run_kairo(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::ifstream f(out);
  nlohmann::json j = nlohmann::json::parse(f);
  for (const std::string& k : traffic::cost_fields()) j.erase(k);
  return j;
}

// e_torus8_minadapt_tornado.cfg run through --booksim (its windows, seed and
// BookSim's default injection rate) against the command line its keys mean:
// torus 8x8 with 2-cycle channels, 1-cycle router stages, iSLIP (1
// iteration) for VCs and the switch, min_adapt_torus's VCs and rules.
TEST(BookSimCli, AReferenceConfigurationGivesTheJsonOfTheExplicitCommandLine) {
  const auto via = run_json({"traffic", "--booksim", kCfgDir + "/e_torus8_minadapt_tornado.cfg"});
  std::vector<std::string> explicit_args = {
      "traffic", "torus-8x8",       "--pattern", "tornado",          "--rate", "0.1",    "--packet-flits",
      "4",       "--warmup-cycles", "3000",      "--measure-cycles", "7000",   "--seed", "0"};
  for (const char* s : {"router.clock=1GHz",
                        "router.flit_size=32B",
                        "router.link_bandwidth=32GB/s",
                        "router.host_bandwidth=32GB/s",
                        "router.cable_latency=1ns",
                        "router.host_latency=0ns",
                        "router.routing_cycles=1",
                        "router.vc_alloc_cycles=1",
                        "router.sw_alloc_cycles=1",
                        "router.switch_traversal_cycles=1",
                        "router.credit_delay_cycles=1",
                        "router.allocator=islip",
                        "router.vc_allocator=islip",
                        "router.islip_iterations=1",
                        "router.routing=minimal_adaptive",
                        "router.adaptive_selection=vc_allocator",
                        "router.adaptive_half_way=minus",
                        "router.tie_break=random",
                        "router.dateline=at_entry",
                        "router.vcs=3",
                        "router.vc_buffer_flits=8"})
    explicit_args.insert(explicit_args.end(), {"--set", s});
  const auto direct = run_json(explicit_args);
  EXPECT_EQ(via, direct);
  EXPECT_GT(via["measured_packets"].get<double>(), 0);
}

// BookSim's on/off sources and packet size mixes: injection_process = on_off
// with burst_alpha and burst_beta, packet_size = {...} with packet_size_rate
// = {...}, give the run of --injection onoff, --burst-alpha, --burst-beta and
// --packet-sizes, the rate in flits being injection_rate (packets) times the
// mix's mean size, (1 x 1 + 4 x 3) / 4 = 3.25.
TEST(BookSimCli, OnOffSourcesAndSizeMixesGiveTheRunOfTheirOptions) {
  const std::string cfg =
      test::write_file(test::temp_dir(), "onoff.cfg",
                       kMesh +
                           "vc_buf_size = 8;\ninjection_process = on_off;\nburst_alpha = 0.3;\n"
                           "burst_beta = 0.6;\npacket_size = {1, 4};\n"
                           "packet_size_rate = {1, 3};\ninjection_rate = 0.05;\n"
                           "sample_period = 500;\nwarmup_periods = 1;\nmax_samples = 3;\n");
  const auto printed = test::run_kairo({"traffic", "--booksim", cfg, "--print-config"});
  ASSERT_EQ(printed.exit_code, 0) << printed.err;
  const auto m = nlohmann::json::parse(printed.out);
  EXPECT_EQ(m["injection"], "onoff");
  EXPECT_DOUBLE_EQ(m["rate"].get<double>(), 0.05 * 3.25);
  const auto via = run_json({"traffic", "--booksim", cfg});
  std::vector<std::string> direct_args = {"traffic",          "mesh-8x8",     "--injection",     "onoff",
                                          "--burst-alpha",    "0.3",          "--burst-beta",    "0.6",
                                          "--packet-sizes",   "1:1,4:3",      "--rate",          "0.1625",
                                          "--pattern",        "uniform_self", "--warmup-cycles", "500",
                                          "--measure-cycles", "1000",         "--seed",          "0"};
  for (const auto& s : m["sets"]) direct_args.insert(direct_args.end(), {"--set", s.get<std::string>()});
  auto direct = run_json(direct_args);
  // The resolved configurations name their sources (the file against --set): compare what was simulated.
  nlohmann::json a = via, b = direct;
  a.erase("resolved"), b.erase("resolved");
  EXPECT_EQ(a, b);
  EXPECT_EQ(via["injection"]["process"], "onoff");
  EXPECT_GT(via["measured_packets"].get<double>(), 0);
}

}  // namespace
}  // namespace kairo
