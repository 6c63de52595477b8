#include "sw/hybrid/partitioning.h"

#include <fmt/format.h>
#include <metis.h>

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace kairo::hybrid {
namespace {

void check_inputs(const EpsShape& shape, const Pattern& p, const std::vector<std::uint32_t>& node_of_rank,
                  const std::vector<bool>& optical) {
  shape.validate();
  if (int(node_of_rank.size()) != p.ranks)
    throw std::invalid_argument(
        fmt::format("node_of_rank has {} entries for a pattern of {} ranks", node_of_rank.size(), p.ranks));
  if (int(optical.size()) != shape.nodes())
    throw std::invalid_argument(
        fmt::format("optical has {} flags for {} nodes; give one per node", optical.size(), shape.nodes()));
  std::vector<bool> taken(std::size_t(shape.nodes()), false);
  for (std::size_t r = 0; r < node_of_rank.size(); ++r) {
    const std::uint32_t n = node_of_rank[r];
    if (n >= std::uint32_t(shape.nodes()))
      throw std::invalid_argument(
          fmt::format("rank {} is on node {}, beyond the {} nodes", r, n, shape.nodes()));
    if (taken[n])
      throw std::invalid_argument(fmt::format("rank {} shares node {}: one process per node", r, n));
    taken[n] = true;
  }
}

// A rank pair that could use a pathway between its two edge switches.
struct Candidate {
  std::uint64_t bytes;
  int edge_rank, other_rank;  // edge process = the smaller rank
  std::uint32_t a, b;         // node under the lower / higher switch
};

bool better(const Candidate& x, const Candidate& y) {
  if (x.bytes != y.bytes) return x.bytes > y.bytes;
  if (x.edge_rank != y.edge_rank) return x.edge_rank < y.edge_rank;
  return x.other_rank < y.other_rank;
}

// Candidates per switch pair (i < j), at index i * edges + j, best first.
std::vector<std::vector<Candidate>> sp_candidates(const EpsShape& shape, const Pattern& p,
                                                  const std::vector<std::uint32_t>& node_of_rank,
                                                  std::uint64_t threshold, const std::vector<bool>& optical) {
  std::vector<std::vector<Candidate>> lists(std::size_t(shape.edges) * std::size_t(shape.edges));
  for (int r = 0; r < p.ranks; ++r)
    for (int s = r + 1; s < p.ranks; ++s) {
      const std::uint64_t bytes = ocs_pair_bytes(p, r, s, threshold);
      std::uint32_t nr = node_of_rank[std::size_t(r)], ns = node_of_rank[std::size_t(s)];
      if (bytes == 0 || shape.edge_of(nr) == shape.edge_of(ns) || !optical[nr] || !optical[ns]) continue;
      if (shape.edge_of(nr) > shape.edge_of(ns)) std::swap(nr, ns);
      lists[std::size_t(shape.edge_of(nr) * shape.edges + shape.edge_of(ns))].push_back(
          Candidate{bytes, r, s, nr, ns});
    }
  for (auto& l : lists) std::sort(l.begin(), l.end(), better);
  return lists;
}

constexpr int kMetisSeeds = 8;

// The ranks' communication graph in METIS's CSR form, with the exact 64-bit
// edge weights (bytes both ways per iteration) beside it.
struct Graph {
  std::vector<idx_t> xadj{0}, adjncy;
  std::vector<std::uint64_t> weight;
};

Graph comm_graph(const Pattern& p) {
  Graph g;
  for (int r = 0; r < p.ranks; ++r) {
    for (int s = 0; s < p.ranks; ++s) {
      const std::uint64_t w = r == s ? 0 : p.at(r, s) + p.at(s, r);
      if (w == 0) continue;
      g.adjncy.push_back(idx_t(s));
      g.weight.push_back(w);
    }
    g.xadj.push_back(idx_t(g.adjncy.size()));
  }
  return g;
}

// METIS weights are 32-bit and summed inside: scale so that their total stays
// below 2^28, keeping every edge at least 1 (an edge never vanishes).
std::vector<idx_t> metis_weights(const Graph& g) {
  long double total = 0;
  for (std::uint64_t w : g.weight) total += static_cast<long double>(w);
  const long double scale = std::max(1.0L, total / static_cast<long double>(1 << 28));
  std::vector<idx_t> out;
  for (std::uint64_t w : g.weight)
    out.push_back(std::max<idx_t>(1, idx_t(static_cast<long double>(w) / scale)));
  return out;
}

// METIS_PartGraphRecursive (METIS's manual recommends recursive bisection for
// 8 parts or fewer; Takizawa et al. 2008 has 4), options fixed so that the answer is the
// same on every run: the given random seed, 8 initial cuts keeping the best
// (NCUTS), 10 refinement passes, load imbalance 1.001 (UFACTOR 1, the
// tightest), C numbering; every other option at METIS's default (min edge cut).
std::vector<int> metis_parts(const Graph& g, int nparts, int seed) {
  idx_t n = idx_t(g.xadj.size() - 1), ncon = 1, np = nparts, cut = 0;
  std::vector<idx_t> adjwgt = metis_weights(g), part(std::size_t(n), 0);
  std::vector<idx_t> xadj = g.xadj, adjncy = g.adjncy;
  if (adjncy.empty()) adjncy.push_back(0), adjwgt.push_back(1);  // METIS wants non-null arrays
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = seed;
  options[METIS_OPTION_NCUTS] = 8;
  options[METIS_OPTION_NITER] = 10;
  options[METIS_OPTION_UFACTOR] = 1;
  options[METIS_OPTION_NUMBERING] = 0;
  const int rc = METIS_PartGraphRecursive(&n, &ncon, xadj.data(), adjncy.data(), nullptr, nullptr,
                                          adjwgt.data(), &np, nullptr, nullptr, options, &cut, part.data());
  if (rc != METIS_OK)
    throw std::runtime_error(fmt::format("METIS_PartGraphRecursive failed with code {}", rc));
  return std::vector<int>(part.begin(), part.end());
}

// METIS balances within UFACTOR, not exactly: move ranks out of over-full
// parts into under-full ones, one at a time, each time the move that raises
// the cut least (exact bytes), ties to the lowest rank, then lowest part.
void repair_sizes(const Graph& g, int nparts, int per_part, std::vector<int>& part) {
  std::vector<int> size(std::size_t(nparts), 0);
  for (int k : part) ++size[std::size_t(k)];
  for (;;) {
    std::int64_t best_delta = 0;
    int best_rank = -1, best_part = -1;
    for (std::size_t r = 0; r < part.size(); ++r) {
      const int from = part[r];
      if (size[std::size_t(from)] <= per_part) continue;
      std::vector<std::int64_t> conn(std::size_t(nparts), 0);  // bytes from r into each part
      for (idx_t e = g.xadj[r]; e < g.xadj[r + 1]; ++e)
        conn[std::size_t(part[std::size_t(g.adjncy[std::size_t(e)])])] +=
            std::int64_t(g.weight[std::size_t(e)]);
      for (int to = 0; to < nparts; ++to) {
        if (size[std::size_t(to)] >= per_part) continue;
        const std::int64_t delta = conn[std::size_t(from)] - conn[std::size_t(to)];
        if (best_rank < 0 || delta < best_delta) best_delta = delta, best_rank = int(r), best_part = to;
      }
    }
    if (best_rank < 0) return;
    --size[std::size_t(part[std::size_t(best_rank)])];
    ++size[std::size_t(best_part)];
    part[std::size_t(best_rank)] = best_part;
  }
}

// How good a partition is for the hybrid network, compared in this order:
// bytes that cross switches, then "NIC conflicts": cross-switch partners a
// rank has beyond the first. A node ends one pathway only (§2), so a rank with
// two partners in other switches cannot have a circuit to both; of two
// partitions with equal cut, the one SP can cover with more pathways wins
// (on the 8 x 16 Neighbor grid: four 8 x 4 blocks, not two 8 x 4 and two 4 x 8).
struct Score {
  std::uint64_t cut_bytes = 0;
  std::uint64_t nic_conflicts = 0;
  bool operator<(const Score& o) const {
    return cut_bytes != o.cut_bytes ? cut_bytes < o.cut_bytes : nic_conflicts < o.nic_conflicts;
  }
};

Score score(const Graph& g, const std::vector<int>& part) {
  Score sc;
  for (std::size_t r = 0; r < part.size(); ++r) {
    std::uint64_t partners = 0;
    for (idx_t e = g.xadj[r]; e < g.xadj[r + 1]; ++e) {
      if (part[std::size_t(g.adjncy[std::size_t(e)])] == part[r]) continue;
      ++partners;
      sc.cut_bytes += g.weight[std::size_t(e)];  // every edge is seen from both ends
    }
    sc.nic_conflicts += partners > 1 ? partners - 1 : 0;
  }
  sc.cut_bytes /= 2;
  return sc;
}

// Part labels are arbitrary: renumber them in order of their smallest rank.
void renumber_by_first_rank(int nparts, std::vector<int>& part) {
  std::vector<int> label(std::size_t(nparts), -1);
  int next = 0;
  for (int& k : part) {
    if (label[std::size_t(k)] < 0) label[std::size_t(k)] = next++;
    k = label[std::size_t(k)];
  }
}

}  // namespace

std::vector<int> cp_switch_of_rank(const EpsShape& shape, const Pattern& p) {
  shape.validate();
  if (p.ranks != shape.nodes())
    throw std::invalid_argument(
        fmt::format("CP places {} ranks on {} nodes ({} edge switches x {} hosts); give a "
                    "pattern with one rank per node",
                    p.ranks, shape.nodes(), shape.edges, shape.hosts_per_edge));
  if (shape.edges == 1) return std::vector<int>(std::size_t(p.ranks), 0);
  const Graph g = comm_graph(p);
  std::vector<int> best;
  Score best_score;
  for (int seed = 1; seed <= kMetisSeeds; ++seed) {  // METIS's random seeds 1..8, the first best kept
    std::vector<int> part = metis_parts(g, shape.edges, seed);
    repair_sizes(g, shape.edges, shape.hosts_per_edge, part);
    const Score sc = score(g, part);
    if (best.empty() || sc < best_score) best = std::move(part), best_score = sc;
  }
  renumber_by_first_rank(shape.edges, best);
  return best;
}

std::vector<std::uint32_t> sequential_placement(int ranks) {
  std::vector<std::uint32_t> m(std::size_t(std::max(ranks, 0)));
  std::iota(m.begin(), m.end(), 0u);
  return m;
}

std::uint64_t ocs_pair_bytes(const Pattern& p, int r, int s, std::uint64_t threshold_bytes) {
  const std::uint64_t there = p.at(r, s), back = p.at(s, r);
  return (there > threshold_bytes ? there : 0) + (back > threshold_bytes ? back : 0);
}

std::vector<int> switch_pair_table(const EpsShape& shape, const Pattern& p,
                                   const std::vector<std::uint32_t>& node_of_rank,
                                   std::uint64_t threshold_bytes) {
  check_inputs(shape, p, node_of_rank, std::vector<bool>(std::size_t(shape.nodes()), true));
  std::vector<int> table(std::size_t(shape.edges) * std::size_t(shape.edges), 0);
  for (int r = 0; r < p.ranks; ++r)
    for (int s = r + 1; s < p.ranks; ++s) {
      if (ocs_pair_bytes(p, r, s, threshold_bytes) == 0) continue;
      const int i = shape.edge_of(node_of_rank[std::size_t(r)]),
                j = shape.edge_of(node_of_rank[std::size_t(s)]);
      ++table[std::size_t(i * shape.edges + j)];
      if (i != j) ++table[std::size_t(j * shape.edges + i)];
    }
  return table;
}

int inter_switch_pairs(const EpsShape& shape, const std::vector<int>& table) {
  int sum = 0;
  for (int i = 0; i < shape.edges; ++i)
    for (int j = i + 1; j < shape.edges; ++j) sum += table[std::size_t(i * shape.edges + j)];
  return sum;
}

std::vector<Pathway> assign_sp(const EpsShape& shape, const Pattern& p,
                               const std::vector<std::uint32_t>& node_of_rank, int pathways,
                               std::uint64_t threshold_bytes, const std::vector<bool>& optical) {
  check_inputs(shape, p, node_of_rank, optical);
  const auto lists = sp_candidates(shape, p, node_of_rank, threshold_bytes, optical);
  std::vector<std::size_t> cursor(lists.size(), 0);
  std::vector<bool> busy(std::size_t(shape.nodes()), false);  // the node's optical NIC has its circuit
  std::vector<Pathway> out;
  for (bool progressed = true; progressed && int(out.size()) < pathways;) {
    progressed = false;  // one round: one pathway per switch pair that still has a free candidate
    for (std::size_t k = 0; k < lists.size() && int(out.size()) < pathways; ++k) {
      const auto& l = lists[k];
      std::size_t& c = cursor[k];
      while (c < l.size() && (busy[l[c].a] || busy[l[c].b])) ++c;  // a node taken stays taken
      if (c == l.size()) continue;
      out.push_back(Pathway{l[c].a, l[c].b});
      busy[l[c].a] = busy[l[c].b] = true;
      ++c;
      progressed = true;
    }
  }
  return out;
}

Placement assign_cp(const EpsShape& shape, const Pattern& p, int pathways, std::uint64_t threshold_bytes,
                    const std::vector<bool>& optical) {
  const std::vector<int> sw = cp_switch_of_rank(shape, p);
  Placement out;
  out.node_of_rank.resize(std::size_t(p.ranks));
  std::vector<int> filled(std::size_t(shape.edges), 0);
  for (int r = 0; r < p.ranks; ++r) {
    const int k = sw[std::size_t(r)];
    out.node_of_rank[std::size_t(r)] = std::uint32_t(k * shape.hosts_per_edge + filled[std::size_t(k)]++);
  }
  out.pathways = assign_sp(shape, p, out.node_of_rank, pathways, threshold_bytes, optical);
  return out;
}

}  // namespace kairo::hybrid
