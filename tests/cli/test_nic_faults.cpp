// Proof that the ordering checker catches what it should (docs/rdma.md,
// "Fault knobs"): each deliberate engine bug `--set nic.fault=NAME` makes
// `kairo run --check-ops` exit 1 naming the invariant the bug breaks, while
// the same run without the knob checks clean; an unknown knob exits 2
// naming the accepted ones.
#include <gtest/gtest.h>

#include "tests/test_support.h"

namespace kairo {
namespace {

using test::run_kairo;

// The README's put, 4 KiB: three data packets (MTU 1,920 B), each step logged.
test::CommandResult put_with(const std::string& fault) {
  std::vector<std::string> args = {"run",     "tofu-small", "--workload", "pingpong",
                                   "--param", "size=4KiB",  "--quiet",    "--check-ops"};
  if (!fault.empty()) args.insert(args.end(), {"--set", "nic.fault=" + fault});
  return run_kairo(args);
}

void expect_caught(const std::string& fault, const std::string& invariant) {
  const test::CommandResult r = put_with(fault);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find(invariant), std::string::npos) << fault << " should break " << invariant << ":\n"
                                                      << r.err;
  EXPECT_NE(r.err.find("open the waveform at"), std::string::npos) << r.err;
}

TEST(NicFaults, WithoutAFaultThePutChecksClean) {
  const test::CommandResult r = put_with("");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("no violation"), std::string::npos) << r.err;
}

TEST(NicFaults, ANoticeBeforeTheLastWriteIsCaught) {
  expect_caught("notice_before_write", "notice-after-writes");
}

TEST(NicFaults, ACompletionBeforeTheAcknowledgementIsCaught) {
  expect_caught("complete_before_ack", "put-remote-completion");
}

TEST(NicFaults, TwoWritesOfOnePutReorderedAreCaught) {
  expect_caught("reorder_writes", "writes-in-arrival-order");
}

TEST(NicFaults, APacketWrittenTwiceIsCaught) { expect_caught("double_write", "written-once-in-region"); }

TEST(NicFaults, AWritePastTheRegionIsCaught) { expect_caught("write_past_region", "written-once-in-region"); }

TEST(NicFaults, AnUnknownFaultExitsTwoListingTheAcceptedOnes) {
  const test::CommandResult r = put_with("lose_everything");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("nic.fault"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("notice_before_write"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("write_past_region"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace kairo
