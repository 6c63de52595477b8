// The input unit on its own (hw/router/input_unit.h): each input VC's queue
// (kept by its tail, hw::PacketRing) gives its packets back in the order
// they came, reports when a packet became its head, and keeps the
// occupancy bits the allocation rounds scan. Checked against std::deque.
#include <gtest/gtest.h>

#include <deque>
#include <random>
#include <vector>

#include "hw/router/input_unit.h"

namespace kairo::router {
namespace {

TEST(InputUnit, EachVcIsAFifoAndItsBitSaysWhetherItHoldsAPacket) {
  constexpr int kPorts = 14, kVcs = 4;
  InputUnit in(kPorts, kVcs, /*wormhole=*/false, /*staged=*/false);
  std::vector<hw::Packet> packets(4096);
  std::vector<std::deque<hw::Packet*>> model(in.size());
  std::mt19937_64 rng(11);
  std::size_t next = 0;
  for (int step = 0; step < 20000; ++step) {
    const int idx = in.index(int(rng() % kPorts), int(rng() % kVcs));
    std::deque<hw::Packet*>& q = model[std::size_t(idx)];
    if (next < packets.size() && (q.empty() || rng() % 2 == 0)) {
      hw::Packet* p = &packets[next++];
      EXPECT_EQ(in.push(idx, p), q.empty()) << "push " << step;  // head now iff it was empty
      q.push_back(p);
    } else if (!q.empty()) {
      EXPECT_EQ(&in[idx].fifo.front(), q.front()) << "front " << step;
      ASSERT_EQ(in.pop(idx), q.front()) << "pop " << step;
      q.pop_front();
      if (!q.empty()) EXPECT_EQ(&in[idx].fifo.front(), q.front()) << "next head " << step;
    }
    const bool occupied = in.word(idx >> 6) >> (idx & 63) & 1;
    ASSERT_EQ(occupied, !q.empty()) << "bit " << step;
    ASSERT_EQ(in[idx].fifo.empty(), q.empty()) << "empty " << step;
    ASSERT_EQ(in[idx].fifo.size(), q.size()) << "size " << step;
  }
  // Drained in order, every VC.
  for (int idx = 0; idx < int(in.size()); ++idx) {
    std::deque<hw::Packet*>& q = model[std::size_t(idx)];
    while (!q.empty()) {
      ASSERT_EQ(in.pop(idx), q.front());
      q.pop_front();
    }
    EXPECT_TRUE(in[idx].fifo.empty());
  }
}

}  // namespace
}  // namespace kairo::router
