#include "hw/nic/dma_engine.h"

#include <algorithm>
#include <cmath>

namespace kairo::nic {

sim::Time DmaEngine::transfer_ps(std::uint64_t length) const {
  return sim::Time(std::ceil(double(length) * 1e12 / rate_));
}

DmaEngine::Result DmaEngine::transfer(tlm::tlm_command cmd, sim::Time now, std::uint64_t address,
                                      unsigned char* buffer, std::uint64_t length) {
  Result r;
  r.start_ps = std::max(now, busy_until_);
  trans_.set_command(cmd);
  trans_.set_address(address);
  trans_.set_data_ptr(buffer);
  trans_.set_data_length(unsigned(length));
  trans_.set_streaming_width(unsigned(length));
  trans_.set_byte_enable_ptr(nullptr);
  trans_.set_dmi_allowed(false);
  trans_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  memory_->b_transport(trans_, delay);
  r.status = trans_.get_response_status();
  if (r.status != tlm::TLM_OK_RESPONSE) {
    r.done_ps = r.start_ps;
    return r;
  }
  const sim::Time memory_ps = sim::Time(delay.value());  // SystemC's resolution is 1 ps
  r.done_ps = r.start_ps + std::max(transfer_ps(length), memory_ps);
  busy_until_ = r.done_ps;
  (cmd == tlm::TLM_READ_COMMAND ? bytes_read_ : bytes_written_) += length;
  return r;
}

}  // namespace kairo::nic
