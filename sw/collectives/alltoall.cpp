#include "sw/collectives/alltoall.h"

#include <algorithm>
#include <stdexcept>

#include "sw/collectives/barrier.h"

namespace kairo::coll {

namespace {
Put block(int rank, int to, std::uint64_t size, std::uint32_t tag, int tni) {
  return Put{to, std::uint64_t(to) * size, std::uint64_t(rank) * size, size, tag, tni};
}

int ceil_log2(int p) {
  int n = 0;
  while ((1 << n) < p) ++n;
  return n;
}

// A rank's place on the mesh/torus, and the ranks a translation pairs it with.
class Translations {
 public:
  Translations(int rank, const TorusRanks& t, std::vector<int> order)
      : t_(t), order_(std::move(order)), n_(t.sizes.size()), c_(n_), o_(n_) {
    std::uint32_t id = t.node_of_rank.at(std::size_t(rank));
    for (std::size_t d = 0; d < n_; ++d) {
      c_[d] = int(id % std::uint32_t(t.sizes[d]));
      id /= std::uint32_t(t.sizes[d]);
    }
  }
  // Phase i's destination (coordinates + o(i)) and source (coordinates - o(i)).
  void phase(std::uint64_t i, int* to, int* from) {
    phase_offset(t_.sizes, order_, i, o_.data());
    std::uint64_t up = 0, down = 0;
    for (std::size_t d = n_; d-- > 0;) {
      const int s = t_.sizes[d];
      up = up * std::uint64_t(s) + std::uint64_t((c_[d] + o_[d]) % s);
      down = down * std::uint64_t(s) + std::uint64_t((c_[d] - o_[d] + s) % s);
    }
    *to = t_.rank_of_node[up];
    *from = t_.rank_of_node[down];
  }

 private:
  const TorusRanks& t_;
  std::vector<int> order_;
  std::size_t n_;
  std::vector<int> c_, o_;
};

// One step posting phases [first, last) in order (or, given `order`, phases
// order[first - 1], order[first], ...) and waiting for their arrivals.
Step phases(int rank, Translations& tr, std::uint64_t size, std::uint32_t tag_base, int first, int last,
            const std::vector<std::uint32_t>* order = nullptr) {
  Step s;
  s.phase = "exchange";
  s.puts.reserve(std::size_t(last - first));
  s.waits.reserve(std::size_t(last - first));
  for (int j = first; j < last; ++j) {
    const std::uint32_t i = order ? (*order)[std::size_t(j - 1)] : std::uint32_t(j);
    int to = 0, from = 0;
    tr.phase(i, &to, &from);
    const std::uint32_t tag = tag_base + i;
    s.puts.push_back(block(rank, to, size, tag, j - 1));
    s.waits.push_back(Wait{from, tag});
  }
  return s;
}

// The shape only (O(dimensions) per rank); check_torus_ranks checks the
// whole map once, before the ranks build their schedules.
void require_torus(const TorusRanks& t, const char* algo) {
  std::uint64_t n = 1;
  for (int s : t.sizes) n *= std::uint64_t(s < 1 ? 0 : s);
  if (n != t.node_of_rank.size() || n != t.rank_of_node.size())
    throw std::invalid_argument(std::string("alltoall ") + algo + ": needs exactly one rank on every node");
}
}  // namespace

Schedule alltoall_a2a(int rank, int p, std::uint64_t size, std::uint32_t tag_base) {
  Step s;
  for (int i = 1; i < p; ++i) {
    s.puts.push_back(block(rank, (rank + i) % p, size, tag_base + std::uint32_t(i), i - 1));
    s.waits.push_back(Wait{(rank + p - i) % p, tag_base + std::uint32_t(i)});
  }
  s.phase = "exchange";
  return p > 1 ? Schedule{s} : Schedule{};
}

Schedule alltoall_a2at(int rank, const TorusRanks& t, std::uint64_t size, std::uint32_t tag_base) {
  require_torus(t, "a2at");
  const int p = int(t.node_of_rank.size());
  if (p < 2) return {};
  Translations tr(rank, t, {});  // dimension 0 fastest
  return Schedule{phases(rank, tr, size, tag_base, 1, p, t.phase_order.empty() ? nullptr : &t.phase_order)};
}

Schedule alltoall_tofu(int rank, const TorusRanks& t, std::uint64_t size, std::uint32_t tag_base,
                       int barrier_every) {
  require_torus(t, "tofu");
  const int p = int(t.node_of_rank.size()), k = barrier_every;
  if (p < 2) return {};
  if (k < 1 || k > p - 1)
    throw std::invalid_argument("alltoall tofu: barrier_every must be 1 to " + std::to_string(p - 1));
  Translations tr(rank, t, t.routing_order);
  const int rounds = ceil_log2(p);
  const std::uint64_t scratch = std::uint64_t(p) * size;
  Schedule s;
  s.reserve(std::size_t((p - 1 + k - 1) / k * (rounds + 1)));
  for (int first = 1, g = 0; first < p; first += k, ++g) {
    if (g > 0)
      for (Step& b : barrier_dissemination(rank, p, tag_base + std::uint32_t(p + (g - 1) * rounds))) {
        for (Put& put : b.puts) put.src_offset = put.dst_offset = scratch;
        b.phase = "barrier";
        s.push_back(std::move(b));
      }
    s.push_back(phases(rank, tr, size, tag_base, first, std::min(first + k, p)));
  }
  return s;
}

Schedule alltoall_pairwise(int rank, int p, std::uint64_t size, std::uint32_t tag_base) {
  Schedule s;
  const bool pow2 = (p & (p - 1)) == 0;
  for (int i = 1; i < p; ++i) {
    const int to = pow2 ? rank ^ i : (rank + i) % p, from = pow2 ? rank ^ i : (rank + p - i) % p;
    const std::uint32_t tag = tag_base + std::uint32_t(i);
    s.push_back(Step{{block(rank, to, size, tag, 0)}, {Wait{from, tag}}, {}, "exchange"});
  }
  return s;
}

int tofu_default_barrier_every(int p) { return std::max(1, (p - 1 + 2) / 3); }

int tofu_barriers(int p, int barrier_every) {
  return p < 2 ? 0 : (p - 1 + barrier_every - 1) / barrier_every - 1;
}

}  // namespace kairo::coll
