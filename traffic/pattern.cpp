#include "traffic/pattern.h"

#include <stdexcept>

namespace kairo::traffic {

using router::Coord;
using router::NodeId;

const std::vector<std::string>& pattern_names() {
  static const std::vector<std::string> names = {"uniform", "transpose", "bitcomp", "tornado",
                                                 "neighbor", "hotspot", "randperm"};
  return names;
}

std::optional<Pattern> parse_pattern(const std::string& name) {
  const auto& n = pattern_names();
  for (std::size_t i = 0; i < n.size(); ++i)
    if (n[i] == name) return Pattern(i);
  return std::nullopt;
}

DestinationPicker::DestinationPicker(const router::Topology& topo, Pattern p, std::uint64_t seed,
                                     std::vector<NodeId> hotspots, double hotspot_fraction)
    : topo_(topo), pattern_(p), hotspots_(std::move(hotspots)), hotspot_fraction_(hotspot_fraction) {
  const NodeId n = NodeId(topo.num_nodes());
  const int nd = topo.num_dims();
  if (p == Pattern::kUniform && n < 2) throw std::invalid_argument("uniform traffic needs at least 2 nodes");
  if (p == Pattern::kHotspot) {
    if (hotspots_.empty()) throw std::invalid_argument("hotspot traffic needs at least one hotspot node");
    for (NodeId h : hotspots_)
      if (h >= n) throw std::invalid_argument("hotspot node " + std::to_string(h) + " does not exist (nodes 0.." +
                                              std::to_string(n - 1) + ")");
    if (!(hotspot_fraction_ >= 0 && hotspot_fraction_ <= 1))
      throw std::invalid_argument("hotspot fraction must be within [0, 1]");
    return;
  }
  if (p == Pattern::kUniform) return;
  if (p == Pattern::kTranspose) {
    for (int d = 0; d < nd; ++d)
      if (topo.dim(d).size != topo.dim(nd - 1 - d).size)
        throw std::invalid_argument("transpose needs dimension " + topo.dim(d).name + " and " +
                                    topo.dim(nd - 1 - d).name + " of equal size");
  }
  perm_.resize(n);
  if (p == Pattern::kRandperm) {
    for (NodeId i = 0; i < n; ++i) perm_[i] = i;
    sim::Rng rng(seed, 0x7065726dULL);  // Fisher-Yates with its own stream
    for (NodeId i = n - 1; i > 0; --i) std::swap(perm_[i], perm_[rng.below(i + 1)]);
    return;
  }
  for (NodeId s = 0; s < n; ++s) {
    Coord c = topo.coord_of(s), d = c;
    for (int k = 0; k < nd; ++k) {
      const int size = topo.dim(k).size;
      switch (p) {
        case Pattern::kTranspose: d[k] = c[nd - 1 - k]; break;
        case Pattern::kBitcomp: d[k] = size - 1 - c[k]; break;
        case Pattern::kTornado: d[k] = (c[k] + (size + 1) / 2 - 1) % size; break;
        case Pattern::kNeighbor: d[k] = (c[k] + 1) % size; break;
        default: break;
      }
    }
    perm_[s] = topo.id_of(d);
  }
}

NodeId DestinationPicker::uniform_other(NodeId src, sim::Rng& rng) const {
  NodeId d = NodeId(rng.below(topo_.num_nodes() - 1));
  return d >= src ? d + 1 : d;
}

NodeId DestinationPicker::pick(NodeId src, sim::Rng& rng) const {
  if (!perm_.empty()) return perm_[src];
  if (pattern_ == Pattern::kHotspot && rng.uniform() < hotspot_fraction_)
    return hotspots_[rng.below(hotspots_.size())];
  return uniform_other(src, rng);
}

}  // namespace kairo::traffic
