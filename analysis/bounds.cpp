#include "analysis/bounds.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "hw/nic/packetizer.h"
#include "hw/router/routing.h"

namespace kairo::analysis {

std::optional<double> alltoall_lower_bound_ns(const platforms::Platform& p, std::uint64_t m) {
  if (p.kind != platforms::FabricKind::kTorus) return std::nullopt;
  const double flits = std::ceil(double(p.nic.mtu_bytes + p.nic.header_bytes) / p.router.flit_bytes);
  const double B = p.router.link_bytes_per_s * p.nic.mtu_bytes / (flits * p.router.flit_bytes);
  double nodes = 1;
  for (const auto& d : p.dims) nodes *= d.size;
  double best = 0;
  for (const auto& d : p.dims) {
    if (d.size < 2) continue;
    const double alpha = d.wrap && d.size >= 3 ? 0.5 : 1.0;
    const double bound =
        alpha * std::floor(d.size / 2.0) * std::ceil(d.size / 2.0) * (nodes / d.size) * double(m) / B;
    best = std::max(best, bound);
  }
  return best * 1e9;
}

double alltoall_busiest_link_pairs(const platforms::Platform& p) {
  if (p.kind != platforms::FabricKind::kTorus) return 0;
  const hw::Topology topo(p.dims);
  const router::DimensionOrderRouting routing(topo, p.router.routing_order, p.router.tie_break);
  const int n = topo.num_dims();
  const double nodes = double(topo.num_nodes());
  double busiest = 0;
  for (int d = 0; d < n; ++d) {
    const int k = topo.dim(d).size;
    if (k < 2) continue;
    // load[c * ports + port]: pairs leaving coordinate c of this line through `port`.
    const int ports = topo.num_link_ports();
    std::vector<double> load(std::size_t(k) * std::size_t(ports), 0.0);
    for (int s = 0; s < k; ++s)
      for (int t = 0; t < k; ++t) {
        if (s == t) continue;
        for (std::uint64_t coin : {0, 1}) {  // the two outcomes of a random tie, half each
          hw::Coord here{}, dst{};
          here[d] = s;
          dst[d] = t;
          int in_dim = -1;
          auto in_class = hw::VcClass::kAny;
          for (int hop = 0; hop < k; ++hop) {
            const router::RouteDecision r = routing.route(here, dst, in_dim, in_class, coin);
            if (r.port < 0) break;
            load[std::size_t(here[d]) * std::size_t(ports) + std::size_t(r.port)] += 0.5;
            here[d] = (here[d] + r.dir + k) % k;
            in_dim = r.dim;
            in_class = r.vc_class;
          }
        }
      }
    busiest = std::max(busiest, *std::max_element(load.begin(), load.end()) * (nodes / k));
  }
  return busiest;
}

std::string format_bound(double ns) {
  if (ns >= 1e9) return fmt::format("{:.4g} s", ns / 1e9);
  if (ns >= 1e6) return fmt::format("{:.4g} ms", ns / 1e6);
  if (ns >= 1e3) return fmt::format("{:.4g} us", ns / 1e3);
  return fmt::format("{:.4g} ns", ns);
}

double AlltoallBounds::largest_ns() const { return std::max({network_ns, routing_ns, injection_ns}); }

AlltoallBounds alltoall_bounds(const platforms::Platform& p, std::uint64_t m) {
  AlltoallBounds b;
  const nic::Packetizer pk(p.nic.mtu_bytes, p.nic.header_bytes, std::uint32_t(p.router.flit_bytes));
  double wire_bytes = 0;  // one put of m bytes on a link
  for (std::uint64_t i = 0; i < pk.packets(m); ++i)
    wire_bytes += double(pk.plan(m, i).flits) * p.router.flit_bytes;
  if (auto net = alltoall_lower_bound_ns(p, m)) {
    b.network_ns = *net;
    b.routing_ns = alltoall_busiest_link_pairs(p) * wire_bytes / p.router.link_bytes_per_s * 1e9;
  }
  // The RDMA engines: each sends and receives (p - 1) m bytes.
  const double others = double(p.nodes()) - 1;
  const double host_rate =
      p.router.host_bytes_per_s > 0 ? p.router.host_bytes_per_s : p.router.link_bytes_per_s;
  const double tni_rate = std::min(p.nic.dma_bytes_per_s, host_rate * double(m) / wire_bytes);
  const int tnis = std::max(1, p.router.network_interfaces);
  const double engines_ns = others * double(m) / (tnis * tni_rate) * 1e9;
  const double memory_ns =
      p.nic.memory_bytes_per_s > 0 ? 2 * others * double(m) / p.nic.memory_bytes_per_s * 1e9 : 0.0;
  b.injection_ns = std::max(engines_ns, memory_ns);
  const double largest = b.largest_ns();
  b.binding = largest == b.injection_ns ? "injection" : largest == b.routing_ns ? "routing" : "network";
  if (b.network_ns > 0 && b.injection_ns > b.network_ns) {
    const std::string why = memory_ns > engines_ns
                                ? fmt::format("node memory at {:.3g} GB/s moves 2 x {} x {} B",
                                              p.nic.memory_bytes_per_s / 1e9, std::uint64_t(others), m)
                                : fmt::format("{} TNI{} per node at {:.3g} GB/s each move {} x {} B", tnis,
                                              tnis == 1 ? "" : "s", tni_rate / 1e9, std::uint64_t(others), m);
    b.note =
        fmt::format("the NICs cannot reach the network bound: {} in {}, {:.3g} times its {}", why,
                    format_bound(b.injection_ns), b.injection_ns / b.network_ns, format_bound(b.network_ns));
  }
  return b;
}

}  // namespace kairo::analysis
