// Lower bounds that collective results are compared against, computed from
// a platform alone (its shape, routing function and packet format; nothing
// is simulated). The all-to-all workload reports them beside its time and
// `kairo platforms` prints them; analysis/ sits above platforms/ in the
// layers of docs/design.md, so collectives stay written against the
// firmware API only.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "platforms/platform.h"

namespace kairo::analysis {

// Yazaki et al. 2015, formula (1): the all-to-all lower bound on a mesh/torus,
//   L = alpha floor(k_b / 2) ceil(k_b / 2) (prod_{i != b} k_i) m / B,
// with k_b the bottleneck dimension (the one that maximizes the bound; alpha
// = 1/2 when it wraps around as a ring, 1 otherwise), m the bytes per pair
// and B a link's payload bandwidth (link bandwidth x MTU / the wire bytes of
// a full packet, as the packets carry headers). In ns; nullopt on switched
// fabrics, where the formula does not apply.
std::optional<double> alltoall_lower_bound_ns(const platforms::Platform& p, std::uint64_t m);

// The three bounds an all-to-all among every node of a platform (one rank
// per node, m bytes per pair) cannot beat, in ns, and which one binds:
//   network    formula (1) above: what any routing could reach;
//   routing    the busiest link under the platform's own routing function
//              (dimension order with its tie_break), in the wire bytes of one
//              put of m bytes per pair; above `network` where the routing
//              loads links unevenly (half-way traffic all one way round a
//              ring, or a balanced split that is uneven on a ring whose size
//              is not a multiple of 4);
//   injection  what the nodes' RDMA engines can move: (p - 1) m bytes out
//              and in through router.network_interfaces TNIs, each at the
//              lower of nic.dma_bandwidth and the payload rate of its port to
//              the router, and 2 (p - 1) m bytes through node memory when
//              nic.memory_bandwidth is set.
// `routing` is 0 on switched fabrics (their routing is not a mesh/torus
// function); `network` too. `binding` names the largest; `note` says, when
// the NICs cannot reach the network bound, by how much and why.
struct AlltoallBounds {
  double network_ns = 0, routing_ns = 0, injection_ns = 0;
  std::string binding;  // "network" | "routing" | "injection"
  std::string note;     // empty unless the injection bound exceeds the network bound
  double largest_ns() const;
};
AlltoallBounds alltoall_bounds(const platforms::Platform& p, std::uint64_t m);

// A bound for people: 4 significant digits in ns, us, ms or s ("312.9 ms").
std::string format_bound(double ns);

// The busiest link's load of an all-to-all among every node of a mesh/torus
// under dimension-order routing, in pairs (src, dst) whose path crosses it:
// per dimension d, the busiest link of one line of d (walked hop by hop with
// the routing function, ties at half weight each way under
// tie_break=random) times the lines' share, nodes / k_d (dimension order
// makes the load of a d-link independent of the other coordinates). 0 on
// switched fabrics.
double alltoall_busiest_link_pairs(const platforms::Platform& p);

}  // namespace kairo::analysis
