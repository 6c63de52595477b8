// sim::back_with_huge_pages: below its threshold it leaves memory alone;
// above it, whatever the kernel does with the advice, every byte keeps its
// value (collapsing pages into huge ones copies them).
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>

#include "sim/host_memory.h"

namespace kairo::sim {
namespace {

TEST(HugePages, BelowTheThresholdNothingIsAdvised) {
  EXPECT_EQ(back_with_huge_pages(std::uint64_t{1} << 62), 0u);
}

TEST(HugePages, MemoryKeepsItsContentsWhenMovedToHugePages) {
  constexpr std::size_t kWords = (std::size_t{48} << 20) / 8;  // many 2 MiB pages, wherever it lands
  std::unique_ptr<std::uint64_t[]> block(new std::uint64_t[kWords]);
  for (std::size_t i = 0; i < kWords; ++i) block[i] = i * 0x9E3779B97F4A7C15ull;
  const std::uint64_t advised = back_with_huge_pages(0);
  // The block is the process's anonymous memory, so the 2 MiB pages wholly
  // inside it were advised, unless the kernel refused the advice (0).
  if (advised > 0) EXPECT_GE(advised, kWords * 8 - (std::uint64_t{4} << 20));
  for (std::size_t i = 0; i < kWords; ++i) ASSERT_EQ(block[i], i * 0x9E3779B97F4A7C15ull) << "word " << i;
}

}  // namespace
}  // namespace kairo::sim
