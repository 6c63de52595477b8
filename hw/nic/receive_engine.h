// The receive side of an RDMA engine: the ejection side of its endpoint, the
// rx DMA and the per-operation reassembly.
//
// The endpoint hands a packet over when its tail is in (the engine is a client
// that consumes later, hw/common/endpoint.h). Put data is written to memory by the rx DMA at the DMA
// rate, in arrival order, the packet keeping its ejection buffer slots until
// it is written (a DMA slower than the link back-pressures the network);
// after an operation's last byte is in memory its notice (tag) is raised
// and a header-only acknowledgement goes back. A get request is served by
// handing the data's reads to the transmit engine; get data is written to
// the initiator's memory and completes the get with its last byte; a put's
// acknowledgement completes the put. A target that cannot resolve the
// remote key (or range) writes nothing and answers with the status; a get
// whose data cannot be written completes with an error, never OK.
//
// Back-pressure: a put whose notice finds the notice queue full waits (its
// acknowledgement too), and the receive side stops taking packets: they stay
// in the endpoint's ejection buffer (held), the router's credits do not come
// back and the senders' packets stall in the network, until the owner polls
// a notice (resume()).
#pragma once
#include <cstdint>
#include <memory>
#include <tlm>
#include <unordered_map>

#include "hw/nic/dma_engine.h"
#include "hw/nic/rdma_status.h"
#include "hw/nic/wire.h"
#include "sim/ring.h"

namespace kairo::nic {

class Tni;

// Works on the engine `t` it belongs to (see CommandQueue).
class ReceiveEngine {
 public:
  // `memory`: the node memory's forward interface.
  ReceiveEngine(double dma_bytes_per_s, tlm::tlm_fw_transport_if<>* memory) : dma_(dma_bytes_per_s, memory) {}

  // The endpoint handed `p` over, its tail in: take it, or hold it while stalled.
  void tail_in(Tni& t, hw::Packet* p);
  // `w`'s payload is in memory (Tni::kWriteDone), or was refused.
  void write_done(Tni& t, Wire* w);
  // The owner polled a notice: finish the puts that waited for room, then
  // take the held packets, in order, unless it stalls again.
  void resume(Tni& t);

  bool stalled() const { return stalled_; }  // on notice-queue room

 private:
  // An operation arriving here.
  struct RxOp {
    RdmaStatus status = RdmaStatus::kOk;
    std::uint64_t base = 0;
    std::uint64_t pieces = 0, pieces_done = 0;
  };
  static std::uint64_t rx_key(const Wire& w) {
    return (std::uint64_t(w.src_node) << 40) ^ (std::uint64_t(w.src_tni) << 32) ^ (w.op & 0xffffffffULL);
  }
  void receive(Tni& t, hw::Packet* p);
  void receive_put_data(Tni& t, Wire& w);
  void receive_get_request(Tni& t, Wire& w);
  void receive_get_data(Tni& t, Wire& w);
  void release_rx(Tni& t, Wire* w);
  void finish_put(Tni& t, Wire* w, RdmaStatus status);

  DmaEngine dma_;
  sim::Ring<Wire*> notice_wait_;                 // puts whose last byte is in, waiting for notice-queue room
  sim::Ring<hw::Packet*> held_;                  // received while stalled: still in the ejection buffer
  std::unordered_map<std::uint64_t, RxOp> ops_;  // by rx_key (nodes never move)
  bool stalled_ = false;                         // waits for notice-queue room
};

}  // namespace kairo::nic
