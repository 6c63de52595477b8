// The table of collective algorithms (sw/collectives/algorithms.h): every
// entry builds consistent schedules wherever its rank-count rule allows,
// its memory footprint covers what its schedules touch, and an unknown
// name is refused naming the valid ones (never a silent default); `kairo
// algorithms` lists the table as it is, and docs/collectives.md holds the
// table it generates.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>

#include "sw/collectives/algorithms.h"
#include "sw/collectives/pieces.h"
#include "tests/test_support.h"

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

// The rank-count rules the listing may state, each as the rank counts it
// means: the listing's text must mean what the entry's rule does.
bool rule_allows(const std::string& rule, int p) {
  if (rule == "any") return true;
  if (rule == "p >= 2") return p >= 2;
  if (rule == "p even") return p % 2 == 0;
  if (rule == "p a power of two") return (p & (p - 1)) == 0;
  if (rule == "p = 2^k, k >= 1") return p >= 2 && (p & (p - 1)) == 0;
  ADD_FAILURE() << "a rule the listing should not need: " << rule;
  return false;
}

TEST(Algorithms, TheListingCommandShowsEveryEntryOfTheTable) {
  const auto r = test::run_kairo({"algorithms", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  // The table, counted per collective here.
  std::map<std::string, std::vector<const Algorithm*>> want;
  for (const Algorithm& a : algorithms()) want[collective_name(a.collective)].push_back(&a);
  ASSERT_EQ(j["collectives"].size(), want.size()) << "one entry per collective";
  EXPECT_EQ(int(want.size()), kCollectives);
  for (const auto& c : j["collectives"]) {
    const auto& entries = want[c["collective"].get<std::string>()];
    ASSERT_EQ(c["algorithms"].size(), entries.size()) << c["collective"];
    for (std::size_t i = 0; i < entries.size(); ++i) {
      const Algorithm& a = *entries[i];
      const auto& got = c["algorithms"][i];
      EXPECT_EQ(got["name"], a.name);
      EXPECT_EQ(got["doc"], a.doc);
      EXPECT_EQ(got["default"], i == 0) << a.name << ": the first of a collective is its default";
      EXPECT_EQ(got["needs_torus"], a.needs_torus) << a.name;
      EXPECT_EQ(got["traced"], a.traced) << a.name;
      ASSERT_EQ(got["knobs"].size(), a.knobs.size()) << a.name;
      for (std::size_t k = 0; k < a.knobs.size(); ++k) {
        EXPECT_EQ(got["knobs"][k]["name"], a.knobs[k].name);
        EXPECT_NE(got["knobs"][k]["doc"].get<std::string>().find("default"), std::string::npos)
            << a.name << " " << a.knobs[k].name << ": the doc line states the default";
      }
      // The stated rule is the entry's own, on more rank counts than the listing tried.
      const std::string rule = got["ranks"];
      for (int p = 1; p <= 256; ++p) {
        Call call{0, p, 0, 8, 1, 1};
        for (const Knob& k : a.knobs) call.*k.member = std::max(k.lo, std::min(k.deflt(p), k.hi(p)));
        EXPECT_EQ(a.refuse(call).empty(), rule_allows(rule, p)) << a.name << " p=" << p << " rule " << rule;
      }
    }
  }
  // One collective alone: its header and two lines per algorithm.
  const auto one = test::run_kairo({"algorithms", "alltoall"});
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_EQ(std::count(one.out.begin(), one.out.end(), '\n'), 1 + 2 * std::ptrdiff_t(want["alltoall"].size()))
      << one.out;
  for (const Algorithm* a : want["alltoall"]) EXPECT_NE(one.out.find(a->name), std::string::npos) << a->name;
}

TEST(Algorithms, TheListingRefusesAnUnknownCollectiveNamingTheValidOnes) {
  const auto r = test::run_kairo({"algorithms", "allreduse"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("'allreduse'"), std::string::npos) << r.err;
  for (int c = 0; c < kCollectives; ++c)
    EXPECT_NE(r.err.find(collective_name(Collective(c))), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << "nothing listed";
}

TEST(Algorithms, DocsTableIsTheGeneratedOne) {
  const std::string doc = test::read_file(std::string(KAIRO_SOURCE_DIR) + "/docs/collectives.md");
  const std::string begin = "<!-- BEGIN algorithms", end = "<!-- END algorithms";
  const auto b = doc.find(begin), e = doc.find(end);
  ASSERT_NE(b, std::string::npos) << "docs/collectives.md lacks the BEGIN algorithms marker";
  ASSERT_NE(e, std::string::npos) << "docs/collectives.md lacks the END algorithms marker";
  const auto first = doc.find('\n', b) + 1;
  const auto r = test::run_kairo({"algorithms", "--markdown"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(doc.substr(first, e - first), r.out)
      << "docs/collectives.md's table of algorithms is out of date: run tools/gen_params.sh";
  for (const Algorithm& a : algorithms())
    EXPECT_NE(r.out.find(std::string("`") + a.name + "`"), std::string::npos) << a.name;
}

}  // namespace
}  // namespace kairo::coll
