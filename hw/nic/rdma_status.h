// How an RDMA command ends, as the hardware reports it in a completion entry.
// Errors are modeled as the NIC reports them, never as lost data: a command
// that fails leaves the target memory untouched and completes with its error.
#pragma once
#include <cstdint>

namespace kairo::nic {

enum class RdmaStatus : std::uint8_t {
  kOk = 0,
  kUnregisteredKey,  // the key names no registration (never made, or out of range)
  kStaleKey,         // the registration the key named has been released
  kOutOfBounds,      // offset + length runs past the registered region (a registration:
                     // the region runs past the node memory's end)
  kLengthOverLimit,  // longer than one descriptor may move (TofuD: 16 MiB - 1)
  kBadTni,           // no such network interface on the node
  kBadRank,          // no such rank in the job
  kRegistryFull,     // no free registration slot
  kCircuitDown,      // optical TNI: no circuit up to the destination (hw/common/circuit_gate.h)
};

inline const char* to_string(RdmaStatus s) {
  switch (s) {
    case RdmaStatus::kOk:
      return "ok";
    case RdmaStatus::kUnregisteredKey:
      return "unregistered key";
    case RdmaStatus::kStaleKey:
      return "stale key";
    case RdmaStatus::kOutOfBounds:
      return "out of bounds";
    case RdmaStatus::kLengthOverLimit:
      return "length over the per-descriptor limit";
    case RdmaStatus::kBadTni:
      return "bad TNI index";
    case RdmaStatus::kBadRank:
      return "bad rank";
    case RdmaStatus::kRegistryFull:
      return "registration table full";
    case RdmaStatus::kCircuitDown:
      return "no optical circuit up to the destination";
  }
  return "unknown";
}

}  // namespace kairo::nic
