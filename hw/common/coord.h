// How the network names a place: a node id, and on a mesh/torus the node's
// coordinates and the shape of one dimension. The words every block shares
// (packets, endpoints, routers, netlists); the geometry that relates them is
// topology.h.
#pragma once
#include <array>
#include <cstdint>
#include <string>

namespace kairo::hw {

using NodeId = std::uint32_t;
inline constexpr int kMaxDims = 6;
using Coord = std::array<int, kMaxDims>;  // unused dimensions hold 0

struct DimSpec {
  std::string name;  // "X", "Y", ... (Tofu: X Y Z A B C)
  int size = 1;
  bool wrap = false;  // torus when true
};

}  // namespace kairo::hw
