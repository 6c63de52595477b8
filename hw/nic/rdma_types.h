// What an RDMA engine (Tofu's TNI, hw/nic/tni.h) trades with its owner: the
// commands firmware posts into its command queue (a descriptor), the entries
// it gets back in the completion and notice queues, and its counters (its
// parameters are in nic_params.h). Plain data, shared by the engine's blocks and by
// firmware, platforms and tools.
#pragma once
#include <cstdint>

#include "hw/nic/memory_registry.h"
#include "hw/nic/nic_params.h"
#include "hw/nic/rdma_status.h"
#include "sim/rdma_operations.h"
#include "sim/time.h"

namespace kairo::nic {

// The operations an engine performs (docs/rdma.md), each described once in
// sim/rdma_operations.h: a put writes local data into a remote region, a get
// reads a remote region into a local one, and the atomics read-modify-write
// 8 bytes (an unsigned little-endian integer) of a remote region, returning
// the old value into a local one.
using Op = sim::RdmaOp;
using sim::is_atomic;
using sim::is_put;
using sim::is_request_response;
inline constexpr std::uint64_t kAtomicBytes = 8;

// When a put completes at its initiator: once the target acknowledged its
// last byte in memory (remote), or once its last byte has been read out of
// local memory, so that the source buffer may be reused (local).
enum class CompletionKind : std::uint8_t { kRemote, kLocal };

// Laid out small: the command queue and the operation table copy it.
struct Command {
  Op op = Op::kPut;
  bool notify = true;  // put: raise a notice at the target
  // The command starts only after every earlier command of its queue has
  // completed (an ordering fence).
  bool fence = false;
  CompletionKind completion = CompletionKind::kRemote;  // put only
  std::uint16_t dst_tni = 0;
  std::uint32_t dst_node = 0;
  std::uint32_t tag = 0;  // put: raised at the target with the notice
  MemKey local_key = 0;   // put: source; get: destination; atomic: where the old value lands (8 B)
  std::uint64_t local_offset = 0;
  MemKey remote_key = 0;  // put: destination; get: source; atomic: the 8 bytes operated on
  std::uint64_t remote_offset = 0;
  std::uint64_t length = 0;   // atomics: kAtomicBytes (moved_bytes)
  std::uint64_t operand = 0;  // an atomic's operand (its read-modify-write: atomic_operation.cpp)
  std::uint64_t compare = 0;  // compare_swap: the value expected
  std::uint64_t handle = 0;   // the caller's id, echoed in the completion
};

// The bytes a command moves: an atomic always kAtomicBytes, whatever its length says.
inline std::uint64_t moved_bytes(const Command& c) { return is_atomic(c.op) ? kAtomicBytes : c.length; }

struct Completion {
  std::uint64_t handle = 0;
  sim::Time time_ps = 0;
  std::uint64_t number = 0;  // its command's number on the engine (the operation log's N.T.K)
  RdmaStatus status = RdmaStatus::kOk;
  Op op = Op::kPut;  // the operation's kind
};

struct Notice {
  std::uint32_t tag = 0;
  std::uint32_t src_node = 0;
  std::uint64_t length = 0;
  sim::Time time_ps = 0;
  std::uint16_t src_tni = 0;  // the put: operation `op` of TNI src_tni of src_node
  std::uint64_t op = 0;
};

struct TniCounters {
  std::uint64_t commands = 0, dma_bytes_read = 0, dma_bytes_written = 0;
  std::uint64_t packets_sent = 0, packets_received = 0, error_completions = 0;
  std::uint32_t command_queue_high = 0, completion_queue_high = 0, notice_queue_high = 0;
  // Back-pressure: times command processing stalled on a full completion
  // queue, times the receive side stalled on a full notice queue, and the
  // most received packets held unconsumed at once.
  std::uint64_t completion_queue_stalls = 0, notice_queue_stalls = 0;
  std::uint32_t held_packets_high = 0;
  // Optical engines (set_gate): commands refused because their circuit was
  // not up (CircuitPolicy::kError), and the time the engine spent waiting
  // for a circuit, with the number of such waits.
  std::uint64_t circuit_refusals = 0, circuit_waits = 0;
  sim::Time circuit_wait_ps = 0;
};

}  // namespace kairo::nic
