// Node memory as a TLM-2.0 target: bytes, sparseness, the size-only mode's
// identical timing, and base-protocol error responses that leave memory
// untouched.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "hw/nic/node_memory.h"

namespace kairo::nic {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

tlm::tlm_response_status xfer(NodeMemory& m, tlm::tlm_command cmd, std::uint64_t addr, unsigned char* data,
                              unsigned len, sc_time* delay = nullptr) {
  tlm::tlm_generic_payload t;
  t.set_command(cmd);
  t.set_address(addr);
  t.set_data_ptr(data);
  t.set_data_length(len);
  t.set_streaming_width(len);
  t.set_byte_enable_ptr(nullptr);
  t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_time d = sc_core::SC_ZERO_TIME;
  m.b_transport(t, d);
  if (delay) *delay = d;
  return t.get_response_status();
}

NodeMemory::Params params(MemoryMode mode) {
  NodeMemory::Params p;
  p.size_bytes = std::uint64_t(1) << 36;  // 64 GiB of address space
  p.mode = mode;
  p.access_latency = sc_time(80, SC_NS);
  p.bandwidth_bytes_per_s = 10e9;
  return p;
}

TEST(NodeMemory, RandomUnalignedWritesReadBackByteExactAgainstAReferenceImage) {
  NodeMemory mem(params(MemoryMode::kData));
  const std::uint64_t base = (std::uint64_t(1) << 35) - 3 * NodeMemory::kPageBytes;  // deep in the range
  std::vector<unsigned char> image(8 * NodeMemory::kPageBytes, 0);                   // independent reference
  std::mt19937_64 rng(3);
  for (int i = 0; i < 2000; ++i) {
    unsigned len = unsigned(1 + rng() % 9000);
    std::uint64_t off = rng() % (image.size() - len);
    std::vector<unsigned char> data(len);
    for (auto& b : data) b = static_cast<unsigned char>(rng());
    ASSERT_EQ(xfer(mem, tlm::TLM_WRITE_COMMAND, base + off, data.data(), len), tlm::TLM_OK_RESPONSE);
    std::copy(data.begin(), data.end(), image.begin() + std::ptrdiff_t(off));
  }
  std::vector<unsigned char> back(image.size());
  ASSERT_EQ(xfer(mem, tlm::TLM_READ_COMMAND, base, back.data(), unsigned(back.size())), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(back, image);
}

TEST(NodeMemory, StorageCostsOnlyTheTouchedPages) {
  NodeMemory mem(params(MemoryMode::kData));
  unsigned char b[3] = {1, 2, 3};
  // Three writes far apart in a 64 GiB range; the middle one straddles a page boundary.
  xfer(mem, tlm::TLM_WRITE_COMMAND, 0, b, 3);
  xfer(mem, tlm::TLM_WRITE_COMMAND, (std::uint64_t(1) << 33) + NodeMemory::kPageBytes - 1, b, 3);
  xfer(mem, tlm::TLM_WRITE_COMMAND, (std::uint64_t(1) << 36) - 3, b, 3);
  EXPECT_EQ(mem.bytes_held(), 4 * NodeMemory::kPageBytes);
  unsigned char z[4] = {9, 9, 9, 9};
  xfer(mem, tlm::TLM_READ_COMMAND, std::uint64_t(1) << 34, z, 4);
  EXPECT_EQ(std::vector<unsigned char>(z, z + 4), std::vector<unsigned char>(4, 0))
      << "never written reads as zero";
  EXPECT_EQ(mem.bytes_held(), 4 * NodeMemory::kPageBytes) << "reads allocate nothing";
}

TEST(NodeMemory, SizeOnlyModeKeepsNoBytesAndHasIdenticalTiming) {
  NodeMemory data(params(MemoryMode::kData));
  NodeMemory size_only(params(MemoryMode::kSizeOnly));
  std::vector<unsigned char> buf(5000, 7);
  for (unsigned len : {1u, 64u, 4096u, 5000u}) {
    sc_time d1, d2;
    EXPECT_EQ(xfer(data, tlm::TLM_WRITE_COMMAND, 100, buf.data(), len, &d1), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(xfer(size_only, tlm::TLM_WRITE_COMMAND, 100, nullptr, len, &d2), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(d1, d2);
    // latency + length at the memory's bandwidth
    EXPECT_EQ(d1, sc_time(80, SC_NS) + sc_time(double(len) / 10e9, sc_core::SC_SEC));
  }
  EXPECT_EQ(size_only.bytes_held(), 0u);
  EXPECT_EQ(size_only.bytes_written(), data.bytes_written());
}

TEST(NodeMemory, BadAccessesGetBaseProtocolErrorsAndLeaveMemoryUntouched) {
  NodeMemory mem(params(MemoryMode::kData));
  const std::uint64_t end = std::uint64_t(1) << 36;
  unsigned char b[16] = {};
  for (auto& x : b) x = 0xab;
  EXPECT_EQ(xfer(mem, tlm::TLM_WRITE_COMMAND, end - 8, b, 16), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(xfer(mem, tlm::TLM_WRITE_COMMAND, ~std::uint64_t(0) - 4, b, 16), tlm::TLM_ADDRESS_ERROR_RESPONSE)
      << "address + length must not wrap around";
  tlm::tlm_generic_payload t;
  unsigned char be[16] = {};
  t.set_command(tlm::TLM_WRITE_COMMAND);
  t.set_address(0);
  t.set_data_ptr(b);
  t.set_data_length(16);
  t.set_streaming_width(16);
  t.set_byte_enable_ptr(be);
  t.set_byte_enable_length(16);
  sc_time d = sc_core::SC_ZERO_TIME;
  mem.b_transport(t, d);
  EXPECT_EQ(t.get_response_status(), tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
  t.set_byte_enable_ptr(nullptr);
  t.set_streaming_width(8);
  mem.b_transport(t, d);
  EXPECT_EQ(t.get_response_status(), tlm::TLM_BURST_ERROR_RESPONSE);
  EXPECT_EQ(d, sc_core::SC_ZERO_TIME) << "a refused access takes no time";
  EXPECT_EQ(mem.bytes_held(), 0u) << "nothing was written";
  EXPECT_EQ(mem.bytes_written(), 0u);
}

}  // namespace
}  // namespace kairo::nic

namespace kairo::nic {
namespace {

// What a split run's process 0 copies of another process's node memory.
TEST(NodeMemory, PagesListsTheWrittenPagesInOrder) {
  NodeMemory m(NodeMemory::Params{});
  std::vector<unsigned char> b(10, 1);
  EXPECT_TRUE(m.pages().empty());
  for (std::uint64_t addr : {std::uint64_t(5) * 4096 + 4090, std::uint64_t(0), std::uint64_t(40000)}) {
    tlm::tlm_generic_payload t;
    set_payload(t, tlm::TLM_WRITE_COMMAND, addr, b.data(), b.size());
    ASSERT_EQ(m.transport_dbg(t), b.size());
  }
  // 5*4096+4090 .. +10 spans pages 5 and 6; 40000 is in page 9.
  EXPECT_EQ(m.pages(), (std::vector<std::uint64_t>{0, 5, 6, 9}));
}

}  // namespace
}  // namespace kairo::nic
