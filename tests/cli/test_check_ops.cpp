// `kairo check-ops LOG [--rules FILE]` as a user meets it: a clean log exits
// 0 with a one-line summary; a log that breaks an invariant or a rule exits 1
// and prints both records, the operation and the time to open in the
// waveform; a malformed log or rules file exits 2 naming FILE:LINE.
#include <gtest/gtest.h>

#include "observe/op_log.h"
#include "tests/op_log_builder.h"
#include "tests/test_support.h"

namespace kairo {
namespace {

using observe::OpEvent;
using observe::OpKind;
using test::kPutKind;
using test::LogBuilder;
using test::run_kairo;
const observe::OpId kOp1{0, 0, 1};

std::string write_csv(const std::string& dir, const std::vector<observe::OpRecord>& log) {
  std::string text = std::string(observe::kOpLogColumns) + "\n";
  for (std::size_t i = 0; i < log.size(); ++i) observe::append_csv(text, i, log[i]);
  return test::write_file(dir, "ops.csv", text);
}

std::string write_jsonl(const std::string& dir, const std::vector<observe::OpRecord>& log) {
  std::string text;
  for (std::size_t i = 0; i < log.size(); ++i) observe::append_jsonl(text, i, log[i]);
  return test::write_file(dir, "ops.jsonl", text);
}

LogBuilder put_log() {
  LogBuilder b;
  b.regions();
  b.put(kOp1, 2);
  return b;
}

// The put's notice raised before its last byte is written.
std::vector<observe::OpRecord> early_notice() {
  LogBuilder b = put_log();
  b.move_before(b.find(kOp1, OpEvent::kNotice, kPutKind), b.find(kOp1, OpEvent::kDmaWrite, OpKind::kData, 1));
  return b.done();
}

TEST(CheckOps, CleanLogExitsZeroWithASummary) {
  const std::string dir = test::temp_dir();
  for (const std::string& f : {write_csv(dir, put_log().done()), write_jsonl(dir, put_log().done())}) {
    auto r = run_kairo({"check-ops", f});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("check-ops: 16 records, 1 operations, 12 invariants checked"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("no violation"), std::string::npos) << r.out;
  }
}

TEST(CheckOps, NoticeBeforeTheLastWriteExitsOneShowingBothRecordsAndTheTime) {
  const std::string dir = test::temp_dir();
  const std::vector<observe::OpRecord> log = early_notice();
  auto r = run_kairo({"check-ops", write_csv(dir, log)});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  std::string notice, write;
  const std::size_t n = 11, w = 12;  // the notice's and the last write's places in the log
  ASSERT_EQ(log[n].event, OpEvent::kNotice);
  ASSERT_EQ(log[w].event, OpEvent::kDmaWrite);
  observe::append_csv(notice, n, log[n]);
  observe::append_csv(write, w, log[w]);
  for (const std::string& m :
       {std::string("violation: notice-after-writes"), notice, write, std::string("operation: 0.0.1"),
        std::string("open the waveform at 1200 ps (0.001200 us)"), std::string("1 violation")})
    EXPECT_NE(r.out.find(m), std::string::npos) << "missing '" << m << "' in:\n" << r.out;
}

TEST(CheckOps, UserRuleBrokenExitsOne) {
  const std::string dir = test::temp_dir();
  const std::string rules =
      test::write_file(dir, "rules.yaml",
                       "rules:\n  - name: ack after notice\n    before: {event: notice}\n"
                       "    after: {event: inject, kind: data}\n    scope: operation\n");
  auto r = run_kairo({"check-ops", write_csv(dir, put_log().done()), "--rules", rules});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("violation: ack after notice: in operation 0.0.1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(12 built-in, 1 rules)"), std::string::npos) << r.out;
}

TEST(CheckOps, BadInputExitsTwoNamingFileAndLine) {
  const std::string dir = test::temp_dir();
  const std::string log = write_csv(dir, put_log().done());
  const std::string bad_rules =
      test::write_file(dir, "bad.yaml", "rules:\n  - name: x\n    scope: everywhere\n");
  auto r = run_kairo({"check-ops", log, "--rules", bad_rules});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find(bad_rules + ":3:12: scope: expected operation, channel or address"), std::string::npos)
      << r.err;
  std::string text = test::read_file(log);
  text.replace(text.find("dma_read"), 8, "dma_reed");
  const std::string bad_log = test::write_file(dir, "bad.csv", text);
  r = run_kairo({"check-ops", bad_log});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find(bad_log + ":6: event: unknown token 'dma_reed'"), std::string::npos) << r.err;
  r = run_kairo({"check-ops", dir + "/missing.csv"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(dir + "/missing.csv: cannot read"), std::string::npos) << r.err;
  r = run_kairo({"check-ops", test::write_file(dir, "ops.txt", "")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("expected an operation log ending in .csv or .jsonl"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(CheckOps, ManyViolationsShowTheFirstTwentyAndCountTheRest) {
  LogBuilder b;
  b.regions();
  for (std::uint64_t k = 1; k <= 25; ++k) {  // 25 puts, each completing before its acknowledgement
    const observe::OpId op{0, 0, k};
    b.put(op, 1);
    b.move_before(b.find(op, OpEvent::kComplete, kPutKind), b.find(op, OpEvent::kArrive, OpKind::kAck));
  }
  const std::string dir = test::temp_dir();
  auto r = run_kairo({"check-ops", write_csv(dir, b.done())});
  EXPECT_EQ(r.exit_code, 1);
  std::size_t shown = 0;
  for (std::size_t p = r.out.find("violation: "); p != std::string::npos;
       p = r.out.find("violation: ", p + 1))
    ++shown;
  EXPECT_EQ(shown, 20u) << r.out;
  EXPECT_NE(r.out.find("... and 5 more violations"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(": 25 violations"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace kairo
