#include "sw/hybrid/forwarding.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace kairo::hybrid {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

std::size_t at(int edges, int s, int d) { return std::size_t(s) * std::size_t(edges) + std::size_t(d); }

}  // namespace

ForwardingTables::ForwardingTables(const EpsShape& shape, std::vector<Pathway> pathways,
                                   std::vector<bool> optical, std::uint64_t threshold_bytes)
    : shape_(shape),
      pathways_(std::move(pathways)),
      optical_(std::move(optical)),
      threshold_(threshold_bytes),
      hop_cost_(1.0 / shape.ocs_bytes_per_s + 2.0 / shape.host_bytes_per_s) {
  shape_.validate();
  check_pathways();
  const int e = shape_.edges;
  adjacency_.assign(at(e, e, 0), {});
  for (std::uint32_t i = 0; i < pathways_.size(); ++i) {
    const int sa = shape_.edge_of(pathways_[i].a), sb = shape_.edge_of(pathways_[i].b);
    adjacency_[at(e, sa, sb)].push_back(i);
    adjacency_[at(e, sb, sa)].push_back(i);
  }
  run_distance_vector();
}

void ForwardingTables::check_pathways() const {
  if (int(optical_.size()) != shape_.nodes())
    throw std::invalid_argument(
        fmt::format("optical has {} flags for {} nodes; give one per node", optical_.size(), shape_.nodes()));
  std::vector<bool> used(optical_.size(), false);
  for (std::size_t i = 0; i < pathways_.size(); ++i)
    for (std::uint32_t n : {pathways_[i].a, pathways_[i].b}) {
      const std::string what = fmt::format("pathway {} ({} - {})", i, pathways_[i].a, pathways_[i].b);
      if (n >= optical_.size())
        throw std::invalid_argument(
            fmt::format("{}: node {} is beyond the {} nodes", what, n, shape_.nodes()));
      if (!optical_[n]) throw std::invalid_argument(fmt::format("{}: node {} has no optical NIC", what, n));
      if (used[n])
        throw std::invalid_argument(
            fmt::format("{}: node {} already ends a pathway (one optical NIC)", what, n));
      used[n] = true;
      if (shape_.edge_of(pathways_[i].a) == shape_.edge_of(pathways_[i].b))
        throw std::invalid_argument(fmt::format(
            "{}: both nodes are under edge switch {}; a pathway crosses switches", what, shape_.edge_of(n)));
    }
}

// Synchronous distance vector: in each round every switch reads the vectors
// its optical neighbours held at the end of the previous round (compute, then
// commit, so switch order cannot matter) and keeps, per destination, the
// cheapest neighbour; equal costs go to the lowest neighbour id.
void ForwardingTables::run_distance_vector() {
  const int e = shape_.edges;
  cost_.assign(at(e, e, 0), kInf);
  next_.assign(at(e, e, 0), -1);
  for (int s = 0; s < e; ++s) cost_[at(e, s, s)] = 0;
  for (bool changed = true; changed;) {
    if (++rounds_ > e) throw std::logic_error("distance vector did not converge within one round per switch");
    const std::vector<double> heard = cost_;
    changed = false;
    for (int s = 0; s < e; ++s)
      for (int d = 0; d < e; ++d) {
        if (d == s) continue;
        double best = kInf;
        int via = -1;
        for (int n = 0; n < e; ++n) {
          if (adjacency_[at(e, s, n)].empty() || heard[at(e, n, d)] == kInf) continue;
          const double c = hop_cost_ + heard[at(e, n, d)];
          if (via < 0 || c < best * (1 - 1e-12)) best = c, via = n;  // equal within rounding: keep lower id
        }
        changed |= via != next_[at(e, s, d)] || best != cost_[at(e, s, d)];
        cost_[at(e, s, d)] = best;
        next_[at(e, s, d)] = via;
      }
  }
}

int ForwardingTables::next_switch(int s, int d) const { return next_[at(shape_.edges, s, d)]; }

const std::vector<std::uint32_t>& ForwardingTables::circuits(int s, int d) const {
  static const std::vector<std::uint32_t> kNone;
  const int n = next_switch(s, d);
  return n < 0 ? kNone : adjacency_[at(shape_.edges, s, n)];
}

double ForwardingTables::cost(int s, int d) const { return cost_[at(shape_.edges, s, d)]; }

bool ForwardingTables::takes_ocs(std::uint32_t src, std::uint32_t dst, std::uint64_t bytes) const {
  if (src >= std::uint32_t(shape_.nodes()) || dst >= std::uint32_t(shape_.nodes()))
    throw std::invalid_argument(fmt::format("route {} -> {}: nodes are 0..{}", src, dst, shape_.nodes() - 1));
  const int s = shape_.edge_of(src), d = shape_.edge_of(dst);
  return bytes > threshold_ && s != d && reachable(s, d);
}

// Follows the tables from src's switch to dst's; pick(s, d, circuits) chooses
// the circuit index at switch s. Every hop strictly lowers the remaining cost,
// so a route has at most edges - 1 circuits; more means corrupt tables.
template <class Pick>
std::vector<Hop> ForwardingTables::walk(std::uint32_t src, std::uint32_t dst, Pick&& pick) const {
  std::vector<Hop> hops;
  std::uint32_t cur = src;
  const int d = shape_.edge_of(dst);
  for (int s = shape_.edge_of(src), crossed = 0; s != d; ++crossed) {
    if (crossed >= shape_.edges - 1)
      throw std::logic_error(fmt::format("forwarding loop from node {} to {}", src, dst));
    const std::uint32_t i = pick(s, d, circuits(s, d));
    const Pathway& p = pathways_[i];
    const bool a_here = shape_.edge_of(p.a) == s;
    const std::uint32_t x = a_here ? p.a : p.b, y = a_here ? p.b : p.a;
    if (cur != x) hops.push_back(Hop{cur, x, false});
    hops.push_back(Hop{x, y, true});
    cur = y;
    s = shape_.edge_of(y);
  }
  if (cur != dst) hops.push_back(Hop{cur, dst, false});
  return hops;
}

std::vector<Hop> ForwardingTables::route(std::uint32_t src, std::uint32_t dst, std::uint64_t bytes,
                                         std::uint64_t flow_id) const {
  if (!takes_ocs(src, dst, bytes))
    return src == dst ? std::vector<Hop>{} : std::vector<Hop>{Hop{src, dst, false}};
  return walk(src, dst, [&](int, int, const std::vector<std::uint32_t>& c) { return c[flow_id % c.size()]; });
}

std::vector<Flow> ForwardingTables::plan(const Pattern& p,
                                         const std::vector<std::uint32_t>& node_of_rank) const {
  if (int(node_of_rank.size()) != p.ranks)
    throw std::invalid_argument(
        fmt::format("node_of_rank has {} entries for a pattern of {} ranks", node_of_rank.size(), p.ranks));
  std::vector<Flow> flows;
  for (int s = 0; s < p.ranks; ++s)
    for (int d = 0; d < p.ranks; ++d)
      if (s != d && p.at(s, d) > 0)
        flows.push_back(
            Flow{s, d, node_of_rank[std::size_t(s)], node_of_rank[std::size_t(d)], p.at(s, d), {}});
  std::vector<std::size_t> order(flows.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t x, std::size_t y) { return flows[x].bytes > flows[y].bytes; });
  // Bytes each circuit has carried, per direction: [2 * i] from a to b, [2 * i + 1] from b to a.
  std::vector<std::uint64_t> load(2 * pathways_.size(), 0);
  for (std::size_t k : order) {
    Flow& f = flows[k];
    if (f.src == f.dst) continue;
    if (!takes_ocs(f.src, f.dst, f.bytes)) {
      f.hops = {Hop{f.src, f.dst, false}};
      continue;
    }
    f.hops = walk(f.src, f.dst, [&](int s, int, const std::vector<std::uint32_t>& c) {
      auto dir = [&](std::uint32_t i) { return 2 * i + (shape_.edge_of(pathways_[i].a) == s ? 0 : 1); };
      const std::uint32_t best = *std::min_element(
          c.begin(), c.end(), [&](std::uint32_t i, std::uint32_t j) { return load[dir(i)] < load[dir(j)]; });
      load[dir(best)] += f.bytes;
      return best;
    });
  }
  return flows;
}

std::uint64_t Tally::max_node_eps_bytes() const {
  return node_eps_bytes.empty() ? 0 : *std::max_element(node_eps_bytes.begin(), node_eps_bytes.end());
}

int Tally::pathways_used() const {
  return int(std::count_if(circuits.begin(), circuits.end(),
                           [](const Circuit& c) { return c.a_to_b + c.b_to_a > 0; }));
}

Tally tally(const EpsShape& shape, const std::vector<Pathway>& pathways, const std::vector<Flow>& flows) {
  Tally t;
  t.node_eps_bytes.assign(std::size_t(shape.nodes()), 0);
  t.circuits.assign(pathways.size(), {});
  std::vector<int> pathway_of(std::size_t(shape.nodes()), -1);
  for (std::size_t i = 0; i < pathways.size(); ++i)
    pathway_of[pathways[i].a] = pathway_of[pathways[i].b] = int(i);
  for (const Flow& f : flows)
    for (const Hop& h : f.hops) {
      if (!h.optical) {
        t.node_eps_bytes[h.from] += f.bytes;
        t.node_eps_bytes[h.to] += f.bytes;
        if (shape.edge_of(h.from) != shape.edge_of(h.to)) t.top_switch_bytes += f.bytes;
        continue;
      }
      const int i = pathway_of[h.from];
      if (i < 0 || pathway_of[h.to] != i)
        throw std::invalid_argument(
            fmt::format("optical hop {} -> {} has no pathway between its nodes", h.from, h.to));
      (pathways[std::size_t(i)].a == h.from ? t.circuits[std::size_t(i)].a_to_b
                                            : t.circuits[std::size_t(i)].b_to_a) += f.bytes;
    }
  return t;
}

}  // namespace kairo::hybrid
