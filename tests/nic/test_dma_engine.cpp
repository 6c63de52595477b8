// A DMA engine against the TLM node memory: bytes move exactly, transfers take
// their length at the slower of the engine's and the memory's rate, one after
// another, and a refused access moves nothing.
#include <gtest/gtest.h>

#include <vector>

#include "hw/nic/dma_engine.h"
#include "hw/nic/node_memory.h"

namespace kairo::nic {
namespace {

NodeMemory::Params memory(double bw, double latency_ns, MemoryMode mode = MemoryMode::kData) {
  NodeMemory::Params p;
  p.size_bytes = 1 << 20;
  p.mode = mode;
  p.bandwidth_bytes_per_s = bw;
  p.access_latency = sc_core::sc_time(latency_ns, sc_core::SC_NS);
  return p;
}

tlm::tlm_fw_transport_if<>* fw(NodeMemory& m) { return m.target(); }

TEST(DmaEngine, MovesBytesThroughTheMemorysTlmSocket) {
  NodeMemory mem(memory(0, 0));
  DmaEngine dma(2.8e9, fw(mem));
  std::vector<unsigned char> out(3000), in(3000);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<unsigned char>(i * 7 + 1);
  ASSERT_EQ(dma.write(0, 12345, out.data(), out.size()).status, tlm::TLM_OK_RESPONSE);
  ASSERT_EQ(dma.read(0, 12345, in.data(), in.size()).status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(in, out);
  EXPECT_EQ(mem.bytes_written(), 3000u);
  EXPECT_EQ(dma.bytes_read(), 3000u);
}

TEST(DmaEngine, ATransferTakesItsLengthAtTheSlowerRateAndTransfersQueue) {
  // Engine at 2.8 GB/s (Susukita et al. 2016); memory fast: the engine's rate sets the time.
  NodeMemory fast(memory(100e9, 0));
  std::vector<unsigned char> buf(2800);
  DmaEngine e(2.8e9, fw(fast));
  auto r1 = e.read(1000, 0, buf.data(), 2800);
  EXPECT_EQ(r1.start_ps, 1000u);
  EXPECT_EQ(r1.done_ps, 1000u + 1000000u) << "2800 B at 2.8 GB/s is 1 us";
  auto r2 = e.read(1500, 0, buf.data(), 1400);
  EXPECT_EQ(r2.start_ps, r1.done_ps) << "one transfer at a time";
  EXPECT_EQ(r2.done_ps, r1.done_ps + 500000u);
  // A slow memory (1 GB/s + 100 ns) bounds the same transfer instead.
  NodeMemory slow(memory(1e9, 100));
  DmaEngine s(2.8e9, fw(slow));
  auto r3 = s.read(0, 0, buf.data(), 2800);
  EXPECT_EQ(r3.done_ps, 100000u + 2800000u);
}

TEST(DmaEngine, SizeOnlyMemoryGivesIdenticalTimingWithoutBuffers) {
  NodeMemory data(memory(5e9, 50));
  NodeMemory size_only(memory(5e9, 50, MemoryMode::kSizeOnly));
  DmaEngine a(2.8e9, fw(data)), b(2.8e9, fw(size_only));
  std::vector<unsigned char> buf(4096, 1);
  for (std::uint64_t len : {1u, 100u, 1920u, 4096u}) {
    auto ra = a.write(0, 64, buf.data(), len);
    auto rb = b.write(0, 64, nullptr, len);
    EXPECT_EQ(ra.done_ps, rb.done_ps) << len;
    EXPECT_EQ(ra.start_ps, rb.start_ps) << len;
  }
}

TEST(DmaEngine, ARefusedAccessMovesNothingAndTakesNoTime) {
  NodeMemory mem(memory(0, 0));
  DmaEngine dma(2.8e9, fw(mem));
  std::vector<unsigned char> buf(64, 0xee);
  auto r = dma.write(500, (1 << 20) - 10, buf.data(), 64);  // runs past the end of memory
  EXPECT_EQ(r.status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(r.done_ps, 500u);
  EXPECT_EQ(dma.busy_until(), 0u);
  EXPECT_EQ(mem.bytes_held(), 0u);
  EXPECT_EQ(dma.bytes_written(), 0u);
}

}  // namespace
}  // namespace kairo::nic
