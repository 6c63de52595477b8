// The ordering checker (docs/rdma.md, "The ordering checker") on hand-built
// logs: each invariant holds on a correct put, get, atomic and fenced
// sequence, and catches the log of a NIC that breaks it (a notice raised
// before the last write, a completion before the acknowledgement, writes out
// of arrival order, a packet written twice, a write past the region,
// overlapping atomics, a fence not held). User rules pass and fail in each
// scope; the log reader gives the same records from CSV and JSON Lines and
// names FILE:LINE on malformed input.
#include <gtest/gtest.h>

#include <sstream>

#include "observe/op_check.h"
#include "observe/op_log_read.h"
#include "observe/op_rules.h"
#include "tests/op_log_builder.h"

namespace kairo::observe {
namespace {

using test::kGetKind;
using test::kPutKind;
using test::LogBuilder;
const OpId kOp1{0, 0, 1}, kOp2{0, 0, 2}, kOp3{0, 0, 3};

std::string rules_broken(const OpCheckReport& r) {
  std::string s;
  for (const OpViolation& v : r.violations) s += v.rule + ": " + v.what + "\n";
  return s;
}
bool broke(const OpCheckReport& r, std::string_view rule) {
  for (const OpViolation& v : r.violations)
    if (v.rule == rule) return true;
  return false;
}
void expect_clean(const std::vector<OpRecord>& log, const std::vector<OpRule>& rules = {}) {
  const OpCheckReport r = check_op_log(log, rules);
  EXPECT_EQ(r.total, 0u) << rules_broken(r);
}
void expect_broken(const std::vector<OpRecord>& log, std::string_view rule,
                   const std::vector<OpRule>& rules = {}) {
  const OpCheckReport r = check_op_log(log, rules);
  EXPECT_TRUE(broke(r, rule)) << "expected a violation of " << rule << ", got:\n" << rules_broken(r);
}

LogBuilder put_log(std::uint8_t flags = kFlagNotify) {
  LogBuilder b;
  b.regions();
  b.put(kOp1, 3, flags);
  return b;
}

TEST(OpCheck, CorrectPutGetAndAtomicKeepEveryInvariant) {
  LogBuilder b;
  b.regions();
  b.put(kOp1, 3);
  b.get(kOp2, 2, 8192);
  b.atomic(kOp3, test::kTargetBase + 64);
  const OpCheckReport r = check_op_log(b.done());
  EXPECT_EQ(r.total, 0u) << rules_broken(r);
  EXPECT_EQ(r.operations, 3u);
  EXPECT_EQ(r.checks, op_invariants().size());
}

TEST(OpCheck, NoticeRaisedBeforeTheLastWriteIsCaught) {
  LogBuilder b = put_log();
  b.move_before(b.find(kOp1, OpEvent::kNotice, kPutKind), b.find(kOp1, OpEvent::kDmaWrite, OpKind::kData, 2));
  expect_broken(b.done(), "notice-after-writes");
}

TEST(OpCheck, RemoteCompletionBeforeTheAcknowledgementIsCaught) {
  LogBuilder b = put_log();
  b.move_before(b.find(kOp1, OpEvent::kComplete, kPutKind), b.find(kOp1, OpEvent::kArrive, OpKind::kAck));
  expect_broken(b.done(), "put-remote-completion");
}

TEST(OpCheck, LocalCompletionMayComeBeforeTheTargetsWritesButNotBeforeTheLastRead) {
  LogBuilder b = put_log(kFlagNotify | kFlagLocalCompletion);
  const std::size_t last_read = b.find(kOp1, OpEvent::kDmaRead, OpKind::kData, 2);
  b.move_before(b.find(kOp1, OpEvent::kComplete, kPutKind), last_read + 1);
  expect_clean(b.done());
  b.move_before(b.find(kOp1, OpEvent::kComplete, kPutKind), last_read);
  expect_broken(b.done(), "put-completion-after-reads");
}

TEST(OpCheck, ReceiveEngineWritingOutOfArrivalOrderIsCaught) {
  LogBuilder b = put_log();
  // Packet 1 is written before packet 0, which arrived first.
  b.move_before(b.find(kOp1, OpEvent::kDmaWrite, OpKind::kData, 1),
                b.find(kOp1, OpEvent::kDmaWrite, OpKind::kData, 0));
  expect_broken(b.done(), "writes-in-arrival-order");
}

TEST(OpCheck, PacketWrittenTwiceIsCaught) {
  LogBuilder b = put_log();
  const std::size_t w = b.find(kOp1, OpEvent::kDmaWrite, OpKind::kData, 1);
  b.log.insert(b.log.begin() + std::ptrdiff_t(w) + 1, b.log[w]);
  expect_broken(b.done(), "written-once-in-region");
}

TEST(OpCheck, PacketNeverWrittenIsCaught) {
  LogBuilder b = put_log();
  b.log.erase(b.log.begin() + std::ptrdiff_t(b.find(kOp1, OpEvent::kDmaWrite, OpKind::kData, 1)));
  expect_broken(b.done(), "written-once-in-region");
}

TEST(OpCheck, WritePastTheRegisteredRegionIsCaught) {
  LogBuilder b;
  b.region(0, test::kSourceKey, 0, test::kRegionBytes);
  b.region(1, test::kTargetKey, test::kTargetBase, 2 * test::kPacketBytes);  // room for 2 of the 3 packets
  b.put(kOp1, 3);
  expect_broken(b.done(), "written-once-in-region");
}

TEST(OpCheck, WriteAfterTheRegionWasDeregisteredIsCaught) {
  LogBuilder b = put_log();
  OpRecord released = b.log[1];  // node 1's registration, released before the put's data lands
  released.event = OpEvent::kDeregister;
  b.log.insert(b.log.begin() + std::ptrdiff_t(b.find(kOp1, OpEvent::kDmaWrite, OpKind::kData, 0)), released);
  expect_broken(b.done(), "written-once-in-region");
}

TEST(OpCheck, GetCompletedBeforeItsLastWriteIsCaught) {
  LogBuilder b;
  b.regions();
  b.get(kOp1, 2);
  expect_clean(b.done());
  b.move_before(b.find(kOp1, OpEvent::kComplete, kGetKind),
                b.find(kOp1, OpEvent::kDmaWrite, OpKind::kGetResponse, 2));
  expect_broken(b.done(), "completion-after-local-writes");
}

TEST(OpCheck, GetWritingBesideItsLandingRangeIsCaught) {
  LogBuilder b;
  b.regions();
  b.get(kOp1, 2, 1024);
  b.log[b.find(kOp1, OpEvent::kStart, kGetKind)].addr = 0;  // it asked for [0, 2048)
  expect_broken(b.done(), "written-once-in-region");
}

TEST(OpCheck, AtomicsOnOneAddressOneAfterTheOtherPass) {
  LogBuilder b;
  b.regions();
  b.atomic(kOp1, test::kTargetBase);
  b.atomic(kOp2, test::kTargetBase, 8);
  expect_clean(b.done());
}

TEST(OpCheck, OverlappingAtomicsOnOneAddressAreCaught) {
  LogBuilder b;
  b.regions();
  b.atomic_request(kOp1);
  b.atomic_request(kOp2, 8);
  b.atomic_update(kOp1, test::kTargetBase, OpEvent::kDmaRead);
  b.atomic_update(kOp2, test::kTargetBase, OpEvent::kDmaRead);  // reads the old value too
  b.atomic_update(kOp1, test::kTargetBase, OpEvent::kDmaWrite);
  b.atomic_update(kOp2, test::kTargetBase, OpEvent::kDmaWrite);
  b.atomic_answer(kOp1);
  b.atomic_answer(kOp2, 8);
  expect_broken(b.done(), "atomics-serialized");
}

TEST(OpCheck, FenceHeldAndBroken) {
  LogBuilder b;
  b.regions();
  b.put(kOp1, 2);
  b.put(kOp2, 1, kFlagNotify | kFlagFence);
  expect_clean(b.done());
  // The fenced command starts while the first is still in flight.
  b.move_before(b.find(kOp2, OpEvent::kStart, kPutKind), b.find(kOp1, OpEvent::kComplete, kPutKind));
  b.move_before(b.find(kOp2, OpEvent::kDoorbell, kPutKind), b.find(kOp2, OpEvent::kStart, kPutKind));
  expect_broken(b.done(), "fence");
}

TEST(OpCheck, CommandsStartingOutOfDoorbellOrderAreCaught) {
  LogBuilder b;
  b.regions();
  b.doorbell(kOp1, kGetKind, 1024, 0);
  b.doorbell(kOp2, kGetKind, 1024, 0);
  b.start(kOp2, kGetKind, 0, 1024, 1);  // refused: unregistered key
  b.complete(kOp2, kGetKind, 1);
  b.start(kOp1, kGetKind, 0, 1024, 1);
  b.complete(kOp1, kGetKind, 1);
  expect_broken(b.done(), "start-in-doorbell-order");
}

TEST(OpCheck, RefusedCommandCompletesAtOnceAndSendsNothing) {
  LogBuilder b;
  b.regions();
  b.doorbell(kOp1, kPutKind, 1024, kFlagNotify);
  b.start(kOp1, kPutKind, 0, 1024, 2);  // stale key
  b.complete(kOp1, kPutKind, 2);
  expect_clean(b.done());
  b.send(0, 1, kOp1, OpKind::kData, 0, 1024);
  expect_broken(b.done(), "failed-writes-nothing");
}

TEST(OpCheck, NewCommandsPacketBeforeAReadyAcknowledgementIsCaught) {
  LogBuilder b;
  b.regions();
  b.put(kOp1, 1);
  // Node 1's engine 0 posts its own put while the acknowledgement is ready.
  const OpId theirs{1, 0, 1};
  const std::size_t ack = b.find(kOp1, OpEvent::kInject, OpKind::kAck);
  b.log.insert(b.log.begin() + std::ptrdiff_t(ack), b.log[0]);
  OpRecord& p = b.log[ack];
  p = OpRecord{};
  p.node = 1, p.tni = 0, p.op = theirs, p.packet = 0, p.kind = OpKind::kData, p.event = OpEvent::kInject;
  p.bytes = 1024, p.peer = 0;
  expect_broken(b.done(), "responses-first");
}

TEST(OpCheck, LogCutByNodeOrTimeIsCheckedForWhatItShows) {
  LogBuilder b;
  b.regions();
  b.put(kOp1, 2);
  b.get(kOp2, 1);
  const std::vector<OpRecord> full = b.done();
  std::vector<OpRecord> initiator_only, from_the_first_start;
  for (const OpRecord& r : full)
    if (r.node == 0) initiator_only.push_back(r);
  from_the_first_start.assign(full.begin() + std::ptrdiff_t(b.find(kOp1, OpEvent::kStart, kPutKind)),
                              full.end());
  expect_clean(initiator_only);
  expect_clean(from_the_first_start);
}

OpRule rule(OpScope scope) {
  OpRule r;
  r.name = "notice after every write";
  r.before.event = OpEvent::kDmaWrite;
  r.before.kind = OpKind::kData;
  r.after.event = OpEvent::kNotice;
  r.scope = scope;
  return r;
}

TEST(OpCheckRules, BeforeAfterInScopeOperationPassesAndFails) {
  LogBuilder b = put_log();
  expect_clean(b.done(), {rule(OpScope::kOperation)});
  b.move_before(b.find(kOp1, OpEvent::kNotice, kPutKind), b.find(kOp1, OpEvent::kDmaWrite, OpKind::kData, 1));
  const OpCheckReport r = check_op_log(b.done(), {rule(OpScope::kOperation)});
  ASSERT_TRUE(broke(r, "notice after every write")) << rules_broken(r);
  EXPECT_NE(rules_broken(r).find("operation 0.0.1"), std::string::npos) << rules_broken(r);
}

TEST(OpCheckRules, BeforeAfterInScopeChannelSpansTheChannelsOperations) {
  LogBuilder b;
  b.regions();
  b.put(kOp1, 1);
  b.put(kOp2, 1);
  // Every data write of the channel before the channel's first notice: false once two puts follow each other.
  expect_broken(b.done(), "notice after every write", {rule(OpScope::kChannel)});
  OpRule posted_first;  // every command of the channel posted before any starts: false for two in a row
  posted_first.name = "posted first";
  posted_first.before.event = OpEvent::kDoorbell;
  posted_first.after.event = OpEvent::kStart;
  posted_first.scope = OpScope::kChannel;
  expect_broken(b.done(), "posted first", {posted_first});
  LogBuilder one = put_log();
  expect_clean(one.done(), {rule(OpScope::kChannel), posted_first});
}

TEST(OpCheckRules, BeforeAfterInScopeAddressComparesOverlappingRangesOnly) {
  LogBuilder b;
  b.regions();
  b.put(kOp1, 1);
  b.put(kOp2, 1, kFlagNotify, 8192);  // elsewhere in the region
  OpRule r;
  r.name = "read after write";  // a later write to the same bytes would break it
  r.before.event = OpEvent::kDmaWrite;
  r.before.role = OpRole::kTarget;
  r.after.event = OpEvent::kDmaWrite;
  r.after.role = OpRole::kTarget;
  r.scope = OpScope::kAddress;
  // Each write is both 'before' and 'after': two writes to the same bytes break it, disjoint ones do not.
  expect_clean(b.done(), {r});
  LogBuilder same;
  same.regions();
  same.put(kOp1, 1);
  same.put(kOp2, 1);
  expect_broken(same.done(), "read after write", {r});
}

void expect_rules_error(const std::string& text, const std::string& where, const std::string& what) {
  try {
    parse_op_rules(text, "r.yaml");
    FAIL() << "accepted: " << text;
  } catch (const std::invalid_argument& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.rfind("r.yaml:" + where + ":", 0), 0u) << m;
    EXPECT_NE(m.find(what), std::string::npos) << m;
  }
}

TEST(OpCheckRules, FileParsesAndMalformedOnesNameFileLineColumn) {
  const std::string good =
      "rules:\n  - name: n\n    before: {event: dma_write, kind: data, node_role: target, status: ok}\n"
      "    after: {event: notice}\n    scope: address\n";
  const std::vector<OpRule> rules = parse_op_rules(good, "r.yaml");
  ASSERT_EQ(rules.size(), 1u);
  EXPECT_EQ(rules[0].scope, OpScope::kAddress);
  EXPECT_EQ(rules[0].before.role, OpRole::kTarget);
  expect_rules_error("rules:\n  - name: n\n    befor: {event: notice}\n", "3:5", "unknown key 'befor'");
  expect_rules_error(
      "rules:\n  - {name: n, before: {event: notice}, after: {event: nope}, scope: operation}\n", "2:55",
      "unknown token 'nope'");
  expect_rules_error("rules:\n  - {name: n, before: {event: notice}, after: {event: notice}, scope: node}\n",
                     "2:71", "expected operation, channel or address");
  expect_rules_error("rules:\n  - {name: n, before: {event: notice}, scope: channel}\n", "2:5",
                     "missing 'after'");
  expect_rules_error("rules: [ {name: n\n", "2:1", "malformed YAML");
  expect_rules_error("rule: []\n", "1:1", "unknown key 'rule'");
}

std::vector<OpRecord> read_text(const std::string& text, OpLogFormat f) {
  std::istringstream in(text);
  return read_op_log(in, "log", f);
}

TEST(OpCheckReader, CsvAndJsonLinesGiveBackTheSameRecords) {
  LogBuilder b;
  b.regions();
  b.put(kOp1, 2, kFlagNotify | kFlagFence | kFlagLocalCompletion);
  b.get(kOp2, 1);
  b.log.back().status = 8;
  const std::vector<OpRecord> log = b.done();
  std::string csv = std::string(kOpLogColumns) + "\n", jsonl;
  for (std::size_t i = 0; i < log.size(); ++i) append_csv(csv, i, log[i]), append_jsonl(jsonl, i, log[i]);
  const std::vector<OpRecord> from_csv = read_text(csv, OpLogFormat::kCsv);
  const std::vector<OpRecord> from_jsonl = read_text(jsonl, OpLogFormat::kJsonLines);
  ASSERT_EQ(from_csv.size(), log.size());
  ASSERT_EQ(from_jsonl.size(), log.size());
  std::string again_csv = std::string(kOpLogColumns) + "\n", again_jsonl;
  for (std::size_t i = 0; i < log.size(); ++i)
    append_csv(again_csv, i, from_jsonl[i]), append_jsonl(again_jsonl, i, from_csv[i]);
  EXPECT_EQ(again_csv, csv);
  EXPECT_EQ(again_jsonl, jsonl);
}

void expect_log_error(const std::string& text, OpLogFormat f, const std::string& line,
                      const std::string& what) {
  try {
    read_text(text, f);
    FAIL() << "accepted: " << text;
  } catch (const std::invalid_argument& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.rfind("log:" + line + ": ", 0), 0u) << m;
    EXPECT_NE(m.find(what), std::string::npos) << m;
  }
}

TEST(OpCheckReader, MalformedLogsNameFileAndLine) {
  const std::string h = std::string(kOpLogColumns) + "\n";
  const std::string row0 = "0,100,0,0,0.0.1,,put,doorbell,,64,ok,1,7,5,,notify\n";
  EXPECT_EQ(read_text(h + row0, OpLogFormat::kCsv).size(), 1u);
  expect_log_error("seq,time\n", OpLogFormat::kCsv, "1", "expected the header");
  expect_log_error(h + row0 + "1,200,0,0,0.0.1,,put,ring,,,ok,,,,,\n", OpLogFormat::kCsv, "3",
                   "event: unknown token 'ring'");
  expect_log_error(h + row0 + "2,200,0,0,0.0.1,,put,start,,,ok,,,,,\n", OpLogFormat::kCsv, "3",
                   "seq: expected 1");
  expect_log_error(h + row0 + "1,50,0,0,0.0.1,,put,start,,,ok,,,,,\n", OpLogFormat::kCsv, "3", "time_ps");
  expect_log_error(h + row0 + "1,200,0,0,0.0.1,,put,start\n", OpLogFormat::kCsv, "3", "expected 16 columns");
  expect_log_error(h + row0 + "1,200,0,0,0.0.1,0.0.2/1,data,inject,,,ok,,,,,\n", OpLogFormat::kCsv, "3",
                   "not a packet of the record's operation");
  expect_log_error(h + std::string(kMaxOpLogLine + 10, 'x') + "\n", OpLogFormat::kCsv, "2", "longer than");
  expect_log_error(
      "{\"seq\":0,\"time_ps\":1,\"node\":0,\"kind\":\"put\",\"event\":\"doorbell\",\"status\":\"ok\"}\n"
      "{\"seq\":1,\"time_ps\":1,\"node\":0,\"kind\":\"put\",\"event\":\"doorbell\",\"status\":\"ok\",\"x\":1}"
      "\n",
      OpLogFormat::kJsonLines, "2", "unknown key 'x'");
  expect_log_error("{\"seq\":0,\"time_ps\":1\n", OpLogFormat::kJsonLines, "1", "expected one JSON object");
  // a number past 2^64 (JSON's grammar allows it; the reader refuses it as bad input, found by fuzz_op_log)
  expect_log_error("{\"seq\":0,\"time_ps\":42E4967297}\n", OpLogFormat::kJsonLines, "1",
                   "expected one JSON object");
  expect_log_error("{\"seq\":0,\"time_ps\":1,\"node\":0,\"kind\":\"put\",\"event\":\"doorbell\"}\n",
                   OpLogFormat::kJsonLines, "1", "missing key 'status'");
  EXPECT_THROW(op_log_format_of("log.txt"), std::invalid_argument);
}

}  // namespace
}  // namespace kairo::observe
