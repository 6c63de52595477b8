// A Wire made bytes for another process (a partitioned run): every field the
// receiving engine reads comes back equal, a data packet's payload with it,
// and the sender's Wire returns to its pool.
#include <gtest/gtest.h>

#include "hw/nic/wire.h"

namespace kairo::nic {
namespace {

Wire sample(Wire::Type type) {
  Wire w;
  w.type = type;
  w.status = RdmaStatus::kStaleKey;
  w.src_node = 70000;
  w.src_tni = 3;
  w.dst_node = 81234;
  w.dst_tni = 2;
  w.op = 0x123456789abcULL;
  w.key = (std::uint64_t(7) << 32) | 5;
  w.offset = 4096;
  w.op_length = 1 << 20;
  w.piece_offset = 65536;
  w.piece_bytes = 256;
  w.tag = 42;
  w.notify = true;
  w.read_address = 0xdead000;
  for (int i = 0; i < 256; ++i) w.data.push_back(static_cast<unsigned char>(i * 7 + 1));
  return w;
}

TEST(WireCodec, EveryFieldOfADataPacketCrosses) {
  WirePool sender_pool, receiver_pool;
  WireCodec out(sender_pool), in(receiver_pool);
  const Wire w = sample(Wire::kPutData);
  std::vector<char> bytes;
  sim::ByteWriter bw(bytes);
  out.pack(&w, bw);
  sim::ByteReader br(bytes);
  const Wire& r = *static_cast<Wire*>(in.unpack(br));
  EXPECT_TRUE(br.done());
  EXPECT_EQ(r.type, w.type);
  EXPECT_EQ(r.status, w.status);
  EXPECT_EQ(r.src_node, w.src_node);
  EXPECT_EQ(r.src_tni, w.src_tni);
  EXPECT_EQ(r.dst_node, w.dst_node);
  EXPECT_EQ(r.dst_tni, w.dst_tni);
  EXPECT_EQ(r.op, w.op);
  EXPECT_EQ(r.key, w.key);
  EXPECT_EQ(r.offset, w.offset);
  EXPECT_EQ(r.op_length, w.op_length);
  EXPECT_EQ(r.piece_offset, w.piece_offset);
  EXPECT_EQ(r.piece_bytes, w.piece_bytes);
  EXPECT_EQ(r.tag, w.tag);
  EXPECT_EQ(r.notify, w.notify);
  EXPECT_EQ(r.read_address, w.read_address);
  EXPECT_EQ(r.data, w.data);
  EXPECT_EQ(r.rx_packet, nullptr);
}

TEST(WireCodec, AnAcknowledgementLeavesAnOldPayloadBehind) {
  WirePool pool;
  WireCodec codec(pool);
  const Wire w = sample(Wire::kPutAck);
  std::vector<char> bytes;
  sim::ByteWriter bw(bytes);
  codec.pack(&w, bw);
  std::vector<char> data_bytes;
  sim::ByteWriter dw(data_bytes);
  const Wire d = sample(Wire::kGetData);
  codec.pack(&d, dw);
  EXPECT_EQ(data_bytes.size(), bytes.size() + d.data.size());
  sim::ByteReader br(bytes);
  const Wire& r = *static_cast<Wire*>(codec.unpack(br));
  EXPECT_TRUE(r.data.empty());
  EXPECT_EQ(r.op, w.op);
}

TEST(WireCodec, ReleaseGivesTheSendersWireBackToItsPool) {
  WirePool pool;
  WireCodec codec(pool);
  Wire* w = pool.get();
  codec.release(w);
  EXPECT_EQ(pool.get(), w);  // the pool hands out what was released first
}

}  // namespace
}  // namespace kairo::nic
