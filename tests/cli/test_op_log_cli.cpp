// `kairo run --op-log` as a user meets it: the log's form follows the file's
// ending, a path that cannot be written or an ending that names no form is
// refused before the run (exit 2, naming the option), a selection without a
// log is refused, --op-log-nodes keeps those nodes' records only, and --op-log-from/--op-log-to a time
// window's.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

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

// --op-log-from and --op-log-to keep the records whose time lies in the
// window, both ends included: the same steps as the whole log's records in
// it (seq aside: it numbers the records the log kept).
TEST(OpLogCli, ATimeWindowKeepsTheWholeLogsRecordsInIt) {
  const std::string dir = test::temp_dir();
  ASSERT_EQ(run_kairo(put({"--op-log", dir + "/all.csv"})).exit_code, 0);
  // Each record without its seq, and its time.
  const auto rows = [](const std::string& text) {
    std::vector<std::pair<std::uint64_t, std::string>> out;
    std::istringstream in(text);
    std::string line;
    std::getline(in, line);  // the header
    while (std::getline(in, line)) {
      const std::size_t a = line.find(','), b = line.find(',', a + 1);
      out.emplace_back(std::stoull(line.substr(a + 1, b - a - 1)), line.substr(a + 1));
    }
    return out;
  };
  const auto all = rows(test::read_file(dir + "/all.csv"));
  ASSERT_GT(all.size(), 20u);
  std::vector<std::uint64_t> times;  // the distinct instants, in order
  for (const auto& [t, r] : all)
    if (times.empty() || times.back() != t) times.push_back(t);
  ASSERT_GT(times.size(), 6u);
  const std::uint64_t from = times[times.size() / 3], to = times[2 * times.size() / 3];
  ASSERT_LT(from, to);
  ASSERT_EQ(run_kairo(put({"--op-log", dir + "/win.csv", "--op-log-from", std::to_string(from) + "ps",
                           "--op-log-to", std::to_string(to) + "ps"}))
                .exit_code,
            0);
  std::vector<std::string> want, got;
  for (const auto& [t, r] : all)
    if (t >= from && t <= to) want.push_back(r);
  for (const auto& [t, r] : rows(test::read_file(dir + "/win.csv"))) got.push_back(r);
  EXPECT_EQ(got, want);
  EXPECT_LT(got.size(), all.size());
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
