// The NIC's memory registration table: keys resolve to the registered range,
// and every misuse is reported as the hardware would, never as a wrong
// address.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "hw/nic/memory_registry.h"

namespace kairo::nic {
namespace {

constexpr std::uint64_t kMemory = std::uint64_t(1) << 41;  // node memory size: past every region below

TEST(MemoryRegistry, AKeyResolvesOffsetsInsideItsRegion) {
  MemoryRegistry reg(16, kMemory);
  auto a = reg.add(0x1000, 4096);
  auto b = reg.add(0x100000, 64);
  ASSERT_EQ(a.status, RdmaStatus::kOk);
  ASSERT_EQ(b.status, RdmaStatus::kOk);
  EXPECT_NE(a.key, b.key);
  EXPECT_EQ(reg.resolve(a.key, 0, 4096).address, 0x1000u);
  EXPECT_EQ(reg.resolve(a.key, 100, 8).address, 0x1000u + 100);
  EXPECT_EQ(reg.resolve(b.key, 63, 1).address, 0x100000u + 63);
  EXPECT_EQ(reg.resolve(a.key, 4096, 0).status, RdmaStatus::kOk) << "an empty range at the end is inside";
}

TEST(MemoryRegistry, RangesPastTheRegionAreOutOfBoundsEvenWhenTheSumOverflows) {
  MemoryRegistry reg(4, kMemory);
  auto a = reg.add(0x1000, 4096);
  EXPECT_EQ(reg.resolve(a.key, 4090, 7).status, RdmaStatus::kOutOfBounds);
  EXPECT_EQ(reg.resolve(a.key, 4097, 0).status, RdmaStatus::kOutOfBounds);
  EXPECT_EQ(reg.resolve(a.key, 8, ~std::uint64_t(0) - 4).status, RdmaStatus::kOutOfBounds)
      << "offset + length wraps around 2^64";
  EXPECT_EQ(reg.resolve(a.key, ~std::uint64_t(0), 2).status, RdmaStatus::kOutOfBounds);
}

TEST(MemoryRegistry, KeysThatNameNothingAreUnregistered) {
  MemoryRegistry reg(4, kMemory);
  EXPECT_EQ(reg.resolve(0, 0, 1).status, RdmaStatus::kUnregisteredKey);
  auto a = reg.add(0, 10);
  EXPECT_EQ(reg.resolve(a.key + 1, 0, 1).status, RdmaStatus::kUnregisteredKey) << "a slot never used";
  EXPECT_EQ(reg.resolve(a.key + (std::uint64_t(5) << 32), 0, 1).status, RdmaStatus::kUnregisteredKey)
      << "a generation the slot never had";
  EXPECT_EQ(reg.remove(12345), RdmaStatus::kUnregisteredKey);
}

TEST(MemoryRegistry, AReleasedKeyIsStaleEvenAfterItsSlotIsReused) {
  MemoryRegistry reg(1, kMemory);
  auto a = reg.add(0x1000, 100);
  ASSERT_EQ(reg.remove(a.key), RdmaStatus::kOk);
  EXPECT_EQ(reg.resolve(a.key, 0, 1).status, RdmaStatus::kStaleKey);
  auto b = reg.add(0x9000, 100);  // the only slot, reused
  ASSERT_EQ(b.status, RdmaStatus::kOk);
  EXPECT_NE(a.key, b.key);
  EXPECT_EQ(reg.resolve(a.key, 0, 1).status, RdmaStatus::kStaleKey) << "must not reach the new region";
  EXPECT_EQ(reg.resolve(b.key, 0, 1).address, 0x9000u);
  EXPECT_EQ(reg.remove(a.key), RdmaStatus::kStaleKey) << "releasing twice";
}

TEST(MemoryRegistry, AFullTableRefusesNewRegistrations) {
  MemoryRegistry reg(3, kMemory);
  std::vector<MemKey> keys;
  for (int i = 0; i < 3; ++i) keys.push_back(reg.add(std::uint64_t(i) * 100, 50).key);
  EXPECT_EQ(reg.add(1000, 1).status, RdmaStatus::kRegistryFull);
  EXPECT_EQ(reg.live(), 3u);
  reg.remove(keys[1]);
  EXPECT_EQ(reg.add(1000, 1).status, RdmaStatus::kOk);
}

// A region must lie inside the node memory: one that passes its end (or
// starts past it, or whose end wraps around 2^64) is refused with no key and
// no slot taken, as the NIC reports a failed registration; up to the last
// byte is fine.
TEST(MemoryRegistry, RegionsPassingTheNodeMemorysEndAreRefused) {
  MemoryRegistry reg(4, 1 << 20);
  EXPECT_EQ(reg.memory_bytes(), 1u << 20);
  const Registration past = reg.add((1 << 20) - 4096, 4097);
  EXPECT_EQ(past.status, RdmaStatus::kOutOfBounds);
  EXPECT_EQ(past.key, 0u);
  EXPECT_EQ(reg.add(1 << 20, 1).status, RdmaStatus::kOutOfBounds);
  EXPECT_EQ(reg.add((1 << 20) + 1, 0).status, RdmaStatus::kOutOfBounds);
  EXPECT_EQ(reg.add(4096, ~std::uint64_t(0) - 100).status, RdmaStatus::kOutOfBounds)
      << "address + length wraps around 2^64";
  EXPECT_EQ(reg.live(), 0u) << "a refused registration takes no slot";
  const Registration last = reg.add((1 << 20) - 4096, 4096);
  ASSERT_EQ(last.status, RdmaStatus::kOk);
  EXPECT_EQ(reg.resolve(last.key, 0, 4096).address, (1u << 20) - 4096);
  EXPECT_EQ(reg.add(1 << 20, 0).status, RdmaStatus::kOk) << "an empty region at the end is inside";
  EXPECT_EQ(reg.add(0, 1 << 20).status, RdmaStatus::kOk) << "the whole memory";
}

// Random registrations and releases against an independent model: every
// resolution agrees with a plain list of live (key, address, length).
TEST(MemoryRegistry, RandomUseAgreesWithAReferenceModel) {
  MemoryRegistry reg(32, kMemory);
  struct Live {
    MemKey key;
    std::uint64_t address, length;
  };
  std::vector<Live> live;
  std::vector<MemKey> released;
  std::mt19937_64 rng(17);
  for (int step = 0; step < 20000; ++step) {
    const int op = int(rng() % 3);
    if (op == 0) {
      const std::uint64_t addr = rng() % (1ULL << 40), len = 1 + rng() % 100000;
      auto r = reg.add(addr, len);
      if (live.size() == 32) {
        ASSERT_EQ(r.status, RdmaStatus::kRegistryFull);
      } else {
        ASSERT_EQ(r.status, RdmaStatus::kOk);
        live.push_back({r.key, addr, len});
      }
    } else if (op == 1 && !live.empty()) {
      std::size_t i = rng() % live.size();
      ASSERT_EQ(reg.remove(live[i].key), RdmaStatus::kOk);
      released.push_back(live[i].key);
      live.erase(live.begin() + std::ptrdiff_t(i));
    } else {
      if (!live.empty()) {
        const Live& l = live[rng() % live.size()];
        const std::uint64_t off = rng() % (l.length + 2), len = rng() % (l.length + 2);
        auto r = reg.resolve(l.key, off, len);
        if (off + len <= l.length) {
          ASSERT_EQ(r.status, RdmaStatus::kOk);
          ASSERT_EQ(r.address, l.address + off);
        } else {
          ASSERT_EQ(r.status, RdmaStatus::kOutOfBounds);
        }
      }
      if (!released.empty()) {
        ASSERT_EQ(reg.resolve(released[rng() % released.size()], 0, 1).status, RdmaStatus::kStaleKey);
      }
    }
  }
}

}  // namespace
}  // namespace kairo::nic
