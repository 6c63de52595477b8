// `kairo platforms` and `kairo check`.
#include <iostream>

#include <fmt/format.h>

#include "app/cli_common.h"
#include "hw/router/topology.h"
#include "platforms/platform.h"

namespace kairo::app {
namespace {

std::string shape_of(const platforms::Platform& p) {
  std::string s;
  for (const auto& d : p.dims) s += fmt::format("{}{}{}", s.empty() ? "" : "x", d.size, "");
  std::string wraps;
  for (const auto& d : p.dims) wraps += fmt::format("{}{}", d.name, d.wrap ? "(torus) " : "(mesh) ");
  return s + "  " + wraps;
}

int check(const std::string& name, const std::vector<std::string>& sets) {
  try {
    platforms::Platform p = platforms::load_platform(name, sets);
    router::Topology topo(p.dims);
    std::uint64_t links = 0;  // unidirectional router-to-router links
    for (router::NodeId n = 0; n < topo.num_nodes(); ++n)
      for (int port = 0; port < topo.num_link_ports(); ++port) links += topo.neighbor_via_port(n, port).has_value();
    // Bisection: cut the largest dimension in half; links crossing the cut in one direction.
    int cut = 0;
    for (int d = 1; d < topo.num_dims(); ++d)
      if (topo.dim(d).size > topo.dim(cut).size) cut = d;
    const auto& cd = topo.dim(cut);
    std::uint64_t cross = (topo.num_nodes() / std::uint64_t(cd.size)) * (cd.size == 2 ? 1 : (topo.is_ring(cut) ? 2 : 1));
    std::cout << fmt::format("platform {} ({})\n", p.name, p.source);
    std::cout << fmt::format("  shape      {}\n", shape_of(p));
    std::cout << fmt::format("  nodes      {}\n", topo.num_nodes());
    std::cout << fmt::format("  routers    {} ({} link ports + {} network interfaces each)\n", topo.num_nodes(),
                             topo.num_link_ports(), p.router.network_interfaces);
    std::cout << fmt::format("  links      {} unidirectional router-to-router, {} NI channel pairs\n", links,
                             topo.num_nodes() * std::uint64_t(p.router.network_interfaces));
    std::cout << fmt::format("  bisection  {:.1f} GB/s per direction (cut across {}: {} links)\n",
                             double(cross) * p.router.link_bytes_per_s / 1e9, cd.name, cross);
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
        router::Topology topo(p.dims);
        std::cout << fmt::format("{:<16} {:>8} nodes  {}\n", p.name, topo.num_nodes(), shape_of(p));
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
  c->callback([name, sets, &exit_code] { exit_code = check(*name, *sets); });
}

}  // namespace kairo::app
