// Destination-based forwarding for switched fabrics (fat trees, clusters):
// for every switch and every destination host and network interface, the
// output port. Built once by the netlist (platforms/switch_netlist.cpp), read
// by the switches per packet: one array lookup, nothing computed per hop.
// It is the switches' routing unit (hw/router/routing_unit.h).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "hw/common/topology.h"
#include "hw/router/routing_unit.h"

namespace kairo::router {

class ForwardingTable final : public RoutingUnit {
 public:
  ForwardingTable() = default;
  ForwardingTable(std::size_t switches, std::size_t hosts, int nis)
      : hosts_(hosts), nis_(std::size_t(nis)), ports_(switches * hosts * std::size_t(nis), -1) {}
  void set(std::size_t sw, hw::NodeId dst, int ni, int port) {
    ports_[index(sw, dst, ni)] = std::int16_t(port);
  }
  // -1 when the switch has no route to the destination.
  int port(std::size_t sw, hw::NodeId dst, int ni) const { return ports_[index(sw, dst, ni)]; }
  // The destination's entry; every VC (kAny); out_dim 0 on a link to
  // another switch, -1 to a host.
  void next_hop(const RouterPlace& at, hw::Packet& p, OutputLoad&) const override {
    const int out = port(at.id, p.dst, p.dst_ni);
    p.out_port = std::int16_t(out);
    p.out_class = hw::VcClass::kAny;
    p.out_dim = std::int8_t(out < at.link_ports ? 0 : -1);
  }

 private:
  std::size_t index(std::size_t sw, hw::NodeId dst, int ni) const {
    return (sw * hosts_ + dst) * nis_ + std::size_t(ni);
  }
  std::size_t hosts_ = 0, nis_ = 1;
  std::vector<std::int16_t> ports_;
};

}  // namespace kairo::router
