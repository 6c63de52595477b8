// `kairo platforms` and `kairo check`.
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <optional>

#include "analysis/bounds.h"
#include "app/cli_common.h"
#include "app/cmd_partition.h"
#include "hw/common/topology.h"
#include "hw/ocs/clos_fabric.h"
#include "platforms/energy.h"
#include "platforms/platform.h"
#include "platforms/resolved.h"
#include "platforms/switch_netlist.h"
#include "sim/host_memory.h"
#include "sim/units.h"

namespace kairo::app {
namespace {

std::string shape_of(const platforms::Platform& p) {
  const platforms::SwitchedFabric& f = p.fabric;
  if (p.kind == platforms::FabricKind::kFatTree && f.levels > 0)
    return fmt::format("fat tree: {}-ary {}-tree of radix {}: {} edge switches x {} hosts, {} switches above",
                       f.k(), f.levels, f.radix, f.edges, f.hosts_per_edge, f.spines);
  if (p.kind == platforms::FabricKind::kFatTree)
    return fmt::format(
        "fat tree: {} edge switches x {} hosts, {} uplinks each, {} spines{}", f.edges, f.hosts_per_edge,
        f.uplinks_per_edge, f.spines,
        p.ocs.present ? fmt::format(" + OCS ({} optical NICs)", p.ocs.optical_nodes.size()) : "");
  if (p.kind == platforms::FabricKind::kClusters)
    return fmt::format("{} clusters x {} hosts, joined by wide-area links", f.edges, f.hosts_per_edge);
  if (p.kind == platforms::FabricKind::kDragonfly) {
    const router::RoutingKind& routing = router::routing_kind(p.router.routing);
    return fmt::format("dragonfly: {} groups x {} routers x {} hosts (p={}, a={}, h={}), routing {}",
                       f.groups, f.group_routers, f.hosts_per_edge, f.hosts_per_edge, f.group_routers,
                       f.global_ports, *routing.same_as ? routing.same_as : routing.name);
  }
  std::string s;
  for (const auto& d : p.dims) s += fmt::format("{}{}{}", s.empty() ? "" : "x", d.size, "");
  std::string wraps;
  for (const auto& d : p.dims) wraps += fmt::format("{}{}", d.name, d.wrap ? "(torus) " : "(mesh) ");
  return s + "  " + wraps;
}

// One router's (or switch's) area, static power and energy per flit-hop
// from the energy model (hw/common/energy.h) at the platform's technology.
void print_router_cost(const platforms::Platform& p, int ports, const char* what) {
  const hw::RouterCost c = hw::router_cost(p.energy, platforms::router_shape(p, ports));
  const double link_pj = hw::link_cost(p.energy, p.router.flit_bytes * 8).flit_pj;
  std::cout << fmt::format(
      "  area       {:.4f} mm^2 per {} of {} ports (buffers {:.4f}, crossbar {:.4f}, switch allocator "
      "{:.4f}, "
      "VC allocator {:.4f}); leakage {:.1f} mW\n",
      c.area_um2() * 1e-6, what, ports, c.buffer_um2 * 1e-6, c.crossbar_um2 * 1e-6, c.allocator_um2 * 1e-6,
      c.vc_allocator_um2 * 1e-6, c.leak_w() * 1e3);
  std::cout << fmt::format(
      "  energy     {:.2f} pJ per flit-hop (buffer write {:.2f}, read {:.2f}, crossbar {:.2f}, link {:.2f}), "
      "per packet-hop {:.2f} pJ of switch and {:.2f} of VC allocation, {:.2f} pJ per clock cycle; {} nm, {} "
      "V "
      "(energy.*)\n",
      c.write_pj + c.read_pj + c.crossbar_pj + link_pj, c.write_pj, c.read_pj, c.crossbar_pj, link_pj,
      c.arbitration_pj, c.vc_allocation_pj, c.clock_pj, p.energy.node_nm, p.energy.vdd);
}

// A switched fabric's shape from its netlist: switches, cables by class and
// the bisection (half the edge switches, or clusters, against the rest).
void check_switched(const platforms::Platform& p, bool ports) {
  sim::EventQueue queue(p.router.clock_period_ps());
  platforms::SwitchNetlist net(p, queue);
  const platforms::SwitchedFabric& f = p.fabric;
  const auto links = net.links();
  const bool tree = p.kind == platforms::FabricKind::kFatTree;
  const std::uint64_t half = std::uint64_t(f.edges / 2), other = std::uint64_t(f.edges) - half;
  double bisection = 0;
  std::string cut;
  if (f.edges == 1) {
    bisection = double(f.hosts_per_edge / 2) * p.router.network_interfaces * f.host.bytes_per_s;
    cut = "half the hosts of the only switch";
  } else if (p.kind == platforms::FabricKind::kDragonfly) {
    // One global link joins every two groups; one group: its local links.
    const std::uint64_t g = std::uint64_t(f.groups), a = std::uint64_t(f.group_routers);
    const double hosts_side =
        double(half) * f.hosts_per_edge * p.router.network_interfaces * f.host.bytes_per_s;
    if (g > 1) {
      const std::uint64_t gh = g / 2;
      bisection = std::min(double(gh * (g - gh)) * f.global.bytes_per_s, hosts_side);
      cut = fmt::format("{} of {} groups against the rest, over one global link per pair of groups", gh, g);
    } else {
      bisection = std::min(double((a / 2) * (a - a / 2)) * f.local.bytes_per_s, hosts_side);
      cut = fmt::format("{} of {} routers against the rest, over the local links", a / 2, a);
    }
  } else if (tree) {
    bisection = std::min(
        double(half * std::uint64_t(f.hosts_per_edge * p.router.network_interfaces)) * f.host.bytes_per_s,
        double(half * std::uint64_t(f.uplinks_per_edge)) * f.up.bytes_per_s);
    cut = fmt::format("{} of {} edge switches against the rest, through their uplinks", half, f.edges);
  } else {
    bisection = std::min({double(half * other) * f.wan.bytes_per_s, double(half) * f.up.bytes_per_s,
                          double(half * std::uint64_t(f.hosts_per_edge)) * f.host.bytes_per_s});
    cut = fmt::format("{} of {} clusters against the rest, over the wide-area links", half, f.edges);
  }
  std::cout << fmt::format("platform {} ({})\n", p.name, p.source);
  std::cout << fmt::format("  shape      {}\n", shape_of(p));
  std::cout << fmt::format("  nodes      {}\n", net.num_nodes());
  if (p.kind == platforms::FabricKind::kDragonfly) {
    std::cout << fmt::format(
        "  switches   {} routers in {} groups, {}, {}\n", net.num_switches(), f.groups,
        p.router.store_and_forward ? "store-and-forward" : "cut-through",
        p.router.switching_delay_ps > 0
            ? fmt::format("{}ns switching", double(p.router.switching_delay_ps) / 1000.0)
            : fmt::format("{}-cycle pipeline",
                          p.router.routing_cycles + p.router.vc_alloc_cycles + p.router.sw_alloc_cycles));
    std::cout << fmt::format("  links      {} host ({}), {} local ({}, {}), {} global ({}, {})\n", links.host,
                             units::format_bandwidth(f.host.bytes_per_s), links.local,
                             units::format_bandwidth(f.local.bytes_per_s),
                             units::format_duration(f.local.latency_ps), links.global,
                             units::format_bandwidth(f.global.bytes_per_s),
                             units::format_duration(f.global.latency_ps));
  } else {
    std::cout << fmt::format("  switches   {} ({} {}, {} {}), {}, {}ns switching\n", net.num_switches(),
                             f.edges, tree ? "edge" : "cluster", net.num_switches() - std::size_t(f.edges),
                             tree ? "spine" : "gateway",
                             p.router.store_and_forward ? "store-and-forward" : "cut-through",
                             double(p.router.switching_delay_ps) / 1000.0);
    std::cout << fmt::format("  links      {} host ({}), {} up ({}), {} wide-area ({})\n", links.host,
                             units::format_bandwidth(f.host.bytes_per_s), links.up,
                             units::format_bandwidth(f.up.bytes_per_s), links.wan,
                             units::format_bandwidth(f.wan.bytes_per_s));
  }
  if (net.wan_loss())
    std::cout << fmt::format(
        "  wide-area  TCP-like streams (links.wan.flow_control loss): {} drop-tail queue, rto {}, initial "
        "window {} segments\n",
        units::format_bytes(p.fabric.wan_flow.queue_bytes), units::format_duration(p.fabric.wan_flow.rto_ps),
        p.fabric.wan_flow.initial_window);
  std::cout << fmt::format("  bisection  {:.3f} GB/s per direction ({})\n", bisection / 1e9, cut);
  if (p.ocs.present) {
    const platforms::OcsParams& o = p.ocs;
    const ocs::ClosFabric clos(
        {o.switch_ports, o.banks, o.middle_banks},
        o.rearrange ? ocs::ClosMode::kRearrangeable : ocs::ClosMode::kNonRearrangeable);
    std::cout << fmt::format("  ocs        {} optical NICs at {}, {} per pathway, {} reconfiguration\n",
                             o.optical_nodes.size(), units::format_bandwidth(o.bytes_per_s),
                             units::format_duration(o.latency_ps),
                             units::format_duration(o.reconfiguration_ps));
    std::cout << fmt::format("  clos       {}\n", clos.describe());
    std::cout << fmt::format(
        "  routing    messages over {} to another edge switch may take the OCS; "
        "{} pathways; a closed circuit: {}\n",
        units::format_bytes(o.threshold_bytes), o.pathways, o.hold ? "hold" : "error");
  }
  {
    const platforms::SwitchedFabric& f = p.fabric;
    const int radix = p.kind == platforms::FabricKind::kDragonfly
                          ? f.hosts_per_edge + f.group_routers - 1 + f.global_ports
                      : f.levels > 0 ? f.radix
                                     : f.hosts_per_edge + f.uplinks_per_edge;
    print_router_cost(p, radix, p.kind == platforms::FabricKind::kDragonfly ? "router" : "edge switch");
  }
  if (ports)
    for (const auto& line : net.describe_ports()) std::cout << "  " << line << "\n";
  net.keep_until_exit();
}

// What bounds an all-to-all of `m` bytes per pair among every node
// (analysis/bounds.h), and which of them binds.
void print_alltoall_bounds(const platforms::Platform& p, std::uint64_t m) {
  const analysis::AlltoallBounds b = analysis::alltoall_bounds(p, m);
  std::string line = fmt::format("  all-to-all {} per pair: ", units::format_bytes(m));
  if (b.network_ns > 0)
    line += fmt::format("network {} (formula (1)), routing {}, ", analysis::format_bound(b.network_ns),
                        analysis::format_bound(b.routing_ns));
  std::cout << line
            << fmt::format("injection {}; {} binds\n", analysis::format_bound(b.injection_ns), b.binding);
  if (!b.note.empty()) std::cout << "             " << b.note << "\n";
}

// --resolved: every parameter with its value, unit and source
// (platforms/resolved.h), in the order of `kairo --list-params`.
void print_resolved(const platforms::Platform& p) {
  std::cout << fmt::format("platform {} ({}): resolved configuration\n", p.name, p.source);
  std::cout << fmt::format("  {:<32} {:<16} {:<7} {}\n", "key", "value", "unit", "source");
  for (const auto& [key, e] : platforms::resolved_entries(p)) {
    const nlohmann::json& v = e["value"];
    std::string source = e["source"].get<std::string>();
    if (source == "adjusted")
      source += fmt::format(" from {}: {}", e["requested"].dump(), e["reason"].get<std::string>());
    std::cout << fmt::format("  {:<32} {:<16} {:<7} {}\n", key,
                             v.is_string() ? v.get<std::string>() : v.dump(), platforms::resolved_unit(key),
                             source);
  }
}

// With --processes (`partitioned`): the partition for a partitioned run too.
int check(const std::string& name, const std::vector<std::string>& sets, bool ports, bool partitioned,
          long long processes, const std::string& partition, const std::string& alltoall_size,
          bool resolved) {
  try {
    platforms::Platform p = platforms::load_platform(name, sets);
    say_adjustments(p);
    if (resolved) {
      print_resolved(p);
      return kExitOk;
    }
    // Refused before anything is built when this host could not run it.
    const double need = platforms::estimated_host_bytes(p, true);
    sim::check_host_memory(fmt::format("platform {} ({} nodes) with its NICs", p.name, p.nodes()), need);
    if (!partitioned && !partition.empty())
      throw std::invalid_argument(
          "--partition: needs --processes N, the number of processes to partition for");
    std::uint64_t alltoall_bytes = 4096;
    if (!alltoall_size.empty()) try {
        alltoall_bytes = units::parse_bytes(alltoall_size);
      } catch (const std::exception& e) {
        throw std::invalid_argument(fmt::format("--alltoall-size: {}", e.what()));
      }
    if (alltoall_bytes == 0)
      throw std::invalid_argument("--alltoall-size: expected a size above 0, like 4KiB");
    const std::string method = partition.empty() ? "auto" : partition;
    // Made before anything is printed: a bad count prints only the error.
    std::optional<platforms::Partition> part;
    if (partitioned) part = make_partition(p, processes, method);
    if (p.kind != platforms::FabricKind::kTorus) {
      check_switched(p, ports);
      std::cout << fmt::format(
          "  memory     about {:.0f} MiB of host memory with its NICs and ranks (kairo run, size-only)\n",
          need / double(1 << 20));
      print_alltoall_bounds(p, alltoall_bytes);
      if (part) print_partition(p, *part, method);
      return kExitOk;
    }
    hw::Topology topo(p.dims);
    // Unidirectional router-to-router links: a line of each dimension, counted
    // on its own and multiplied by the lines (one pass per dimension, not per node).
    std::uint64_t links = 0;
    for (int d = 0; d < topo.num_dims(); ++d) {
      hw::Topology line({p.dims[std::size_t(d)]});
      std::uint64_t per_line = 0;
      for (hw::NodeId n = 0; n < line.num_nodes(); ++n)
        for (int port = 0; port < line.num_link_ports(); ++port)
          per_line += line.neighbor_via_port(n, port).has_value();
      links += per_line * (topo.num_nodes() / std::uint64_t(p.dims[std::size_t(d)].size));
    }
    // Bisection: cut the largest dimension in half; links crossing the cut in one direction.
    int cut = 0;
    for (int d = 1; d < topo.num_dims(); ++d)
      if (topo.dim(d).size > topo.dim(cut).size) cut = d;
    const auto& cd = topo.dim(cut);
    std::uint64_t cross =
        (topo.num_nodes() / std::uint64_t(cd.size)) * (cd.size == 2 ? 1 : (topo.is_ring(cut) ? 2 : 1));
    std::cout << fmt::format("platform {} ({})\n", p.name, p.source);
    std::cout << fmt::format("  shape      {}\n", shape_of(p));
    std::cout << fmt::format("  nodes      {}\n", topo.num_nodes());
    std::cout << fmt::format("  routers    {} ({} link ports + {} network interfaces each)\n",
                             topo.num_nodes(), topo.num_link_ports(), p.router.network_interfaces);
    std::cout << fmt::format("  links      {} unidirectional router-to-router, {} NI channel pairs\n", links,
                             topo.num_nodes() * std::uint64_t(p.router.network_interfaces));
    std::cout << fmt::format("  bisection  {:.1f} GB/s per direction (cut across {}: {} links)\n",
                             double(cross) * p.router.link_bytes_per_s / 1e9, cd.name, cross);
    std::cout << fmt::format(
        "  memory     about {:.0f} MiB of host memory with its NICs and ranks (kairo run, size-only)\n",
        need / double(1 << 20));
    print_router_cost(p, topo.num_link_ports() + p.router.network_interfaces, "router");
    print_alltoall_bounds(p, alltoall_bytes);
    if (part) print_partition(p, *part, method);
    return kExitOk;
  } catch (const platforms::ConfigError& e) {
    return bad_input(e.what());
  } catch (const std::invalid_argument& e) {
    return bad_input(e.what());
  }
}

}  // namespace

void add_platform_commands(CLI::App& app, int& exit_code) {
  CLI::App* l = app.add_subcommand("platforms", "list shipped platforms with node counts");
  l->callback([&exit_code] {
    for (const auto& s : platforms::shipped_platforms()) {
      try {
        platforms::Platform p = platforms::load_platform(s.name);
        std::cout << fmt::format("{:<16} {:>8} nodes  {}\n", p.name, p.nodes(), shape_of(p));
      } catch (const std::exception& e) {
        std::cout << fmt::format("{:<16} invalid: {}\n", s.name, e.what());
        exit_code = kExitSimFailure;
      }
    }
  });
  auto name = std::make_shared<std::string>();
  auto sets = std::make_shared<std::vector<std::string>>();
  CLI::App* c = app.add_subcommand("check", "validate a platform and print its shape");
  c->add_option("platform", *name, "shipped platform name or YAML file")->required();
  c->add_option("--set", *sets, "override a platform parameter, key=value (repeatable)");
  auto ports = std::make_shared<bool>(false);
  c->add_flag("--ports", *ports,
              "switched fabrics: list every switch's ports with their bandwidth and latency");
  auto processes = std::make_shared<long long>(0);
  auto partition = std::make_shared<std::string>();
  CLI::Option* given = c->add_option(
      "--processes", *processes, "partitioned runs: print the partition over N processes (docs/parallel.md)");
  c->add_option("--partition", *partition, "with --processes: auto (default), blocks or metis");
  auto alltoall_size = std::make_shared<std::string>();
  c->add_option("--alltoall-size", *alltoall_size,
                "bytes per pair of the all-to-all whose bounds are printed (default 4KiB)");
  auto resolved = std::make_shared<bool>(false);
  c->add_flag(
      "--resolved", *resolved,
      "print every parameter's value, unit and source (default, file, set or adjusted) instead of the "
      "shape (docs/parameters.md)");
  c->callback([name, sets, ports, given, processes, partition, alltoall_size, resolved, &exit_code] {
    exit_code =
        check(*name, *sets, *ports, given->count() > 0, *processes, *partition, *alltoall_size, *resolved);
  });
}

}  // namespace kairo::app
