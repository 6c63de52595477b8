// The transmit side of an RDMA engine: the tx DMA and the injection queues.
//
// A started command's packets are made here (a put: one per MTU piece of its
// payload; a get: one header-only request). The tx DMA reads payloads from
// local memory one packet at a time at the DMA rate, in order, responses
// (another engine's get data) first, staying at most kTxBufferPackets
// packets ahead of injection. Read packets wait in two injection queues and
// go out through the endpoint with its credit flow control, responses
// (acknowledgements, get data) before the commands' packets. An optical
// engine sends a packet only while its circuit leads to the packet's
// destination (Tni::gate_closed). The active command is done once its last
// packet is on its way.
#pragma once
#include <cstdint>
#include <tlm>

#include "hw/nic/dma_engine.h"
#include "hw/nic/rdma_types.h"
#include "hw/nic/wire.h"
#include "sim/ring.h"

namespace kairo::nic {

class Tni;

// Works on the engine `t` it belongs to (see CommandQueue).
class TransmitEngine {
 public:
  // `memory`: the node memory's forward interface.
  TransmitEngine(double dma_bytes_per_s, tlm::tlm_fw_transport_if<>* memory)
      : dma_(dma_bytes_per_s, memory) {}

  // Operation `op`, command `c` reading from `local_address`, has started:
  // make its packets.
  void start(Tni& t, std::uint64_t op, const Command& c, std::uint64_t local_address);
  // A response: `w`'s payload is to be read (get data), or it is header-only
  // and goes out as it is (an acknowledgement, an error answer). The caller
  // then pumps.
  void queue_response_read(Wire* w) { response_reads_.push_back(w); }
  void queue_response(Wire* w) { responses_.push_back(w); }

  // Start the tx DMA reads the buffer has room for.
  void pump_reads(Tni& t);
  // Inject what is ready while the endpoint and the circuit let it.
  void pump_send(Tni& t);
  // A read is done (Tni::kReadDone): `w` is ready to go.
  void read_done(Tni& t, Wire* w);

 private:
  void send_wire(Tni& t, Wire* w, bool response);

  DmaEngine dma_;
  sim::Ring<Wire*> response_reads_;  // get data to read for another engine (served first)
  sim::Ring<Wire*> reads_;           // packets whose payload the tx DMA still has to read (in order)
  sim::Ring<Wire*> ready_;           // read, waiting to be injected (command packets)
  sim::Ring<Wire*> responses_;       // acknowledgements and get data, injected first
  int reads_in_flight_ = 0;
};

}  // namespace kairo::nic
