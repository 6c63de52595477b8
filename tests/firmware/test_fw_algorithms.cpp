// The table of collective algorithms (sw/collectives/algorithms.h): every
// entry builds consistent schedules wherever its rank-count rule allows,
// its memory footprint covers what its schedules touch, and an unknown
// name is refused naming the valid ones (never a silent default).
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>

#include "sw/collectives/algorithms.h"
#include "sw/collectives/pieces.h"

namespace kairo::coll {
namespace {

// The call of rank `rank` of `p`, with each knob at its default for p.
Call call(const Algorithm& a, int rank, int p) {
  Call c{rank, p, 0, std::uint64_t(8 * 3 * p), 1, 1};
  for (const Knob& k : a.knobs) c.*k.member = std::max(k.lo, std::min(k.deflt(p), k.hi(p)));
  return c;
}

TEST(Algorithms, EveryEntryBuildsConsistentSchedulesWithinItsFootprint) {
  for (const Algorithm& a : algorithms()) {
    if (a.needs_torus || a.collective == Collective::kNeighbor) continue;  // placed ranks: their own tests
    int built = 0;
    for (int p : {2, 3, 4, 5, 6, 7, 8, 12, 16, 17, 32}) {
      if (!a.refuse(call(a, 0, p)).empty()) continue;
      std::vector<Schedule> all;
      for (int r = 0; r < p; ++r) all.push_back(build(a, call(a, r, p)));
      EXPECT_TRUE(check_schedules(all).empty())
          << collective_name(a.collective) << " " << a.name << " p=" << p;
      const Memory m = a.memory(call(a, 0, p));
      for (const Schedule& s : all)
        EXPECT_LE(double(recv_extent(s)), m.recv_bytes)
            << collective_name(a.collective) << " " << a.name << " p=" << p;
      ++built;
    }
    EXPECT_GT(built, 0) << a.name << " allows none of the rank counts tried";
  }
}

TEST(Algorithms, EveryEntryIsNamedOnceWithADocLine) {
  std::set<std::pair<int, std::string>> seen;
  for (const Algorithm& a : algorithms()) {
    EXPECT_TRUE(seen.insert({int(a.collective), a.name}).second) << a.name << " twice";
    EXPECT_GT(std::string(a.doc).size(), 5u) << a.name;
  }
  EXPECT_EQ(algorithm_names(Collective::kAllreduce).front(), "recursive-doubling");  // the default
  EXPECT_EQ(algorithm_names(Collective::kBarrier).front(), "recursive-doubling");
}

TEST(Algorithms, AnUnknownNameIsRefusedNamingTheValidOnes) {
  try {
    find_algorithm(Collective::kAllreduce, "rign");
    FAIL() << "accepted an unknown name";
  } catch (const std::invalid_argument& e) {
    // The message names the option and every allreduce of the table, in its order.
    std::string listed;
    for (const std::string& n : algorithm_names(Collective::kAllreduce))
      listed += (listed.empty() ? "" : ", ") + n;
    EXPECT_EQ(std::string(e.what()), "--param algo=rign: expected one of: " + listed);
    EXPECT_NE(listed.find("ring, rabenseifner"), std::string::npos) << listed;
  }
  // A name of another collective is unknown here too.
  EXPECT_THROW(find_algorithm(Collective::kReduceScatter, "rabenseifner"), std::invalid_argument);
}

TEST(Algorithms, ARankCountTheAlgorithmCannotTakeIsRefusedBeforeBuilding) {
  EXPECT_THROW(build(Collective::kReduceScatter, "halving", Call{0, 6, 0, 48, 1, 1}), std::invalid_argument);
  EXPECT_THROW(build(Collective::kAllgather, "recursive-doubling", Call{0, 6, 0, 48, 1, 1}),
               std::invalid_argument);
  EXPECT_THROW(build(Collective::kBcast, "farfirst", Call{0, 5, 0, 48, 1, 1}), std::invalid_argument);
  EXPECT_NO_THROW(build(Collective::kReduceScatter, "ring", Call{0, 6, 0, 48, 1, 1}));
}

}  // namespace
}  // namespace kairo::coll
