// `kairo run --op-log` as a user meets it: the log's form follows the file's
// ending, a path that cannot be written or an ending that names no form is
// refused before the run (exit 2, naming the option), a selection without a
// log is refused, and --op-log-nodes keeps those nodes' records only.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "tests/test_support.h"

namespace kairo {
namespace {

using test::run_kairo;

std::vector<std::string> put(std::vector<std::string> more) {
  std::vector<std::string> args = {"run", "tofu-small", "--workload", "pingpong", "--quiet"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST(OpLogCli, AnUnwritablePathIsRefusedBeforeTheRun) {
  const test::CommandResult r = run_kairo(put({"--op-log", "/nonexistent-dir/ops.csv"}));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--op-log"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "") << "nothing ran";
}

TEST(OpLogCli, AnEndingThatNamesNoFormIsRefused) {
  const std::string dir = test::temp_dir();
  const test::CommandResult r = run_kairo(put({"--op-log", dir + "/ops.txt"}));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(".csv or .jsonl"), std::string::npos) << r.err;
}

TEST(OpLogCli, ASelectionWithoutALogIsRefused) {
  const test::CommandResult r = run_kairo(put({"--op-log-nodes", "0,1"}));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--op-log"), std::string::npos) << r.err;
}

TEST(OpLogCli, ABadNodeListNamesTheOption) {
  const std::string dir = test::temp_dir();
  const test::CommandResult r = run_kairo(put({"--op-log", dir + "/ops.csv", "--op-log-nodes", "0-500"}));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--op-log-nodes"), std::string::npos) << r.err;
}

// The put goes from node 0 to node 1: logging node 1 alone keeps its
// registrations and the target's steps, and none of node 0's.
TEST(OpLogCli, NodesSelectTheRecordsKept) {
  const std::string dir = test::temp_dir();
  const std::string path = dir + "/ops.csv";
  const test::CommandResult r = run_kairo(put({"--op-log", path, "--op-log-nodes", "1"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream in(test::read_file(path));
  std::string line;
  std::getline(in, line);  // the header
  int rows = 0;
  bool dma_write = false;
  while (std::getline(in, line)) {
    ++rows;
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, ',');) f.push_back(x);
    ASSERT_GE(f.size(), 8u) << line;
    EXPECT_EQ(f[2], "1") << "a record of another node: " << line;
    dma_write |= f[7] == "dma_write";
  }
  EXPECT_GT(rows, 0);
  EXPECT_TRUE(dma_write) << "the target writes the put's data";
}

TEST(OpLogCli, TheJsonLinesFormHoldsTheSameRecordsAsTheCsv) {
  const std::string dir = test::temp_dir();
  ASSERT_EQ(run_kairo(put({"--op-log", dir + "/ops.csv"})).exit_code, 0);
  ASSERT_EQ(run_kairo(put({"--op-log", dir + "/ops.jsonl"})).exit_code, 0);
  const std::string csv = test::read_file(dir + "/ops.csv"), jsonl = test::read_file(dir + "/ops.jsonl");
  const auto lines = [](const std::string& s) { return std::count(s.begin(), s.end(), '\n'); };
  EXPECT_EQ(lines(csv) - 1, lines(jsonl)) << "one line per record, the CSV's header aside";
  EXPECT_NE(jsonl.find("\"event\":\"notice\""), std::string::npos);
}

}  // namespace
}  // namespace kairo
