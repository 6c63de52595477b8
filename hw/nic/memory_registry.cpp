#include "hw/nic/memory_registry.h"

namespace kairo::nic {

void MemoryRegistry::set_log(observe::OpLog* log, std::uint32_t node) {
  log_ = log;
  node_ = node;
}

void MemoryRegistry::log(observe::OpEvent event, std::uint64_t address, std::uint64_t length, MemKey key,
                         RdmaStatus status) const {
  if (!log_ || !log_->wants(node_)) return;
  observe::OpRecord r;
  r.event = event;
  r.kind = observe::OpKind::kRegion;
  r.node = node_;
  r.addr = address;
  r.bytes = length;
  r.key = key;
  r.status = std::uint8_t(status);
  log_->add(r);
}

Registration MemoryRegistry::add(std::uint64_t address, std::uint64_t length) {
  const Registration r = insert(address, length);
  log(observe::OpEvent::kRegister, address, length, r.key, r.status);
  return r;
}

Registration MemoryRegistry::insert(std::uint64_t address, std::uint64_t length) {
  // address + length <= memory size, without overflow.
  if (address > memory_bytes_ || length > memory_bytes_ - address) return {RdmaStatus::kOutOfBounds, 0};
  std::uint32_t slot;
  if (!free_.empty()) {
    slot = free_.back();
    free_.pop_back();
  } else if (entries_.size() < capacity_) {
    slot = std::uint32_t(entries_.size());
    entries_.emplace_back();
  } else {
    return {RdmaStatus::kRegistryFull, 0};
  }
  Entry& e = entries_[slot];
  e.address = address;
  e.length = length;
  e.in_use = true;
  ++e.generation;  // a reused slot gets a key no earlier registration had
  ++live_;
  return {RdmaStatus::kOk, (MemKey(e.generation) << 32) | slot};
}

RdmaStatus MemoryRegistry::remove(MemKey key) {
  const std::uint32_t slot = slot_of(key);
  if (slot >= entries_.size() || generation_of(key) == 0) return RdmaStatus::kUnregisteredKey;
  Entry& e = entries_[slot];
  if (!e.in_use || e.generation != generation_of(key)) return RdmaStatus::kStaleKey;
  e.in_use = false;
  free_.push_back(slot);
  --live_;
  log(observe::OpEvent::kDeregister, e.address, e.length, key, RdmaStatus::kOk);
  return RdmaStatus::kOk;
}

Resolution MemoryRegistry::resolve(MemKey key, std::uint64_t offset, std::uint64_t length) const {
  const std::uint32_t slot = slot_of(key);
  if (slot >= entries_.size() || generation_of(key) == 0 || generation_of(key) > entries_[slot].generation)
    return {RdmaStatus::kUnregisteredKey, 0};
  const Entry& e = entries_[slot];
  if (!e.in_use || e.generation != generation_of(key)) return {RdmaStatus::kStaleKey, 0};
  // offset + length <= region length, without overflow.
  if (offset > e.length || length > e.length - offset) return {RdmaStatus::kOutOfBounds, 0};
  return {RdmaStatus::kOk, e.address + offset};
}

}  // namespace kairo::nic
