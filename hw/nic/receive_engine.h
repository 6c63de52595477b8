// The receive side of an RDMA engine: the ejection side of its endpoint, the
// rx DMA and the reassembly of the puts arriving here.
//
// The endpoint hands a packet over when its tail is in (the engine is a
// client that consumes later, hw/common/endpoint.h). A packet whose payload
// is to be written (put data, get data, an atomic's old value) keeps its
// ejection buffer slots until the rx DMA has written it, at the DMA rate, in
// arrival order (a DMA slower than the link back-pressures the network);
// a header-only packet frees them at once. What the packet means is its
// operation's handler's to say (operation.h); this block takes it, writes
// payloads where the handler says, and holds the arriving puts' state.
//
// Back-pressure: a put whose notice finds the notice queue full waits (its
// acknowledgement too), and the receive side stops taking packets: they stay
// in the endpoint's ejection buffer (held), the router's credits do not come
// back and the senders' packets stall in the network, until the owner polls
// a notice (resume()).
#pragma once
#include <cstdint>
#include <tlm>
#include <unordered_map>

#include "hw/nic/dma_engine.h"
#include "hw/nic/rdma_status.h"
#include "hw/nic/wire.h"
#include "sim/ring.h"

namespace kairo::nic {

struct Engine;

class ReceiveEngine {
 public:
  // A put arriving here: its target range (resolved on its first packet),
  // how many of its packets are in memory, and what it will complete with.
  struct Arrival {
    RdmaStatus status = RdmaStatus::kOk;
    std::uint64_t base = 0;
    std::uint64_t pieces = 0, pieces_done = 0;
    bool noticed = false;  // nic.fault notice_before_write: raised already
    Wire* held = nullptr;  // nic.fault reorder_writes: the first packet, written after the second
  };

  // `memory`: the node memory's forward interface.
  ReceiveEngine(double dma_bytes_per_s, tlm::tlm_fw_transport_if<>* memory) : dma_(dma_bytes_per_s, memory) {}

  // The endpoint handed `p` over, its tail in: take it, or hold it while stalled.
  void tail_in(Engine& e, hw::Packet* p);
  // The rx DMA writes `w`'s payload at `address` (kWriteDone when it is
  // in); false, with nothing written, if the memory refuses it.
  bool write(Engine& e, Wire* w, std::uint64_t address);
  // `w`'s payload is in memory (kWriteDone): recorded, then its handler goes on.
  void write_done(Engine& e, Wire* w);
  // An atomic's read at the target is over (kAtomicRead): recorded; its
  // write, issued with the read, comes next.
  void atomic_read_done(Engine& e, Wire* w);
  // nic.fault double_write: `w`'s payload written a second time at
  // `address` (a copy of `w` carries it: kExtraWrite, then extra_write_done).
  void write_again(Engine& e, const Wire& w, std::uint64_t address);
  void extra_write_done(Engine& e, Wire* copy);
  // `w` is not written (its operation failed): recorded, then its handler goes on.
  void drop(Engine& e, Wire* w);
  // `w`'s ejection buffer slots free.
  void release(Engine& e, Wire* w);
  DmaEngine& dma() { return dma_; }

  // The put `w` belongs to, arriving here; `first` says it is new.
  Arrival& arrival(const Wire& w, bool* first) {
    auto [it, is_new] = arrivals_.try_emplace(key(w));
    *first = is_new;
    return it->second;
  }
  Arrival& arrival(const Wire& w) { return arrivals_.find(key(w))->second; }
  void forget(const Wire& w) { arrivals_.erase(key(w)); }

  // A put's last byte is in but its notice has no room: it waits, and the
  // receive side stops taking packets.
  void wait_for_notice_room(Engine& e, Wire* w);
  bool waiting_for_notice_room() const { return !notice_wait_.empty(); }
  // The owner polled a notice: finish the puts that waited for room, then
  // take the held packets, in order, unless it stalls again.
  void resume(Engine& e);

  bool stalled() const { return stalled_; }  // on notice-queue room

 private:
  static std::uint64_t key(const Wire& w) {
    return (std::uint64_t(w.src_node) << 40) ^ (std::uint64_t(w.src_tni) << 32) ^ (w.op & 0xffffffffULL);
  }
  void receive(Engine& e, hw::Packet* p);

  DmaEngine dma_;
  sim::Ring<Wire*> notice_wait_;  // puts whose last byte is in, waiting for notice room
  sim::Ring<hw::Packet*> held_;   // received while stalled: still in the ejection buffer
  std::unordered_map<std::uint64_t, Arrival> arrivals_;  // by key (nodes never move)
  bool stalled_ = false;                                 // waits for notice-queue room
};

}  // namespace kairo::nic
