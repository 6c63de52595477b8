#include "hw/nic/dma_engine.h"

#include <algorithm>
#include <cmath>

#include "hw/nic/node_memory.h"

namespace kairo::nic {

sim::Time DmaEngine::transfer_ps(std::uint64_t length) const {
  return sim::Time(std::ceil(double(length) * 1e12 / rate_));
}

DmaEngine::Result DmaEngine::transfer(tlm::tlm_command cmd, sim::Time now, std::uint64_t address,
                                      unsigned char* buffer, std::uint64_t length) {
  // One payload for every engine, reused: transfers are synchronous calls on
  // the simulation's one thread, and an engine-owned payload (136 bytes and
  // an extension array each) would cost 220 MiB on the K computer's NICs.
  static tlm::tlm_generic_payload trans;
  Result r;
  r.start_ps = std::max(now, busy_until_);
  set_payload(trans, cmd, address, buffer, length);
  trans.set_dmi_allowed(false);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  memory_->b_transport(trans, delay);
  r.status = trans.get_response_status();
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
