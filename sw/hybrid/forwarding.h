// Takizawa et al. 2008 §3.3: forwarding tables over the optical pathways, and the route
// each message takes on the hybrid EPS+OCS network.
//
// Tables are per edge switch: for every destination switch, the next switch
// and the parallel circuits that reach it, found by a distance-vector protocol
// (synchronous rounds of vector exchange between switches that share a
// pathway, Bellman-Ford) whose metric is reciprocal bandwidth. Where no
// chain of pathways reaches the destination the entry is "nullified": the
// message falls back to the EPS upstream links through the top switch.
//
// A message takes the OCS only when both conditions of §3 hold: it is larger
// than the threshold (the OCS bandwidth-delay product, 8192 B) and its
// destination sits under another edge switch. Then it is relayed by the nodes
// that own the pathways (EO-OE forwarding, Figure 3):
//   src -EPS-> x1 -OCS-> y1 -EPS-> x2 -OCS-> y2 ... yk -EPS-> dst
// where (xi, yi) is the circuit taken at the i-th switch; an EPS leg between
// a node and itself is left out. Not modeled here: timing (routes are plain
// data; the simulation replays them).
#pragma once
#include <cstdint>
#include <vector>

#include "sw/hybrid/partitioning.h"
#include "sw/hybrid/pattern.h"

namespace kairo::hybrid {

// One link-level step of a message: an EPS transfer between two hosts
// (through their edge switch, or up through the top switch when the edges
// differ) or a transfer over the optical circuit between them.
struct Hop {
  std::uint32_t from = 0, to = 0;
  bool optical = false;
  bool operator==(const Hop&) const = default;
};

// The bytes rank src_rank sends dst_rank per iteration, on nodes src -> dst,
// and the hops they take.
struct Flow {
  int src_rank = 0, dst_rank = 0;
  std::uint32_t src = 0, dst = 0;
  std::uint64_t bytes = 0;
  std::vector<Hop> hops;
};

class ForwardingTables {
 public:
  // Throws std::invalid_argument when a pathway names a node outside the
  // shape, a node without an optical NIC, a node that already has a
  // pathway, or two nodes under the same edge switch.
  ForwardingTables(const EpsShape& shape, std::vector<Pathway> pathways, std::vector<bool> optical,
                   std::uint64_t threshold_bytes = kDefaultThresholdBytes);

  // Metric of one switch-to-switch OCS hop, seconds per byte:
  //   1 / ocs_bytes_per_s + 2 / host_bytes_per_s
  // the circuit, plus the EPS transit from the node where it lands to the
  // node that launches the next circuit (or to the destination): out of one
  // host link and into another. A k-hop route thus costs k x hop_cost() plus
  // the 2 / host of the first EPS leg, the same for every route of a message,
  // so it is left out. Parallel circuits share load but do not shorten the
  // path, so they do not lower the metric: a direct pathway always beats a
  // relay through a third switch, as §3.3 describes. With the uniform rates
  // of EpsShape the metric orders routes like hop count.
  double hop_cost() const { return hop_cost_; }

  // Switch-level table of switch s towards switch d (s != d).
  bool reachable(int s, int d) const { return next_switch(s, d) >= 0; }
  int next_switch(int s, int d) const;  // -1: nullified, EPS fallback
  // Indices into pathways() of the parallel circuits from s to next_switch(s, d), ascending.
  const std::vector<std::uint32_t>& circuits(int s, int d) const;
  double cost(int s, int d) const;  // +infinity when nullified
  // Rounds of vector exchange until no switch's vector changed (the last,
  // quiet round included): the longest route's hop count + 1.
  int dv_rounds() const { return rounds_; }

  const std::vector<Pathway>& pathways() const { return pathways_; }
  std::uint64_t threshold_bytes() const { return threshold_; }

  // Both conditions of §3 hold and the tables reach dst's switch. Nodes
  // outside the shape throw std::invalid_argument (here, in route and in plan).
  bool takes_ocs(std::uint32_t src, std::uint32_t dst, std::uint64_t bytes) const;

  // Hops of one message (empty when src == dst; one EPS hop unless takes_ocs).
  // Load balancing: at each switch the circuit is circuits(s, d)[flow_id % k].
  std::vector<Hop> route(std::uint32_t src, std::uint32_t dst, std::uint64_t bytes,
                         std::uint64_t flow_id) const;

  // One flow per nonzero pattern entry, in (src rank, dst rank) order. Load
  // balancing: OCS flows are placed largest first (ties by src, then dst
  // rank), each at every switch on the circuit among the parallel ones that
  // has carried the fewest bytes in its direction so far (ties to the lower
  // pathway index). Greedy placement keeps, per direction of a bundle,
  // max - min circuit load <= the largest flow placed on it.
  std::vector<Flow> plan(const Pattern& p, const std::vector<std::uint32_t>& node_of_rank) const;

 private:
  template <class Pick>
  std::vector<Hop> walk(std::uint32_t src, std::uint32_t dst, Pick&& pick) const;
  void check_pathways() const;
  void run_distance_vector();

  EpsShape shape_;
  std::vector<Pathway> pathways_;
  std::vector<bool> optical_;
  std::uint64_t threshold_;
  double hop_cost_;
  // [s * edges + n]: circuits between switches s and n; [s * edges + d]: table entries.
  std::vector<std::vector<std::uint32_t>> adjacency_;
  std::vector<int> next_;
  std::vector<double> cost_;
  int rounds_ = 0;
};

// What a set of flows puts on each resource per iteration (Takizawa et al. 2008 Figure 6).
struct Tally {
  struct Circuit {
    std::uint64_t a_to_b = 0, b_to_a = 0;
  };
  // Per node: bytes sent plus bytes received on its EPS host link.
  std::vector<std::uint64_t> node_eps_bytes;
  // Bytes the top switch S0 receives: every EPS hop between hosts under
  // different edge switches goes up through it once.
  std::uint64_t top_switch_bytes = 0;
  std::vector<Circuit> circuits;  // per pathway

  std::uint64_t max_node_eps_bytes() const;
  int pathways_used() const;  // circuits that carried any byte
};

// Throws std::invalid_argument on an optical hop with no pathway between its nodes.
Tally tally(const EpsShape& shape, const std::vector<Pathway>& pathways, const std::vector<Flow>& flows);

}  // namespace kairo::hybrid
