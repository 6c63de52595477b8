// A process's side of a partitioned run's cut (docs/parallel.md):
// every link between a router this process owns and one another process owns
// gets a stand-in for the remote router. What the owned router hands it (a
// packet's head starting onto the link, credits going back upstream) becomes
// a message to the remote router's process; at the window's end the messages
// are exchanged, and each process makes the very calls the stand-ins took,
// on its own routers, in the order they were made (per link, the order of
// one process's run). A router's port schedules what such a call causes in
// its own event context (sim/event_queue.h), so those events run in the same
// order as in one process.
//
// A process builds its own partition (OwnedPart), or the whole platform when
// process 0 must read every block at the end (docs/parallel.md); either way
// only its own partition ever has events (nothing reaches another's routers:
// the stand-ins take their calls).
#pragma once
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <unordered_map>
#include <vector>

#include "hw/common/packet.h"
#include "hw/common/payload_codec.h"
#include "platforms/network.h"
#include "platforms/partition.h"
#include "sim/window_runner.h"

namespace kairo::platforms {

// What both kinds of stand-ins (the routers' here, the optical fabric's in
// platforms/ocs_boundary.h) keep for the window: its messages per process,
// and the packets packed into them, which go back to their pool (their
// payload released) when the window's messages are taken. A packet crosses
// as its bytes, then (a NIC's packet) its payload through `codec`.
class Outbox {
 public:
  Outbox(int processes, hw::PacketPool& pool, hw::PayloadCodec* codec)
      : pool_(pool), codec_(codec), out_(std::size_t(processes)) {}
  sim::ByteWriter to(int process) { return sim::ByteWriter(out_[std::size_t(process)]); }
  // `p` onto `w`; the sender reads it on until the window's messages are taken.
  void pack(sim::ByteWriter& w, hw::Packet* p);
  // A packet another process packed, rebuilt in a packet from the pool.
  hw::Packet* unpack(sim::ByteReader& r);
  void take(std::vector<std::vector<char>>& out);

 private:
  hw::PacketPool& pool_;
  hw::PayloadCodec* codec_;
  std::vector<std::vector<char>> out_;  // per process: this window's messages
  std::vector<hw::Packet*> sent_;       // back to the pool once the messages are taken
};

class RouterBoundary final : public sim::Boundary {
 public:
  // Installs the stand-ins on the cut links of the routers `rank` owns.
  // Packets received come from `pool` (the one their consumers return them
  // to); packets sent go back to it once packed. A packet's `user` payload
  // (the NIC's) crosses through `codec`; without one, such a packet is an
  // error.
  RouterBoundary(Network& net, const Partition& part, int rank, hw::PacketPool& pool,
                 hw::PayloadCodec* codec = nullptr);
  ~RouterBoundary() override;

  void take_outgoing(std::vector<std::vector<char>>& out) override;
  void deliver(int from, const std::vector<char>& bytes, sim::Time window_end) override;

  std::uint64_t packets_sent() const { return packets_sent_; }
  std::uint64_t credits_sent() const { return credits_sent_; }
  std::size_t cut_ports() const { return cut_ports_; }
  // The routers this process built (all of them in a whole build).
  std::size_t built_routers() const { return built_routers_; }

 private:
  class StandIn;
  enum : std::uint8_t { kPacket = 1, kCredits = 2 };
  void send_packet(int peer, std::uint32_t router, int port, int vc, hw::Packet* p);
  void send_credits(int peer, std::uint32_t router, int port, int vc, int flits, sim::Time at);

  Network& net_;
  Outbox outbox_;
  std::unordered_map<std::uint32_t, std::unique_ptr<StandIn>> stand_ins_;  // per remote router
  std::uint64_t packets_sent_ = 0, credits_sent_ = 0;
  std::size_t cut_ports_ = 0, built_routers_ = 0;
};

// The network's deadlock watchdog made global for a partitioned run
// (sim::StillnessWatch): the network's own watchdog stops scheduling; between
// windows, when nothing has moved anywhere for its timeout, every process
// sums the packets in the network and held by receivers. Packets in the
// network and none held: a deadlock, reported with every process's blocked
// ports (process 0 lists them, in process order). Call before anything is
// injected.
sim::StillnessWatch parallel_watch(Network& net, const sim::MpiWorld& world);

// The JSON's "parallel" object (docs/parallel.md): what a split run cost,
// not a simulated result. Every process calls it; the sums are over all.
// `optical`: the optical fabric's stand-ins, if the platform has one.
class OcsBoundary;
nlohmann::json split_report(const sim::MpiWorld& world, const Partition& part, const sim::WindowStats& w,
                            const RouterBoundary& b, const OcsBoundary* optical = nullptr);

}  // namespace kairo::platforms
