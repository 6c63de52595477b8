// A platform: the whole machine described by one YAML file, and the loader
// that validates it. This format covers the mesh/torus shape and the
// router; later issues extend it (NICs, fat trees, optical switches).
//
// The loader never half-builds: every problem is a ConfigError whose message
// names the file (and line, where yaml-cpp gives one), the key, and what was
// expected. The CLI turns it into exit code 2.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "hw/router/routing.h"
#include "hw/common/topology.h"
#include "sim/time.h"

namespace kairo::platforms {

struct ConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Router parameters. Config key = member name (under `router:`); the unit is
// in the name or in the value's unit string. Defaults are the K computer's
// Tofu router where known (see docs/parameters.md for the table and sources).
struct RouterParams {
  int vcs = 4;                      // router.vcs: VCs per port
  int vc_buffer_flits = 64;         // router.vc_buffer_flits: buffer per VC
  int flit_bytes = 32;              // router.flit_size: "32B"
  double link_bytes_per_s = 5e9;    // router.link_bandwidth: "5GB/s" per direction
  double host_bytes_per_s = 0;      // router.host_bandwidth: NI<->router channel; 0 = same as link
  double clock_hz = 312.5e6;        // router.clock: "312.5MHz"
  int routing_cycles = 1;           // router.routing_cycles
  int vc_alloc_cycles = 1;          // router.vc_alloc_cycles
  int sw_alloc_cycles = 1;          // router.sw_alloc_cycles
  int switch_traversal_cycles = 1;  // router.switch_traversal_cycles
  std::vector<sim::Time> cable_ps;  // router.cable_latency: "5ns" or {X: 5ns, ...}; one per dim
  sim::Time host_latency_ps = 0;    // router.host_latency: NI<->router channel latency
  int credit_delay_cycles = 1;      // router.credit_delay_cycles: added to the cable on the way back
  int max_packet_flits = 64;        // router.max_packet_flits
  std::vector<int> routing_order;   // router.routing_order: [X, Y, Z, A, C, B]; default = declared order
  router::TieBreak tie_break = router::TieBreak::kPlus;  // router.tie_break: plus | minus
  std::string allocator = "round_robin";    // router.allocator: round_robin | islip | oldest_first
  int network_interfaces = 1;               // router.network_interfaces: injection/ejection port pairs
  std::uint64_t watchdog_cycles = 1000000;  // router.watchdog_cycles: no progress this long = deadlock
  // Switched fabrics (fat trees, clusters): the time a packet spends in a
  // switch, replacing the cycle counts above when > 0, and whether a switch
  // waits for the whole packet before forwarding it.
  sim::Time switching_delay_ps = 0;  // router.switching_delay: "128ns"
  bool store_and_forward = false;    // router.forwarding: cut_through | store_and_forward

  // Derived quantities.
  sim::Time clock_period_ps() const;    // rounded to the nearest ps
  sim::Time flit_ps() const;            // one flit on a network link (exact, rounded to ps)
  sim::Time host_flit_ps() const;       // one flit on the NI channel
  double link_flits_per_cycle() const;  // link bandwidth in flits per router cycle
};

// NIC parameters: the RDMA engines (TNIs) of a node, its memory and its
// registration table. Config key under `nic:` in the comments; every key is
// optional. The number of TNIs per node is router.network_interfaces (one
// engine per injection/ejection port pair), not a nic key.
struct NicParams {
  sim::Time node_latency_ps = 700000;             // nic.node_latency: "700ns" (seed 004: 0.6-0.8 us)
  double dma_bytes_per_s = 2.8e9;                 // nic.dma_bandwidth: "2.8GB/s"
  std::uint32_t mtu_bytes = 1920;                 // nic.mtu: "1920B" payload per packet
  std::uint32_t header_bytes = 32;                // nic.header_size: "32B" per packet
  std::uint64_t max_descriptor_bytes = 16777215;  // nic.max_descriptor_size: 16 MiB - 1
  std::uint32_t command_queue_depth = 64;         // nic.command_queue_depth
  std::uint32_t completion_queue_depth = 256;     // nic.completion_queue_depth
  std::uint32_t notice_queue_depth = 256;         // nic.notice_queue_depth
  std::uint32_t registrations = 4096;             // nic.registrations: registration table entries per node
  std::uint64_t memory_bytes = 32ULL << 30;       // nic.memory_size: "32GiB" per node
  sim::Time memory_latency_ps = 0;                // nic.memory_latency
  double memory_bytes_per_s = 0;                  // nic.memory_bandwidth; 0 (key absent) = not limited

  // Flits of the largest packet (header + MTU) on a router of `flit_bytes`.
  std::uint64_t max_packet_flits(int flit_bytes) const {
    return (std::uint64_t(mtu_bytes) + header_bytes + std::uint64_t(flit_bytes) - 1) /
           std::uint64_t(flit_bytes);
  }
};

// What kind of machine the topology describes.
enum class FabricKind { kTorus, kFatTree, kClusters };

// One class of switched-fabric links (links.host, links.up, links.wan).
struct LinkClass {
  double bytes_per_s = 0;    // links.<class>.bandwidth, per direction
  sim::Time latency_ps = 0;  // links.<class>.latency: propagation delay
  std::uint64_t buffer_bytes =
      0;  // links.<class>.buffer: receiver's buffer per VC; 0 = router.vc_buffer_flits
};

// A fat tree, given either as two levels (edge switches with hosts, spine
// switches above, any number of parallel links) or as a k-ary n-tree (n
// levels of k^(n-1) switches of radix 2k, Petrini and Vanneschi's wiring),
// or clusters (one switch each) joined by wide-area links through gateways.
struct SwitchedFabric {
  int edges = 0;             // topology.fat_tree.edges; clusters: topology.clusters.count; k-ary: k^(n-1)
  int hosts_per_edge = 0;    // topology.fat_tree.hosts_per_edge; clusters: topology.clusters.hosts
  int uplinks_per_edge = 0;  // topology.fat_tree.uplinks_per_edge (a multiple of spines); k-ary: k
  int spines = 0;            // topology.fat_tree.spines; k-ary: the switches above the edges
  int levels = 0;            // topology.fat_tree.levels: n of a k-ary n-tree; 0 = the two-level form
  int radix = 0;             // topology.fat_tree.radix: 2k, the switches' ports (k down, k up)
  int k() const { return radix / 2; }
  LinkClass host, up, wan;
  // links.ports: one cable given its own values, named by a switch and one
  // of its ports as `kairo check --ports` lists them (edge0 up3, l1s2 down0,
  // cluster1 h40); keys it leaves out keep the cable's class values.
  struct PortOverride {
    std::string sw, port;
    LinkClass values;
    bool bandwidth = false, latency = false, buffer = false;  // which keys it sets
    std::string where;                                        // "file:line: links.ports[i]" for messages
  };
  std::vector<PortOverride> ports;
};

// The optical circuit-switched network beside a fat tree (seed 002's hybrid
// EPS+OCS machine), under `ocs:`. Every node with an optical NIC gets a
// second network interface (TNI 1) whose channel goes through the OCS.
struct OcsParams {
  bool present = false;                         // the file has an `ocs:` section
  double bytes_per_s = 4e9;                     // ocs.bandwidth: "32Gbps" per optical link
  sim::Time latency_ps = 80000;                 // ocs.latency: "80ns" propagation of a pathway
  sim::Time reconfiguration_ps = 10000000000;   // ocs.reconfiguration: "10ms" MEMS set-up or tear-down
  int switch_ports = 0;                         // ocs.switch_ports: N of each N x N bank; 0 = the optical NICs
  int banks = 1;                                // ocs.banks: m ingress (= egress) banks
  int middle_banks = 0;                         // ocs.middle_banks: 0 = banks (rearrangeably non-blocking)
  bool rearrange = true;                        // ocs.mode: rearrangeable | non_rearrangeable
  std::vector<std::uint32_t> optical_nodes;     // ocs.optical_nics: all | "0-7,32-39" | [0, 1, ...]
  int pathways = 0;                             // ocs.pathways: OCS pathways to assign (SP/CP)
  bool hold = true;                             // ocs.on_circuit_down: hold | error
  std::uint64_t buffer_bytes = 65536;           // ocs.buffer: receive buffer of an optical NIC
  std::uint64_t threshold_bytes = 8192;         // ocs.threshold: messages above it may take the OCS
  // The optical port of node n, or -1 when it has no optical NIC.
  int port_of(std::uint32_t n) const;
};

struct Platform {
  std::string name;    // "mesh-8x8"
  std::string source;  // file it came from, for messages ("platforms/mesh-8x8.yaml")
  std::string description;
  FabricKind kind = FabricKind::kTorus;
  std::vector<router::DimSpec> dims;  // mesh/torus
  SwitchedFabric fabric;              // fat tree, clusters
  RouterParams router;                // the routers, or every switch of a switched fabric
  NicParams nic;                      // defaults when the file has no `nic:` section
  OcsParams ocs;                      // fat tree + OCS (hybrid); absent on other platforms
  bool has_nic = false;               // the file (or a --set nic.*) has a `nic:` section
  // ranks.map: the node each rank runs on; empty = rank r on node r, on every node.
  std::vector<router::NodeId> rank_nodes;

  std::uint64_t nodes() const;  // hosts: the product of the dims, or edges x hosts_per_edge
  std::uint64_t ranks() const { return rank_nodes.empty() ? nodes() : rank_nodes.size(); }
  router::NodeId node_of_rank(std::uint64_t r) const {
    return rank_nodes.empty() ? router::NodeId(r) : rank_nodes[std::size_t(r)];
  }
};

// Throws ConfigError (naming nic.mtu and router.max_packet_flits and the fix)
// if the NIC's largest packet does not fit the router's largest packet. The
// loader checks this only for platforms with a `nic:` section, so that
// router-only platforms with small packets (the BookSim-comparable ones) need
// no NIC settings; whatever builds NICs on a platform calls it first.
void check_nic_fits_router(const Platform& p);

// About how much host memory the platform takes once built: its network
// alone (`kairo traffic`), or with `machine` its NICs, node memories and ranks
// too (`kairo run`, size-only; data mode adds the workload's buffers). An
// estimate from measured footprints, for refusing (sim::check_host_memory)
// a platform this host cannot hold before anything is built.
double estimated_host_bytes(const Platform& p, bool machine);

// One parameter of the table printed by `kairo --list-params` and docs.
struct ParamInfo {
  std::string key;    // "router.vcs"
  std::string unit;   // "count", "flits", "B", "GB/s", "ns", "MHz", "cycles", "name"
  std::string deflt;  // default as text
  std::string meaning;
};
const std::vector<ParamInfo>& param_table();

// Shipped platforms (embedded in the binary at build time), in listing order.
struct ShippedPlatform {
  std::string name;
  std::string file;  // "platforms/mesh-8x8.yaml"
  std::string yaml;  // file text
};
const std::vector<ShippedPlatform>& shipped_platforms();

// Load a shipped platform by name, or a YAML file by path, then apply
// `--set key=value` overrides (key paths like "router.vcs",
// "router.cable_latency.X", "topology.dims.X.size"), then validate.
// Throws ConfigError.
Platform load_platform(const std::string& name_or_path, const std::vector<std::string>& sets = {});
// Same, from YAML text; `source` is used in messages.
Platform parse_platform(const std::string& yaml_text, const std::string& source,
                        const std::vector<std::string>& sets = {});

}  // namespace kairo::platforms
