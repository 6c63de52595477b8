// `kairo run PLATFORM --scenario FILE.yaml` with the shipped examples
// (examples/scenarios/): each passes on tofu-small, and each, with one
// expectation changed (a modified copy in a temporary directory), exits 1
// naming that expectation by file, line and column. The expected values are
// the scenarios' own reasoning (8 fetch-adds of 1 make 8; a get reads back
// what the put wrote), never copied from a run.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "tests/test_support.h"

namespace kairo {
namespace {

using test::run_kairo;

std::string example(const std::string& name) {
  return std::string(KAIRO_SOURCE_DIR) + "/examples/scenarios/" + name + ".yaml";
}

void expect_passes(const std::string& name, const std::vector<std::string>& extra = {}) {
  // --check-ops: the run's operations also keep the NIC's ordering promises (docs/rdma.md)
  std::vector<std::string> args = {"run",         "tofu-small", "--scenario",
                                   example(name), "--quiet",    "--check-ops"};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto r = run_kairo(args);
  ASSERT_EQ(r.exit_code, 0) << name << ": " << r.err;
  EXPECT_NE(r.err.find("no violation"), std::string::npos) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["workload"], "scenario");
  EXPECT_TRUE(j["status_ok"].get<bool>()) << j["details"].dump();
  EXPECT_TRUE(j["details"]["expectations_failed"].empty()) << j["details"].dump();
  EXPECT_GT(j["details"]["expectations"].get<int>(), 0);
}

// `name` with `from` replaced by `to` fails: exit 1, and the message names
// the changed expectation at its line (the one holding `to`) and column (its
// kind's word, `kind`), and says `says`.
void expect_fails(const std::string& name, const std::string& from, const std::string& to,
                  const std::string& kind, const std::string& says) {
  std::string text = test::read_file(example(name));
  const auto at = text.find(from);
  ASSERT_NE(at, std::string::npos) << name << " has no '" << from << "'";
  text.replace(at, from.size(), to);
  const std::string path = test::write_file(test::temp_dir(), name + ".yaml", text);
  int line = 1 + int(std::count(text.begin(), text.begin() + std::ptrdiff_t(at), '\n'));
  const std::size_t line_start = text.rfind('\n', at) + 1;
  const std::size_t column = text.find(kind, line_start) - line_start + 1;
  const auto r = run_kairo({"run", "tofu-small", "--scenario", path, "--quiet"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const std::string where = "kairo: scenario failed: " + path + ":" + std::to_string(line) + ":" +
                            std::to_string(column) + ": expectation " + kind + " {";
  EXPECT_NE(r.err.find(where), std::string::npos) << "missing '" << where << "' in: " << r.err;
  EXPECT_NE(r.err.find(says), std::string::npos) << "missing '" << says << "' in: " << r.err;
}

TEST(Scenarios, APutThenAGetOfTheSameAddressReadsBackWhatItWrote) {
  expect_passes("put_then_get");
  expect_fails("put_then_get", "region: back, equals: {pattern_of: 0}",
               "region: back, equals: {pattern_of: 1}", "memory", "expected");
  expect_fails("put_then_get", "id: g1, status: ok", "id: g1, status: stale_key", "completion",
               "it completed with ok, expected stale_key");
  expect_fails("put_then_get", "rank: 1, tni: 0, name: dma_bytes_written, equals: 4096",
               "rank: 1, tni: 0, name: dma_bytes_written, equals: 8192", "counter",
               "it is 4096, expected 8192");
}

TEST(Scenarios, AFenceOrdersTheSecondPutAndTheGetAfterTheFirstPut) {
  expect_passes("fence");
  expect_fails("fence", "rank: 1, region: dst, equals: {pattern_of: 2}",
               "rank: 1, region: dst, equals: {pattern_of: 0}", "memory", "(rank 0's pattern)");
  expect_fails("fence", "name: commands, equals: 3", "name: commands, equals: 2", "counter",
               "it is 3, expected 2");
}

TEST(Scenarios, EightFetchAddsOfOneMakeEightAndOneCompareSwapTakesTheLock) {
  expect_passes("fetch_add_8_ranks");
  expect_fails("fetch_add_8_ranks", "region: counter, equals: {u64: 8}", "region: counter, equals: {u64: 7}",
               "memory", "hold 8 (u64), expected 7");
  expect_fails("fetch_add_8_ranks", "region: lock, equals: {u64: 1}", "region: lock, equals: {u64: 0}",
               "memory", "hold 1 (u64), expected 0");
}

TEST(Scenarios, AFullCompletionQueueStallsTheSenderUntilItPolls) {
  expect_passes("full_completion_queue");
  expect_fails("full_completion_queue", "status: ok, count: 8", "status: ok, count: 7", "completion",
               "it completed 8 time(s), expected 7");
  expect_fails("full_completion_queue", "name: completion_queue_stalls, at_least: 1",
               "name: completion_queue_stalls, equals: 0", "counter", "expected 0");
  expect_fails("full_completion_queue", "name: completion_queue_high, at_most: 2",
               "name: completion_queue_high, at_most: 1", "counter", "it is 2, expected at most 1");
}

TEST(Scenarios, APutToADeregisteredKeyCompletesStaleAndWritesNothing) {
  expect_passes("deregistered_key");
  expect_fails("deregistered_key", "id: p1, status: stale_key", "id: p1, status: ok", "completion",
               "it completed with stale_key, expected ok");
  expect_fails("deregistered_key", "region: dst, equals: zero", "region: dst, equals: {pattern_of: 0}",
               "memory", "byte 0 of the region is 0x00");
}

TEST(Scenarios, AnErrorNoExpectationNamesFailsTheRun) {
  std::string text = test::read_file(example("deregistered_key"));
  text = text.substr(0, text.find("expect:"));
  const std::string path = test::write_file(test::temp_dir(), "no_expect.yaml", text);
  const auto r = run_kairo({"run", "tofu-small", "--scenario", path, "--quiet"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("rank 0's put p1 completed with stale_key, and no completion expectation names it"),
            std::string::npos)
      << r.err;
}

TEST(Scenarios, AMalformedScenarioExitsTwoNamingFileLineAndColumn) {
  const std::string text =
      "ranks:\n"
      "  - rank: 0\n"
      "    regions: [{name: src, size: 8B}]\n"
      "    steps:\n"
      "      - put: {to: 1, region: dst, from: src, sise: 8B}\n";
  const std::string path = test::write_file(test::temp_dir(), "bad.yaml", text);
  const auto r = run_kairo({"run", "tofu-small", "--scenario", path});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  const std::string col =
      std::to_string(std::string("      - put: {to: 1, region: dst, from: src, ").size() + 1);
  EXPECT_NE(r.err.find(path + ":5:" + col + ": put: unknown key 'sise'; expected one of: "),
            std::string::npos)
      << r.err;
}

TEST(Scenarios, MemoryExpectationsInSizeOnlyModeExitTwoNamingTheExpectation) {
  const std::string text = test::read_file(example("put_then_get"));
  const std::size_t at = text.find("  - memory: {rank: 1, region: dst");
  const int line = 1 + int(std::count(text.begin(), text.begin() + std::ptrdiff_t(at), '\n'));
  const auto r =
      run_kairo({"run", "tofu-small", "--scenario", example("put_then_get"), "--mode", "size-only"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  const std::string want = "put_then_get.yaml:" + std::to_string(line) +
                           ":5: memory {rank: 1, region: dst}: a memory expectation needs --mode data";
  EXPECT_NE(r.err.find(want), std::string::npos) << "missing '" << want << "' in: " << r.err;
}

TEST(Scenarios, WorkloadAndScenarioExcludeEachOtherAndOneIsNeeded) {
  auto r = run_kairo({"run", "tofu-small", "--scenario", example("fence"), "--workload", "pingpong"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--workload and --scenario: give one of them, not both"), std::string::npos) << r.err;
  r = run_kairo({"run", "tofu-small"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("give --workload NAME"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("or --scenario FILE.yaml"), std::string::npos) << r.err;
}

// Steps the examples do not use: relative peers around a ring of 4 ranks, a
// notice of any tag, a poll, local completion, a put past the end of its
// target region, a loop of gets and a wait for a count of completions; and
// expectations over a rank set.
const char* const kRing = R"(scenario: a ring of four
ranks:
  - ranks: 0-3
    regions:
      - {name: src, size: 64B, fill: pattern}
      - {name: dst, size: 64B}
      - {name: back, size: 64B}
      - {name: small, size: 8B}
    steps:
      - put: {id: ring, to: "+1", region: dst, from: src, tag: 5, completion: local}
      - wait: {notice: any}
      - barrier: {}
      - poll: {tni: 0}
      - wait: {completion: ring}
      - put: {id: oob, to: "-1", region: small, from: src, notify: false}
      - loop: {count: 2, steps: [{get: {id: g, from: "+1", region: dst, into: back}}]}
      - wait: {completions: 3, tni: 0}
expect:
  - memory: {rank: 1, region: dst, equals: {pattern_of: 0}}
  - memory: {rank: 0, region: dst, equals: {pattern_of: 3}}
  - memory: {rank: 2, region: back, equals: {pattern_of: 2}}
  - memory: {ranks: all, region: small, equals: zero}
  - completion: {ranks: 0-3, id: ring, status: ok}
  - completion: {ranks: [0, 1-3], id: oob, status: out_of_bounds}
  - completion: {ranks: all, id: g, status: ok, count: 2}
)";

TEST(Scenarios, RelativePeersPollsLoopsAndRankSetsRunAsWritten) {
  const std::string dir = test::temp_dir();
  // Rank r's dst holds rank r-1's pattern (the ring's puts); a get from r+1's
  // dst after the barrier reads rank r's own; the 64 B put into an 8 B
  // region is out of bounds and writes nothing.
  auto r =
      run_kairo({"run", "tofu-small", "--scenario", test::write_file(dir, "ring.yaml", kRing), "--quiet"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::string text = kRing;
  text.replace(text.find("id: g, status: ok, count: 2"), 27, "id: g, status: ok, count: 1");
  const std::string path = test::write_file(dir, "ring1.yaml", text);
  r = run_kairo({"run", "tofu-small", "--scenario", path, "--quiet"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(
      r.err.find(
          "expectation completion {ranks: all, id: g} failed: on rank 0, it completed 2 time(s), expected 1"),
      std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace kairo
