// METIS over a platform's router graph (platforms/partition_graph.h).
#include <fmt/format.h>
#include <metis.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "platforms/partition_graph.h"

namespace kairo::platforms::detail {

namespace {
constexpr idx_t kMaxEdgeWeight = 1000;
constexpr idx_t kSeed = 1;  // fixed: the same platform and N give the same partition

idx_t edge_weight(sim::Time lookahead, sim::Time slowest) {
  if (lookahead == 0) return kMaxEdgeWeight;
  const double w = std::round(std::pow(double(slowest) / double(lookahead), 4));
  return idx_t(std::clamp(w, 1.0, double(kMaxEdgeWeight)));
}
}  // namespace

std::vector<int> metis_owners(const RouterGraph& g, sim::Time hop_fixed_ps, int n) {
  const std::size_t nv = g.size();
  sim::Time slowest = 0;
  for (const auto& e : g.edges) slowest = std::max(slowest, e.latency_ps + hop_fixed_ps);
  // CSR adjacency, both directions of every cable.
  std::vector<idx_t> xadj(nv + 1, 0), adjncy(2 * g.edges.size()), adjwgt(2 * g.edges.size());
  for (const auto& e : g.edges) ++xadj[e.a + 1], ++xadj[e.b + 1];
  for (std::size_t v = 0; v < nv; ++v) xadj[v + 1] += xadj[v];
  std::vector<idx_t> fill(xadj.begin(), xadj.end() - 1);
  for (const auto& e : g.edges) {
    const idx_t w = edge_weight(e.latency_ps + hop_fixed_ps, slowest);
    adjncy[std::size_t(fill[e.a])] = idx_t(e.b), adjwgt[std::size_t(fill[e.a]++)] = w;
    adjncy[std::size_t(fill[e.b])] = idx_t(e.a), adjwgt[std::size_t(fill[e.b]++)] = w;
  }
  if (adjncy.empty()) adjncy.push_back(0), adjwgt.push_back(1);  // METIS wants non-null arrays
  std::vector<idx_t> vwgt(nv), part(nv, 0);
  for (std::size_t v = 0; v < nv; ++v) vwgt[v] = idx_t(std::max<std::uint64_t>(g.weight[v], 1));
  idx_t nvtxs = idx_t(nv), ncon = 1, nparts = idx_t(n), objval = 0;
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = kSeed;
  options[METIS_OPTION_NUMBERING] = 0;
  // METIS's manual: recursive bisection for up to 8 parts, k-way beyond.
  const bool recursive = n <= 8;
  const int rc =
      recursive
          ? METIS_PartGraphRecursive(&nvtxs, &ncon, xadj.data(), adjncy.data(), vwgt.data(), nullptr,
                                     adjwgt.data(), &nparts, nullptr, nullptr, options, &objval, part.data())
          : METIS_PartGraphKway(&nvtxs, &ncon, xadj.data(), adjncy.data(), vwgt.data(), nullptr,
                                adjwgt.data(), &nparts, nullptr, nullptr, options, &objval, part.data());
  if (rc != METIS_OK)
    throw std::runtime_error(fmt::format("{} failed with code {}",
                                         recursive ? "METIS_PartGraphRecursive" : "METIS_PartGraphKway", rc));
  return std::vector<int>(part.begin(), part.end());
}

}  // namespace kairo::platforms::detail
