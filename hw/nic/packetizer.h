// The packetizer of an RDMA engine: an operation's payload is cut at the MTU,
// each piece travels behind a header, and a packet occupies a whole number of
// the router's flits. A zero-length operation still sends one header-only
// packet (the put's notification has to travel). Pure arithmetic, no state.
#pragma once
#include <cstdint>
#include <stdexcept>

namespace kairo::nic {

struct PacketPlan {
  std::uint64_t offset = 0;  // first payload byte this packet carries
  std::uint32_t payload_bytes = 0;
  std::uint32_t wire_bytes = 0;  // header + payload
  std::uint16_t flits = 0;       // ceil(wire_bytes / flit_bytes)
};

class Packetizer {
 public:
  Packetizer(std::uint32_t mtu_bytes, std::uint32_t header_bytes, std::uint32_t flit_bytes)
      : mtu_(mtu_bytes), header_(header_bytes), flit_(flit_bytes) {
    if (mtu_ == 0 || flit_ == 0)
      throw std::invalid_argument("packetizer needs an MTU and a flit size above 0");
  }

  std::uint64_t packets(std::uint64_t length) const { return length == 0 ? 1 : (length + mtu_ - 1) / mtu_; }

  // Packet `index` (0-based) of an operation of `length` payload bytes.
  PacketPlan plan(std::uint64_t length, std::uint64_t index) const {
    PacketPlan p;
    p.offset = index * mtu_;
    const std::uint64_t left = length > p.offset ? length - p.offset : 0;
    p.payload_bytes = std::uint32_t(left < mtu_ ? left : mtu_);
    p.wire_bytes = header_ + p.payload_bytes;
    p.flits = std::uint16_t(p.wire_bytes == 0 ? 1 : (p.wire_bytes + flit_ - 1) / flit_);  // never empty
    return p;
  }

  // Flits of the largest packet, for checking against the router's limit.
  std::uint32_t max_packet_flits() const { return (header_ + mtu_ + flit_ - 1) / flit_; }

 private:
  std::uint32_t mtu_, header_, flit_;
};

}  // namespace kairo::nic
