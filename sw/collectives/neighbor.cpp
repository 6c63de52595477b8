#include "sw/collectives/neighbor.h"

#include <cstdlib>
#include <numeric>
#include <utility>

#include "hw/common/topology.h"

namespace kairo::coll {

int Grid::ranks() const {
  int n = 1;
  for (int d : dims) n *= d;
  return n;
}

int Grid::neighbor(int rank, int k) const {
  const int dim = k / 2, dir = k % 2 == 0 ? 1 : -1;
  const int at = position_of.empty() ? rank : position_of[std::size_t(rank)];
  int stride = 1;
  for (int i = 0; i < dim; ++i) stride *= dims[std::size_t(i)];
  const int size = dims[std::size_t(dim)];
  const int c = at / stride % size;
  const int nc = (c + dir + size) % size;
  const int next = at + (nc - c) * stride;
  return rank_at.empty() ? next : rank_at[std::size_t(next)];
}

namespace {
// One hop apart along a side of `size` coordinates: neighbors, or the two
// ends of a ring.
bool one_hop(int a, int b, int size, bool wraps) {
  const int d = std::abs(a - b);
  return d == 1 || (wraps && size >= 3 && d == size - 1);
}

// The first row (inner 0) along the outer side, then back through inner
// 1 .. inner - 1, snaking; checked hop by hop.
std::vector<std::pair<int, int>> snake(int outer, bool outer_wraps, int inner, bool inner_wraps) {
  std::vector<std::pair<int, int>> c;
  for (int o = 0; o < outer; ++o) c.emplace_back(o, 0);
  for (int o = outer - 1, j = 0; o >= 0 && inner > 1; --o, ++j)
    for (int i = 1; i < inner; ++i) c.emplace_back(o, j % 2 == 0 ? i : inner - i);
  if (c.size() < 3) return c;  // one or two nodes: every order is a cycle
  for (std::size_t k = 0; k < c.size(); ++k) {
    const auto& [o0, i0] = c[k];
    const auto& [o1, i1] = c[(k + 1) % c.size()];
    const bool hop = (o0 == o1 && one_hop(i0, i1, inner, inner_wraps)) ||
                     (i0 == i1 && one_hop(o0, o1, outer, outer_wraps));
    if (!hop) return {};
  }
  return c;
}
}  // namespace

std::vector<std::pair<int, int>> pair_cycle(int outer, bool outer_wraps, int inner, bool inner_wraps) {
  auto c = snake(outer, outer_wraps, inner, inner_wraps);
  if (!c.empty()) return c;
  c = snake(inner, inner_wraps, outer, outer_wraps);  // the same construction, sides swapped
  for (auto& [a, b] : c) std::swap(a, b);
  return c;
}

Grid topology_grid(const hw::Topology& t, const std::vector<int>& rank_of_node) {
  const int n = t.num_dims();
  if ((n != 3 && n != 6) || rank_of_node.size() != t.num_nodes()) return {};
  const int axes = 3;
  std::vector<std::vector<std::pair<int, int>>> cycles;
  Grid g;
  for (int a = 0; a < axes; ++a) {
    const auto& outer = t.dim(a);
    auto c = n == 6 ? pair_cycle(outer.size, outer.wrap, t.dim(a + 3).size, t.dim(a + 3).wrap)
                    : pair_cycle(outer.size, outer.wrap, 1, false);
    if (c.size() < 3) return {};
    g.dims.push_back(int(c.size()));
    cycles.push_back(std::move(c));
  }
  const int p = g.ranks();
  g.rank_at.assign(std::size_t(p), 0);
  g.position_of.assign(std::size_t(p), 0);
  for (int pos = 0; pos < p; ++pos) {
    hw::Coord c{};
    for (int a = 0, rest = pos; a < axes; rest /= g.dims[std::size_t(a)], ++a) {
      const auto& [o, i] = cycles[std::size_t(a)][std::size_t(rest % g.dims[std::size_t(a)])];
      c[std::size_t(a)] = o;
      if (n == 6) c[std::size_t(a + 3)] = i;
    }
    const int rank = rank_of_node[std::size_t(t.id_of(c))];
    g.rank_at[std::size_t(pos)] = rank;
    g.position_of[std::size_t(rank)] = pos;
  }
  return g;
}

namespace {
// Fragments (message k, part j) of `parts` each, n per step on NICs
// 0..n-1, part by part: every message's first part, then every second
// part, ..., so that a step's fragments go to different neighbors over
// different links (both halves of one message in one step would share its
// link, which on Tofu carries less than two TNIs' DMA). Each fragment as
// puts of at most `max_descriptor` bytes on its NIC.
Schedule by_fragments(const Grid& g, int rank, int nics, std::uint64_t size, int parts,
                      std::uint32_t tag_base, std::uint64_t max_descriptor) {
  const int msgs = 2 * int(g.dims.size());
  const std::uint64_t frag = (size + std::uint64_t(parts) - 1) / std::uint64_t(parts);
  const std::uint64_t pieces = frag == 0 ? 1 : (frag - 1) / max_descriptor + 1;  // per fragment, at most
  Schedule s;
  int index = 0;
  for (int j = 0; j < parts; ++j)
    for (int k = 0; k < msgs; ++k, ++index) {
      if (index % nics == 0) s.emplace_back();
      const std::uint64_t off = std::uint64_t(j) * frag;
      if (off >= size) continue;  // a message shorter than its parts
      const std::uint64_t len = std::min(frag, size - off);
      for (std::uint64_t piece = 0, done = 0; done < len; ++piece) {
        const std::uint64_t n = std::min(max_descriptor, len - done);
        const std::uint64_t at = std::uint64_t(k) * size + off + done;
        const auto tag = std::uint32_t(tag_base + (std::uint64_t(k * parts + j) * pieces + piece));
        s.back().puts.push_back(Put{g.neighbor(rank, k), at, at, n, tag, index % nics});
        s.back().waits.push_back(Wait{g.neighbor(rank, k ^ 1), tag});
        done += n;
      }
    }
  return s;
}
}  // namespace

Schedule neighbor_native(const Grid& g, int rank, int nics, std::uint64_t size, std::uint32_t tag_base,
                         std::uint64_t max_descriptor) {
  return by_fragments(g, rank, nics, size, 1, tag_base, max_descriptor);
}

Schedule neighbor_fragment(const Grid& g, int rank, int nics, std::uint64_t size, std::uint32_t tag_base,
                           std::uint64_t max_descriptor) {
  const int msgs = 2 * int(g.dims.size());
  const int d = std::gcd(msgs, nics);
  return by_fragments(g, rank, nics, size, nics / d, tag_base, max_descriptor);
}

}  // namespace kairo::coll
