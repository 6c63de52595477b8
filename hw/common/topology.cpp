// Geometry of an N-dimensional mesh/torus. See topology.h for the id, port and
// dateline conventions; this file only implements them.
#include "hw/common/topology.h"

#include <cassert>
#include <cctype>
#include <limits>
#include <stdexcept>
#include <utility>

namespace kairo::hw {
namespace {

std::string lower(const std::string& s) {
  std::string out = s;
  for (char& ch : out) ch = char(std::tolower(static_cast<unsigned char>(ch)));
  return out;
}

std::string label(const DimSpec& spec, std::size_t index) {
  return "dimension " + std::to_string(index) + (spec.name.empty() ? "" : " ('" + spec.name + "')");
}

void check_dim_count(const std::vector<DimSpec>& dims) {
  if (dims.empty()) throw std::invalid_argument("topology has no dimensions; declare at least one (e.g. X)");
  if (dims.size() > std::size_t(kMaxDims)) {
    throw std::invalid_argument("topology has " + std::to_string(dims.size()) + " dimensions but at most " +
                                std::to_string(kMaxDims) + " are supported; remove " +
                                label(dims[kMaxDims], kMaxDims) + " and beyond");
  }
}

void check_dim(const std::vector<DimSpec>& dims, std::size_t d) {
  const DimSpec& spec = dims[d];
  if (spec.name.empty()) throw std::invalid_argument(label(spec, d) + " has no name; give it one (e.g. X)");
  if (spec.size < 1) {
    throw std::invalid_argument(label(spec, d) + " has size " + std::to_string(spec.size) +
                                "; every dimension needs size >= 1 (use 1 for an unused dimension)");
  }
  for (std::size_t e = 0; e < d; ++e) {
    if (lower(dims[e].name) == lower(spec.name)) {
      throw std::invalid_argument(label(spec, d) + " repeats the name of " + label(dims[e], e) +
                                  "; dimension names must be unique (case-insensitive)");
    }
  }
}

}  // namespace

Topology::Topology(std::vector<DimSpec> dims) : dims_(std::move(dims)) {
  check_dim_count(dims_);
  first_port_.fill(-1);
  for (std::size_t d = 0; d < dims_.size(); ++d) {
    check_dim(dims_, d);
    num_nodes_ *= std::uint64_t(dims_[d].size);
    if (num_nodes_ > std::uint64_t(std::numeric_limits<NodeId>::max()) + 1) {
      throw std::invalid_argument(label(dims_[d], d) + " brings the node count past 2^32, " +
                                  "which node ids cannot address; shrink the shape");
    }
    // Size >= 3: a plus and a minus link. Size 2: one link reaches the only
    // other node in either direction. Size 1: no link.
    const int size = dims_[d].size;
    if (size == 1) continue;
    first_port_[d] = num_link_ports_;
    auto add_port = [&](int dir) {
      port_dim_.push_back(int(d));
      port_dir_.push_back(dir);
      ++num_link_ports_;
    };
    if (size == 2) {
      add_port(0);
    } else {
      add_port(+1);
      add_port(-1);
    }
  }
}

int Topology::dim_index(const std::string& name) const {
  const std::string key = lower(name);
  for (int d = 0; d < num_dims(); ++d) {
    if (lower(dims_[d].name) == key) return d;
  }
  return -1;
}

Coord Topology::coord_of(NodeId id) const {
  assert(id < num_nodes_);
  Coord c{};
  for (int d = 0; d < num_dims(); ++d) {
    const NodeId size = NodeId(dims_[d].size);
    c[d] = int(id % size);
    id /= size;
  }
  return c;
}

NodeId Topology::id_of(const Coord& c) const {
  std::uint64_t id = 0;
  for (int d = num_dims() - 1; d >= 0; --d) {
    assert(c[d] >= 0 && c[d] < dims_[d].size);
    id = id * std::uint64_t(dims_[d].size) + std::uint64_t(c[d]);
  }
  return NodeId(id);
}

std::string Topology::coord_string(const Coord& c) const {
  std::string out;
  for (int d = 0; d < num_dims(); ++d) out += lower(dims_[d].name) + std::to_string(c[d]);
  return out;
}

int Topology::port_dim(int port) const { return port_dim_[std::size_t(port)]; }

int Topology::port_dir(int port) const { return port_dir_[std::size_t(port)]; }

std::string Topology::port_name(int port) const {
  const std::string name = lower(dims_[port_dim(port)].name);
  const int dir = port_dir(port);
  if (dir == 0) return name;
  return name + (dir > 0 ? "p" : "m");
}

int Topology::peer_port(int port) const {
  const int dir = port_dir(port);
  if (dir == 0) return port;
  return dir > 0 ? port + 1 : port - 1;
}

std::optional<NodeId> Topology::neighbor(NodeId id, int d, int dir) const {
  const int size = dims_[d].size;
  if (size == 1 || dir == 0) return std::nullopt;
  std::uint64_t stride = 1;
  for (int e = 0; e < d; ++e) stride *= std::uint64_t(dims_[e].size);
  const int c = int((id / stride) % std::uint64_t(size));
  int next = size == 2 ? 1 - c : c + (dir > 0 ? 1 : -1);
  if (next < 0 || next >= size) {
    if (!dims_[d].wrap) return std::nullopt;  // mesh edge: port exists, no cable
    next = (next + size) % size;
  }
  return NodeId(std::int64_t(id) + (std::int64_t(next) - c) * std::int64_t(stride));
}

std::optional<NodeId> Topology::neighbor_via_port(NodeId id, int port) const {
  const int dir = port_dir(port);
  return neighbor(id, port_dim(port), dir == 0 ? +1 : dir);
}

int Topology::hops(NodeId a, NodeId b) const {
  int total = 0;
  for (int d = 0; d < num_dims(); ++d) {
    const NodeId size = NodeId(dims_[d].size);
    total += dim_hops(d, int(a % size), int(b % size));
    a /= size;
    b /= size;
  }
  return total;
}

int Topology::dim_hops(int d, int from, int to) const {
  const int straight = from > to ? from - to : to - from;
  if (!dims_[d].wrap) return straight;
  const int round = dims_[d].size - straight;
  return straight < round ? straight : round;
}

}  // namespace kairo::hw
