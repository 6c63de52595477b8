// A platform: the whole machine described by one YAML file (a mesh/torus or
// a switched fabric, its routers, NICs and optional OCS), and the loader that
// validates it (the reader is in platforms/yaml/).
//
// The loader never half-builds: every problem is a ConfigError whose message
// names the file (and line, where yaml-cpp gives one), the key, and what was
// expected. The CLI turns it into exit code 2.
#pragma once
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "hw/common/energy.h"
#include "hw/common/topology.h"
#include "hw/nic/nic_params.h"
#include "hw/ocs/ocs_params.h"
#include "hw/router/router_params.h"
#include "hw/router/routing.h"
#include "platforms/link_params.h"
#include "sim/params.h"
#include "sim/time.h"

namespace kairo::platforms {

struct ConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The blocks' parameters live beside their models, each with its declared
// keys: router: (hw/router/router_params.h), nic: (hw/nic/nic_params.h),
// ocs: (hw/ocs/ocs_params.h); the platform's own keys are declared in
// platforms/topology_params.h, link_params.h and rank_params.h.
using nic::NicParams;
using ocs::OcsParams;
using router::RouterParams;

// What kind of machine the topology describes.
enum class FabricKind { kTorus, kFatTree, kClusters, kDragonfly };

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
  // Dragonfly (topology.dragonfly {p, a, h, groups}): its routers are the
  // edges (a x groups of them, group by group), each with p hosts.
  int group_routers = 0;  // a
  int global_ports = 0;   // h
  int groups = 0;         // g, 1 .. a*h + 1
  LinkClass host, up, wan;
  LinkClass local, global;  // dragonfly: router <-> router in a group, group <-> group
  WanFlow wan_flow;         // links.wan.flow_control and the loss model's values
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

// Where a parameter's value came from: the block's default, the platform
// file, a --set (or a scenario's `set:`), or kairo itself, which changed a
// configured value to make the platform work (an Adjustment says why).
enum class ParamSource : std::uint8_t { kDefault, kFile, kSet, kAdjusted };

// A value the loader changed: the key ("nic.mtu"), the value it had before
// (in the unit of the key's declaration) and why. The new value is in the
// Platform.
struct Adjustment {
  std::string key;
  sim::ParamValue requested;
  std::string reason;
};

struct Platform {
  std::string name;    // "mesh-8x8"
  std::string source;  // file it came from, for messages ("platforms/mesh-8x8.yaml")
  std::string description;
  FabricKind kind = FabricKind::kTorus;
  std::vector<hw::DimSpec> dims;  // mesh/torus
  SwitchedFabric fabric;          // fat tree, clusters, dragonfly
  RouterParams router;            // the routers, or every switch of a switched fabric
  NicParams nic;                  // defaults when the file has no `nic:` section
  OcsParams ocs;                  // fat tree + OCS (hybrid); absent on other platforms
  hw::EnergyParams energy;        // the technology and cost coefficients (energy:)
  bool has_nic = false;           // the file (or a --set nic.*) has a `nic:` section
  // ranks.map: the node each rank runs on; empty = rank r on node r, on every node.
  std::vector<hw::NodeId> rank_nodes;
  bool ranks_random = false;     // ranks.map: random (rank_nodes is its permutation)
  std::uint64_t ranks_seed = 1;  // ranks.seed
  // Provenance, for the resolved configuration (platforms/resolved.h): the
  // source of every key path the file or a --set gave (absent: the default),
  // and what the loader adjusted.
  std::map<std::string, ParamSource> sources;
  std::vector<Adjustment> adjustments;

  std::uint64_t nodes() const;  // hosts: the product of the dims, or edges x hosts_per_edge
  std::uint64_t ranks() const { return rank_nodes.empty() ? nodes() : rank_nodes.size(); }
  hw::NodeId node_of_rank(std::uint64_t r) const {
    return rank_nodes.empty() ? hw::NodeId(r) : rank_nodes[std::size_t(r)];
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

// Every parameter of a platform file, in table order: the platform's own
// keys (name, topology, links, ranks) and the blocks' (router, ocs, nic),
// each declared once (platforms/param_table.cpp puts them in order). `kairo --list-params`,
// docs/parameters.md (through `kairo --list-params --markdown`), the reader's key lists and --set use it.
using ParamInfo = sim::ParamDecl;
const std::vector<ParamInfo>& param_table();
// Every declared key: the table's rows and, beside them, the keys a row's
// line covers (the counts inside topology.fat_tree and topology.clusters).
// The readers, the resolved configuration and --set walk it.
const std::vector<const ParamInfo*>& declared_keys();
// The table as `kairo --list-params` prints it (key, unit, default, meaning),
// or as the Markdown table of docs/parameters.md.
std::string param_table_text();
std::string param_table_markdown();

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
