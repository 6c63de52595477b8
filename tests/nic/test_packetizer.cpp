// Cutting an RDMA operation into packets: every payload byte is carried once,
// in order, no packet exceeds the MTU, and flits cover header + payload.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "hw/nic/packetizer.h"

namespace kairo::nic {
namespace {

TEST(Packetizer, TofuDPutOfEightBytesIsOneTwoFlitPacket) {
  Packetizer p(1920, 32, 32);  // TofuD MTU, a one-flit header, 32-byte flits
  EXPECT_EQ(p.packets(8), 1u);
  auto q = p.plan(8, 0);
  EXPECT_EQ(q.payload_bytes, 8u);
  EXPECT_EQ(q.wire_bytes, 40u);
  EXPECT_EQ(q.flits, 2);
  EXPECT_EQ(p.max_packet_flits(), 61u);  // (32 + 1920) / 32 = 61
}

TEST(Packetizer, AZeroLengthOperationSendsOneHeaderOnlyPacket) {
  Packetizer p(1920, 32, 32);
  EXPECT_EQ(p.packets(0), 1u);
  auto q = p.plan(0, 0);
  EXPECT_EQ(q.payload_bytes, 0u);
  EXPECT_EQ(q.flits, 1);
}

TEST(Packetizer, EveryByteIsCarriedOnceInOrderWithinTheMtu) {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 2000; ++i) {
    const std::uint32_t mtu = 1 + std::uint32_t(rng() % 4096), header = std::uint32_t(rng() % 64);
    const std::uint32_t flit = 1 + std::uint32_t(rng() % 64);
    const std::uint64_t len = rng() % 50000;
    Packetizer p(mtu, header, flit);
    std::uint64_t next = 0;
    const std::uint64_t n = p.packets(len);
    EXPECT_EQ(n, len == 0 ? 1 : (len + mtu - 1) / mtu);
    for (std::uint64_t k = 0; k < n; ++k) {
      auto q = p.plan(len, k);
      ASSERT_EQ(q.offset, next);
      ASSERT_LE(q.payload_bytes, mtu);
      ASSERT_TRUE(q.payload_bytes > 0 || len == 0);
      ASSERT_GE(q.flits, 1);
      ASSERT_GE(std::uint64_t(q.flits) * flit, q.wire_bytes);
      if (q.wire_bytes > 0) ASSERT_LT(std::uint64_t(q.flits - 1) * flit, q.wire_bytes) << "no spare flit";
      ASSERT_LE(q.flits, p.max_packet_flits());
      next += q.payload_bytes;
    }
    ASSERT_EQ(next, len);
  }
}

}  // namespace
}  // namespace kairo::nic
