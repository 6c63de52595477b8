#include "sw/collectives/torus_ranks.h"

#include <fmt/format.h>

namespace kairo::coll {

TorusRanks identity_torus_ranks(std::vector<int> sizes, std::vector<int> routing_order) {
  TorusRanks t;
  std::uint64_t n = 1;
  for (int s : sizes) n *= std::uint64_t(s);
  t.sizes = std::move(sizes);
  t.routing_order = std::move(routing_order);
  for (std::uint64_t r = 0; r < n; ++r) {
    t.node_of_rank.push_back(std::uint32_t(r));
    t.rank_of_node.push_back(int(r));
  }
  return t;
}

std::string check_torus_ranks(const TorusRanks& t) {
  std::uint64_t n = 1;
  for (int s : t.sizes) {
    if (s < 1) return fmt::format("a dimension of size {}", s);
    n *= std::uint64_t(s);
  }
  if (t.node_of_rank.size() != n || t.rank_of_node.size() != n)
    return fmt::format("{} ranks on {} nodes: needs exactly one rank on every node", t.node_of_rank.size(),
                       n);
  for (std::size_t r = 0; r < n; ++r) {
    const std::uint32_t node = t.node_of_rank[r];
    if (node >= n || t.rank_of_node[node] != int(r))
      return fmt::format("rank {} and node {} do not map to each other: needs exactly one rank on every node",
                         r, node);
  }
  if (!t.routing_order.empty()) {
    std::vector<bool> seen(t.sizes.size(), false);
    if (t.routing_order.size() != t.sizes.size()) return "the routing order does not name every dimension";
    for (int d : t.routing_order) {
      if (d < 0 || d >= int(t.sizes.size()) || seen[std::size_t(d)])
        return "the routing order is not a permutation of the dimensions";
      seen[std::size_t(d)] = true;
    }
  }
  return {};
}

void phase_offset(const std::vector<int>& sizes, const std::vector<int>& order, std::uint64_t i, int* o) {
  const std::size_t n = sizes.size();
  std::size_t spread = 0;  // dimensions with links
  for (int s : sizes) spread += s > 1;
  const bool mix = spread >= 3;
  // The stagger alone (phase 0's image before the swap with the null translation).
  auto stagger = [&](std::size_t j) {
    return mix ? int(j * std::size_t(sizes[order.empty() ? j : std::size_t(order[j])]) / n) : 0;
  };
  bool null = true;
  std::uint64_t sum = 0;
  for (std::size_t j = 0; j < n; ++j) {
    const std::size_t d = order.empty() ? j : std::size_t(order[j]);
    const std::uint64_t s = std::uint64_t(sizes[d]), a = i % s;  // digit a_j
    sum += a;
    i /= s;
    o[d] = int(((mix ? sum : a) + std::uint64_t(stagger(j))) % s);
    null = null && o[d] == 0;
  }
  const bool phase0 = sum == 0;  // every digit zero
  if (phase0 || null)            // swap phase 0 and the phase that lands on the null translation
    for (std::size_t j = 0; j < n; ++j)
      o[order.empty() ? j : std::size_t(order[j])] = phase0 ? 0 : stagger(j);
}

std::vector<std::uint32_t> mirrored_phase_order(const std::vector<int>& sizes) {
  const std::size_t n = sizes.size();
  std::uint64_t p = 1;
  for (int s : sizes) p *= std::uint64_t(s);
  // A translation as a mixed-radix number (dimension 0 fastest), and its mirror's.
  std::vector<int> o(n);
  auto encode = [&](bool mirror) {
    std::uint64_t id = 0;
    for (std::size_t d = n; d-- > 0;) {
      const int s = sizes[d], v = mirror ? (s - o[d]) % s : o[d];
      id = id * std::uint64_t(s) + std::uint64_t(v);
    }
    return id;
  };
  std::vector<std::uint32_t> phase_of(p, 0), mirror_of(p, 0);
  for (std::uint64_t i = 1; i < p; ++i) {
    phase_offset(sizes, {}, i, o.data());
    phase_of[encode(false)] = std::uint32_t(i);
  }
  for (std::uint64_t i = 1; i < p; ++i) {
    phase_offset(sizes, {}, i, o.data());
    mirror_of[i] = phase_of[encode(true)];
  }
  std::vector<std::uint32_t> order;
  order.reserve(p > 0 ? p - 1 : 0);
  std::vector<bool> posted(p, false);
  for (std::uint64_t i = 1; i < p; ++i) {
    if (posted[i]) continue;
    order.push_back(std::uint32_t(i));
    posted[i] = true;
    const std::uint32_t m = mirror_of[i];
    if (!posted[m]) {
      order.push_back(m);
      posted[m] = true;
    }
  }
  return order;
}

}  // namespace kairo::coll
