// The `nic:` section: the declared keys (hw/nic/nic_params.cpp), read
// generically, then the checks that the NIC fits the router and that its
// times cannot overflow.
#include <algorithm>

#include "platforms/yaml/reader.h"

namespace kairo::platforms {
namespace yaml {

// Why the NIC's largest packet does not fit the router's, or nothing.
std::optional<std::string> nic_fit_problem(const RouterParams& r, const NicParams& n) {
  const std::uint64_t flits = n.max_packet_flits(r.flit_bytes);
  if (flits <= std::uint64_t(r.max_packet_flits)) return std::nullopt;
  const std::uint64_t room = std::uint64_t(r.max_packet_flits) * std::uint64_t(r.flit_bytes);
  const std::string fits = fmt::format(
      "a packet (nic.header_size + nic.mtu) fits router.max_packet_flits ({} flits "
      "of {}B)",
      r.max_packet_flits, r.flit_bytes);
  const std::string got =
      fmt::format("{}B ({}B header + {}B = {} flits)", n.mtu_bytes, n.header_bytes, n.mtu_bytes, flits);
  if (room > n.header_bytes)
    return fmt::format(
        "expected at most {0}B so that {1}, got {2}: lower nic.mtu to at most {0}B or raise "
        "router.max_packet_flits to at least {3}",
        room - n.header_bytes, fits, got, flits);
  return fmt::format(
      "expected a size such that {}, got {}: the header alone fills the packet; raise "
      "router.max_packet_flits to at least {} or lower nic.header_size",
      fits, got, flits);
}

void Reader::read_nic(const YAML::Node& n, NicParams& p) {
  if (n.IsMap()) check_keys(n, "nic", section_keys("nic"));
  read_declared(n, nic::nic_param_decls(), p);
}

void Reader::check_nic(const RouterParams& r, const NicParams& p) {
  if (auto problem = nic_fit_problem(r, p))
    fail_at(pick({"nic.mtu", "nic.header_size", "router.max_packet_flits", "router.flit_size"}, "nic"),
            "nic.mtu", *problem);
  // Times are 64-bit picoseconds: the model adds a node's latencies to the
  // time a DMA moves the largest transfer. Each must stay below 1e17 ps (28
  // hours) so that no sum of them can wrap (2^64 ps is 213 days).
  constexpr double kMaxPs = 1e17;
  for (const auto& [key, ps] : {std::pair<const char*, sim::Time>{"nic.node_latency", p.node_latency_ps},
                                {"nic.memory_latency", p.memory_latency_ps}})
    if (double(ps) > kMaxPs)
      fail_at(pick({key}, "nic"), key,
              fmt::format("expected a duration of at most 1e17ps (28 hours), got {}",
                          units::format_duration(ps)));
  const double largest = double(std::min(p.max_descriptor_bytes, p.memory_bytes));
  for (const auto& [key, rate] : {std::pair<const char*, double>{"nic.dma_bandwidth", p.dma_bytes_per_s},
                                  {"nic.memory_bandwidth", p.memory_bytes_per_s}})
    if (rate > 0 && !(largest * 1e12 / rate <= kMaxPs))
      fail_at(pick({key}, "nic"), key,
              fmt::format(
                  "expected a bandwidth that moves the largest transfer ({} bytes: nic.max_descriptor_size "
                  "or nic.memory_size) within 1e17ps (28 hours), i.e. at least {:.3g}B/s, got {}",
                  largest, largest * 1e12 / kMaxPs, units::format_bandwidth(rate)));
}

}  // namespace yaml

void check_nic_fits_router(const Platform& p) {
  if (auto problem = yaml::nic_fit_problem(p.router, p.nic))
    throw ConfigError(fmt::format("{}: nic.mtu: {}", p.source, *problem));
}

}  // namespace kairo::platforms
