// What each kind of RDMA operation does, said once per kind: its handler
// makes the operation's packets when its command starts, takes each of them
// where it arrives, and goes on when the DMA has written one. The blocks
// (engine.h) move packets and bytes; the handlers say which, in what order,
// and when an operation is over. docs/rdma.md gives each kind's steps and
// timing.
//   put ........... put_operation.cpp: data packets read at the initiator,
//                   written at the target, notice, acknowledgement, completion
//   get ........... get_operation.cpp: a request, data read at the target and
//                   streamed back, written at the initiator, completion
//   atomics ....... atomic_operation.cpp: a request, a read-modify-write of 8
//                   bytes at the target (serialized per address), the old
//                   value back, written at the initiator, completion
#pragma once
#include <array>
#include <cstdint>

#include "hw/nic/operation_table.h"
#include "hw/nic/rdma_types.h"
#include "hw/nic/wire.h"

namespace kairo::nic {

struct Engine;

class Operation {
 public:
  virtual ~Operation() = default;
  // Initiator: operation `number`, command `c`, passed its checks; make its
  // packets (`local_address`: where its local range lies in memory).
  virtual void start(Engine& e, std::uint64_t number, const Command& c,
                     std::uint64_t local_address) const = 0;
  // Either side: one of the operation's packets is here (its tail is in).
  virtual void receive(Engine& e, Wire& w) const = 0;
  // Either side: the rx DMA has written `w`'s payload (kWriteDone), or `w`
  // was dropped.
  virtual void written(Engine& e, Wire* w) const = 0;
  // Initiator: `w`, marked completes_when_read, has been read out of memory.
  virtual void read(Engine&, Wire&) const {}
  // Initiator: the command's last packet is on its way (asked only under a
  // nic.fault that acts then).
  virtual void last_injected(Engine&, Wire&) const {}
};

// Each family's handler (one file each), and the handler of an operation
// kind: its family's (sim/rdma_operations.h), one load per call as before.
extern const Operation& kPutOperation;
extern const Operation& kGetOperation;
extern const Operation& kAtomicOperation;
extern const std::array<const Operation*, sim::kRdmaOpCount> kOperations;  // by nic::Op
inline const Operation& operation(Op op) { return *kOperations[std::size_t(op)]; }

// A fresh Wire for operation `number` of this engine: header fields from the
// command, sender-side marks cleared.
Wire* new_wire(Engine& e, std::uint64_t number, const Command& c, Wire::Type type, std::uint32_t packet);

// A command whose one packet is a header-only request (a get's, an atomic's):
// made and sent; the command is done once it is on its way.
void send_request(Engine& e, std::uint64_t number, const Command& c, Wire::Type type);

// Initiator: the target refused a request; its one header-only answer `w`
// carries the status, and the operation is over.
void refused(Engine& e, Wire& w);

// The put's last step at the target, also taken by the receive engine when
// the notice queue has room again: raise the notice, answer with the
// acknowledgement (put_operation.cpp).
void finish_put(Engine& e, Wire* w, RdmaStatus status);

// A request-response operation (get, atomics: sim/rdma_operations.h): its
// command makes one header-only request; at the target Handler::serve takes
// it, and the answers that come back are Handler::answer_in's. Bound at
// compile time, so that a packet costs the one call of its handler.
template <class Handler, Wire::Type kRequest>
class RequestResponse : public Operation {
 public:
  void start(Engine& e, std::uint64_t number, const Command& c, std::uint64_t) const final {
    send_request(e, number, c, kRequest);
  }
  void receive(Engine& e, Wire& w) const final {
    if (w.type == kRequest) return Handler::serve(e, w);
    Handler::answer_in(e, w);
  }
};

}  // namespace kairo::nic
