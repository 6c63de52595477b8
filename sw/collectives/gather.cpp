#include "sw/collectives/gather.h"

#include <algorithm>

namespace kairo::coll {

Schedule scatter_linear(int rank, int p, int root, std::uint64_t size, std::uint32_t tag_base) {
  Step s;
  if (rank == root) {
    for (int i = 1; i < p; ++i) {
      const int j = (root + i) % p;
      s.puts.push_back(Put{j, std::uint64_t(j) * size, 0, size, tag_base, i - 1});
    }
  } else {
    s.waits.push_back(Wait{root, tag_base});
  }
  return Schedule{s};
}

Schedule gather_linear(int rank, int p, int root, std::uint64_t size, std::uint32_t tag_base) {
  Step s;
  if (rank == root) {
    for (int i = 1; i < p; ++i) s.waits.push_back(Wait{(root + i) % p, tag_base + std::uint32_t(i)});
  } else {
    const int i = (rank - root + p) % p;
    s.puts.push_back(Put{root, 0, std::uint64_t(rank) * size, size, tag_base + std::uint32_t(i), 0});
  }
  return Schedule{s};
}

// Tags: tag_base + i for the block of the rank i after the root, and
// tag_base + p + i for the token that lets it go.
Schedule gather_limited(int rank, int p, int root, std::uint64_t size, int streams, std::uint32_t tag_base) {
  Schedule s;
  const int n = std::max(1, std::min(streams, p - 1));
  const std::uint64_t token_at = std::uint64_t(p) * size;
  auto go = [&](int i) {  // the token for the rank i after the root
    return Put{(root + i) % p, 0, token_at, kTokenBytes, tag_base + std::uint32_t(p + i), 0};
  };
  if (rank == root) {
    Step first;
    for (int i = 1; i <= n; ++i) first.puts.push_back(go(i));
    s.push_back(first);
    for (int i = 1; i < p; ++i) {  // each landing block lets the next sender go, in the step after
      s.push_back(Step{{}, {Wait{(root + i) % p, tag_base + std::uint32_t(i)}}});
      if (i + n < p) s.push_back(Step{{go(i + n)}, {}});
    }
  } else {
    const int i = (rank - root + p) % p;
    s.push_back(Step{{}, {Wait{root, tag_base + std::uint32_t(p + i)}}});
    s.push_back(Step{{Put{root, 0, std::uint64_t(rank) * size, size, tag_base + std::uint32_t(i), 0}}, {}});
  }
  return s;
}

Schedule allgather_ring(int rank, int p, std::uint64_t size, std::uint32_t tag_base) {
  Schedule s;
  for (int i = 0; i + 1 < p; ++i) {
    const int send_block = (rank - i + p) % p;
    const std::uint32_t tag = tag_base + std::uint32_t(i);
    Put put{
        (rank + 1) % p,    std::uint64_t(send_block) * size, std::uint64_t(send_block) * size, size, tag, 0,
        /*from_recv=*/true};
    s.push_back(Step{{put}, {Wait{(rank - 1 + p) % p, tag}}});
  }
  return s;
}

}  // namespace kairo::coll
