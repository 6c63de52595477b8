// `kairo view COUNTERS --out DIR`: the pictures of both views and the linked
// HTML page, which headless Chromium (Debian's chromium) loads without
// errors, in which a click on the time axis changes the topological view,
// and which a reader can read without the manual (axes with units, legend,
// the run's header) in a 1,600 x 1,000 window. `kairo view RUN_DIR`: the
// run report linking what a run wrote.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "platforms/counter_log.h"
#include "platforms/platform.h"
#include "tests/test_support.h"

namespace kairo {
namespace {

std::string logged_run(const std::string& dir, const std::string& file) {
  auto r = test::run_kairo({"run", "mesh-10x10x10", "--set", "topology.dims.X.size=4", "--set",
                            "topology.dims.Y.size=4", "--set", "topology.dims.Z.size=2", "--workload",
                            "alltoall", "--param", "size=2KiB", "--counters", dir + "/" + file, "--interval",
                            "2us", "--quiet", "--json", dir + "/run.json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return dir + "/" + file;
}

TEST(Views, EveryPictureIsWrittenFromEitherLogFormat) {
  for (const char* file : {"c.kcl", "c.csv"}) {
    const std::string dir = test::temp_dir();
    const std::string log = logged_run(dir, file);
    auto r = test::run_kairo({"view", log, "--out", dir + "/view"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const char* pic :
         {"timeseries_util.svg", "timeseries_stall.svg", "topology_util.svg", "topology_stall.svg",
          "topology_util_X.svg", "topology_util_Y.svg", "topology_util_Z.svg", "index.html"}) {
      const std::string text = test::read_file(dir + "/view/" + pic);
      ASSERT_FALSE(text.empty()) << pic;
      if (std::string(pic).find(".svg") != std::string::npos) {
        EXPECT_EQ(text.rfind("<svg", 0), 0u) << pic;
        EXPECT_NE(text.find("</svg>"), std::string::npos) << pic;
      }
    }
    // Every dimension and direction of the 3D mesh has its time series.
    const std::string ts = test::read_file(dir + "/view/timeseries_util.svg");
    for (const char* g : {">X+<", ">X-<", ">Y+<", ">Y-<", ">Z<", ">ni<"})
      EXPECT_NE(ts.find(g), std::string::npos) << g;
  }
}

// Loads a page in headless Chromium in a 1,600 x 1,000 window with #selftest
// and returns what its self-test wrote into the DOM.
nlohmann::json selftest(const std::string& page, const std::string& dir) {
  const std::string out = dir + "/dom.html";
  const std::string cmd =
      "timeout 120 chromium --headless --no-sandbox --disable-gpu --window-size=1600,1000 "
      "--dump-dom 'file://" +
      page + "#selftest' > " + out + " 2> " + dir + "/chromium.log";
  EXPECT_EQ(std::system(cmd.c_str()), 0)
      << "headless chromium failed (tools/setup.sh installs Debian's chromium): "
      << test::read_file(dir + "/chromium.log");
  const std::string dom = test::read_file(out);
  const auto at = dom.find("data-selftest=\"");
  if (at == std::string::npos) {
    ADD_FAILURE() << "the page's script did not run its self-test";
    return nlohmann::json::object();
  }
  std::string attr = dom.substr(at + 15, dom.find('"', at + 15) - at - 15);
  for (std::size_t p; (p = attr.find("&quot;")) != std::string::npos;) attr.replace(p, 6, "\"");
  for (std::size_t p; (p = attr.find("&amp;")) != std::string::npos;) attr.replace(p, 5, "&");
  return nlohmann::json::parse(attr);
}

// The unit a reader expects on a time axis for a run of this length.
std::string time_unit_for(double end_ps) { return end_ps < 2e6 ? "ns" : end_ps < 2e9 ? "\u00b5s" : "ms"; }

nlohmann::json read_json(const std::string& path) { return nlohmann::json::parse(test::read_file(path)); }

TEST(Views, ThePageLoadsInHeadlessChromiumAndAClickOnTheTimeAxisChangesTheTopologicalView) {
  const std::string dir = test::temp_dir();
  const std::string log = logged_run(dir, "c.kcl");
  ASSERT_EQ(test::run_kairo({"view", log, "--out", dir + "/view"}).exit_code, 0);
  const auto j = selftest(dir + "/view/index.html", dir);
  EXPECT_TRUE(j["errors"].empty()) << j.dump();
  EXPECT_NE(j["from"], j["to"]) << "the click picked another interval";
  EXPECT_EQ(j["changed"], true) << "the topological view's colours changed";
}

// What a reader needs on every page: time axis with its unit, y axis 0..1
// with 1.0 below the panel's top, the legend, the colour scale, and a page
// no wider than the window.
void expect_readable(const nlohmann::json& j, const std::string& log) {
  EXPECT_TRUE(j["errors"].empty()) << j.dump();
  const auto d = platforms::read_counter_log(log);
  const std::string unit = time_unit_for(double(d.intervals.back().end));
  EXPECT_EQ(j["xTitle"], "simulated time (" + unit + ")");
  EXPECT_GE(j["xLabels"].size(), 3u) << j["xLabels"].dump();
  EXPECT_EQ(j["yLabels"], nlohmann::json({"0", "0.5", "1"}));
  EXPECT_NE(j["yTitle"].get<std::string>().find("busy time / interval"), std::string::npos) << j["yTitle"];
  EXPECT_GT(j["headroomPx"].get<double>(), 2.0) << "a maximum of 1.0 lies on the panel's top edge";
  const std::string legend = j["legend"];
  EXPECT_NE(legend.find("maximum"), std::string::npos) << legend;
  EXPECT_NE(legend.find("average"), std::string::npos) << legend;
  EXPECT_EQ(j["scaleLabels"], nlohmann::json({"0", "0.5", "1"}));
  EXPECT_NE(j["scaleTitle"].get<std::string>().find("utilization"), std::string::npos) << j["scaleTitle"];
  EXPECT_LE(j["scrollWidth"].get<int>(), 1600) << "the page scrolls sideways in a 1600-pixel window";
  EXPECT_LE(j["topoRight"].get<double>(), j["innerWidth"].get<double>()) << "the topology leaves the window";
  EXPECT_LE(j["scrollHeight"].get<int>(), 1000) << "the page is taller than a 1000-pixel window";
}

TEST(Views, AnAllToAllOnTofuSmallShowsAxesWithUnitsALegendTheFoldingAndTheRunsHeader) {
  const std::string dir = test::temp_dir();
  auto r =
      test::run_kairo({"run", "tofu-small", "--workload", "alltoall", "--param", "size=32KiB", "--counters",
                       dir + "/a2a.kcl", "--interval", "5us", "--json", dir + "/summary.json", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(
      test::run_kairo({"view", dir + "/a2a.kcl", "--out", dir + "/v", "--summary", dir + "/summary.json"})
          .exit_code,
      0);
  const auto j = selftest(dir + "/v/index.html", dir);
  const auto run = read_json(dir + "/summary.json");
  EXPECT_EQ(j["platform"], run["platform"]) << "the header names the run's platform";
  EXPECT_NE(j["title"].get<std::string>().find(run["workload"].get<std::string>()), std::string::npos)
      << j["title"];
  expect_readable(j, dir + "/a2a.kcl");
  // Tofu's six dimensions: the caption says the ABC groups are folded and what a segment shows.
  const std::string caption = j["caption"];
  EXPECT_NE(caption.find("ABC group"), std::string::npos) << caption;
  EXPECT_NE(caption.find("most loaded"), std::string::npos) << caption;
}

// Tofu's per-dimension pictures: none is empty. X, Y and Z on the folded
// view, A, B and C (inside the folded groups) on every group folded onto
// one: each draws one segment per link of its dimension and direction
// between two positions of the laid-out dimensions, counted here from the
// log's link table (a link's own and its peer's coordinates).
TEST(Views, OnTofuEveryDimensionsPictureDrawsItsLinksTheFoldedABCOnesIncluded) {
  const std::string dir = test::temp_dir();
  auto r = test::run_kairo({"run", "tofu-small", "--workload", "alltoall", "--param", "size=1KiB",
                            "--counters", dir + "/c.kcl", "--interval", "5us", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(test::run_kairo({"view", dir + "/c.kcl", "--out", dir + "/v"}).exit_code, 0);
  // "x1y0z2a0b1c0" -> its six numbers.
  auto coords = [](std::string s) {
    if (s.rfind("rtr_", 0) == 0) s = s.substr(4);
    std::vector<int> c;
    for (std::size_t i = 0; i < s.size();) {
      while (i < s.size() && std::isalpha(static_cast<unsigned char>(s[i]))) ++i;
      std::size_t j = i;
      while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
      c.push_back(std::stoi(s.substr(i, j - i)));
      i = j;
    }
    return c;
  };
  const auto d = platforms::read_counter_log(dir + "/c.kcl");
  std::map<std::string, std::set<std::vector<int>>>
      segments;  // dimension -> (its ends in the laid-out dims, dir)
  const std::string letters = "xyzabc";
  for (const auto& l : d.rows("link")) {
    const auto k = l.dim.size() == 1 ? letters.find(char(std::tolower(static_cast<unsigned char>(l.dim[0]))))
                                     : std::string::npos;
    if (k == std::string::npos) continue;  // ni
    const std::vector<int> a = coords(l.coord), b = coords(l.peer);
    ASSERT_EQ(a.size(), 6u) << l.coord;
    ASSERT_EQ(b.size(), 6u) << l.peer;
    const std::size_t first = k < 3 ? 0 : 3;  // X, Y, Z on the XYZ layout; A, B, C on the ABC one
    std::vector<int> key(a.begin() + long(first), a.begin() + long(first) + 3);
    key.insert(key.end(), b.begin() + long(first), b.begin() + long(first) + 3);
    key.push_back(l.dir == "+" ? 1 : -1);
    segments[std::string(1, char(std::toupper(static_cast<unsigned char>(letters[k]))))].insert(key);
  }
  ASSERT_EQ(segments.size(), 6u) << "tofu-small's log has links in X, Y, Z, A, B and C";
  for (const auto& [dim, segs] : segments) {
    const std::string svg = test::read_file(dir + "/v/topology_util_" + dim + ".svg");
    std::size_t lines = 0;
    for (std::size_t p = 0; (p = svg.find("<line ", p)) != std::string::npos; ++p) ++lines;
    EXPECT_EQ(lines, segs.size()) << "topology_util_" << dim << ".svg draws " << lines
                                  << " links, the log has " << segs.size() << " distinct " << dim
                                  << " links in its layout";
    if (dim >= "A" && dim <= "C")
      EXPECT_NE(svg.find("folded onto one"), std::string::npos)
          << dim << ": the caption says how it is folded";
  }
}

TEST(Views, TrafficOnThe10x10x10TorusFitsTheWindowWithTheSummaryFoundNextToTheLog) {
  const std::string dir = test::temp_dir();
  auto r =
      test::run_kairo({"traffic", "torus-10x10x10", "--pattern", "uniform", "--rate", "0.1", "--counters",
                       dir + "/t.kcl", "--interval", "200ns", "--json", dir + "/run.json", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(test::run_kairo({"view", dir + "/t.kcl", "--out", dir + "/v"}).exit_code, 0);
  const auto j = selftest(dir + "/v/index.html", dir);
  EXPECT_EQ(j["platform"], read_json(dir + "/run.json")["platform"]) << "run.json next to the log is read";
  expect_readable(j, dir + "/t.kcl");
}

// Every shipped platform's view fits a 1,600 x 1,000 window without
// scrolling, axes and legend included. tofu-k (82,944 nodes) is left out
// for time: its run takes most of a minute and its log 260 MB (measured by
// the command in docs/views.md: it fits too). A switched fabric has no topological view, and the
// caption says why instead of describing a layout it does not have.
TEST(Views, EveryShippedPlatformsViewFitsTheWindow) {
  for (const platforms::ShippedPlatform& p : platforms::shipped_platforms()) {
    if (p.name == "tofu-k") continue;
    SCOPED_TRACE(p.name);
    const std::string dir = test::temp_dir();
    auto r = test::run_kairo({"traffic", p.name, "--rate", "0.1", "--warmup-cycles", "200",
                              "--measure-cycles", "1000", "--counters", dir + "/t.kcl", "--interval", "200ns",
                              "--json", dir + "/run.json", "--quiet"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    ASSERT_EQ(test::run_kairo({"view", dir + "/t.kcl", "--out", dir + "/v"}).exit_code, 0);
    const auto j = selftest(dir + "/v/index.html", dir);
    EXPECT_EQ(j["platform"], p.name);
    expect_readable(j, dir + "/t.kcl");
    const bool switched = platforms::load_platform(p.name).kind != platforms::FabricKind::kTorus;
    const std::string caption = j["caption"];
    EXPECT_EQ(caption.find("No topological view") != std::string::npos, switched) << caption;
  }
}

TEST(Views, WithoutASummaryTheHeaderSaysSo) {
  const std::string dir = test::temp_dir();
  const std::string log = logged_run(dir, "c.kcl");
  std::filesystem::remove(dir + "/run.json");
  ASSERT_EQ(test::run_kairo({"view", log, "--out", dir + "/v"}).exit_code, 0);
  const auto j = selftest(dir + "/v/index.html", dir);
  EXPECT_TRUE(j["platform"].is_null());
  EXPECT_NE(j["source"].get<std::string>().find("no run summary"), std::string::npos) << j["source"];
  expect_readable(j, log);
  test::write_file(dir, "junk.json", "{\"not\": \"a summary\"}");
  auto r = test::run_kairo({"view", log, "--out", dir + "/v", "--summary", dir + "/junk.json"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--summary"), std::string::npos) << r.err;
}

TEST(Views, TheTopologicalPicturesShowTheIntervalAsked) {
  const std::string dir = test::temp_dir();
  const std::string log = logged_run(dir, "c.kcl");  // 2 us intervals from 0
  ASSERT_EQ(test::run_kairo({"view", log, "--out", dir + "/v", "--at", "7us"}).exit_code, 0);
  EXPECT_NE(test::read_file(dir + "/v/topology_util.svg").find("in interval 3,"), std::string::npos)
      << "7 us lies in [6 us, 8 us), the fourth interval";
  EXPECT_EQ(test::run_kairo({"view", log, "--out", dir + "/v", "--at", "1s"}).exit_code, 2);
}

TEST(Views, BadInputIsRefused) {
  const std::string dir = test::temp_dir();
  EXPECT_EQ(test::run_kairo({"view", dir + "/missing.kcl", "--out", dir + "/v"}).exit_code, 2);
  test::write_file(dir, "junk.csv", "not a counter log\n");
  auto r = test::run_kairo({"view", dir + "/junk.csv", "--out", dir + "/v"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("junk.csv"), std::string::npos) << r.err;
}

// Readers with a bound (docs/reliability.md): a counter log over 1 GiB and a
// JSON over 256 MiB are refused with the limit, before anything is read (the
// files are sparse: their size is all there is to them).
TEST(Views, InputsOverTheReadersBoundAreRefusedWithTheLimit) {
  const std::string dir = test::temp_dir();
  const std::string log = test::write_file(dir, "big.kcl", "");
  ASSERT_EQ(::truncate(log.c_str(), (off_t(1) << 30) + 1), 0);
  auto r = test::run_kairo({"view", log, "--out", dir + "/v"}, {60, 0});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("counter log " + log + ": 1.0 GiB, more than kairo reads (1.0 GiB)"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/v/index.html"));
  const std::string json = test::write_file(dir, "big.json", "");
  ASSERT_EQ(::truncate(json.c_str(), off_t(300) << 20), 0);
  r = test::run_kairo({"plot", json, "--out", dir + "/p.svg"}, {60, 0});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("input " + json + ": 300.0 MiB, more than kairo reads (256.0 MiB)"), std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/p.svg"));
}

}  // namespace
}  // namespace kairo

namespace kairo {
namespace {

// The values of attribute `attr` in every element of `html` that has `marker`.
std::vector<std::string> attrs(const std::string& html, const std::string& marker, const std::string& attr) {
  std::vector<std::string> out;
  for (std::size_t p = 0; (p = html.find(marker, p)) != std::string::npos; ++p) {
    const std::size_t a = html.find(attr + "=\"", p);
    if (a == std::string::npos) break;
    const std::size_t s = a + attr.size() + 2;
    out.push_back(html.substr(s, html.find('"', s) - s));
  }
  return out;
}

// The text of every <code class="cmd">.
std::vector<std::string> commands(const std::string& html) {
  std::vector<std::string> out;
  const std::string open = "<code class=\"cmd\">";
  for (std::size_t p = 0; (p = html.find(open, p)) != std::string::npos; ++p) {
    const std::size_t s = p + open.size();
    out.push_back(html.substr(s, html.find("</code>", s) - s));
  }
  return out;
}

void expect_report_links(const std::string& run_dir, const std::string& out) {
  namespace fs = std::filesystem;
  const std::string html = test::read_file(out + "/index.html");
  ASSERT_FALSE(html.empty());
  const auto hrefs = attrs(html, "class=\"file\"", "href");
  std::set<std::string> linked;
  for (const auto& h : hrefs) {
    EXPECT_TRUE(fs::exists(fs::path(out) / h)) << "the report links " << h << ", which does not exist";
    linked.insert(fs::canonical(fs::path(out) / h).string());
  }
  for (const char* f : {"run.json", "c.kcl", "w.vcd", "look.vcd", "look.gtkw", "lat.svg"})
    EXPECT_TRUE(linked.count(fs::canonical(fs::path(run_dir) / f).string())) << f << " is not linked";
  EXPECT_TRUE(linked.count(fs::canonical(fs::path(out) / "view-c/index.html").string()))
      << "the counter log's views are not linked";
  // Links are relative URLs: "./" in front unless they go up.
  std::string plot = fs::proximate(fs::path(run_dir) / "lat.svg", out).generic_string();
  if (plot.rfind("../", 0) != 0) plot = "./" + plot;
  EXPECT_NE(html.find("<img src=\"" + plot), std::string::npos) << "the plot is not embedded";
  // The platform shown is the one in the run's JSON.
  const auto run = nlohmann::json::parse(test::read_file(run_dir + "/run.json"));
  EXPECT_NE(html.find("<dd class=\"platform\">" + run["platform"].get<std::string>() + "<"),
            std::string::npos);
  // Each waveform's command names files that exist, the save file with its waveform.
  const auto cmds = commands(html);
  ASSERT_EQ(cmds.size(), 2u) << html;
  std::set<std::string> opened;
  for (const auto& c : cmds) {
    std::istringstream words(c);
    std::string w;
    words >> w;
    EXPECT_EQ(w, "gtkwave") << c;
    std::vector<std::string> files;
    while (words >> w) {
      EXPECT_TRUE(fs::exists(fs::path(out) / w)) << c << ": " << w << " does not exist";
      files.push_back(fs::path(w).filename().string());
    }
    opened.insert(files.empty() ? "" : files[0]);
    if (!files.empty() && files[0] == "look.vcd")
      EXPECT_EQ(files, (std::vector<std::string>{"look.vcd", "look.gtkw"}));
  }
  EXPECT_EQ(opened, (std::set<std::string>{"w.vcd", "look.vcd"}));
}

TEST(Views, ARunDirectoryGetsAReportLinkingEachFileItHoldsAndTheCommandsThatOpenThem) {
  const std::string dir = test::temp_dir(), run_dir = dir + "/run";
  std::filesystem::create_directories(run_dir);
  auto r = test::run_kairo({"run",
                            "mesh-10x10x10",
                            "--set",
                            "topology.dims.X.size=4",
                            "--set",
                            "topology.dims.Y.size=4",
                            "--set",
                            "topology.dims.Z.size=2",
                            "--workload",
                            "alltoall",
                            "--param",
                            "size=2KiB",
                            "--counters",
                            run_dir + "/c.kcl",
                            "--interval",
                            "2us",
                            "--quiet",
                            "--json",
                            run_dir + "/run.json",
                            "--vcd",
                            run_dir + "/w.vcd",
                            "--trace-nodes",
                            "0,1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::filesystem::copy_file(run_dir + "/w.vcd", run_dir + "/look.vcd");
  test::write_file(run_dir, "look.gtkw", "[dumpfile] \"look.vcd\"\n");
  test::write_file(run_dir, "lat.svg",
                   "<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'></svg>\n");
  ASSERT_EQ(test::run_kairo({"view", run_dir}).exit_code, 0);
  expect_report_links(run_dir, run_dir);
  EXPECT_FALSE(test::read_file(run_dir + "/view-c/index.html").empty());
  ASSERT_EQ(test::run_kairo({"view", run_dir, "--out", dir + "/elsewhere"}).exit_code, 0);  // links lead back
  expect_report_links(run_dir, dir + "/elsewhere");
  // The counter log's own contract is unchanged: a file with --out gets its views.
  ASSERT_EQ(test::run_kairo({"view", run_dir + "/c.kcl", "--out", dir + "/v"}).exit_code, 0);
  EXPECT_FALSE(test::read_file(dir + "/v/topology_util.svg").empty());
}

// A view `kairo view LOG --out DIR` wrote inside the run directory (README:
// `kairo view out/c.kcl --out out/view`, then `kairo view out`) is one link
// on the report, its page, not its dozen pictures embedded as plots.
TEST(Views, AViewWrittenIntoTheRunDirectoryIsLinkedAsAViewNotEmbeddedAsPlots) {
  const std::string dir = test::temp_dir();
  const std::string log = logged_run(dir, "c.kcl");
  ASSERT_EQ(test::run_kairo({"view", log, "--out", dir + "/view"}).exit_code, 0);
  ASSERT_EQ(test::run_kairo({"view", dir}).exit_code, 0);
  const std::string html = test::read_file(dir + "/index.html");
  EXPECT_EQ(html.find("<img src=\"./view/"), std::string::npos)
      << "the view's pictures are embedded as plots";
  EXPECT_NE(html.find("href=\"./view/index.html\""), std::string::npos) << "the view's page is not linked";
  EXPECT_NE(html.find("href=\"./view-c/index.html\""), std::string::npos)
      << "the log's own views are not linked";
}

TEST(Views, ARunDirectoryWithNothingToShowOrAMissingPathIsRefusedByName) {
  const std::string dir = test::temp_dir();
  std::filesystem::create_directories(dir + "/empty");
  for (const std::string& arg : {dir + "/empty", dir + "/missing"}) {
    auto r = test::run_kairo({"view", arg});
    EXPECT_EQ(r.exit_code, 2) << arg;
    EXPECT_NE(r.err.find(arg), std::string::npos) << r.err;
  }
  test::write_file(dir, "c.kcl", "x");
  auto r = test::run_kairo({"view", dir + "/c.kcl"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--out"), std::string::npos) << r.err;
}

// Names from files, platforms and JSON are escaped for where they go
// (docs/reliability.md, "HTML and SVG"): a file named like a URL scheme
// becomes a relative link ("./javascript%3A..."), and a platform whose name
// would end the page's script or open an HTML comment stays text.
TEST(Views, HostileFileAndPlatformNamesAreEscapedOnEveryPage) {
  const std::string dir = test::temp_dir(), run_dir = dir + "/run";
  std::filesystem::create_directories(run_dir);
  const std::string hostile = "</script><!-- <b>x</b> & \"q\"";
  std::string yaml = test::read_file(std::string(KAIRO_SOURCE_DIR) + "/platforms/mesh-8x8.yaml");
  yaml.replace(yaml.find("name: mesh-8x8"), std::string("name: mesh-8x8").size(), "name: '" + hostile + "'");
  const std::string plat = test::write_file(dir, "p.yaml", yaml);
  auto r =
      test::run_kairo({"traffic", plat, "--rate", "0.1", "--warmup-cycles", "100", "--measure-cycles", "400",
                       "--quiet", "--json", run_dir + "/run.json", "--counters", run_dir + "/c.kcl"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  test::write_file(run_dir, "javascript:alert(1).svg",
                   "<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'></svg>\n");
  ASSERT_EQ(test::run_kairo({"view", run_dir}).exit_code, 0);
  for (const std::string page : {"/index.html", "/view-c/index.html"}) {
    const std::string html = test::read_file(run_dir + page);
    ASSERT_FALSE(html.empty()) << page;
    EXPECT_EQ(html.find("<!--"), std::string::npos) << page;
    EXPECT_EQ(html.find("<b>x</b>"), std::string::npos) << page;
    EXPECT_EQ(html.find("href=\"javascript"), std::string::npos) << page;
    EXPECT_EQ(html.find("src=\"javascript"), std::string::npos) << page;
    // One script end per script start: the data cannot close it early.
    std::size_t opens = 0, closes = 0;
    for (std::size_t p = 0; (p = html.find("<script", p)) != std::string::npos; ++p) ++opens;
    for (std::size_t p = 0; (p = html.find("</script", p)) != std::string::npos; ++p) ++closes;
    EXPECT_EQ(opens, closes) << page;
  }
  const std::string report = test::read_file(run_dir + "/index.html");
  EXPECT_NE(report.find("href=\"./javascript%3Aalert%281%29.svg\""), std::string::npos) << report;
  EXPECT_NE(report.find("&lt;/script&gt;&lt;!-- &lt;b&gt;x&lt;/b&gt; &amp; &quot;q&quot;"),
            std::string::npos);
  for (const auto& e : std::filesystem::directory_iterator(run_dir + "/view-c"))
    if (e.path().extension() == ".svg") {
      const std::string svg = test::read_file(e.path().string());
      EXPECT_EQ(svg.find("<b>x</b>"), std::string::npos) << e.path();
      EXPECT_EQ(svg.find("<!--"), std::string::npos) << e.path();
    }
}

}  // namespace
}  // namespace kairo
