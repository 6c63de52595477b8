#include "sw/collectives/bcast.h"

#include <stdexcept>
#include <string>

namespace kairo::coll {

Schedule bcast_binomial(int rank, int p, int root, std::uint64_t size, std::uint32_t tag_base) {
  Schedule s;
  const int v = (rank - root + p) % p;  // distance from the root
  for (int k = 0, d = 1; d < p; ++k, d *= 2) {
    Step step;
    const std::uint32_t tag = tag_base + std::uint32_t(k);
    if (v < d && v + d < p) step.puts.push_back(Put{(rank + d) % p, 0, 0, size, tag, 0, /*from_recv=*/true});
    if (v >= d && v < 2 * d) step.waits.push_back(Wait{(rank - d + p) % p, tag});
    if (!step.puts.empty() || !step.waits.empty()) s.push_back(step);
  }
  return s;
}

const std::vector<std::string>& bcast_algorithms() {
  static const std::vector<std::string> names = {"binomial", "vandegeijn", "vandegeijn-ext", "farfirst"};
  return names;
}

Schedule bcast(const std::string& algo, int rank, int p, int root, std::uint64_t size, int streams,
               std::uint32_t tag_base) {
  if (algo == "binomial") return bcast_binomial(rank, p, root, size, tag_base);
  if (algo == "vandegeijn") return bcast_vandegeijn(rank, p, root, size, tag_base);
  if ((algo == "vandegeijn-ext" || algo == "farfirst") && p % 2)
    throw std::invalid_argument("--param algo=" + algo +
                                " splits the ranks into two clusters: needs an even rank count, got " +
                                std::to_string(p));
  if (algo == "vandegeijn-ext") {
    if (streams < 1 || streams > p / 2)
      throw std::invalid_argument("--param streams: expected 1.." + std::to_string(p / 2) +
                                  " (ranks per cluster), got " + std::to_string(streams));
    return bcast_vandegeijn_ext(rank, p, root, size, streams, tag_base);
  }
  if (algo == "farfirst") return bcast_farfirst(rank, p, root, size, tag_base);
  throw std::invalid_argument("unknown bcast algorithm '" + algo + "'");
}

}  // namespace kairo::coll
