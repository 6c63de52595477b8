// Blocks: the topology's own cut (platforms/partition.h).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <tuple>

#include "platforms/partition_graph.h"

namespace kairo::platforms::detail {

namespace {

// The dimensions blocks may cut: those of size 2 or more whose cables are the
// slowest of the platform (Tofu: X, Y, Z at 10ns, not A, B, C at 2ns).
std::vector<int> cuttable_dims(const Platform& p) {
  sim::Time slowest = 0;
  for (std::size_t d = 0; d < p.dims.size(); ++d)
    if (p.dims[d].size >= 2) slowest = std::max(slowest, p.router.cable_ps[d]);
  std::vector<int> dims;
  for (std::size_t d = 0; d < p.dims.size(); ++d)
    if (p.dims[d].size >= 2 && p.router.cable_ps[d] == slowest) dims.push_back(int(d));
  return dims;
}

// The block of coordinate c along a dimension of `size` cut into `n`:
// contiguous, sizes floor(size/n) or ceil(size/n).
int block_of(int c, int size, int n) { return int(std::int64_t(c) * n / size); }

// Cables cut along dimension d by n blocks, per line of that dimension.
std::uint64_t cuts_per_line(const hw::DimSpec& d, int n) {
  if (n <= 1) return 0;
  if (d.size == 2) return 1;
  return std::uint64_t(d.wrap ? n : n - 1);
}

std::vector<int> owners_for(const Platform& p, const std::vector<int>& per_dim) {
  std::uint64_t nodes = 1;
  for (const auto& d : p.dims) nodes *= std::uint64_t(d.size);
  std::vector<int> owner(std::size_t(nodes), 0);
  for (std::uint64_t id = 0; id < nodes; ++id) {
    std::uint64_t rest = id;
    int o = 0, stride = 1;
    for (std::size_t d = 0; d < p.dims.size(); ++d) {
      const int size = p.dims[d].size, c = int(rest % std::uint64_t(size));
      rest /= std::uint64_t(size);
      o += block_of(c, size, per_dim[d]) * stride;
      stride *= per_dim[d];
    }
    owner[std::size_t(id)] = o;
  }
  return owner;
}

}  // namespace

Blocks torus_blocks(const Platform& p, const RouterGraph& g, int n) {
  Blocks b;
  const std::vector<int> dims = cuttable_dims(p);
  std::uint64_t nodes = 1;
  for (const auto& d : p.dims) nodes *= std::uint64_t(d.size);
  b.max = 1;
  std::string bounds;
  for (int d : dims) {
    b.max *= std::uint64_t(p.dims[std::size_t(d)].size);
    bounds += fmt::format("{}n_{} <= {}", bounds.empty() ? "" : ", ", p.dims[std::size_t(d)].name,
                          p.dims[std::size_t(d)].size);
  }
  std::string names;
  for (int d : dims)
    names += fmt::format("{}{}", names.empty() ? "" : " x ", "n_" + p.dims[std::size_t(d)].name);
  if (std::uint64_t(n) > b.max) {
    b.why = fmt::format(
        "blocks can make at most {} partitions of {}: the product of the sizes of the dimensions with the "
        "slowest cables ({}), which are the only ones blocks cut",
        b.max, p.name, bounds);
    return b;
  }
  // Every factorisation n = prod n_d (n_d <= size_d) over the cuttable
  // dimensions; the best balance of expected events first, then the fewest
  // cut cables, then the first in enumeration order.
  std::vector<int> per_dim(p.dims.size(), 1), best;
  std::tuple<double, std::uint64_t> best_score{0, 0};
  std::function<void(std::size_t, int)> walk = [&](std::size_t i, int rest) {
    if (i == dims.size()) {
      if (rest != 1) return;
      std::vector<int> owner = owners_for(p, per_dim);
      std::vector<std::uint64_t> w(std::size_t(n), 0);
      std::uint64_t total = 0;
      for (std::size_t v = 0; v < owner.size(); ++v)
        w[std::size_t(owner[v])] += g.weight[v], total += g.weight[v];
      const double imb = double(*std::max_element(w.begin(), w.end())) * n / double(total);
      std::uint64_t cut = 0;
      for (int d : dims)
        cut += cuts_per_line(p.dims[std::size_t(d)], per_dim[std::size_t(d)]) *
               (nodes / std::uint64_t(p.dims[std::size_t(d)].size));
      const auto score = std::make_tuple(std::round(imb * 1e9) / 1e9, cut);
      if (best.empty() || score < best_score) best = per_dim, best_score = score, b.owner = std::move(owner);
      return;
    }
    const int d = dims[i];
    for (int k = 1; k <= std::min(rest, p.dims[std::size_t(d)].size); ++k)
      if (rest % k == 0) {
        per_dim[std::size_t(d)] = k;
        walk(i + 1, rest / k);
      }
    per_dim[std::size_t(d)] = 1;
  };
  walk(0, n);
  if (best.empty()) {
    b.why = fmt::format("blocks cannot split {} into {} partitions: {} must be a product {} with {}", p.name,
                        n, n, names, bounds);
    return b;
  }
  b.per_dim = best;
  return b;
}

Blocks switch_blocks(const Platform& p, int n) {
  Blocks b;
  const SwitchedFabric& f = p.fabric;
  const int E = f.edges;
  b.max = std::uint64_t(E);
  const bool clusters = p.kind == FabricKind::kClusters;
  if (n > E) {
    b.why =
        fmt::format("blocks can make at most {} partitions of {}: one per {}", E, p.name,
                    clusters ? "cluster (with its gateway)" : "leaf group (an edge switch with its hosts)");
    return b;
  }
  auto group = [&](int i, int count) { return int(std::int64_t(i) * n / count); };
  if (p.kind == FabricKind::kFatTree && f.levels > 0) {
    for (int l = 0; l < f.levels; ++l)  // a column of the tree: the switches of one word
      for (int w = 0; w < E; ++w) b.owner.push_back(group(w, E));
  } else if (p.kind == FabricKind::kFatTree || p.kind == FabricKind::kDragonfly) {
    for (int e = 0; e < E; ++e) b.owner.push_back(group(e, E));  // a dragonfly's routers, group by group
    for (int s = 0; s < f.spines; ++s) b.owner.push_back(group(s, f.spines));
  } else {
    for (int i = 0; i < 2; ++i)  // clusters, then their gateways
      for (int c = 0; c < E; ++c) b.owner.push_back(group(c, E));
  }
  return b;
}

}  // namespace kairo::platforms::detail
