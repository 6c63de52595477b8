// Destinations of the synthetic traffic patterns; see pattern.h for their
// definitions on coordinates, on node ids and on a switched fabric's host ring.
#include "traffic/pattern.h"

#include <stdexcept>

namespace kairo::traffic {

using hw::Coord;
using hw::NodeId;

const std::vector<std::string>& pattern_names() {
  static const std::vector<std::string> names = {
      "uniform", "transpose", "bitcomp",  "tornado",    "neighbor",     "hotspot", "randperm",
      "bitrev",  "shuffle",   "diagonal", "asymmetric", "uniform_self", "taper64", "bad_dragon"};
  return names;
}

std::optional<Pattern> parse_pattern(const std::string& name) {
  const auto& n = pattern_names();
  for (std::size_t i = 0; i < n.size(); ++i)
    if (n[i] == name) return Pattern(i);
  return std::nullopt;
}

bool needs_torus(Pattern p) { return p == Pattern::kTranspose; }

std::string node_count_need(Pattern p, std::uint64_t nodes) {
  switch (p) {
    case Pattern::kUniform:
    case Pattern::kAsymmetric:
      return nodes >= 2 ? "" : "at least 2 nodes";
    case Pattern::kBitrev:
    case Pattern::kShuffle:
      return nodes > 0 && (nodes & (nodes - 1)) == 0
                 ? ""
                 : "a power-of-two number of nodes (2, 4, 8, ...: it permutes the bits of the node id)";
    case Pattern::kTaper64:
      return nodes == 64 ? "" : "exactly 64 nodes (BookSim defines taper64 on 64, as an 8x8 window)";
    default:
      return "";
  }
}

DestinationPicker::DestinationPicker(NodeId nodes, const hw::Topology* torus, Pattern p, std::uint64_t seed,
                                     std::vector<NodeId> hotspots, double hotspot_fraction,
                                     NodeId group_nodes)
    : nodes_(nodes),
      pattern_(p),
      hotspots_(std::move(hotspots)),
      hotspot_fraction_(hotspot_fraction),
      group_nodes_(group_nodes) {
  const NodeId n = nodes_;
  if (const std::string need = node_count_need(p, n); !need.empty())
    throw std::invalid_argument(pattern_names()[std::size_t(p)] + " traffic needs " + need + "; got " +
                                std::to_string(n) + (n == 1 ? " node" : " nodes"));
  switch (p) {
    case Pattern::kBadDragon:
      if (group_nodes_ == 0 || n % group_nodes_ != 0)
        throw std::invalid_argument(
            "bad_dragon traffic needs a dragonfly (its groups: the next group's nodes are the destinations)");
      return;
    case Pattern::kHotspot:
      if (hotspots_.empty()) throw std::invalid_argument("hotspot traffic needs at least one hotspot node");
      for (NodeId h : hotspots_)
        if (h >= n)
          throw std::invalid_argument("hotspot node " + std::to_string(h) + " does not exist (nodes 0.." +
                                      std::to_string(n - 1) + ")");
      if (!(hotspot_fraction_ >= 0 && hotspot_fraction_ <= 1))
        throw std::invalid_argument("hotspot fraction must be within [0, 1]");
      return;
    case Pattern::kUniform:
    case Pattern::kDiagonal:
    case Pattern::kAsymmetric:
    case Pattern::kUniformSelf:
    case Pattern::kTaper64:
      return;  // drawn per packet in pick()
    default:
      break;
  }
  if (needs_torus(p) && !torus)
    throw std::invalid_argument(pattern_names()[std::size_t(p)] +
                                " traffic needs a mesh/torus shape (coordinates); this platform has none");
  perm_.resize(n);
  if (p == Pattern::kRandperm) {
    for (NodeId i = 0; i < n; ++i) perm_[i] = i;
    sim::Rng rng(seed, 0x7065726dULL);  // Fisher-Yates with its own stream
    for (NodeId i = n - 1; i > 0; --i) std::swap(perm_[i], perm_[rng.below(i + 1)]);
    return;
  }
  if (p == Pattern::kBitrev || p == Pattern::kShuffle)
    permute_bits();
  else if (torus)
    permute_coordinates(*torus);
  else
    permute_ring();
}

// Mesh/torus: each coordinate on its own.
void DestinationPicker::permute_coordinates(const hw::Topology& topo) {
  const int nd = topo.num_dims();
  if (pattern_ == Pattern::kTranspose) {
    for (int d = 0; d < nd; ++d)
      if (topo.dim(d).size != topo.dim(nd - 1 - d).size)
        throw std::invalid_argument("transpose needs dimension " + topo.dim(d).name + " and " +
                                    topo.dim(nd - 1 - d).name + " of equal size");
  }
  for (NodeId s = 0; s < nodes_; ++s) {
    Coord c = topo.coord_of(s), d = c;
    for (int k = 0; k < nd; ++k) {
      const int size = topo.dim(k).size;
      switch (pattern_) {
        case Pattern::kTranspose:
          d[k] = c[nd - 1 - k];
          break;
        case Pattern::kBitcomp:
          d[k] = size - 1 - c[k];
          break;
        case Pattern::kTornado:
          d[k] = (c[k] + (size + 1) / 2 - 1) % size;
          break;
        case Pattern::kNeighbor:
          d[k] = (c[k] + 1) % size;
          break;
        default:
          break;
      }
    }
    perm_[s] = topo.id_of(d);
  }
}

// Switched fabric: the hosts as one ring of N, the mesh/torus definitions
// with a single dimension.
void DestinationPicker::permute_ring() {
  const std::uint64_t n = nodes_;
  for (std::uint64_t s = 0; s < n; ++s) {
    std::uint64_t d = s;
    switch (pattern_) {
      case Pattern::kBitcomp:
        d = n - 1 - s;
        break;
      case Pattern::kTornado:
        d = (s + (n + 1) / 2 - 1) % n;
        break;
      case Pattern::kNeighbor:
        d = (s + 1) % n;
        break;
      default:
        break;
    }
    perm_[s] = NodeId(d);
  }
}

// Node ids of b bits (N = 2^b, checked), on every fabric alike.
void DestinationPicker::permute_bits() {
  const std::uint64_t n = nodes_;
  int bits = 0;
  while ((std::uint64_t(1) << bits) < n) ++bits;
  for (std::uint64_t s = 0; s < n; ++s) {
    std::uint64_t d = 0;
    if (pattern_ == Pattern::kBitrev) {
      for (int b = 0; b < bits; ++b) d |= ((s >> b) & 1) << (bits - 1 - b);
    } else {  // shuffle: the top bit comes round to the bottom
      d = ((s << 1) & (n - 1)) | (bits > 0 ? s >> (bits - 1) : 0);
    }
    perm_[s] = NodeId(d);
  }
}

NodeId DestinationPicker::uniform_other(NodeId src, sim::Rng& rng) const {
  NodeId d = NodeId(rng.below(std::uint64_t(nodes_) - 1));
  return d >= src ? d + 1 : d;
}

NodeId DestinationPicker::pick(NodeId src, sim::Rng& rng) const {
  if (!perm_.empty()) return perm_[src];
  switch (pattern_) {
    case Pattern::kHotspot:
      if (rng.uniform() < hotspot_fraction_) return hotspots_[rng.below(hotspots_.size())];
      return uniform_other(src, rng);
    case Pattern::kDiagonal:  // BookSim: RandomInt(2) == 0, one of three
      return rng.below(3) == 0 ? NodeId((std::uint64_t(src) + 1) % nodes_) : src;
    case Pattern::kAsymmetric: {
      const NodeId half = nodes_ / 2;
      return src % half + (rng.below(2) ? half : 0);
    }
    case Pattern::kUniformSelf:
      return NodeId(rng.below(nodes_));
    case Pattern::kTaper64:
      if (rng.below(2)) {
        const int dy = int(rng.below(3)) - 1, dx = int(rng.below(3)) - 1;
        return NodeId((64 + int(src) + 8 * dy + dx) % 64);
      }
      return NodeId(rng.below(64));
    case Pattern::kBadDragon:
      return NodeId((std::uint64_t(src / group_nodes_ + 1) * group_nodes_ + rng.below(group_nodes_)) %
                    nodes_);
    default:
      return uniform_other(src, rng);
  }
}

}  // namespace kairo::traffic
