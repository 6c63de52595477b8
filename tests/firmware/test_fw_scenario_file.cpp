// The scenario file's reader (sw/workloads/scenario_file.h), with no
// simulation: a good file becomes its description, and every malformed one
// is refused with FILE:LINE:COL at the offending token and what was expected.
// Expected places are found in the test's own text (the line holding the
// token, the token's column), never copied from the reader's output.
#include <gtest/gtest.h>

#include <string>

#include "sw/workloads/scenario_file.h"

namespace kairo::sw::scenario {
namespace {

const char* const kGood = R"(scenario: put then get
set: {nic.completion_queue_depth: 4, ranks.map: [0, 5]}
ranks:
  - rank: 0
    regions:
      - {name: src, size: 4KiB, fill: pattern}
      - {name: back, size: 4KiB}
      - {name: old, size: 8B, fill: {u64: 5}}
    steps:
      - put: {id: p1, to: 1, region: dst, from: src, tag: 7, fence: true, completion: local}
      - wait: {completion: p1}
      - get: {id: g1, from: 1, region: dst, into: back, size: 1KiB, offset: 8B}
      - fetch_add: {id: f1, to: 1, region: dst, add: 1, into: old}
      - loop: {count: 3, steps: [{delay: 2us}, {poll: {tni: 1}}, {barrier: }]}
      - wait: {notices: 2, tag: 7}
      - deregister: {region: src}
  - ranks: 1-3
    regions: [{name: dst, size: 4KiB}]
    steps:
      - loop: {count: 3, steps: [{barrier: {}}]}
      - put: {to: "+1", region: dst, from: dst, notify: false}
expect:
  - memory: {rank: 1, region: dst, equals: {pattern_of: 0}}
  - completion: {rank: 0, id: g1, status: stale_key, count: 1}
  - counter: {rank: 0, tni: 0, name: completion_queue_stalls, at_least: 1}
)";

Scenario parse(const std::string& text) { return parse_scenario(text, "t.yaml"); }

// The error a text gives, read and checked on a platform of `ranks` ranks
// with 4 TNIs each; empty when there is none.
std::string error_of(const std::string& text, int ranks = 8, bool data = true) {
  try {
    const Scenario s = parse(text);
    std::vector<int> of;
    check_scenario(s, Machine{ranks, 4, data}, &of);
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "";
}

// "t.yaml:LINE:COL: " for the first `needle` on the first line that holds
// `line_holding` (the line number counted in `text`, the column from 1).
std::string place(const std::string& text, const std::string& line_holding, const std::string& needle) {
  std::size_t start = 0;
  for (int line = 1; start < text.size(); ++line) {
    const std::size_t end = text.find('\n', start);
    const std::string l = text.substr(start, end - start);
    if (l.find(line_holding) != std::string::npos)
      return "t.yaml:" + std::to_string(line) + ":" + std::to_string(l.find(needle) + 1) + ": ";
    start = end + 1;
  }
  return "(not in the text)";
}

void expect_error(const std::string& text, const std::string& line_holding, const std::string& needle,
                  const std::string& says, int ranks = 8, bool data = true) {
  const std::string e = error_of(text, ranks, data);
  EXPECT_EQ(e.rfind(place(text, line_holding, needle), 0), 0u) << e;
  EXPECT_NE(e.find(says), std::string::npos) << "missing '" << says << "' in: " << e;
}

std::string with(const std::string& from, const std::string& to) {
  std::string t = kGood;
  const auto at = t.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return t.replace(at, from.size(), to);
}

TEST(ScenarioFile, AGoodFileBecomesItsDescription) {
  EXPECT_EQ(error_of(kGood), "");
  const Scenario s = parse(kGood);
  EXPECT_EQ(s.name, "put then get");
  ASSERT_EQ(s.sets.size(), 2u);
  EXPECT_EQ(s.sets[0], "nic.completion_queue_depth=4");
  EXPECT_EQ(s.sets[1], "ranks.map=[0, 5]") << "a list as --set takes it";
  ASSERT_EQ(s.programs.size(), 2u);
  const Program& p0 = s.programs[0];
  ASSERT_EQ(p0.regions.size(), 3u);
  EXPECT_EQ(p0.regions[0].size, 4096u);
  EXPECT_EQ(p0.regions[0].fill.kind, Contents::Kind::kPattern);
  EXPECT_EQ(p0.regions[2].fill.u64, 5u);
  ASSERT_EQ(p0.steps.size(), 7u);
  const Op& put = p0.steps[0].op;
  EXPECT_EQ(put.id, "p1");
  EXPECT_EQ(put.tag, 7u);
  EXPECT_TRUE(put.fence && put.local_completion && put.notify);
  EXPECT_FALSE(put.size.has_value()) << "a put without size moves its source region";
  const Op& get = p0.steps[2].op;
  EXPECT_EQ(get.peer.value, 1);
  EXPECT_EQ(*get.size, 1024u);
  EXPECT_EQ(get.offset, 8u);
  const Op& ring = s.programs[1].steps[1].op;
  EXPECT_TRUE(ring.peer.relative);
  EXPECT_EQ(ring.peer.of(3, {1, 2, 3}), 1) << "+1 after the last rank of the entry is its first";
  const Op& fa = p0.steps[3].op;
  EXPECT_EQ(fa.operand, 1u);
  EXPECT_EQ(ring.peer.of(2, {2, 5, 9}), 5) << "+1 is the next rank of the entry, not rank + 1";
  EXPECT_EQ(p0.steps[4].count, 3u);
  EXPECT_EQ(p0.steps[4].steps[0].delay, sim::Time(2000000));
  EXPECT_EQ(p0.steps[4].steps[2].kind, StepKind::kBarrier);
  EXPECT_EQ(p0.steps[5].wait.count, 2u);
  EXPECT_TRUE(s.programs[1].ranks.contains(3) && !s.programs[1].ranks.contains(4));
  ASSERT_EQ(s.expect.size(), 3u);
  EXPECT_EQ(s.expect[1].status, nic::RdmaStatus::kStaleKey);
  EXPECT_EQ(s.ops.size(), 4u);
  EXPECT_EQ(s.tags, std::vector<std::uint32_t>{7});
}

TEST(ScenarioFile, AnUnknownKeyIsNamedWithTheKeysThatStepHas) {
  expect_error(with("tag: 7,", "tga: 7,"), "tga:", "tga", "unknown key 'tga'");
  expect_error(with("tag: 7,", "tga: 7,"), "tga:", "tga", "region");
  expect_error(with("scenario: put", "scenari: put"), "scenari", "scenari", "unknown key 'scenari'");
}

TEST(ScenarioFile, AnUnknownStepIsNamedWithTheStepsThereAre) {
  expect_error(with("      - wait: {completion: p1}", "      - wiat: {completion: p1}"), "wiat", "wiat",
               "unknown step 'wiat'; expected put, get");
}

// Every operation kind of the NIC's table is a step, named by its verb, and
// an atomic's operands are read from its own keys.
TEST(ScenarioFile, EveryOperationKindIsAStepAndFetchOrReadsItsBits) {
  const std::string text = with("      - deregister: {region: src}",
                                "      - fetch_or: {id: o1, to: 1, region: dst, or: 48, into: old}");
  EXPECT_EQ(error_of(text), "");
  const auto scenario = parse(text);  // kept: the step is a reference into it
  const Step& st = scenario.programs[0].steps[6];
  EXPECT_EQ(st.kind, StepKind::kOperation);
  EXPECT_EQ(st.op.kind, nic::Op::kFetchOr);
  EXPECT_EQ(st.op.operand, 48u);
  EXPECT_EQ(step_name(st), "fetch_or");
  const std::string unknown =
      error_of(with("      - wait: {completion: p1}", "      - wiat: {completion: p1}"));
  for (const sim::RdmaOpKind& k : sim::kRdmaOps)
    EXPECT_NE(unknown.find(std::string(k.name) + ","), std::string::npos) << k.name << " in: " << unknown;
  expect_error(with("add: 1, ", "add: 1, or: 1, "), "fetch_add", "or: 1", "unknown key 'or'");
}

TEST(ScenarioFile, AMissingFieldPointsAtItsStep) {
  expect_error(with("region: dst, from: src,", "from: src,"), "- put:", "{", "put: missing 'region'");
  expect_error(with("add: 1, ", ""), "fetch_add", "{", "fetch_add: missing 'add'");
}

TEST(ScenarioFile, AnEmptyValueIsPlacedAtItsKey) {
  const std::string text = "ranks:\n  - rank: 0\n    steps:\n  - rank: 1\n";
  expect_error(text, "    steps:", "steps", "a rank entry: 'steps' has no value");
}

TEST(ScenarioFile, ABadSizeSaysWhatASizeLooksLike) {
  expect_error(with("size: 1KiB", "size: 1KB7"), "1KB7", "1KB7", "size: expected a size such as 8B, 4KiB");
  expect_error(with("{delay: 2us}", "{delay: 2}"), "delay: 2", "2}", "expected a duration");
}

TEST(ScenarioFile, ARankOutOfThePlatformIsRefused) {
  expect_error(kGood, "ranks: 1-3", "1-3", "rank 3 is out of range: this platform has ranks 0 to 2", 3);
  expect_error(with("rank: 1, region: dst, equals", "rank: 9, region: dst, equals"), "rank: 9", "9",
               "rank 9 is out of range");
  expect_error(with("- ranks: 1-3", "- ranks: 0-3"), "ranks: 0-3", "0-3",
               "rank 0 already has a rank entry (line 4)");
}

TEST(ScenarioFile, AnUnknownRegionIsNamedWhereItIsUsed) {
  expect_error(with("region: dst, from: src", "region: dts, from: src"), "dts", "dts",
               "rank 1 (the peer of rank 0) has no region 'dts'");
  expect_error(with("from: src, tag", "from: scr, tag"), "scr", "scr", "these ranks have no region 'scr'");
  expect_error(with("rank: 1, region: dst, equals", "rank: 1, region: back, equals"), "region: back, equals",
               "back", "rank 1 has no region 'back'");
}

TEST(ScenarioFile, AnIdIsDefinedOnceAndBeforeItIsAwaited) {
  expect_error(with("{id: g1,", "{id: p1,"), "- get:", "p1", "id 'p1' is already used");
  expect_error(with("wait: {completion: p1}", "wait: {completion: q1}"), "completion: q1", "q1",
               "no earlier step of these ranks has id 'q1' (ids so far: p1)");
  expect_error(with("id: g1, status", "id: zz, status"), "id: zz", "zz", "no step of rank 0 has id 'zz'");
}

TEST(ScenarioFile, ValuesOutOfTheirRangeSayTheRange) {
  expect_error(with("tni: 1}", "tni: 4}"), "poll", "poll", "tni: this platform has TNIs 0 to 3");
  expect_error(with("status: stale_key", "status: stale"), "status: stale", "stale",
               "status: expected one of ok, unregistered_key, stale_key");
  expect_error(with("fence: true", "fence: yes please"), "fence:", "yes", "fence: expected true or false");
  expect_error(with("name: completion_queue_stalls", "name: cq_stalls"), "cq_stalls", "cq_stalls",
               "name: expected a TNI counter (commands,");
}

TEST(ScenarioFile, EveryRankPassesAsManyBarriers) {
  expect_error(with("{count: 3, steps: [{barrier: {}}]}", "{count: 2, steps: [{barrier: {}}]}"),
               "- ranks: 1-3", "ranks", "these ranks pass 2, the ranks at line 4 pass 3");
}

TEST(ScenarioFile, MemoryExpectationsNeedDataMode) {
  expect_error(kGood, "- memory:", "memory", "a memory expectation needs --mode data", 8, false);
}

TEST(ScenarioFile, MalformedYamlIsPlacedToo) {
  const std::string e = error_of("ranks:\n  - rank: 0\n    steps: [ {delay: 2us}\n");
  EXPECT_EQ(e.rfind("t.yaml:", 0), 0u) << e;
  EXPECT_NE(e.find("malformed YAML"), std::string::npos) << e;
}

}  // namespace
}  // namespace kairo::sw::scenario
