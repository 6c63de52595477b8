// What every network shares: the one place that picks the netlist a platform
// describes, and the blocked-packet report of a set of routers or switches.
#include "platforms/network.h"

#include <fmt/format.h>

#include <stdexcept>

#include "platforms/hybrid_netlist.h"
#include "platforms/switch_netlist.h"
#include "platforms/torus_netlist.h"

namespace kairo::platforms {

void RemoteRouter::accept(int port, int, hw::Packet*) {
  throw std::logic_error(
      fmt::format("a packet reached router {} (port {}), which this process does not build "
                  "and whose link has no stand-in",
                  index_, port));
}

void RemoteRouter::return_credits(int port, int, int, sim::Time) {
  throw std::logic_error(
      fmt::format("credits reached router {} (port {}), which this process does not build "
                  "and whose link has no stand-in",
                  index_, port));
}

namespace {
std::unique_ptr<Network> make_network(const Platform& p, sim::EventQueue& queue, const OwnedPart& part) {
  if (p.kind == FabricKind::kTorus) return std::make_unique<TorusNetlist>(p, queue, part);
  if (p.ocs.present) return std::make_unique<HybridNetlist>(p, queue);
  return std::make_unique<SwitchNetlist>(p, queue);
}
}  // namespace

std::unique_ptr<Network> build_network(const Platform& p, sim::EventQueue& queue, const OwnedPart& part) {
  std::unique_ptr<Network> net = make_network(p, queue, part);
  queue.prefetch_targets(net->num_nodes() >= sim::EventQueue::kPrefetchFromNodes);
  return net;
}

std::vector<std::string> describe_blocked(const std::vector<std::unique_ptr<router::Router>>& routers,
                                          std::size_t limit) {
  std::vector<std::string> out;
  for (const auto& r : routers) {
    if (!r || r->buffered_packets() == 0) continue;  // not built (a partial build), or empty
    r->describe_blocked(out, limit);
    if (out.size() >= limit) break;
  }
  return out;
}

}  // namespace kairo::platforms
