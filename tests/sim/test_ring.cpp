// sim::Ring against std::deque as the reference: the same sequence of
// pushes and pops gives the same elements in the same order.
#include <gtest/gtest.h>

#include <deque>
#include <random>

#include "sim/ring.h"

namespace kairo::sim {
namespace {

TEST(Ring, EmptyRingHoldsNoStorage) {
  Ring<int> r;
  EXPECT_TRUE(r.empty());
  EXPECT_EQ(r.capacity(), 0u);
}

TEST(Ring, BehavesLikeADequeUnderRandomPushesAndPops) {
  Ring<std::uint64_t> r;
  std::deque<std::uint64_t> ref;
  std::mt19937_64 rng(3);
  std::uint64_t next = 0;
  for (int step = 0; step < 100000; ++step) {
    if (ref.empty() || rng() % 3 != 0) {
      r.push_back(next);
      ref.push_back(next++);
    } else {
      ASSERT_EQ(r.front(), ref.front());
      r.pop_front();
      ref.pop_front();
    }
    ASSERT_EQ(r.size(), ref.size());
    if (!ref.empty()) ASSERT_EQ(r[ref.size() - 1], ref.back());
  }
  EXPECT_GE(r.capacity(), r.size());
  EXPECT_EQ(r.capacity() & (r.capacity() - 1), 0u) << "a power of two";
}

TEST(Ring, CapacityIsKeptSoSteadyStateDoesNotGrow) {
  Ring<int> r;
  for (int i = 0; i < 10; ++i) r.push_back(i);
  const std::size_t cap = r.capacity();
  for (int round = 0; round < 1000; ++round) {
    r.pop_front();
    r.push_back(round);
  }
  EXPECT_EQ(r.capacity(), cap);
}

}  // namespace
}  // namespace kairo::sim
