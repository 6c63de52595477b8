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
#include "hw/nic/rdma_types.h"
#include "sim/time.h"

namespace kairo::hw {
struct Packet;
}

namespace kairo::nic {

// RDMA packets' headers and payloads, recycled across all engines of a run
// (a packet allocated by one engine is freed by the one that consumes it).
struct Wire {
  // Initiator to target: put data, a get's request, an atomic's request;
  // target to initiator (responses): a put's acknowledgement, get data, an
  // atomic's old value.
  enum Type : std::uint8_t {
    kPutData,
    kPutAck,
    kGetRequest,
    kGetData,
    kAtomicRequest,
    kAtomicResponse
  } type = kPutData;
  static bool is_response(Type t) { return t == kPutAck || t == kGetData || t == kAtomicResponse; }
  // Its payload is written to memory by the receiver's DMA (the packet keeps
  // its ejection buffer slots until then).
  static bool is_written(Type t) { return t == kPutData || t == kGetData || t == kAtomicResponse; }
  RdmaStatus status = RdmaStatus::kOk;
  Op op_kind = Op::kPut;       // the operation it belongs to
  std::uint32_t src_node = 0;  // the operation's initiator
  std::uint16_t src_tni = 0;
  std::uint32_t dst_node = 0;  // where this packet goes
  std::uint16_t dst_tni = 0;
  std::uint64_t op = 0;      // the operation: the initiator's command number (from 1)
  std::uint32_t packet = 0;  // its place among the operation's packets (docs/rdma.md, the operation log)
  MemKey key = 0;            // the target-side region of the operation
  std::uint64_t offset = 0;
  std::uint64_t op_length = 0;
  std::uint64_t piece_offset = 0;  // this packet's share of the payload
  std::uint32_t piece_bytes = 0;
  std::uint32_t tag = 0;
  bool notify = false;
  std::uint64_t operand = 0, compare = 0;  // an atomic's request (Command::operand, compare)
  std::uint64_t read_address = 0;          // sender side: where the tx DMA reads the payload
  // Sender side: the active command is done once this packet is on its way;
  // the operation completes once its payload is read (a put's last packet,
  // with local completion).
  bool ends_command = false, completes_when_read = false;
  // This node's DMA: where the receiver writes the payload, and when the
  // transfer in progress started (for the operation log); an atomic's write
  // at the target starts when its read is over, at write_start.
  std::uint64_t dma_address = 0;
  sim::Time dma_start = 0, write_start = 0;
  std::vector<unsigned char> data;  // data mode only
  hw::Packet* rx_packet = nullptr;  // receiver side: the packet holding its ejection slots until written
  Wire* next_free = nullptr;
};

class WirePool {
 public:
  Wire* get() {
    if (!free_) [[unlikely]]
      return grow();
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
  // A new Wire when none is free, out of line: the callers that take one per
  // packet keep a short frame.
  [[gnu::noinline]] Wire* grow() {
    store_.push_back(std::make_unique<Wire>());
    return store_.back().get();
  }
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
