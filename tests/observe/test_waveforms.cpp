// Waveforms of whole runs (`kairo run --vcd/--fst` with --trace-*): a put
// traced on a small Tofu shows its life in order (doorbell, DMA read,
// packets on each link of the path, DMA write at the target, notice,
// acknowledgement, completion) at the times the NIC's parameters give; the
// VCD and the FST of one run hold the same value changes, read back through
// GTKWave's own reader and VCD parser; a bad selection is refused.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>

#include "tests/fst_rows.h"
#include "tests/test_support.h"

namespace kairo {
namespace {

using Row = test::FstRow;  // time (ps), signal, value
using test::read_fst;

// The first time after 0 that `signal` takes a value satisfying `pred`.
std::uint64_t first(
    const std::vector<Row>& rows, const std::string& signal,
    bool (*pred)(std::uint64_t) = [](std::uint64_t v) { return v != 0; }) {
  for (const auto& [t, s, v] : rows)
    if (t > 0 && s == signal && pred(v)) return t;
  ADD_FAILURE() << "no change of " << signal;
  return 0;
}
std::uint64_t first_zero_after(const std::vector<Row>& rows, const std::string& signal, std::uint64_t after) {
  for (const auto& [t, s, v] : rows)
    if (t > after && s == signal && v == 0) return t;
  ADD_FAILURE() << "no fall of " << signal;
  return 0;
}

struct TracedRun {
  std::string dir;
  nlohmann::json summary;
  std::vector<Row> fst;
};

// A 1000-byte put from node 0 (x0) to node 1 (x1) of tofu-small: one packet,
// one hop along X. The NIC's figures are set so the test can compute times.
TracedRun traced_put(const std::vector<std::string>& extra = {}) {
  TracedRun r;
  r.dir = test::temp_dir();
  std::vector<std::string> args = {"run",           "tofu-small",
                                   "--workload",    "pingpong",
                                   "--param",       "size=1000B",
                                   "--set",         "nic.node_latency=500ns",
                                   "--set",         "nic.dma_bandwidth=2GB/s",
                                   "--trace-nodes", "0,1",
                                   "--trace-tnis",  "0",
                                   "--vcd",         r.dir + "/put.vcd",
                                   "--fst",         r.dir + "/put.fst",
                                   "--json",        r.dir + "/put.json",
                                   "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  auto res = test::run_kairo(args);
  EXPECT_EQ(res.exit_code, 0) << res.err;
  if (res.exit_code != 0) return r;
  r.summary = nlohmann::json::parse(test::read_file(r.dir + "/put.json"));
  r.fst = read_fst(r.dir + "/put.fst");
  return r;
}

TEST(Waveforms, APutShowsItsLifeInOrderAtTheTimesTheNicGives) {
  const TracedRun r = traced_put();
  ASSERT_FALSE(r.fst.empty());
  const std::string src = "nic_x0y0z0a0b0c0.tni0.", dst = "nic_x1y0z0a0b0c0.tni0.";
  const std::string r0 = "rtr_x0y0z0a0b0c0.", r1 = "rtr_x1y0z0a0b0c0.";
  const std::uint64_t doorbell = first(r.fst, src + "doorbells");
  const std::uint64_t dma_read = first(r.fst, src + "tx_dma");
  const std::uint64_t dma_read_end = first_zero_after(r.fst, src + "tx_dma", dma_read);
  const std::uint64_t inject = first(r.fst, src + "tx_pkt");
  const std::uint64_t link_x = first(r.fst, r0 + "x.busy");   // x0 -> x1 (X has size 2: one port "x")
  const std::uint64_t eject = first(r.fst, r1 + "ni0.busy");  // x1's router -> its NIC
  const std::uint64_t dma_write = first(r.fst, dst + "rx_dma");
  const std::uint64_t notice = first(r.fst, dst + "notices");
  const std::uint64_t ack_link = first(r.fst, r1 + "x.busy");  // the acknowledgement goes back along X
  const std::uint64_t ack_eject = first(r.fst, r0 + "ni0.busy");
  const std::uint64_t completion = first(r.fst, src + "completions");
  // The order of Susukita et al. 2016's put model.
  const std::vector<std::pair<const char*, std::uint64_t>> order = {
      {"doorbell", doorbell},          {"DMA read", dma_read},      {"injection", inject},
      {"link x0->x1", link_x},         {"ejection at x1", eject},   {"DMA write at x1", dma_write},
      {"notice at x1", notice},        {"ack on x1->x0", ack_link}, {"ack ejected at x0", ack_eject},
      {"completion at x0", completion}};
  for (std::size_t k = 1; k < order.size(); ++k)
    EXPECT_LT(order[k - 1].second, order[k].second) << order[k - 1].first << " before " << order[k].first;
  // The timestamps: the doorbell rings when the program starts (1 us), the
  // engine takes the command after the node latency (500 ns), and the DMA
  // reads the 1000 bytes at 2 GB/s (500 ns).
  EXPECT_EQ(doorbell, 1000000u);
  EXPECT_EQ(dma_read, doorbell + 500000u);
  EXPECT_EQ(dma_read_end - dma_read, 500000u);
  EXPECT_GE(dma_write, first_zero_after(r.fst, r1 + "ni0.busy", eject))
      << "the engine writes once the tail is in";
  // The DMA write at the target takes the same 500 ns; the notice follows it.
  EXPECT_EQ(first_zero_after(r.fst, dst + "rx_dma", dma_write) - dma_write, 500000u);
  EXPECT_EQ(notice, dma_write + 500000u);
  // The pingpong's one-way figure is half the round trip, which ends with
  // the reply's notice back at x0: the waveform's completion of the first
  // put comes before that.
  const double one_way_ps = r.summary["latency_ns"].get<double>() * 1000.0;
  EXPECT_LT(double(completion - doorbell), 2 * one_way_ps);
}

TEST(Waveforms, TheVcdAndTheFstOfARunHoldTheSameValueChanges) {
  const TracedRun r = traced_put({"--trace-signals", "link,vc,tni"});
  ASSERT_FALSE(r.fst.empty());
  const std::string conv = r.dir + "/from_vcd.fst";
  const std::string cmd = "vcd2fst " + r.dir + "/put.vcd " + conv + " > " + r.dir + "/vcd2fst.log 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << test::read_file(r.dir + "/vcd2fst.log");
  EXPECT_EQ(read_fst(conv), r.fst);
  EXPECT_GT(r.summary["trace"]["changes"].get<int>(), 20);
  // And a reader independent of both kairo and GTKWave: pyvcd (tools/setup.sh installs it).
  const std::string py = std::string(KAIRO_SOURCE_DIR) + "/build/pyenv/bin/python";
  const std::string rows = r.dir + "/pyvcd.txt";
  const std::string cmd2 = py + " " + KAIRO_SOURCE_DIR + "/tests/read_vcd.py " + r.dir + "/put.vcd > " +
                           rows + " 2> " + r.dir + "/pyvcd.err";
  ASSERT_EQ(std::system(cmd2.c_str()), 0)
      << "pyvcd could not read the VCD: " << test::read_file(r.dir + "/pyvcd.err");
  std::vector<Row> by_pyvcd;
  std::stringstream in(test::read_file(rows));
  std::uint64_t t = 0, v = 0;
  std::string name;
  while (in >> t >> name >> v) by_pyvcd.emplace_back(t, name, v);
  std::sort(by_pyvcd.begin(), by_pyvcd.end());
  EXPECT_EQ(by_pyvcd, r.fst);
}

TEST(Waveforms, SelectionNarrowsTheSignalsAndTheWindowTheTimes) {
  const TracedRun all = traced_put();
  const TracedRun x_only = traced_put({"--trace-dims", "X", "--trace-signals", "link"});
  EXPECT_EQ(x_only.summary["trace"]["tnis"], 0);
  EXPECT_EQ(x_only.summary["trace"]["signals"], 2 * 4) << "two routers, one X port each, 4 link signals";
  const TracedRun late = traced_put({"--trace-from", "2us", "--trace-to", "3us"});
  for (const auto& [t, s, v] : late.fst) {
    EXPECT_GE(t, 2000000u) << s;
    EXPECT_LE(t, 3000000u) << s;
  }
  EXPECT_LT(late.fst.size(), all.fst.size());
}

TEST(Waveforms, BadSelectionsAreRefused) {
  const std::string dir = test::temp_dir();
  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"--vcd", dir + "/a.vcd", "--trace-nodes", "999"},
        std::vector<std::string>{"--vcd", dir + "/a.vcd", "--trace-box", "Q=1"},
        std::vector<std::string>{"--vcd", dir + "/a.vcd", "--trace-signals", "volts"},
        std::vector<std::string>{"--trace-nodes", "0"},  // no file to write
        std::vector<std::string>{"--vcd", dir + "/a.vcd", "--trace-from", "3us", "--trace-to", "1us"}}) {
    std::vector<std::string> args = {"run", "tofu-small", "--workload", "pingpong", "--quiet"};
    args.insert(args.end(), bad.begin(), bad.end());
    auto res = test::run_kairo(args);
    EXPECT_EQ(res.exit_code, 2) << bad.back() << ": " << res.err;
    EXPECT_NE(res.err.find("--trace"), std::string::npos) << res.err;
  }
}

// waves/*.gtkw open the traces waves/README.md makes: every signal row
// they name (after its `+{alias}`) exists in the trace its command writes.
TEST(Waveforms, TheShippedSaveFilesNameSignalsOfTheDocumentedTrace) {
  const std::string readme = test::read_file(std::string(KAIRO_SOURCE_DIR) + "/waves/README.md");
  const std::vector<std::pair<std::string, std::vector<std::string>>> files = {
      {"nic_put.gtkw",
       {"--trace-nodes", "0,1", "--trace-tnis", "0", "--trace-dims", "X,ni", "--trace-signals", "tni,link"}},
      {"link.gtkw", {"--trace-nodes", "0,1", "--trace-dims", "X", "--trace-signals", "link,vc,credit"}},
      {"router.gtkw", {"--trace-nodes", "0", "--trace-signals", "link,vc,credit"}},
  };
  for (const auto& [file, selection] : files) {
    std::string documented;
    for (const std::string& a : selection) documented += a + " ";
    EXPECT_NE(readme.find(documented), std::string::npos) << file << ": " << documented;
    const std::string dir = test::temp_dir();
    std::vector<std::string> args = {"run",     "tofu-small", "--workload",   "pingpong",
                                     "--param", "size=4KiB",  "--fst",        dir + "/w.fst",
                                     "--quiet", "--json",     dir + "/w.json"};
    args.insert(args.end(), selection.begin(), selection.end());
    auto res = test::run_kairo(args);
    ASSERT_EQ(res.exit_code, 0) << res.err;
    std::map<std::string, int> present;  // signal -> how often it changed
    for (const auto& [t, s, v] : read_fst(dir + "/w.fst")) ++present[s];
    const std::string text = test::read_file(std::string(KAIRO_SOURCE_DIR) + "/waves/" + file);
    std::stringstream in(text);
    int named = 0;
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("+{", 0) != 0) continue;
      const std::string path = line.substr(line.find("} ") + 2);
      const std::string name = path.substr(0, path.find('['));
      EXPECT_TRUE(present.count(name)) << file << " names " << name << ", which the trace lacks";
      ++named;
    }
    EXPECT_GE(named, 5) << file;
    if (file == "nic_put.gtkw")
      EXPECT_GT(present["nic_x0y0z0a0b0c0.tni0.completions"], 1) << "the put completed in the trace";
  }
}

}  // namespace
}  // namespace kairo
