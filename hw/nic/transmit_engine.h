// The transmit side of an RDMA engine: the tx DMA and the injection queues.
//
// The operations' handlers (operation.h) hand it packets: a command's
// packets whose payload is to be read (put data), a command's header-only
// packets (a get's or an atomic's request), and responses to another
// engine's operations (get data to read, acknowledgements, an atomic's old
// value). The tx DMA reads payloads from local memory one packet at a time
// at the DMA rate, in order, responses first, staying at most
// kTxBufferPackets packets ahead of injection. Read packets wait in two
// injection queues and go out through the endpoint with its credit flow
// control, responses before the commands' packets. An optical engine sends a
// packet only while its circuit leads to the packet's destination
// (Engine::gate_closed). The active command is done once its last packet
// (Wire::ends_command) is on its way.
#pragma once
#include <cstdint>
#include <tlm>

#include "hw/nic/dma_engine.h"
#include "hw/nic/wire.h"
#include "sim/ring.h"

namespace kairo::nic {

struct Engine;

class TransmitEngine {
 public:
  // `memory`: the node memory's forward interface.
  TransmitEngine(double dma_bytes_per_s, tlm::tlm_fw_transport_if<>* memory)
      : dma_(dma_bytes_per_s, memory) {}

  // A command's packet: its payload is to be read; or it is header-only and
  // ready. The caller then pumps (pump_reads, pump_send).
  void queue_read(Wire* w) { reads_.push_back(w); }
  void queue_ready(Wire* w) { ready_.push_back(w); }
  // A response: `w`'s payload is to be read (get data), or it goes out as it
  // is (an acknowledgement, an error answer, an atomic's old value).
  void queue_response_read(Wire* w) { response_reads_.push_back(w); }
  void queue_response(Wire* w) { responses_.push_back(w); }

  // Start the tx DMA reads the buffer has room for.
  void pump_reads(Engine& e);
  // Inject what is ready while the endpoint and the circuit let it.
  void pump_send(Engine& e);
  // A read is done (kReadDone): `w` is ready to go.
  void read_done(Engine& e, Wire* w);

 private:
  void send_wire(Engine& e, Wire* w, bool response);

  DmaEngine dma_;
  sim::Ring<Wire*> response_reads_;  // get data to read for another engine (served first)
  sim::Ring<Wire*> reads_;           // packets whose payload the tx DMA still has to read (in order)
  sim::Ring<Wire*> ready_;           // read, waiting to be injected (command packets)
  sim::Ring<Wire*> responses_;       // responses, injected first
  int reads_in_flight_ = 0;
};

}  // namespace kairo::nic
