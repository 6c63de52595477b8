// One RDMA engine's DMA: moves bytes between the node's memory and the
// engine, one transfer at a time, through the memory's TLM-2.0 target
// (b_transport, loosely timed). A transfer of L bytes starting at s ends at
//   s + max(L / dma_rate, the memory's annotated access time),
// the engine's rate and the memory each bounding it; the next transfer starts
// when it ends. A refused access (the memory's error response) moves nothing
// and takes no time; the caller reports it. In size-only runs no buffer is
// passed and only lengths and times count.
#pragma once
#include <cstdint>
#include <tlm>

#include "sim/time.h"

namespace kairo::nic {

class DmaEngine {
 public:
  struct Result {
    tlm::tlm_response_status status = tlm::TLM_OK_RESPONSE;
    sim::Time start_ps = 0, done_ps = 0;
  };

  // `memory`: the node memory's forward interface (its target socket's).
  DmaEngine(double bytes_per_s, tlm::tlm_fw_transport_if<>* memory) : rate_(bytes_per_s), memory_(memory) {}

  // Lengths are per transfer (at most a packet's payload in the NIC), below 4 GiB.
  // Memory -> engine (a put's source, a get's data at the target).
  Result read(sim::Time now, std::uint64_t address, unsigned char* buffer, std::uint64_t length) {
    return transfer(tlm::TLM_READ_COMMAND, now, address, buffer, length);
  }
  // Engine -> memory (received payload).
  Result write(sim::Time now, std::uint64_t address, const unsigned char* buffer, std::uint64_t length) {
    return transfer(tlm::TLM_WRITE_COMMAND, now, address, const_cast<unsigned char*>(buffer), length);
  }

  sim::Time busy_until() const { return busy_until_; }
  std::uint64_t bytes_read() const { return bytes_read_; }
  std::uint64_t bytes_written() const { return bytes_written_; }
  // Serialization time of `length` bytes at the engine's rate, rounded up to a picosecond.
  sim::Time transfer_ps(std::uint64_t length) const;

 private:
  Result transfer(tlm::tlm_command cmd, sim::Time now, std::uint64_t address, unsigned char* buffer,
                  std::uint64_t length);

  double rate_;
  tlm::tlm_fw_transport_if<>* memory_;
  sim::Time busy_until_ = 0;
  std::uint64_t bytes_read_ = 0, bytes_written_ = 0;
};

}  // namespace kairo::nic
