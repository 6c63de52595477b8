// Progress lines' estimates (sim/progress_estimate.h, traffic and run): the
// remaining wall time follows from the recent speed by the rule of three,
// the long-run warning comes once and only inside the first minute, wall
// times read as people write them, and a traffic run asked for 10^12 cycles
// says in its first seconds that it needs more than an hour.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "sim/progress_estimate.h"
#include "tests/test_support.h"

namespace kairo::sim {
namespace {

TEST(ProgressEstimate, RemainingTimeIsTheWorkLeftAtTheRecentSpeed) {
  ProgressEstimate e(1000, /*window_s=*/10);
  EXPECT_FALSE(e.update(0, 0)) << "no speed from one sample";
  // 10 units/s: 900 left -> 90 s.
  EXPECT_DOUBLE_EQ(*e.update(10, 100), 90.0);
  // The speed doubles: once the slow samples have left the 10 s window, the
  // estimate uses the new speed alone: (1000 - 500) / 20 = 25 s.
  e.update(20, 300);
  e.update(25, 400);
  EXPECT_DOUBLE_EQ(*e.update(30, 500), 25.0);
  EXPECT_DOUBLE_EQ(*e.update(60, 1000), 0.0);
}

TEST(ProgressEstimate, NoEstimateWithoutProgress) {
  ProgressEstimate e(100);
  e.update(0, 0);
  EXPECT_FALSE(e.update(2, 0)) << "nothing done: no speed";
}

TEST(ProgressEstimate, TheLongRunWarningComesOnceInTheFirstMinute) {
  ProgressEstimate e(1);
  EXPECT_FALSE(e.warn_long(5, 3000)) << "under an hour";
  EXPECT_TRUE(e.warn_long(5, 4000));
  EXPECT_FALSE(e.warn_long(7, 4000)) << "once";
  ProgressEstimate late(1);
  EXPECT_FALSE(late.warn_long(61, 1e6)) << "after the first minute";
}

TEST(ProgressEstimate, WallTimesForPeople) {
  EXPECT_EQ(format_wall(12.4), "12 s");
  EXPECT_EQ(format_wall(245), "4 min 05 s");
  EXPECT_EQ(format_wall(2 * 3600 + 13 * 60 + 5), "2 h 13 min");
  EXPECT_EQ(format_wall(3.4 * 86400), "3.4 days");
  EXPECT_EQ(format_wall(-1), "0 s");
}

// Runs `kairo ARGS<dir>/out.json` and returns the first line of its output
// holding `word` ("" when none came within 120 s); the pipe ends the run
// there.
std::string first_line_with(const std::string& args, const std::string& word) {
  const std::string dir = test::temp_dir();
  const std::string cmd = "timeout 120 " + std::string(KAIRO_BIN) + " " + args + dir +
                          "/out.json 2>&1 | grep -m1 '" + word + "' > " + dir + "/line.txt";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << "no line with '" << word << "': " << cmd;
  return test::read_file(dir + "/line.txt");
}

// 10^12 cycles of mesh-8x8 run for days at any speed this simulator has
// (docs/performance.md: about 10^5 to 10^6 cycles a second): the warning
// names the length's options. The pipe ends the run at the first line after it.
TEST(ProgressEstimate, ATrafficRunOfDaysSaysSoAtOnce) {
  const std::string w =
      first_line_with("traffic mesh-8x8 --rate 0.2 --measure-cycles 1000000000000 --json ", "warning");
  EXPECT_NE(w.find("days more wall time"), std::string::npos) << w;
  EXPECT_NE(w.find("--measure-cycles"), std::string::npos) << w;
}

// A collective-style run whose ranks announce their put bytes (random-ring)
// carries the estimate on its progress lines; the pipe ends the run at the
// second line.
TEST(ProgressEstimate, ARunsProgressLinesCarryTheEstimate) {
  const std::string line = first_line_with(
      "run tofud-rack --workload random-ring --param size=256MB --mode size-only --json ", "left");
  EXPECT_NE(line.find("kairo run: "), std::string::npos) << line;
  EXPECT_NE(line.find(", about "), std::string::npos) << line;
}

}  // namespace
}  // namespace kairo::sim
