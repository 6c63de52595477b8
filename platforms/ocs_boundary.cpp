#include "platforms/ocs_boundary.h"

#include <fmt/format.h>

#include <stdexcept>

namespace kairo::platforms {

OcsBoundary::OcsBoundary(ocs::OcsFabric& fabric, const Partition& part, int rank, hw::PacketPool& pool,
                         hw::PayloadCodec* codec)
    : fabric_(fabric), latency_ps_(fabric.latency_ps()), outbox_(part.processes, pool, codec) {
  std::vector<char> remote(std::size_t(fabric.ports()), 0);
  for (int port = 0; port < fabric.ports(); ++port) {
    owner_.push_back(part.owner_of_host(fabric.node_of(port)));
    remote[std::size_t(port)] = owner_.back() != rank;
  }
  fabric.set_remote(this, std::move(remote));
}

OcsBoundary::~OcsBoundary() { fabric_.set_remote(nullptr, {}); }

// The packet's circuit leads to another process's port (the fabric has
// counted it out of `in` and added the pathway's latency).
void OcsBoundary::packet(int in, int vc, hw::Packet* p) {
  sim::ByteWriter w = outbox_.to(owner_[std::size_t(fabric_.output_of(in))]);
  w.put(kPacket);
  w.put(std::uint32_t(in));
  w.put(std::uint16_t(vc));
  outbox_.pack(w, p);
  ++packets_sent_;
}

void OcsBoundary::credits(int feeder, int vc, int flits, sim::Time at) {
  sim::ByteWriter w = outbox_.to(owner_[std::size_t(feeder)]);
  w.put(kCredits);
  w.put(std::uint32_t(feeder));
  w.put(std::uint16_t(vc));
  w.put(std::uint16_t(flits));
  w.put(at);
  ++credits_sent_;
}

void OcsBoundary::take_outgoing(std::vector<std::vector<char>>& out) { outbox_.take(out); }

void OcsBoundary::deliver(int from, const std::vector<char>& bytes, sim::Time window_end) {
  sim::ByteReader r(bytes);
  while (!r.done()) {
    const auto kind = r.get<std::uint8_t>();
    const auto port = int(r.get<std::uint32_t>());
    const int vc = r.get<std::uint16_t>();
    if (port >= fabric_.ports()) throw std::runtime_error("an optical boundary message names no port");
    auto too_early = [&](const char* what, sim::Time at) {
      return std::logic_error(
          fmt::format("partitioned run: {} from process {} through OCS port {} at {} ps, before the window's "
                      "end at {} ps "
                      "(the lookahead is longer than the OCS latency)",
                      what, from, port, at, window_end));
    };
    if (kind == kPacket) {
      hw::Packet* p = outbox_.unpack(r);
      if (p->arrive_ps < window_end) throw too_early("a packet arrives", p->arrive_ps);
      fabric_.receive(port, vc, p);
    } else if (kind == kCredits) {
      const int flits = r.get<std::uint16_t>();
      const auto at = r.get<sim::Time>();
      if (at + latency_ps_ < window_end) throw too_early("credits return", at + latency_ps_);
      fabric_.credit(port, vc, flits, at);
    } else {
      throw std::runtime_error("an optical boundary message of an unknown kind");
    }
  }
}

}  // namespace kairo::platforms
