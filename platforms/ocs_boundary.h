// The optical fabric's side of a partitioned run's cut (docs/parallel.md).
// The hybrid network's OCS is one central part, but its
// data plane is a set of circuits between nodes' ports: a packet entering a
// port leaves the far end after the pathway's latency, and the credits for
// it go back the same way. When a circuit joins nodes of two processes, the
// sender's process keeps the transmit side (its port's counters) and hands
// the packet here; at the window's end it reaches the receiver's process,
// which finishes it there (ocs::OcsFabric::receive), and the credits come
// back the same way (ocs::OcsFabric::credit). Every port's records stay with
// its node's process.
//
// The lookahead of a split hybrid run is at most the OCS latency (the
// partition says so), so both always arrive after the window they were sent
// in. Circuits must not change during a split run: the controller's answer
// to a request depends on every process's circuits at that instant. The
// platform's preset pathways are up in every process from time 0; requests
// during the run are refused (platforms::HybridNetlist::freeze_circuits).
#pragma once
#include <cstdint>
#include <vector>

#include "hw/common/packet.h"
#include "hw/common/payload_codec.h"
#include "hw/ocs/ocs_fabric.h"
#include "platforms/boundary.h"
#include "platforms/partition.h"
#include "sim/window_runner.h"

namespace kairo::platforms {

class OcsBoundary final : public sim::Boundary, public ocs::OcsFabric::Remote {
 public:
  // Installs itself on the fabric for the ports of nodes `rank` does not own.
  OcsBoundary(ocs::OcsFabric& fabric, const Partition& part, int rank, hw::PacketPool& pool,
              hw::PayloadCodec* codec);
  ~OcsBoundary() override;

  void packet(int in, int vc, hw::Packet* p) override;
  void credits(int feeder, int vc, int flits, sim::Time at) override;
  void take_outgoing(std::vector<std::vector<char>>& out) override;
  void deliver(int from, const std::vector<char>& bytes, sim::Time window_end) override;

  std::uint64_t packets_sent() const { return packets_sent_; }
  std::uint64_t credits_sent() const { return credits_sent_; }

 private:
  enum : std::uint8_t { kPacket = 1, kCredits = 2 };
  ocs::OcsFabric& fabric_;
  std::vector<int> owner_;  // per port: its node's process
  sim::Time latency_ps_;
  Outbox outbox_;
  std::uint64_t packets_sent_ = 0, credits_sent_ = 0;
};

}  // namespace kairo::platforms
