// sim::prepare_huge_pages: below its threshold it leaves the heap alone;
// above it, the heap holds at least what was asked for, marked for huge
// pages unless the kernel refused, and memory allocated there afterwards
// keeps every byte it is given.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>

#include "sim/host_memory.h"

namespace kairo::sim {
namespace {

TEST(HugePages, BelowTheThresholdNothingIsAdvised) { EXPECT_EQ(prepare_huge_pages(kHugePagesFromBytes - 1), 0u); }

TEST(HugePages, TheHeapIsPreparedAndWhatIsBuiltThereKeepsItsContents) {
  const std::uint64_t advised = prepare_huge_pages(kHugePagesFromBytes);
  // The heap grew by the amount asked: what was advised covers it, less the
  // partial 2 MiB pages at its two ends (0: the kernel refused the advice).
  if (advised > 0) EXPECT_GE(advised, kHugePagesFromBytes - (std::uint64_t{4} << 20));
  constexpr std::size_t kWords = (std::size_t{64} << 20) / 8;  // many 2 MiB pages
  std::unique_ptr<std::uint64_t[]> block(new std::uint64_t[kWords]);
  for (std::size_t i = 0; i < kWords; ++i) block[i] = i * 0x9E3779B97F4A7C15ull;
  for (std::size_t i = 0; i < kWords; ++i) ASSERT_EQ(block[i], i * 0x9E3779B97F4A7C15ull) << "word " << i;
}

}  // namespace
}  // namespace kairo::sim
