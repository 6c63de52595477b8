// The partitioner for partitioned runs (docs/parallel.md): which
// process owns each router or switch of a platform, the links the partition
// cuts, and the lookahead a conservative parallel simulation may use.
//
// A process owns routers (mesh/torus) or switches (fat trees, clusters, the
// hybrid network's packet switches), and every host with its router or edge
// switch: its NICs, memory and firmware ranks. Methods:
//  - blocks: the topology's own cut. Mesh/torus: contiguous blocks along the
//    dimensions whose cables are the slowest (Tofu: X, Y, Z; never A, B, C),
//    the factorisation of N over them with the best balance, then the fewest
//    cut links. Fat trees: leaf groups (edge switches with their hosts),
//    spines spread evenly. Clusters: whole clusters with their gateways (the
//    wide-area links are cut).
//  - metis: METIS over the router graph, vertex weights the expected events,
//    edge weights higher for links of a shorter lookahead; fixed seed.
//  - auto: blocks when blocks can make N partitions, else metis.
//
// Works from the Platform description alone: nothing is built.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "platforms/platform.h"
#include "sim/time.h"

namespace kairo::platforms {

enum class PartitionMethod { kAuto, kBlocks, kMetis };

// "auto", "blocks", "metis"; throws std::invalid_argument naming --partition otherwise.
PartitionMethod parse_partition_method(const std::string& s);
const char* partition_method_name(PartitionMethod m);

// One cable between routers (switches) of two processes, both directions.
struct CutLink {
  std::uint32_t a = 0, b = 0;  // router (switch) indices, as build_network numbers them
  int cls = 0;                 // index into Partition::classes
  sim::Time latency_ps = 0;    // the cable's propagation delay
};

// What one process owns.
struct PartitionLoad {
  std::uint64_t routers = 0;  // routers or switches
  std::uint64_t hosts = 0;    // nodes (each with its NICs, memory, ranks)
  std::uint64_t weight = 0;   // expected events: see event_weight below
};

struct Partition {
  PartitionMethod method = PartitionMethod::kBlocks;  // the one used (never kAuto)
  int processes = 1;
  // Per router (mesh/torus: router i is node i's) or switch (SwitchNetlist's
  // order: edges or clusters first): its process.
  std::vector<int> owner;
  std::uint64_t hosts_per_router = 1;  // host n sits on router n / hosts_per_router
  int owner_of_host(std::uint64_t n) const { return owner[std::size_t(n / hosts_per_router)]; }

  // The link classes of the platform: dimension names ("X") on a mesh/torus,
  // "links.up", "links.wan" on switched fabrics.
  std::vector<std::string> classes;
  std::vector<CutLink> cut;
  std::vector<std::uint64_t> cut_per_class;  // cut cables per class
  // Blocks on a mesh/torus: the number of blocks along each dimension (1 =
  // not cut); empty otherwise.
  std::vector<int> blocks;

  // The fixed part of a hop over a cut link, and the lookahead: the minimum
  // over cut links of the cable plus it; sim::kNever when nothing is cut.
  sim::Time hop_fixed_ps = 0;
  sim::Time lookahead_ps = sim::kNever;
  bool optical_lookahead = false;  // the lookahead is the OCS latency (a hybrid's pathways may cross)

  std::vector<PartitionLoad> parts;  // per process
  double imbalance = 1.0;            // the largest weight over the mean
  std::string note;                  // what is not partitioned (the hybrid's OCS)
};

// What one process builds of a partitioned platform (docs/parallel.md): the
// routers (switches) it owns and their hosts, with each host's NICs, memory
// and ranks. The rest is not built; an owned router's cable to one of them
// leads to a placeholder (RemoteRouter, platforms/network.h) until the
// boundary puts its stand-in there. Default: the whole platform. Read while
// building only: what was built is then the netlist's to say.
struct OwnedPart {
  const Partition* part = nullptr;  // null: the whole platform
  int rank = 0;
  bool whole() const { return part == nullptr; }
  bool router(std::size_t i) const { return !part || part->owner[i] == rank; }
  bool host(std::uint64_t n) const { return !part || part->owner_of_host(n) == rank; }
};

// The fixed part of a hop that every message over a cut link adds to the
// cable (docs/parallel.md), from the routers' timing as the simulator
// computes it (router::apply_router_params):
//   min(pipeline + traversal, traversal + credit delay)
// A head that leaves at an allocation at t is acted on downstream (its next
// allocation) no earlier than t + traversal + cable + pipeline; the credits a
// packet frees go back upstream no earlier than t + traversal + credit delay
// + cable. The flit time (at least one per packet) is not counted, so the
// lookahead is a lower bound.
sim::Time hop_fixed_ps(const Platform& p);

// The expected-event weight of one router or switch: its connected
// router-to-router (switch-to-switch) ports plus its hosts' network
// interfaces. Events scale with the packets through a port, and every port
// carries them in and out.

// Partitions p over `processes` processes. Throws std::invalid_argument (N
// below 1, N above what the method can make, naming the maximum) or
// ConfigError (a cut whose lookahead is 0, naming the dimension or class).
Partition partition_platform(const Platform& p, int processes, PartitionMethod method);

// The processes `rank` shares a cut cable with and, on the hybrid network,
// every other process with optical nodes when `rank` has some (a pathway may
// join them): a partitioned run's window messages go to these only
// (sim::WindowOptions::peers). Symmetric, ascending.
std::vector<int> neighbour_processes(const Platform& p, const Partition& part, int rank);

}  // namespace kairo::platforms
