// The partitioner (platforms/partition.h, docs/parallel.md): the method's
// owners, then what they cut, the lookahead and the balance.
#include "platforms/partition.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "hw/router/router_config.h"
#include "platforms/partition_graph.h"

namespace kairo::platforms {

PartitionMethod parse_partition_method(const std::string& s) {
  if (s == "auto") return PartitionMethod::kAuto;
  if (s == "blocks") return PartitionMethod::kBlocks;
  if (s == "metis") return PartitionMethod::kMetis;
  throw std::invalid_argument(fmt::format("--partition: expected auto, blocks or metis, got '{}'", s));
}

const char* partition_method_name(PartitionMethod m) {
  switch (m) {
    case PartitionMethod::kAuto:
      return "auto";
    case PartitionMethod::kBlocks:
      return "blocks";
    case PartitionMethod::kMetis:
      return "metis";
  }
  return "?";
}

sim::Time hop_fixed_ps(const Platform& p) {
  router::RouterConfig cfg;
  cfg.clock = sim::Clock(p.router.clock_period_ps());
  router::apply_router_params(
      p.router,
      p.kind == FabricKind::kTorus ? router::RouterSite::kTorus : router::RouterSite::kSwitchedFabric, cfg);
  return std::min(cfg.pipeline_ps + cfg.traversal_ps, cfg.traversal_ps + cfg.credit_delay_ps);
}

namespace {

// The key whose value is a cut cable's latency, for messages.
std::string latency_key(const Platform& p, const std::string& cls) {
  if (p.kind == FabricKind::kTorus) return "router.cable_latency." + cls;
  return cls + ".latency (or a links.ports entry)";
}

void evaluate(const Platform& p, const detail::RouterGraph& g, Partition& r) {
  const int n = r.processes;
  r.parts.assign(std::size_t(n), PartitionLoad{});
  for (std::size_t v = 0; v < g.size(); ++v) {
    PartitionLoad& l = r.parts[std::size_t(r.owner[v])];
    ++l.routers;
    l.hosts += g.hosts[v];
    l.weight += g.weight[v];
  }
  std::uint64_t total = 0, most = 0;
  for (const auto& l : r.parts) total += l.weight, most = std::max(most, l.weight);
  r.imbalance = total ? double(most) * n / double(total) : 1.0;
  r.cut_per_class.assign(g.classes.size(), 0);
  for (const auto& e : g.edges) {
    if (r.owner[e.a] == r.owner[e.b]) continue;
    r.cut.push_back({e.a, e.b, e.cls, e.latency_ps});
    ++r.cut_per_class[std::size_t(e.cls)];
    const sim::Time lookahead = e.latency_ps + r.hop_fixed_ps;
    if (lookahead == 0)
      throw ConfigError(fmt::format(
          "{} split into {} processes ({}) cuts a {} cable whose lookahead is 0: its latency ({}) is 0ns and "
          "the hop's fixed part, min(pipeline + traversal, traversal + credit delay) from router:, is 0, so "
          "a conservative parallel run could never advance; give the cable a latency, or the routers a "
          "traversal or credit delay, or use fewer processes",
          p.name, n, partition_method_name(r.method), g.classes[std::size_t(e.cls)],
          latency_key(p, g.classes[std::size_t(e.cls)])));
    r.lookahead_ps = std::min(r.lookahead_ps, lookahead);
  }
  // The hybrid's optical circuits join nodes directly: when the optical
  // nodes lie in several processes, a pathway may cross, and what crosses
  // takes the OCS latency (platforms/ocs_boundary.h).
  if (!p.ocs.present || n == 1) return;
  std::vector<char> has_optical(std::size_t(n), 0);
  for (std::uint32_t node : p.ocs.optical_nodes) has_optical[std::size_t(r.owner_of_host(node))] = 1;
  if (std::count(has_optical.begin(), has_optical.end(), 1) < 2) return;
  if (p.ocs.latency_ps == 0)
    throw ConfigError(fmt::format(
        "{} split into {} processes puts optical NICs in several processes, and ocs.latency is 0ns: a "
        "pathway "
        "between two of them would have a lookahead of 0; give ocs.latency a value, or use one process",
        p.name, n));
  if (p.ocs.latency_ps < r.lookahead_ps) {
    r.lookahead_ps = p.ocs.latency_ps;
    r.optical_lookahead = true;
  }
}

}  // namespace

Partition partition_platform(const Platform& p, int processes, PartitionMethod method) {
  if (processes < 1)
    throw std::invalid_argument(fmt::format("--processes: expected 1 or more processes, got {}", processes));
  if (processes > 1 && p.kind == FabricKind::kClusters && p.fabric.wan_flow.loss)
    throw std::invalid_argument(
        "--processes: links.wan.flow_control: loss keeps its streams' windows on one process; run with one "
        "process or --set links.wan.flow_control=credit");
  const bool torus = p.kind == FabricKind::kTorus;
  const detail::RouterGraph g = torus ? detail::torus_graph(p) : detail::switch_graph(p);
  Partition r;
  r.processes = processes;
  r.classes = g.classes;
  r.hosts_per_router = g.hosts_per_router;
  r.hop_fixed_ps = hop_fixed_ps(p);
  if (p.ocs.present)
    r.note =
        "the OCS fabric and its controller are not partitioned: every process keeps the circuits, and a "
        "pathway between two processes' nodes carries packets and credits with the OCS latency (at most the "
        "lookahead); circuits are preset, as requests during a split run are refused";
  if (processes == 1) {
    r.method = method == PartitionMethod::kMetis ? PartitionMethod::kMetis : PartitionMethod::kBlocks;
    r.owner.assign(g.size(), 0);
    if (torus) r.blocks.assign(p.dims.size(), 1);
    evaluate(p, g, r);
    return r;
  }
  detail::Blocks b;
  if (method != PartitionMethod::kMetis) {
    b = torus ? detail::torus_blocks(p, g, processes) : detail::switch_blocks(p, processes);
    if (method == PartitionMethod::kBlocks && b.owner.empty())
      throw std::invalid_argument("--processes: " + b.why);
  }
  if (!b.owner.empty()) {
    r.method = PartitionMethod::kBlocks;
    r.owner = std::move(b.owner);
    r.blocks = std::move(b.per_dim);
  } else {
    if (std::size_t(processes) > g.size())
      throw std::invalid_argument(fmt::format(
          "--processes: {} processes are more than {} can be split into: at most {}, one {} each (metis){}",
          processes, p.name, g.size(), torus ? "router" : "switch",
          b.why.empty() ? "" : fmt::format("; {}", b.why)));
    r.method = PartitionMethod::kMetis;
    r.owner = detail::metis_owners(g, r.hop_fixed_ps, processes);
  }
  evaluate(p, g, r);
  return r;
}

std::vector<int> neighbour_processes(const Platform& p, const Partition& part, int rank) {
  std::vector<char> is(std::size_t(part.processes), 0);
  for (const CutLink& c : part.cut) {
    const int a = part.owner[c.a], b = part.owner[c.b];
    if (a == rank) is[std::size_t(b)] = 1;
    if (b == rank) is[std::size_t(a)] = 1;
  }
  if (p.ocs.present) {
    std::vector<char> optical(std::size_t(part.processes), 0);
    for (std::uint32_t node : p.ocs.optical_nodes) optical[std::size_t(part.owner_of_host(node))] = 1;
    if (optical[std::size_t(rank)])
      for (std::size_t q = 0; q < optical.size(); ++q) is[q] |= optical[q];
  }
  std::vector<int> peers;
  for (std::size_t q = 0; q < is.size(); ++q)
    if (is[q] && int(q) != rank) peers.push_back(int(q));
  return peers;
}

}  // namespace kairo::platforms
