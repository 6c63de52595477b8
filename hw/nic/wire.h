// The RDMA packet format: what one engine's transmit block sends another's
// receive block (the header's fields and, in data mode, the payload),
// carried as the network packet's (hw::Packet's) user data.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "hw/common/payload_codec.h"
#include "hw/nic/memory_registry.h"
#include "hw/nic/rdma_status.h"

namespace kairo::hw {
struct Packet;
}

namespace kairo::nic {

// RDMA packets' headers and payloads, recycled across all engines of a run
// (a packet allocated by one engine is freed by the one that consumes it).
struct Wire {
  enum Type : std::uint8_t { kPutData, kPutAck, kGetRequest, kGetData } type = kPutData;
  RdmaStatus status = RdmaStatus::kOk;
  std::uint32_t src_node = 0;  // the operation's initiator
  std::uint16_t src_tni = 0;
  std::uint32_t dst_node = 0;  // where this packet goes
  std::uint16_t dst_tni = 0;
  std::uint64_t op = 0;  // the initiator's operation id
  MemKey key = 0;        // the target-side region of the operation
  std::uint64_t offset = 0;
  std::uint64_t op_length = 0;
  std::uint64_t piece_offset = 0;  // this packet's share of the payload
  std::uint32_t piece_bytes = 0;
  std::uint32_t tag = 0;
  bool notify = false;
  std::uint64_t read_address = 0;   // sender side: where the tx DMA reads the payload
  std::vector<unsigned char> data;  // data mode only
  hw::Packet* rx_packet = nullptr;  // receiver side: the packet holding its ejection slots until written
  Wire* next_free = nullptr;
};

class WirePool {
 public:
  Wire* get() {
    if (!free_) {
      store_.push_back(std::make_unique<Wire>());
      return store_.back().get();
    }
    Wire* w = free_;
    free_ = w->next_free;
    w->next_free = nullptr;
    return w;
  }
  void put(Wire* w) {
    w->next_free = free_;
    free_ = w;
  }

 private:
  std::vector<std::unique_ptr<Wire>> store_;
  Wire* free_ = nullptr;
};

// A Wire as bytes, for a packet that crosses to another process: every field
// (the header and, in data mode, a data packet's payload), so that the
// receiving engine sees the Wire it would in one process; the receiving side's own
// pointers (rx_packet, next_free) start empty. Sender and receiver each take
// their Wires from their own process's pool.
class WireCodec final : public hw::PayloadCodec {
 public:
  explicit WireCodec(WirePool& pool) : pool_(pool) {}
  void pack(const void* user, sim::ByteWriter& w) const override;
  void* unpack(sim::ByteReader& r) override;
  void release(void* user) override { pool_.put(static_cast<Wire*>(user)); }

 private:
  WirePool& pool_;
};

}  // namespace kairo::nic
