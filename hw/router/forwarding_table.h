// Destination-based forwarding for switched fabrics (fat trees, clusters):
// for every switch and every destination host and network interface, the
// output port. Built once by the netlist (platforms/switch_netlist.cpp), read
// by the switches per packet: one array lookup, nothing computed per hop.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "hw/common/topology.h"

namespace kairo::router {

class ForwardingTable {
 public:
  ForwardingTable() = default;
  ForwardingTable(std::size_t switches, std::size_t hosts, int nis)
      : hosts_(hosts), nis_(std::size_t(nis)), ports_(switches * hosts * std::size_t(nis), -1) {}
  void set(std::size_t sw, NodeId dst, int ni, int port) { ports_[index(sw, dst, ni)] = std::int16_t(port); }
  // -1 when the switch has no route to the destination.
  int port(std::size_t sw, NodeId dst, int ni) const { return ports_[index(sw, dst, ni)]; }

 private:
  std::size_t index(std::size_t sw, NodeId dst, int ni) const {
    return (sw * hosts_ + dst) * nis_ + std::size_t(ni);
  }
  std::size_t hosts_ = 0, nis_ = 1;
  std::vector<std::int16_t> ports_;
};

}  // namespace kairo::router
