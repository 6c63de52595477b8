#include "sw/collectives/neighbor.h"

#include <numeric>

namespace kairo::coll {

int Grid::ranks() const {
  int n = 1;
  for (int d : dims) n *= d;
  return n;
}

int Grid::neighbor(int rank, int k) const {
  const int dim = k / 2, dir = k % 2 == 0 ? 1 : -1;
  int stride = 1;
  for (int i = 0; i < dim; ++i) stride *= dims[std::size_t(i)];
  const int size = dims[std::size_t(dim)];
  const int c = rank / stride % size;
  const int nc = (c + dir + size) % size;
  return rank + (nc - c) * stride;
}

namespace {
// Fragments (message k, part j) of `parts` each, in order, n per step on NICs 0..n-1.
Schedule by_fragments(const Grid& g, int rank, int nics, std::uint64_t size, int parts,
                      std::uint32_t tag_base) {
  const int msgs = 2 * int(g.dims.size());
  const std::uint64_t frag = (size + std::uint64_t(parts) - 1) / std::uint64_t(parts);
  Schedule s;
  int index = 0;
  for (int k = 0; k < msgs; ++k)
    for (int j = 0; j < parts; ++j, ++index) {
      if (index % nics == 0) s.emplace_back();
      const std::uint64_t off = std::uint64_t(j) * frag;
      if (off >= size) continue;  // a message shorter than its parts
      const std::uint64_t len = std::min(frag, size - off);
      const std::uint64_t at = std::uint64_t(k) * size + off;
      const std::uint32_t tag = tag_base + std::uint32_t(k * parts + j);
      s.back().puts.push_back(Put{g.neighbor(rank, k), at, at, len, tag, index % nics});
      s.back().waits.push_back(Wait{g.neighbor(rank, k ^ 1), tag});
    }
  return s;
}
}  // namespace

Schedule neighbor_native(const Grid& g, int rank, int nics, std::uint64_t size, std::uint32_t tag_base) {
  return by_fragments(g, rank, nics, size, 1, tag_base);
}

Schedule neighbor_fragment(const Grid& g, int rank, int nics, std::uint64_t size, std::uint32_t tag_base) {
  const int msgs = 2 * int(g.dims.size());
  const int d = std::gcd(msgs, nics);
  return by_fragments(g, rank, nics, size, nics / d, tag_base);
}

}  // namespace kairo::coll
