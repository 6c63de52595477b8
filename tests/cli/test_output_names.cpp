// Output files named without a directory (`--gtkw put.gtkw`, as a user in
// the directory of their run types them): every output option of kairo
// run, traffic, plot, view and check-ops writes the file in the working
// directory, and a save file finds its waveform beside it. Each test runs
// kairo with its working directory set to a fresh temporary directory.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <sstream>

#include "tests/test_support.h"

namespace kairo {
namespace {

namespace fs = std::filesystem;
using test::run_kairo;

// Runs the tests of this file in a fresh directory and returns to the old one after.
class BareNames : public ::testing::Test {
 protected:
  void SetUp() override {
    old_ = fs::current_path();
    dir_ = test::temp_dir();
    ASSERT_EQ(::chdir(dir_.c_str()), 0);
  }
  void TearDown() override { fs::current_path(old_); }
  // kairo with `args`; every name in `files` must then be a non-empty file in the directory.
  void expect_writes(const std::vector<std::string>& args, const std::vector<std::string>& files) {
    const auto r = run_kairo(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const auto& f : files) {
      EXPECT_TRUE(fs::is_regular_file(dir_ + "/" + f)) << f << " was not written in the working directory";
      if (fs::is_regular_file(dir_ + "/" + f)) EXPECT_GT(fs::file_size(dir_ + "/" + f), 0u) << f;
    }
  }
  // The waveform a save file names ([dumpfile]), relative to the save file's directory.
  static std::string dumpfile(const std::string& gtkw) {
    std::istringstream in(test::read_file(gtkw));
    for (std::string line; std::getline(in, line);)
      if (line.rfind("[dumpfile] \"", 0) == 0) return line.substr(12, line.size() - 13);
    return "";
  }
  fs::path old_;
  std::string dir_;
};

TEST_F(BareNames, RunWritesEveryOutputAndItsSaveFileFindsTheWaveform) {
  expect_writes(
      {"run",        "tofu-small",     "--workload", "pingpong", "--param",
       "size=4KiB",  "--trace-nodes",  "0,1",        "--vcd",    "put.vcd",
       "--fst",      "put.fst",        "--gtkw",     "put.gtkw", "--json",
       "run.json",   "--tni-counters", "tnis.csv",   "--op-log", "ops.csv",
       "--counters", "c.kcl",          "--interval", "1us",      "--quiet"},
      {"put.vcd", "put.fst", "put.gtkw", "states_dma.txt", "run.json", "tnis.csv", "ops.csv", "c.kcl"});
  EXPECT_EQ(dumpfile(dir_ + "/put.gtkw"), "put.fst") << "the save file names its waveform beside it";
  expect_writes({"run", "tofu-small", "--workload", "pingpong", "--trace-nodes", "0,1", "--vcd", "only.vcd",
                 "--gtkw", "only.gtkw", "--quiet"},
                {"only.vcd", "only.gtkw"});
  EXPECT_EQ(dumpfile(dir_ + "/only.gtkw"), "only.vcd");
  expect_writes({"check-ops", "ops.csv"}, {});
  expect_writes({"run", "tofu-small", "--workload", "pingpong", "--param", "sizes=1KiB,4KiB", "--json",
                 "sizes.json", "--plot", "sizes.svg", "--quiet"},
                {"sizes.json", "sizes.svg"});
  expect_writes({"run", "tofu-small", "--workload", "barrier", "--compare", "algo=ring,dissemination",
                 "--json", "cmp.json", "--quiet"},
                {"cmp.json"});
}

TEST_F(BareNames, TrafficWritesEveryOutputAndItsSaveFileFindsTheWaveform) {
  expect_writes(
      {"traffic", "mesh-8x8",      "--rate",     "0.1",   "--warmup-cycles", "100",    "--measure-cycles",
       "200",     "--trace-nodes", "0",          "--vcd", "t.vcd",           "--fst",  "t.fst",
       "--gtkw",  "t.gtkw",        "--counters", "t.csv", "--json",          "t.json", "--quiet"},
      {"t.vcd", "t.fst", "t.gtkw", "t.csv", "t.json"});
  EXPECT_EQ(dumpfile(dir_ + "/t.gtkw"), "t.fst");
  expect_writes({"traffic", "mesh-8x8", "--sweep", "0.1,0.2", "--warmup-cycles", "100", "--measure-cycles",
                 "200", "--json", "s.json", "--csv", "s.csv", "--plot", "s.svg", "--quiet"},
                {"s.json", "s.csv", "s.svg"});
  expect_writes({"plot", "s.json", "--out", "p.svg"}, {"p.svg"});
}

TEST_F(BareNames, ViewWritesItsPagesInADirectoryNamedWithoutAPath) {
  expect_writes({"run", "tofu-small", "--workload", "alltoall", "--param", "size=1KiB", "--counters", "c.kcl",
                 "--interval", "2us", "--json", "c.json", "--quiet"},
                {"c.kcl", "c.json"});
  expect_writes({"view", "c.kcl", "--out", "v"}, {"v/index.html", "v/topology_util.svg"});
  expect_writes({"view", ".", "--out", "report"}, {"report/index.html", "report/view-c/index.html"});
  expect_writes({"view", "."}, {"index.html"});
}

// Two output options naming one file, however it is spelled, are refused
// before the run (exit 2, naming both options): nothing is written, and a
// file already there keeps its bytes.
TEST_F(BareNames, TwoOutputsNamingOneFileAreRefusedBeforeTheRun) {
  const std::string kept = "a file that was there before\n";
  test::write_file(dir_, "same.out", kept);
  struct Case {
    std::vector<std::string> args;
    std::string first, second;
  };
  const std::vector<Case> cases = {
      {{"run", "mesh-8x8", "--workload", "pingpong", "--json", "same.out", "--counters", "./same.out"},
       "--json",
       "--counters"},
      {{"run", "tofu-small", "--workload", "pingpong", "--tni-counters", "same.out", "--counters",
        "same.out"},
       "--tni-counters",
       "--counters"},
      {{"run", "tofu-small", "--workload", "pingpong", "--json", dir_ + "/same.csv", "--op-log", "same.csv"},
       "--json",
       "--op-log"},
      {{"traffic", "mesh-8x8", "--rate", "0.1", "--vcd", "same.out", "--gtkw", "same.out"},
       "--vcd",
       "--gtkw"},
      {{"traffic", "mesh-8x8", "--rate", "0.1", "--json", "same.out", "--counters", "same.out"},
       "--json",
       "--counters"},
  };
  for (const Case& c : cases) {
    const auto r = run_kairo(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.first << " " << c.second << ": " << r.err;
    EXPECT_NE(r.err.find(c.second), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("the same file as " + c.first), std::string::npos) << r.err;
    EXPECT_EQ(test::read_file(dir_ + "/same.out"), kept) << "the file there before is untouched";
    EXPECT_FALSE(fs::exists(dir_ + "/same.csv")) << "nothing written";
  }
}

}  // namespace
}  // namespace kairo
