// `kairo view COUNTERS --out DIR`: the pictures of both views and the linked
// HTML page, which headless Chromium (Debian's chromium) loads without
// errors and in which a click on the time axis changes the topological view.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

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

TEST(Views, ThePageLoadsInHeadlessChromiumAndAClickOnTheTimeAxisChangesTheTopologicalView) {
  const std::string dir = test::temp_dir();
  const std::string log = logged_run(dir, "c.kcl");
  ASSERT_EQ(test::run_kairo({"view", log, "--out", dir + "/view"}).exit_code, 0);
  const std::string out = dir + "/dom.html";
  const std::string cmd = "timeout 120 chromium --headless --no-sandbox --disable-gpu --dump-dom 'file://" +
                          dir + "/view/index.html#selftest' > " + out + " 2> " + dir + "/chromium.log";
  ASSERT_EQ(std::system(cmd.c_str()), 0)
      << "headless chromium failed (tools/setup.sh installs Debian's chromium): "
      << test::read_file(dir + "/chromium.log");
  const std::string dom = test::read_file(out);
  const auto at = dom.find("data-selftest=\"");
  ASSERT_NE(at, std::string::npos) << "the page's script did not run its self-test";
  std::string attr = dom.substr(at + 15, dom.find('"', at + 15) - at - 15);
  for (std::size_t p; (p = attr.find("&quot;")) != std::string::npos;) attr.replace(p, 6, "\"");
  const auto j = nlohmann::json::parse(attr);
  EXPECT_TRUE(j["errors"].empty()) << j.dump();
  EXPECT_NE(j["from"], j["to"]) << "the click picked another interval";
  EXPECT_EQ(j["changed"], true) << "the topological view's colours changed";
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

}  // namespace
}  // namespace kairo
