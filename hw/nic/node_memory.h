// A node's memory as a TLM-2.0 target: the NIC's DMA engines (and firmware)
// reach it with tlm_generic_payload through b_transport, loosely timed, with
// the access time annotated on the delay.
//
// Two modes with identical timing:
//   data       real bytes, kept sparsely in 4 KiB pages created on first
//              write, so a large address range costs only what is touched;
//              bytes never written read as zero;
//   size-only  no bytes are kept or copied; only lengths and times matter
//              (for very large runs).
//
// Timing: each access costs `access_latency` plus its length at
// `bandwidth` (0 = not limited here: the DMA engine's own rate paces the
// transfer, as in Susukita et al. 2016's put model where the memory's latency is part of
// the node latency).
//
// Responses follow the TLM-2.0 base protocol: an access outside the memory
// is TLM_ADDRESS_ERROR_RESPONSE, byte enables are TLM_BYTE_ENABLE_ERROR_RESPONSE
// (not modeled), a streaming width shorter than the length is
// TLM_BURST_ERROR_RESPONSE; nothing is written on an error. DMI is not
// offered (pages are not contiguous).
#pragma once
#include <cstdint>
#include <memory>
#include <systemc>
#include <tlm>
#include <unordered_map>
#include <vector>

namespace kairo::nic {

enum class MemoryMode { kData, kSizeOnly };

// A generic payload for `length` bytes at `address` (no byte enables,
// streaming width = length, response not yet set): how hosts, tests and
// firmware address a node memory.
inline void set_payload(tlm::tlm_generic_payload& t, tlm::tlm_command cmd, std::uint64_t address,
                        unsigned char* data, std::uint64_t length) {
  t.set_command(cmd);
  t.set_address(address);
  t.set_data_ptr(data);
  t.set_data_length(unsigned(length));
  t.set_streaming_width(unsigned(length));
  t.set_byte_enable_ptr(nullptr);
  t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}

// The memory implements the target's forward interface itself rather than
// through a socket module: the K computer has 82,944 of them, and a
// simple_target_socket with its module costs 1.4 KiB each in SystemC objects
// and names. Initiators inside kairo (the DMA engines, firmware) call
// target(); a SystemC initiator socket can reach it through any target
// socket that forwards b_transport and transport_dbg to it.
class NodeMemory final : public tlm::tlm_fw_transport_if<> {
 public:
  struct Params {
    std::uint64_t size_bytes = std::uint64_t(1) << 40;  // address range [0, size)
    MemoryMode mode = MemoryMode::kData;
    sc_core::sc_time access_latency = sc_core::SC_ZERO_TIME;
    double bandwidth_bytes_per_s = 0;  // 0: not limited by the memory
  };

  explicit NodeMemory(const Params& p);

  // The forward interface, for an initiator that calls it directly.
  tlm::tlm_fw_transport_if<>* target() { return this; }

  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) override;
  // Debug access: same checks, no time.
  unsigned int transport_dbg(tlm::tlm_generic_payload& trans) override;
  // Non-blocking callers get the whole access at once (the base protocol's
  // early completion: TLM_COMPLETED with the response and the time on `t`).
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                     sc_core::sc_time& t) override;
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) override;

  const Params& params() const { return p_; }
  // Bytes of storage held (pages touched by writes x page size).
  std::uint64_t bytes_held() const { return std::uint64_t(pages_.size()) * kPageBytes; }
  std::uint64_t bytes_read() const { return bytes_read_; }
  std::uint64_t bytes_written() const { return bytes_written_; }

  static constexpr std::uint64_t kPageBytes = 4096;
  // The pages held (each kPageBytes from number x kPageBytes), ascending.
  std::vector<std::uint64_t> pages() const;

 private:
  // Checks and moves the bytes; returns the response status.
  tlm::tlm_response_status access(tlm::tlm_generic_payload& trans);
  void read(std::uint64_t addr, unsigned char* dst, std::uint64_t len) const;
  void write(std::uint64_t addr, const unsigned char* src, std::uint64_t len);
  sc_core::sc_time access_time(std::uint64_t len) const;

  Params p_;
  std::unordered_map<std::uint64_t, std::unique_ptr<unsigned char[]>> pages_;
  std::uint64_t bytes_read_ = 0, bytes_written_ = 0;
};

}  // namespace kairo::nic
