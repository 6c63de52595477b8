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
#include "hw/router/topology.h"
#include "sim/time.h"

namespace kairo::platforms {

struct ConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Router parameters. Config key = member name (under `router:`); the unit is
// in the name or in the value's unit string. Defaults are the K computer's
// Tofu router where known (see docs/parameters.md for the table and sources).
struct RouterParams {
  int vcs = 4;                       // router.vcs: VCs per port
  int vc_buffer_flits = 64;          // router.vc_buffer_flits: buffer per VC
  int flit_bytes = 32;               // router.flit_size: "32B"
  double link_bytes_per_s = 5e9;     // router.link_bandwidth: "5GB/s" per direction
  double host_bytes_per_s = 0;       // router.host_bandwidth: NI<->router channel; 0 = same as link
  double clock_hz = 312.5e6;         // router.clock: "312.5MHz"
  int routing_cycles = 1;            // router.routing_cycles
  int vc_alloc_cycles = 1;           // router.vc_alloc_cycles
  int sw_alloc_cycles = 1;           // router.sw_alloc_cycles
  int switch_traversal_cycles = 1;   // router.switch_traversal_cycles
  std::vector<sim::Time> cable_ps;   // router.cable_latency: "5ns" or {X: 5ns, ...}; one per dim
  sim::Time host_latency_ps = 0;     // router.host_latency: NI<->router channel latency
  int credit_delay_cycles = 1;       // router.credit_delay_cycles: added to the cable on the way back
  int max_packet_flits = 64;         // router.max_packet_flits
  std::vector<int> routing_order;    // router.routing_order: [X, Y, Z, A, C, B]; default = declared order
  router::TieBreak tie_break = router::TieBreak::kPlus;  // router.tie_break: plus | minus
  std::string allocator = "round_robin";  // router.allocator: round_robin | islip | oldest_first
  int network_interfaces = 1;        // router.network_interfaces: injection/ejection port pairs
  std::uint64_t watchdog_cycles = 1000000;  // router.watchdog_cycles: no progress this long = deadlock

  // Derived quantities.
  sim::Time clock_period_ps() const;   // rounded to the nearest ps
  sim::Time flit_ps() const;           // one flit on a network link (exact, rounded to ps)
  sim::Time host_flit_ps() const;      // one flit on the NI channel
  double link_flits_per_cycle() const; // link bandwidth in flits per router cycle
};

struct Platform {
  std::string name;         // "mesh-8x8"
  std::string source;       // file it came from, for messages ("platforms/mesh-8x8.yaml")
  std::string description;
  std::vector<router::DimSpec> dims;
  RouterParams router;
};

// One parameter of the table printed by `kairo --list-params` and docs.
struct ParamInfo {
  std::string key;      // "router.vcs"
  std::string unit;     // "count", "flits", "B", "GB/s", "ns", "MHz", "cycles", "name"
  std::string deflt;    // default as text
  std::string meaning;
};
const std::vector<ParamInfo>& param_table();

// Shipped platforms (embedded in the binary at build time), in listing order.
struct ShippedPlatform {
  std::string name;
  std::string file;     // "platforms/mesh-8x8.yaml"
  std::string yaml;     // file text
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
