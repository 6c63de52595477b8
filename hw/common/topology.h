// N-dimensional (1 to 6) mesh/torus: the pure geometry of a Tofu-like network.
// No SystemC here. Mesh and torus share one implementation with a wrap flag
// per dimension.
//
// Node ids are mixed-radix numbers with dimension 0 as the fastest digit:
//   id = c0 + s0 * (c1 + s1 * (c2 + ...)).
//
// Port numbering (identical on every router, so tables can be indexed by it):
// dimensions in declaration order; a dimension of size >= 3 has two ports,
// plus then minus ("xp", "xm"); a dimension of size 2 has one port named after
// the dimension ("a"), since both directions reach the same neighbour over one
// link; a dimension of size 1 has none. Mesh routers at a boundary still own
// the port number; it is simply not connected (neighbor() returns nullopt).
//
// Dateline: in a torus dimension of size >= 3 the wrap-around link (from
// coordinate size-1 going plus, or from 0 going minus) is the dateline. A
// packet that crosses it moves to VC class 1 so that dimension-order routing
// cannot form a cyclic channel dependency. Size-2 dimensions have no cycle and
// no dateline.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hw/common/coord.h"

namespace kairo::hw {

class Topology {
 public:
  // Throws std::invalid_argument naming the dimension when a shape is
  // impossible: 0 or more than 6 dimensions, a size < 1, duplicate names.
  explicit Topology(std::vector<DimSpec> dims);

  int num_dims() const { return int(dims_.size()); }
  const DimSpec& dim(int d) const { return dims_[d]; }
  int dim_index(const std::string& name) const;  // -1 if unknown (case-insensitive)
  std::uint64_t num_nodes() const { return num_nodes_; }

  Coord coord_of(NodeId id) const;
  NodeId id_of(const Coord& c) const;
  std::string coord_string(const Coord& c) const;  // "x1y0z0a0b1c0" (lower-case names + values)

  // A torus dimension that needs a dateline (wrap && size >= 3).
  bool is_ring(int d) const { return dims_[d].wrap && dims_[d].size >= 3; }

  // Ports: see the header comment.
  int num_link_ports() const { return num_link_ports_; }
  int port_of(int d, int dir) const {  // dir = +1 or -1; -1 if the dim has size 1
    const int base = first_port_[d];
    if (base < 0 || dims_[d].size == 2) return base;
    return dir > 0 ? base : base + 1;
  }
  int port_dim(int port) const;           // dimension of a link port
  int port_dir(int port) const;           // +1, -1, or 0 for the single port of a size-2 dim
  std::string port_name(int port) const;  // "xp", "xm", "a"
  // The port on the neighbour where a link leaving through `port` arrives:
  // xp <-> xm, and a size-2 port maps to itself.
  int peer_port(int port) const;

  // The neighbour one step along dim d in direction dir, or nullopt at a mesh
  // boundary or in a dimension of size 1. In a size-2 dim both dirs give the
  // other node.
  std::optional<NodeId> neighbor(NodeId id, int d, int dir) const;
  // Neighbour reached through a link port, or nullopt if unconnected.
  std::optional<NodeId> neighbor_via_port(NodeId id, int port) const;

  // True when the hop from coordinate c along dim d in direction dir is the
  // wrap-around link of a ring (the dateline).
  bool crosses_dateline(const Coord& c, int d, int dir) const {
    if (!is_ring(d)) return false;
    return (dir > 0 && c[d] == dims_[d].size - 1) || (dir < 0 && c[d] == 0);
  }

  // Minimal hop count between two nodes (shorter way round on rings).
  int hops(NodeId a, NodeId b) const;
  // Minimal hop count within one dimension.
  int dim_hops(int d, int from, int to) const;

 private:
  std::vector<DimSpec> dims_;
  std::uint64_t num_nodes_ = 1;
  int num_link_ports_ = 0;
  std::array<int, kMaxDims> first_port_{};
  std::vector<int> port_dim_;
  std::vector<int> port_dir_;
};

}  // namespace kairo::hw
