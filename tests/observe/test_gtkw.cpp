// GTKWave save files (`--gtkw`) and per-VC credit counts (signal class
// "credit"): a save file opens on the traced packet's story (its head and
// tail inside the window, taken from the waveform, not from the save file's
// maker), names only signals the waveform has, and its translate filters
// name every value the enumerated signals take; a sender's credits never
// exceed the receiver's VC buffer and all come back when the network
// drains; bad use of --gtkw is refused naming it.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "platforms/gtkw.h"
#include "platforms/platform.h"
#include "tests/fst_rows.h"
#include "tests/test_support.h"

namespace kairo {
namespace {

using Row = test::FstRow;  // time (ps), signal, value

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}
bool packet_signal(const std::string& s) { return ends_with(s, ".pkt") || ends_with(s, ".tx_pkt"); }

struct SaveFile {
  std::uint64_t timestart = 0, marker_a = 0, marker_b = 0;
  double zoom = 0;
  std::vector<std::string> rows;                 // signal paths, as the waveform names them
  std::map<std::string, std::string> filter_of;  // path -> filter file
};

SaveFile parse(const std::string& text) {
  SaveFile f;
  std::istringstream in(text);
  std::string filter;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("[timestart] ", 0) == 0) f.timestart = std::stoull(line.substr(12));
    if (line.rfind("*", 0) == 0) {
      std::istringstream w(line.substr(1));
      long long primary = 0, a = 0, b = 0;
      w >> f.zoom >> primary >> a >> b;
      f.marker_a = std::uint64_t(a), f.marker_b = std::uint64_t(b);
    }
    if (line.rfind("@", 0) == 0) filter.clear();
    if (line.rfind("^", 0) == 0) filter = line.substr(line.find(' ') + 1);
    if (line.rfind("+{", 0) == 0) {
      std::string path = line.substr(line.find("} ") + 2);
      path = path.substr(0, path.find('['));
      f.rows.push_back(path);
      if (!filter.empty()) f.filter_of[path] = filter;
    }
  }
  return f;
}

// The time GTKWave's wave area ends at, opened on this file (its scale:
// platforms/gtkw.h).
double window_end(const SaveFile& f) {
  return double(f.timestart) +
         platforms::kGtkwWavePixels * std::pow(2.0, -f.zoom) * platforms::kGtkwPsPerPixelAtZoom0;
}

TEST(Gtkw, APutOpensOnItsStoryWithThePacketsHeadAndTailInside) {
  const std::string dir = test::temp_dir();
  const auto res = test::run_kairo({"run", "tofu-small", "--workload", "pingpong", "--param", "size=4KiB",
                                    "--trace-nodes", "0,1", "--trace-tnis", "0", "--fst", dir + "/put.fst",
                                    "--gtkw", dir + "/put.gtkw", "--quiet"});
  ASSERT_EQ(res.exit_code, 0) << res.err;
  const std::vector<Row> rows = test::read_fst(dir + "/put.fst");
  ASSERT_FALSE(rows.empty());
  // The first packet a traced block shows, and the last time a traced link
  // shows its value (unique in the run: docs/waveforms.md, "Packet values").
  std::uint64_t head = 0, tail = 0, value = 0;
  std::map<std::string, std::uint64_t> now;
  for (const auto& [t, s, v] : rows) {
    if (!packet_signal(s)) continue;
    if (!value && v) head = t, value = v;
    if (value && now[s] == value && v != value) tail = std::max(tail, t);
    now[s] = v;
  }
  ASSERT_GT(value, 0u) << "no packet on a traced link";
  ASSERT_GT(tail, head);
  std::uint64_t doorbell = 0, completion = 0;
  for (const auto& [t, s, v] : rows) {
    if (t > 0 && !doorbell && s == "nic_x0y0z0a0b0c0.tni0.doorbells") doorbell = t;
    if (t > 0 && !completion && s == "nic_x0y0z0a0b0c0.tni0.completions") completion = t;
  }
  const SaveFile f = parse(test::read_file(dir + "/put.gtkw"));
  EXPECT_LE(f.timestart, doorbell) << "the window opens after the doorbell";
  EXPECT_LE(f.timestart, head);
  EXPECT_GE(window_end(f), double(tail));
  EXPECT_GE(window_end(f), double(completion)) << "the put's completion is off screen";
  EXPECT_LT(window_end(f) - double(f.timestart), 4.0 * double(completion - doorbell))
      << "the window is much wider than the put";
  EXPECT_EQ(f.marker_a, head) << "marker A is not at the packet's head";
  EXPECT_TRUE(f.marker_b == tail || f.marker_b == completion)
      << "marker B is at neither the packet's tail nor the put's completion (test_packet_values.cpp: the "
         "rule)";

  std::set<std::string> names;
  for (const auto& r : rows) names.insert(std::get<1>(r));
  ASSERT_FALSE(f.rows.empty());
  for (const std::string& p : f.rows) EXPECT_TRUE(names.count(p)) << p << " is not in the waveform";
  // and every row moves: a signal at 0 the whole run is left out (an idle port says nothing).
  std::map<std::string, std::set<std::uint64_t>> values;
  for (const auto& [t, s, v] : rows) values[s].insert(v);
  for (const std::string& p : f.rows)
    EXPECT_TRUE(values[p].size() > 1 || (values[p].size() == 1 && *values[p].begin() != 0))
        << p << " never moves";
  std::size_t idle = 0;
  for (const auto& [s, vs] : values) idle += vs.size() == 1 && *vs.begin() == 0;
  EXPECT_GT(idle, 0u) << "the put leaves some traced ports idle (ni1..ni3)";
  EXPECT_EQ(f.rows.size() + idle, values.size()) << "a row for every signal that moves";
  // Every value an enumerated signal takes has a name in its filter.
  ASSERT_FALSE(f.filter_of.empty());
  for (const auto& [path, file] : f.filter_of) {
    std::set<std::uint64_t> named;
    std::istringstream in(test::read_file(dir + "/" + file));
    for (std::string line; std::getline(in, line);)
      if (!line.empty() && line[0] != '#') named.insert(std::stoull(line));
    for (const auto& [t, s, v] : rows)
      if (s == path) EXPECT_TRUE(named.count(v)) << path << " takes " << v << " which " << file << " lacks";
  }
}

// A trace bounded by --trace-from/--trace-to is the story the user named:
// the save file opens on that whole interval (within a pixel), and its
// markers sit at a packet inside it.
TEST(Gtkw, ABoundedTraceOpensOnTheIntervalAsked) {
  const std::string dir = test::temp_dir();
  auto r =
      test::run_kairo({"traffic", "mesh-8x8", "--rate", "0.35", "--warmup-cycles", "2000", "--measure-cycles",
                       "1000", "--trace-nodes", "27", "--trace-from", "2us", "--trace-to", "2.2us", "--fst",
                       dir + "/p.fst", "--gtkw", dir + "/p.gtkw", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const SaveFile f = parse(test::read_file(dir + "/p.gtkw"));
  EXPECT_EQ(f.timestart, 2000000u);
  const double pixel = double(200000) / platforms::kGtkwWavePixels;
  EXPECT_NEAR(window_end(f), 2200000.0, pixel);
  EXPECT_GE(f.marker_a, 2000000u);
  EXPECT_LE(f.marker_a, 2200000u);
  if (f.marker_b != std::uint64_t(-1)) {  // B is left out when its name would print over A's
    EXPECT_LE(f.marker_b, 2200000u);
    EXPECT_LE(f.marker_a, f.marker_b);
  }
}

// A traffic run traced without --trace-from/--trace-to: its save file opens
// inside the measurement window (from the warm-up's end, warm-up cycles x
// the router's clock period, to the measurement's end), where the traced
// router's links carry packets, not on the first packets into an empty network.
TEST(Gtkw, ATrafficRunsSaveFileOpensInsideTheMeasurementWindowWhereItsLinksAreBusy) {
  const std::string dir = test::temp_dir();
  const std::uint64_t warmup = 1500, measure = 3000;
  auto r = test::run_kairo({"traffic", "mesh-8x8", "--rate", "0.2", "--warmup-cycles", std::to_string(warmup),
                            "--measure-cycles", std::to_string(measure), "--trace-nodes", "27", "--fst",
                            dir + "/t.fst", "--gtkw", dir + "/t.gtkw", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const double period = 1e12 / platforms::load_platform("mesh-8x8").router.clock_hz;  // ps
  const double measure_from = double(warmup) * period, measure_to = double(warmup + measure) * period;
  const SaveFile f = parse(test::read_file(dir + "/t.gtkw"));
  EXPECT_GE(double(f.timestart), measure_from) << "the save file opens in the warm-up";
  EXPECT_LE(window_end(f), measure_to) << "the save file's window runs past the measurement";
  EXPECT_GE(f.marker_a, f.timestart);
  EXPECT_LE(double(f.marker_a), window_end(f));
  // Some traced link is busy (a packet on it) inside the window.
  std::size_t busy_changes = 0;
  for (const auto& [t, s, v] : test::read_fst(dir + "/t.fst"))
    busy_changes +=
        ends_with(s, ".busy") && v == 1 && double(t) >= double(f.timestart) && double(t) <= window_end(f);
  EXPECT_GT(busy_changes, 0u) << "no traced link starts a packet inside the window";
}

TEST(Gtkw, CreditCountsStayWithinTheVcBufferAndAllReturnWhenTheNetworkDrains) {
  const std::string dir = test::temp_dir();
  const int buffer = 12;  // router.vc_buffer_flits, set below
  const auto res =
      test::run_kairo({"traffic", "torus-8x8", "--pattern", "uniform", "--rate", "0.4", "--packet-flits", "4",
                       "--seed", "3", "--set", "router.vc_buffer_flits=" + std::to_string(buffer),
                       "--trace-nodes", "0-3", "--trace-signals", "credit,link", "--fst", dir + "/c.fst"});
  ASSERT_EQ(res.exit_code, 0) << res.err;
  const std::vector<Row> rows = test::read_fst(dir + "/c.fst");
  std::map<std::string, std::uint64_t> last, lowest;
  for (const auto& [t, s, v] : rows) {
    if (!ends_with(s, "_credits")) continue;
    EXPECT_LE(v, std::uint64_t(buffer)) << s << " holds more credits than the VC buffer at " << t << " ps";
    last[s] = v;
    lowest[s] = lowest.count(s) ? std::min(lowest[s], v) : v;
  }
  ASSERT_FALSE(last.empty()) << "no vcN_credits signal traced";
  bool used = false;
  for (const auto& [s, v] : last) {
    EXPECT_EQ(v, std::uint64_t(buffer)) << "credit not returned after the network drained: " << s;
    used |= lowest[s] < std::uint64_t(buffer);
  }
  EXPECT_TRUE(used) << "no credit was ever taken";
}

TEST(Gtkw, ASaveFileWithoutAWaveformOrWithAnUnwritablePathIsRefusedNamingGtkw) {
  const std::string dir = test::temp_dir();
  auto res = test::run_kairo({"run", "tofu-small", "--workload", "pingpong", "--gtkw", dir + "/x.gtkw"});
  EXPECT_EQ(res.exit_code, 2);
  EXPECT_NE(res.err.find("--gtkw"), std::string::npos) << res.err;
  res = test::run_kairo({"traffic", "torus-8x8", "--rate", "0.1", "--fst", dir + "/x.fst", "--gtkw",
                         dir + "/no/such/dir/x.gtkw"});
  EXPECT_EQ(res.exit_code, 2);
  EXPECT_NE(res.err.find("--gtkw"), std::string::npos) << res.err;
}

}  // namespace
}  // namespace kairo
