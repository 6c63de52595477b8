// A node's memory registration table, as an RDMA NIC keeps it: registering
// (address, length) yields a key (FJMPI_Rdma_reg_mem's memory id, with a
// generation so that a released key is recognized as stale rather than
// silently reaching whatever is registered in its slot later); a key plus an
// offset and a length resolves to a node-memory address range, or to the error
// the NIC reports. The table knows the size of the node memory it maps: a
// region must lie inside it ([address, address + length) within [0, size)),
// so that every range a key resolves to can be written in full. Pure C++, no
// SystemC.
#pragma once
#include <cstdint>
#include <vector>

#include "hw/nic/rdma_status.h"
#include "observe/op_log.h"

namespace kairo::nic {

// slot in the low 32 bits, generation (>= 1) in the high 32; 0 is never valid.
using MemKey = std::uint64_t;

struct Resolution {
  RdmaStatus status = RdmaStatus::kOk;
  std::uint64_t address = 0;  // valid when status == kOk
};

struct Registration {
  RdmaStatus status = RdmaStatus::kOk;
  MemKey key = 0;  // valid when status == kOk
};

class MemoryRegistry {
 public:
  // `memory_bytes`: the size of the node memory the regions lie in.
  MemoryRegistry(std::uint32_t capacity, std::uint64_t memory_bytes)
      : capacity_(capacity), memory_bytes_(memory_bytes) {}

  // Registers [address, address + length); refused (no key, no slot taken)
  // with kOutOfBounds when the region passes the node memory's end, with
  // kRegistryFull when no slot is free.
  Registration add(std::uint64_t address, std::uint64_t length);
  // Releases a registration; its key (and copies of it) become stale.
  RdmaStatus remove(MemKey key);
  // The memory range [address, address + length) for `length` bytes at
  // `offset` into the region `key` names.
  Resolution resolve(MemKey key, std::uint64_t offset, std::uint64_t length) const;

  // Registrations and releases go to the operation log as this node's, when one is written.
  void set_log(observe::OpLog* log, std::uint32_t node);

  std::uint32_t live() const { return live_; }
  std::uint32_t capacity() const { return capacity_; }
  std::uint64_t memory_bytes() const { return memory_bytes_; }

 private:
  struct Entry {
    std::uint64_t address = 0, length = 0;
    std::uint32_t generation = 0;  // of the current or last registration
    bool in_use = false;
  };
  Registration insert(std::uint64_t address, std::uint64_t length);
  void log(observe::OpEvent event, std::uint64_t address, std::uint64_t length, MemKey key,
           RdmaStatus status) const;
  static std::uint32_t slot_of(MemKey k) { return std::uint32_t(k); }
  static std::uint32_t generation_of(MemKey k) { return std::uint32_t(k >> 32); }

  std::uint32_t capacity_;
  std::uint64_t memory_bytes_;
  std::vector<Entry> entries_;
  std::vector<std::uint32_t> free_;  // released slots, reused last-in first-out
  std::uint32_t live_ = 0;
  std::uint32_t node_ = 0;
  observe::OpLog* log_ = nullptr;
};

}  // namespace kairo::nic
