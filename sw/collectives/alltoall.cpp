#include "sw/collectives/alltoall.h"

#include <stdexcept>

namespace kairo::coll {

namespace {
Put block(int rank, int to, std::uint64_t size, std::uint32_t tag, int tni) {
  return Put{to, std::uint64_t(to) * size, std::uint64_t(rank) * size, size, tag, tni};
}
}  // namespace

Schedule alltoall_a2a(int rank, int p, std::uint64_t size, std::uint32_t tag_base) {
  Step s;
  for (int i = 1; i < p; ++i) {
    s.puts.push_back(block(rank, (rank + i) % p, size, tag_base + std::uint32_t(i), i - 1));
    s.waits.push_back(Wait{(rank + p - i) % p, tag_base + std::uint32_t(i)});
  }
  return p > 1 ? Schedule{s} : Schedule{};
}

Schedule alltoall_pairwise(int rank, int p, std::uint64_t size, std::uint32_t tag_base) {
  Schedule s;
  const bool pow2 = (p & (p - 1)) == 0;
  for (int i = 1; i < p; ++i) {
    const int to = pow2 ? rank ^ i : (rank + i) % p, from = pow2 ? rank ^ i : (rank + p - i) % p;
    const std::uint32_t tag = tag_base + std::uint32_t(i);
    s.push_back(Step{{block(rank, to, size, tag, 0)}, {Wait{from, tag}}});
  }
  return s;
}

const std::vector<std::string>& alltoall_algorithms() {
  static const std::vector<std::string> names = {"a2a", "pairwise"};
  return names;
}

Schedule alltoall(const std::string& algo, int rank, int p, std::uint64_t size, std::uint32_t tag_base) {
  if (algo == "a2a") return alltoall_a2a(rank, p, size, tag_base);
  if (algo == "pairwise") return alltoall_pairwise(rank, p, size, tag_base);
  throw std::invalid_argument("unknown all-to-all algorithm '" + algo + "'");
}

}  // namespace kairo::coll
