// The partitioner's inside (platforms/partition.h): a platform's routers or
// switches as a graph, and the two ways of cutting it. Not for other callers.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "platforms/partition.h"
#include "platforms/platform.h"
#include "sim/time.h"

namespace kairo::platforms::detail {

struct RouterGraph {
  struct Edge {  // one cable, both directions
    std::uint32_t a, b;
    int cls;
    sim::Time latency_ps;
  };
  std::vector<std::uint64_t> weight;  // per vertex: expected events (ports in use)
  std::vector<std::uint64_t> hosts;   // per vertex
  std::vector<Edge> edges;
  std::vector<std::string> classes;
  std::uint64_t hosts_per_router = 1;
  std::size_t size() const { return weight.size(); }
};

// Mesh/torus: one vertex per router (node id order), one edge per cable.
RouterGraph torus_graph(const Platform& p);
// Fat trees, clusters, the hybrid's packet switches: vertices in
// SwitchNetlist's order, cables with their class (and links.ports latency).
RouterGraph switch_graph(const Platform& p);

// Blocks: owners per vertex, or an empty vector with `why` set when blocks
// cannot make n partitions (`max` then holds the most they can make).
struct Blocks {
  std::vector<int> owner;
  std::vector<int> per_dim;  // mesh/torus: blocks along each dimension
  std::string why;
  std::uint64_t max = 0;
};
Blocks torus_blocks(const Platform& p, const RouterGraph& g, int n);
Blocks switch_blocks(const Platform& p, int n);

// METIS over the graph (2 <= n <= g.size()): the edge weight of a cable of
// lookahead L (its latency plus the hop's fixed part), with L_max the
// largest over the graph's cables, is
//   w = min(1000, max(1, round((L_max / L)^4)))   (1000 when L = 0)
// so the slowest cables cost 1 to cut and a cable of half their lookahead
// 16; vertex weights are the expected events (RouterGraph::weight).
std::vector<int> metis_owners(const RouterGraph& g, sim::Time hop_fixed_ps, int n);

}  // namespace kairo::platforms::detail
