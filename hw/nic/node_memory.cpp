#include "hw/nic/node_memory.h"

#include <algorithm>
#include <cstring>

namespace kairo::nic {

NodeMemory::NodeMemory(const Params& p) : p_(p) {}

tlm::tlm_sync_enum NodeMemory::nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                               sc_core::sc_time& t) {
  if (phase != tlm::BEGIN_REQ)
    return tlm::TLM_ACCEPTED;  // nothing else to do: every access completes at once
  b_transport(trans, t);
  phase = tlm::BEGIN_RESP;
  return tlm::TLM_COMPLETED;
}

bool NodeMemory::get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi& dmi) {
  dmi.allow_read_write();  // the TLM-2.0 rule for a refusal: the range it is refused for
  dmi.set_start_address(0);
  dmi.set_end_address(~sc_dt::uint64(0));
  return false;  // no DMI: pages are not contiguous
}

sc_core::sc_time NodeMemory::access_time(std::uint64_t len) const {
  sc_core::sc_time t = p_.access_latency;
  if (p_.bandwidth_bytes_per_s > 0)
    t += sc_core::sc_time(double(len) / p_.bandwidth_bytes_per_s, sc_core::SC_SEC);
  return t;
}

void NodeMemory::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const tlm::tlm_response_status status = access(trans);
  trans.set_response_status(status);
  if (status == tlm::TLM_OK_RESPONSE) {
    delay += access_time(trans.get_data_length());
    if (trans.is_read())
      bytes_read_ += trans.get_data_length();
    else if (trans.is_write())
      bytes_written_ += trans.get_data_length();
  }
}

unsigned int NodeMemory::transport_dbg(tlm::tlm_generic_payload& trans) {
  const tlm::tlm_response_status status = access(trans);
  trans.set_response_status(status);
  return status == tlm::TLM_OK_RESPONSE ? trans.get_data_length() : 0;
}

tlm::tlm_response_status NodeMemory::access(tlm::tlm_generic_payload& trans) {
  const std::uint64_t addr = trans.get_address();
  const std::uint64_t len = trans.get_data_length();
  if (trans.get_byte_enable_ptr() != nullptr) return tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
  if (trans.get_streaming_width() < len) return tlm::TLM_BURST_ERROR_RESPONSE;
  if (addr > p_.size_bytes || len > p_.size_bytes - addr) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
  if (trans.get_command() == tlm::TLM_IGNORE_COMMAND) return tlm::TLM_OK_RESPONSE;
  if (p_.mode == MemoryMode::kSizeOnly) return tlm::TLM_OK_RESPONSE;  // no bytes kept or copied
  if (trans.is_read())
    read(addr, trans.get_data_ptr(), len);
  else
    write(addr, trans.get_data_ptr(), len);
  return tlm::TLM_OK_RESPONSE;
}

void NodeMemory::read(std::uint64_t addr, unsigned char* dst, std::uint64_t len) const {
  while (len > 0) {
    const std::uint64_t page = addr / kPageBytes, off = addr % kPageBytes;
    const std::uint64_t n = std::min(len, kPageBytes - off);
    auto it = pages_.find(page);
    if (it == pages_.end())
      std::memset(dst, 0, n);
    else
      std::memcpy(dst, it->second.get() + off, n);
    addr += n;
    dst += n;
    len -= n;
  }
}

void NodeMemory::write(std::uint64_t addr, const unsigned char* src, std::uint64_t len) {
  while (len > 0) {
    const std::uint64_t page = addr / kPageBytes, off = addr % kPageBytes;
    const std::uint64_t n = std::min(len, kPageBytes - off);
    auto& p = pages_[page];
    if (!p) p = std::make_unique<unsigned char[]>(kPageBytes);  // value-initialized: zeros
    std::memcpy(p.get() + off, src, n);
    addr += n;
    src += n;
    len -= n;
  }
}

std::vector<std::uint64_t> NodeMemory::pages() const {
  std::vector<std::uint64_t> out;
  out.reserve(pages_.size());
  for (const auto& kv : pages_) out.push_back(kv.first);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace kairo::nic
