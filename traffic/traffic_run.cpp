// The synthetic-traffic run: builds the platform's network (any fabric),
// drives it through the phases of traffic_run.h and summarizes the result.
#include "traffic/traffic_run.h"

#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <map>
#include <optional>
#include <stdexcept>

#include "platforms/boundary.h"
#include "platforms/energy.h"
#include "platforms/ocs_boundary.h"
#include "platforms/resolved.h"
#include "sim/host_memory.h"
#include "sim/kernel.h"
#include "sim/mpi_world.h"
#include "sim/window_runner.h"
#include "traffic/injection.h"
#include "traffic/traffic_node.h"
#include "traffic/traffic_parallel.h"
#include "traffic/traffic_progress.h"

namespace kairo::traffic {

using nlohmann::json;
using sim::Time;

const std::vector<std::string>& cost_fields() {
  static const std::vector<std::string> f = {"wall_s",           "elaborate_s",  "events",
                                             "events_by_block",  "peak_rss_mib", "flit_hops_per_s",
                                             "sim_cycles_per_s", "events_per_s"};
  return f;
}

namespace {

const char* fabric_description(const platforms::Platform& p) {
  if (p.kind == platforms::FabricKind::kTorus) return "mesh/torus";
  if (p.ocs.present) return "hybrid network (packet switches and optical circuits)";
  if (p.kind == platforms::FabricKind::kDragonfly) return "dragonfly";
  return p.kind == platforms::FabricKind::kFatTree ? "fat tree" : "set of clusters";
}

}  // namespace

void validate(const TrafficOptions& o, const platforms::Platform& p) {
  if (!parse_pattern(o.pattern)) {
    std::string names;
    for (auto& n : pattern_names()) names += (names.empty() ? "" : ", ") + n;
    throw std::invalid_argument(
        fmt::format("--pattern: unknown pattern '{}'; expected one of {}", o.pattern, names));
  }
  if (o.batch_packets == 0 && !(o.rate > 0 && o.rate <= 1))
    throw std::invalid_argument(fmt::format(
        "--rate: expected an injection rate in flits per node per cycle within (0, 1], got {}", o.rate));
  validate_source(o, p.router.max_packet_flits, p.source);
  const Pattern pattern = *parse_pattern(o.pattern);
  if (needs_torus(pattern) && p.kind != platforms::FabricKind::kTorus) {
    std::string others;
    for (auto& n : pattern_names())
      if (!needs_torus(*parse_pattern(n))) others += (others.empty() ? "" : ", ") + n;
    throw std::invalid_argument(fmt::format(
        "--pattern {}: needs a mesh/torus shape (it maps coordinates); {} is a {}; patterns without "
        "coordinates: {} (docs/traffic.md)",
        o.pattern, p.name, fabric_description(p), others));
  }
  if (pattern == Pattern::kBadDragon && p.kind != platforms::FabricKind::kDragonfly)
    throw std::invalid_argument(
        fmt::format("--pattern bad_dragon: needs a dragonfly (it sends each node's packets to the next "
                    "group); {} is a {}",
                    p.name, fabric_description(p)));
  if (pattern == Pattern::kHotspot) {
    if (o.hotspots.empty())
      throw std::invalid_argument(
          "--hotspot-nodes: the hotspot pattern needs the node ids that attract traffic (e.g. "
          "--hotspot-nodes 0,5)");
    for (hw::NodeId h : o.hotspots)
      if (h >= p.nodes())
        throw std::invalid_argument(fmt::format("--hotspot-nodes: node {} does not exist; {} has nodes 0..{}",
                                                h, p.name, p.nodes() - 1));
    if (!(o.hotspot_fraction >= 0 && o.hotspot_fraction <= 1))
      throw std::invalid_argument(
          fmt::format("--hotspot-fraction: expected the share of packets sent to the hotspot nodes, within "
                      "[0, 1], got {}",
                      o.hotspot_fraction));
  }
  if (const std::string need = node_count_need(pattern, p.nodes()); !need.empty())
    throw std::invalid_argument(
        fmt::format("--pattern {}: needs {}; {} has {} nodes", o.pattern, need, p.name, p.nodes()));
  if (o.batch_packets == 0 && o.warmup_converge) {
    if (o.sample_cycles == 0) throw std::invalid_argument("--sample-cycles: expected at least 1 cycle");
    if (!(o.warmup_threshold > 0 && o.warmup_threshold <= 1))
      throw std::invalid_argument(fmt::format(
          "--warmup-threshold: expected a relative change in (0, 1], got {}", o.warmup_threshold));
  }
  if (o.batch_packets == 0 && o.measure_cycles == 0)
    throw std::invalid_argument("--measure-cycles: expected at least 1 cycle");
  // Simulated time is 64-bit picoseconds: the run's phases, in picoseconds,
  // must stay within 1e18 ps (11.6 days) so that no sum of them wraps.
  const double period = double(p.router.clock_period_ps());
  const double cycles = double(o.warmup_cycles) + double(o.measure_cycles) +
                        double(o.drain_cycles ? o.drain_cycles : o.warmup_cycles + o.measure_cycles);
  if (o.batch_packets == 0 && cycles * period > 1e18)
    throw std::invalid_argument(fmt::format(
        "--warmup-cycles + --measure-cycles + --drain-cycles: {:.4g} cycles of {}ps pass what simulated time "
        "holds (1e18ps, 11.6 days); expected at most {:.4g} cycles in all",
        cycles, p.router.clock_period_ps(), 1e18 / period));
  if (o.batch_packets > 0) {
    // Batch mode creates every packet before the run starts.
    if (o.batch_packets > (std::uint64_t(1) << 40))
      throw std::invalid_argument(
          fmt::format("--batch: expected at most 2^40 packets per node, got {}", o.batch_packets));
    sim::check_host_memory(fmt::format("--batch {}: {} packets on {} nodes", o.batch_packets,
                                       double(o.batch_packets) * double(p.nodes()), p.nodes()),
                           double(o.batch_packets) * double(p.nodes()) * double(sizeof(hw::Packet)));
  }
}

namespace {

double peak_rss_mib() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return double(ru.ru_maxrss) / 1024.0;
}

// The routers' and links' energy: dynamic from their counters at `now` (a
// partitioned run's processes each count their own routers and add them up),
// static over `window` ps.
platforms::EnergyTally network_energy(platforms::Network& net, const platforms::Partition* part,
                                      sim::Time now, sim::Time window) {
  platforms::EnergyTally energy;
  const platforms::Platform& p = net.platform();
  if (part) {  // whole femtojoules, so the sum over the processes is one process's
    const sim::MpiWorld& world = sim::MpiWorld::get();
    platforms::add_network_dynamic(energy, net, p, now, &part->owner, world.rank());
    platforms::add_network_static(energy, net, p, window, &part->owner, world.rank());
    std::vector<std::uint64_t> v = energy.flat();
    world.sum(v);
    energy = platforms::EnergyTally::from_flat(v);
  } else {
    platforms::add_network_dynamic(energy, net, p, now);
    platforms::add_network_static(energy, net, p, window);
  }
  return energy;
}

// Phase boundaries, as sync events of their own (before anything else at
// their time; in a partitioned run every process has them and sees every
// message sent before them). After the measurement window, sources stop at
// the first drain check (every kDrainCheckCycles cycles) that finds every
// measured packet delivered, or at the drain limit.
class PhaseClock : public sim::EventTarget {
 public:
  enum : std::uint32_t { kWarmupEnd, kMeasureEnd, kDrainCheck, kDrainLimit, kWarmupSample };
  static constexpr std::uint64_t kDrainCheckCycles = 32;
  bool drain_limited = false;
  std::function<void(bool, sim::Time)> around_reset;  // TrafficOptions::around_reset
  nlohmann::json ports;           // per port name: link counters over the measurement window
  platforms::EnergyTally energy;  // the routers' and links' over the measurement window
  sim::Time energy_window = 0;
  std::uint64_t window_link_flits = 0;
  PhaseClock(TrafficContext& ctx, platforms::Network& net, const platforms::Partition* part,
             const TrafficOptions& o)
      : ctx_(ctx), net_(net), part_(part), o_(o) {}
  // The warm-up's end and the phases after it, from `warmup_end`.
  void schedule_phases(sim::Time warmup_end) {
    sim::EventQueue& q = *ctx_.queue;
    q.at(warmup_end, sim::kPrioSync, this, kWarmupEnd);
    const std::uint64_t wm =
        o_.warmup_cycles + o_.measure_cycles;  // the drain limit counts the longest warm-up
    q.at(warmup_end + ctx_.clock.cycles(o_.measure_cycles), sim::kPrioSync, this, kMeasureEnd);
    q.at(warmup_end + ctx_.clock.cycles(o_.measure_cycles + (o_.drain_cycles ? o_.drain_cycles : wm)),
         sim::kPrioSync, this, kDrainLimit);
  }
  bool warmup_converged = false;
  std::uint64_t warmup_cycles_used = 0;
  void on_event(std::uint32_t kind, std::uint32_t, void*) override {
    if (kind == kWarmupSample) {
      sample_warmup();
    } else if (kind == kWarmupEnd) {
      warmup_cycles_used = ctx_.clock.to_cycles(ctx_.queue->now());
      if (around_reset) around_reset(false, ctx_.queue->now());
      for (std::size_t i = 0; i < net_.num_routers(); ++i)
        if (net_.has_router(i)) net_.router_at(i).reset_counters(ctx_.queue->now());
      if (around_reset) around_reset(true, ctx_.queue->now());
      start_ = ctx_.queue->now();
      ctx_.measuring = true;
    } else if (kind == kMeasureEnd) {
      tally_energy();
      summarize_ports();
      ctx_.measuring = false;
      ctx_.measure_done = true;
      check_drain();
    } else if (kind == kDrainCheck) {
      check_drain();
    } else if (ctx_.generating) {
      drain_limited = true;  // measured packets still out: the load is above saturation
      ctx_.generating = false;
    }
  }

 private:
  // One sample period of a converging warm-up (TrafficOptions::warmup_converge).
  void sample_warmup() {
    std::vector<std::uint64_t> now = {ctx_.stats.delivered, ctx_.stats.flits_delivered,
                                      ctx_.stats.latency_sum_ps};
    if (part_) sim::MpiWorld::get().sum(now);
    const double packets = double(now[0] - last_[0]);
    const double accepted = double(now[1] - last_[1]);
    const double latency = packets > 0 ? double(now[2] - last_[2]) / packets : 0;
    last_ = now;
    auto close = [&](double cur, double prev) {
      return cur > 0 && std::fabs(cur - prev) / cur <= o_.warmup_threshold;
    };
    warmup_converged = periods_ > 0 && close(latency, prev_latency_) && close(accepted, prev_accepted_);
    ++periods_;
    prev_latency_ = latency, prev_accepted_ = accepted;
    const sim::Time t = ctx_.queue->now(), next = t + ctx_.clock.cycles(o_.sample_cycles);
    if (warmup_converged || next > ctx_.clock.cycles(o_.warmup_cycles))
      schedule_phases(t);
    else
      ctx_.queue->at(next, sim::kPrioSync, this, kWarmupSample);
  }

  void check_drain() {
    if (!ctx_.generating) return;
    std::vector<std::uint64_t> counts = {ctx_.stats.measured_created, ctx_.stats.measured_delivered};
    if (part_) sim::MpiWorld::get().sum(counts);
    if (counts[0] == counts[1]) {
      ctx_.generating = false;
      return;
    }
    ctx_.queue->at(ctx_.queue->now() + ctx_.clock.cycles(kDrainCheckCycles), sim::kPrioSync, this,
                   kDrainCheck);
  }

  // The routers' and links' energy over the measurement window, each
  // process's own routers added over the processes.
  void tally_energy() {
    energy_window = ctx_.queue->now() - start_;
    energy = network_energy(net_, part_, ctx_.queue->now(), energy_window);
  }

  // Per port name (mesh/torus: xp, xm, ..., ni0; switched fabrics: the port
  // name without its number, up, down, edge, wan, cluster, and ni0 for the
  // links to the hosts' first network interfaces): average and maximum
  // utilization of the connected output links, and the average share of time
  // a downstream VC had no credits (Tofu's "VC full"), over the measurement
  // window. A partitioned run reads every router's counters on process 0.
  void summarize_ports() {
    const sim::Time now = ctx_.queue->now(), window = now - start_;
    if (window == 0) return;
    std::optional<PortFigures> table;
    if (part_) {
      table.emplace(sim::MpiWorld::get(), net_, *part_, now);
      if (!sim::MpiWorld::get().root()) return;
    }
    struct Group {
      double sum = 0, max = 0, zero = 0;
      std::uint64_t links = 0;
    };
    std::map<std::string, Group> groups;
    std::vector<Group*> group_of_port;  // of the current router's ports
    auto name_groups = [&](router::Router& r) {
      group_of_port.clear();
      int first_host = -1;
      for (int port = 0; port < r.num_ports(); ++port) {
        const bool link = r.port_dim(port) >= 0;
        if (!link && first_host < 0) first_host = port;
        group_of_port.push_back(&groups[group_of(r, port, link ? -1 : port - first_host)]);
      }
    };
    if (net_.torus())  // every mesh/torus router has the same ports: the first built one's
      for (std::size_t i = 0; i < net_.num_routers(); ++i)
        if (net_.has_router(i)) {
          name_groups(net_.router_at(i));
          break;
        }
    for (std::size_t i = 0; i < net_.num_routers(); ++i) {
      // A partial build's process 0 has not built every router: what it
      // reads of one comes from its owner (the table), as every router's
      // counters do in a partitioned run.
      router::Router* r = net_.has_router(i) ? &net_.router_at(i) : nullptr;
      if (!net_.torus()) name_groups(*r);  // switched fabrics are built whole
      const std::uint64_t* entry = table ? table->router(std::uint32_t(i)) : nullptr;
      const int ports = entry ? int(entry[0]) : r->num_ports();
      const int vcs = entry ? int(entry[1]) : r->vcs();
      for (int port = 0; port < ports; ++port) {
        const std::uint64_t* f =
            entry ? entry + kRouterHeader + std::size_t(port) * port_figures(vcs) : nullptr;
        if (!(f ? (f[0] & kPortConnected) != 0 : r->port_connected(port))) continue;
        const bool link = f ? (f[0] & kPortLink) != 0 : r->port_dim(port) >= 0;
        // busy, flits sent, zero-credit time per VC: read here, or gathered from their owners.
        std::uint64_t busy = 0, flits = 0;
        const std::uint64_t* zero = nullptr;
        router::PortCounters c;
        if (f) {
          busy = f[1], flits = f[2], zero = f + 3;
        } else {
          c = r->counters(port, now);
          busy = c.busy_ps, flits = c.flits_sent, zero = c.zero_credit_ps.data();
        }
        Group& g = *group_of_port[std::size_t(port)];
        const double u = std::min(1.0, double(busy) / double(window));
        g.sum += u;
        g.max = std::max(g.max, u);
        for (int v = 0; v < vcs; ++v) g.zero += double(zero[v]) / double(window) / vcs;
        if (link) window_link_flits += flits;
        ++g.links;
      }
    }
    for (const auto& [name, g] : groups)
      if (g.links > 0)
        ports[name] = {{"links", g.links},
                       {"avg_utilization", g.sum / double(g.links)},
                       {"max_utilization", g.max},
                       {"avg_zero_credit_fraction", g.zero / double(g.links)}};
  }
  // The group of a port: its name on a mesh/torus (every router has the same
  // ports); on a switched fabric the name without its number, or the network
  // interface of a host port (`host_index`: its place among the host ports).
  std::string group_of(router::Router& r, int port, int host_index) const {
    if (net_.torus()) return r.port_name(port);
    if (host_index >= 0) return "ni" + std::to_string(host_index % ctx_.interfaces);
    std::string name = r.port_name(port);
    std::size_t digit = 0;
    while (digit < name.size() && !std::isdigit(static_cast<unsigned char>(name[digit]))) ++digit;
    return name.substr(0, digit);
  }

 public:
  sim::Time start_ = 0;  // when counters were last reset

 private:
  TrafficContext& ctx_;
  platforms::Network& net_;
  const platforms::Partition* part_;
  const TrafficOptions& o_;
  std::vector<std::uint64_t> last_ = {0, 0, 0};  // delivered packets, flits, latency sum at the last sample
  double prev_latency_ = 0, prev_accepted_ = 0;
  int periods_ = 0;
};

// Traffic goes over the packet-switched network interfaces, the ones without
// an optical circuit (the hybrid network's TNI 0; every interface elsewhere).
int packet_interfaces(platforms::Network& net) {
  int n = 0;
  while (n < net.network_interfaces() && !net.gate(0, n)) ++n;
  if (n == 0)
    throw std::invalid_argument(net.platform().name + ": no packet-switched network interface to send on");
  return n;
}

std::uint64_t percentile(const std::vector<std::uint64_t>& sorted, double q) {
  if (sorted.empty()) return 0;
  std::size_t i = std::size_t(std::ceil(q * double(sorted.size())));
  return sorted[std::min(sorted.size() - 1, i == 0 ? 0 : i - 1)];
}

// The sources, beyond the default (Bernoulli, one size: `mode` and
// `packet_flits` say it all): the injection process, the size mix and the
// mean size of the packets created in the measurement window.
void add_source_fields(json& j, const TrafficOptions& o, const TrafficStats& s) {
  if (o.injection == "bernoulli" && o.packet_sizes.empty()) return;
  const double mean = source_mean_flits(o);
  if (o.batch_packets == 0) {
    json injection = {{"process", o.injection}};
    if (o.injection == "onoff") {
      const OnOffProcess p(o.rate / mean, o.burst_alpha, o.burst_beta, {});
      injection["burst_alpha"] = o.burst_alpha;
      injection["burst_beta"] = o.burst_beta;
      injection["burst_r1"] = p.r1();
      injection["on_share"] = p.on_share();
      injection["initial_state"] = "stationary";
    }
    j["injection"] = injection;
  }
  if (!o.packet_sizes.empty()) {
    json sizes = json::array();
    for (const auto& [f, w] : o.packet_sizes) sizes.push_back({{"flits", f}, {"weight", w}});
    j["packet_sizes"] = sizes;
    j["packet_sizes_mean_flits"] = mean;
  }
  j["avg_packet_flits"] =
      s.measured_created ? double(s.window_flits_created) / double(s.measured_created) : 0.0;
}

json summarize(const platforms::Platform& plat, const TrafficOptions& o, TrafficContext& ctx,
               platforms::Network& net, double elaborate_s, double wall_s, std::uint64_t events,
               const hw::Watchdog& wd) {
  TrafficStats& s = ctx.stats;
  const double nodes = double(net.num_nodes());
  const Time period = ctx.clock.period_ps;
  std::sort(s.latency_cycles.begin(), s.latency_cycles.end());
  double lat_sum = 0;
  for (auto l : s.latency_cycles) lat_sum += double(l);
  const double md = double(std::max<std::uint64_t>(1, s.measured_delivered));
  const std::uint64_t lost = s.created - std::min(s.created, s.distinct_delivered), dup = s.duplicated;
  const Time end = s.last_delivery_ps;  // the watchdog may hold a later, idle event
  const double sim_cycles = double(end / period);
  const auto& act = net.activity();

  json j;
  j["platform"] = plat.name;
  j["nodes"] = net.num_nodes();
  j["pattern"] = o.pattern;
  if (o.packet_sizes.empty()) j["packet_flits"] = o.packet_flits;
  j["seed"] = o.seed;
  j["resolved"] = platforms::resolved_json(plat);
  if (o.batch_packets > 0) {
    j["mode"] = "batch";
    j["batch_packets"] = o.batch_packets;
    j["batch_cycles"] = s.last_delivery_ps / period;
  } else {
    j["mode"] = o.injection;
    j["rate"] = o.rate;
    j["warmup_cycles"] = o.warmup_cycles;
    j["measure_cycles"] = o.measure_cycles;
    j["offered_flits_per_node_cycle"] = double(s.window_flits_created) / (nodes * double(o.measure_cycles));
    j["accepted_flits_per_node_cycle"] =
        double(s.window_flits_delivered) / (nodes * double(o.measure_cycles));
  }
  add_source_fields(j, o, s);
  j["measured_packets"] = s.measured_delivered;
  j["avg_packet_latency_cycles"] = lat_sum / md;
  j["avg_network_latency_cycles"] = double(s.network_latency_sum_ps) / double(period) / md;
  j["latency_percentiles_cycles"] = {{"p50", percentile(s.latency_cycles, 0.5)},
                                     {"p90", percentile(s.latency_cycles, 0.9)},
                                     {"p99", percentile(s.latency_cycles, 0.99)},
                                     {"max", s.latency_cycles.empty() ? 0 : s.latency_cycles.back()}};
  j["avg_hops"] = double(s.measured_hops) / md;
  j["sim_cycles"] = std::uint64_t(sim_cycles);
  j["packets_created"] = s.created;
  j["packets_delivered"] = s.delivered;
  j["packets_lost"] = lost;
  j["packets_duplicated"] = dup;
  j["packet_hops"] = act.packet_hops;
  j["flit_hops"] = act.flit_hops;
  if (plat.kind == platforms::FabricKind::kTorus && router::routing_kind(plat.router.routing).adaptive) {
    // Where adaptive routing went: hops on adaptive VCs and on the escape VCs.
    j["adaptive_hops"] = act.adaptive_hops;
    j["escape_hops"] = act.escape_hops;
  }
  if (plat.router.vc_allocator != "none") {
    // The VC allocation stage: output VCs granted; speculative switch grants used and lost.
    j["vc_grants"] = act.vc_grants;
    if (plat.router.speculative) {
      j["speculative_hits"] = act.speculative_hits;
      j["speculative_misses"] = act.speculative_misses;
    }
  }
  j["deadlock"] = wd.fired();
  if (wd.fired()) j["blocked"] = wd.blocked();
  // The run's own cost.
  j["elaborate_s"] = elaborate_s;
  j["wall_s"] = wall_s;
  j["events"] = events;
  j["events_per_s"] = wall_s > 0 ? double(events) / wall_s : 0.0;
  j["flit_hops_per_s"] = wall_s > 0 ? double(act.flit_hops) / wall_s : 0.0;
  j["sim_cycles_per_s"] = wall_s > 0 ? sim_cycles / wall_s : 0.0;
  j["peak_rss_mib"] = peak_rss_mib();
  return j;
}

}  // namespace

TrafficResult run_traffic(const platforms::Platform& plat, const TrafficOptions& o) {
  validate(o, plat);
  auto t0 = std::chrono::steady_clock::now();
  sim::EventQueue queue(plat.router.clock_period_ps());
  // A partitioned run (docs/parallel.md): this process's nodes generate; the
  // cut links get stand-ins for the other processes' routers.
  const platforms::Partition* part = o.partition;
  const sim::MpiWorld& world = sim::MpiWorld::get();
  if (part && part->processes != world.size())
    throw std::logic_error("run_traffic: the partition is not for this many processes");
  const platforms::OwnedPart own =
      part && o.own_part_only ? platforms::OwnedPart{part, world.rank()} : platforms::OwnedPart{};
  const std::unique_ptr<platforms::Network> network = platforms::build_network(plat, queue, own);
  platforms::Network& net = *network;
  const hw::NodeId group_nodes =
      plat.kind == platforms::FabricKind::kDragonfly
          ? hw::NodeId(plat.fabric.group_routers) * hw::NodeId(plat.fabric.hosts_per_edge)
          : 0;
  DestinationPicker picker(hw::NodeId(net.num_nodes()), net.torus(), *parse_pattern(o.pattern), o.seed,
                           o.hotspots, o.hotspot_fraction, group_nodes);

  TrafficContext ctx;
  ctx.queue = &queue;
  ctx.net = &net;
  ctx.picker = &picker;
  ctx.clock = net.clock();  // of the routers or switches the endpoints attach to
  ctx.interfaces = packet_interfaces(net);
  ctx.sizes = o.packet_sizes.empty() ? PacketSizeMix(o.packet_flits) : PacketSizeMix(o.packet_sizes);
  ctx.flit_bytes = plat.router.flit_bytes;
  // The rate is in flits: packets are created at rate / mean size per cycle.
  std::unique_ptr<InjectionProcess> injection;
  if (o.batch_packets == 0) injection = make_injection(o, net.clock());
  ctx.injection = injection.get();
  ctx.nodes = net.num_nodes();
  auto mine = [&](hw::NodeId n) { return !part || part->owner_of_host(n) == world.rank(); };
  std::unique_ptr<platforms::RouterBoundary> boundary;
  sim::StillnessWatch watch;
  if (part) watch = platforms::parallel_watch(net, world);

  std::vector<TrafficNode> nodes;
  nodes.reserve(net.num_nodes());
  for (hw::NodeId n = 0; n < net.num_nodes(); ++n) {
    if (!net.has_host(n)) continue;  // another process's (a partial build)
    nodes.emplace_back(ctx, n, o.seed);
    for (int ni = 0; ni < ctx.interfaces; ++ni) net.endpoint(n, ni).set_client(&nodes.back());
  }
  PhaseClock phases(ctx, net, part, o);
  phases.around_reset = o.around_reset;
  if (o.batch_packets > 0) {
    ctx.measuring = true;  // every batch packet is measured
    for (auto& n : nodes)
      if (mine(n.id())) n.enqueue_batch(o.batch_packets);
    ctx.measuring = false;
    ctx.measure_done = true;
    ctx.generating = false;
  } else {
    for (auto& n : nodes)
      if (mine(n.id())) n.start(0);
    if (o.warmup_converge)
      queue.at(ctx.clock.cycles(o.sample_cycles), sim::kPrioSync, &phases, PhaseClock::kWarmupSample);
    else
      phases.schedule_phases(ctx.clock.cycles(o.warmup_cycles));
  }

  if (o.on_built) o.on_built(net, queue);
  struct Abandoned {
    const TrafficOptions& o;
    bool finished = false;
    ~Abandoned() {
      if (!finished && o.on_abandoned) o.on_abandoned();
    }
  } abandoned{o};
  // After the probes and counter logs are attached: they name each port's
  // peer from the wiring as built, before the stand-ins replace the remote routers.
  // The hybrid's optical ports belong to their nodes' processes, as in kairo
  // run (traffic itself never enters the OCS: its ports stay dark).
  std::unique_ptr<platforms::OcsBoundary> optical;
  std::unique_ptr<sim::Boundaries> both;
  if (part) {
    boundary = std::make_unique<platforms::RouterBoundary>(net, *part, world.rank(), ctx.pool);
    if (platforms::OpticalNetwork* o = net.optical()) {
      optical = std::make_unique<platforms::OcsBoundary>(o->ocs(), *part, world.rank(), ctx.pool, nullptr);
      both = std::make_unique<sim::Boundaries>(std::vector<sim::Boundary*>{boundary.get(), optical.get()});
    }
  }
  std::unique_ptr<sim::Kernel> kernel;
  if (o.use_systemc && !part) kernel = std::make_unique<sim::Kernel>("kernel", queue);
  auto t1 = std::chrono::steady_clock::now();
  sim::WindowStats windows;
  TrafficProgress reporter(o, net.num_nodes());
  const bool reporting = o.progress || o.warn;
  auto phase_name = [&ctx, &o] {
    return o.batch_packets > 0 ? "batch" : ctx.measuring ? "measure" : ctx.measure_done ? "drain" : "warm-up";
  };
  if (part) {
    sim::WindowProgress progress;  // the line, from every process's sums
    progress.figures = [&ctx, &queue] {
      return std::vector<std::uint64_t>{ctx.stats.measured_delivered, ctx.stats.measured_created,
                                        queue.events_processed(), ctx.stats.delivered};
    };
    progress.print = [&](sim::Time now, const std::vector<std::uint64_t>& sums, double wall) {
      reporter.report(wall, {phase_name(), ctx.clock.to_cycles(now), sums[3], sums[0], sums[1],
                             double(sums[2]) / wall, world.size()});
    };
    const std::vector<int> peers = platforms::neighbour_processes(plat, *part, world.rank());
    sim::WindowOptions opt;
    opt.watch = &watch;
    opt.progress = reporting ? &progress : nullptr;
    opt.peers = &peers;
    windows = sim::run_windows(queue, world, both ? static_cast<sim::Boundary&>(*both) : *boundary,
                               part->lookahead_ps, opt);
  } else if (kernel) {
    sim::HugePagesOnceLong huge_pages;
    kernel->set_progress([&](double wall) {
      huge_pages.tick(wall);
      if (reporting)
        reporter.report(wall, {phase_name(), ctx.clock.to_cycles(queue.now()), ctx.stats.delivered,
                               ctx.stats.measured_delivered, ctx.stats.measured_created,
                               double(queue.events_processed()) / wall, 1});
    });
    kernel->run();
  } else {
    queue.run_direct();
  }
  auto t2 = std::chrono::steady_clock::now();
  abandoned.finished = true;
  if (o.on_finished) o.on_finished();
  const double elaborate_s = std::chrono::duration<double>(t1 - t0).count();
  const double wall_s = std::chrono::duration<double>(t2 - t0).count();

  if (o.exiting_after) net.keep_until_exit();
  count_deliveries(ctx.stats);
  std::uint64_t events = queue.events_processed();
  bool deadlock = net.watchdog().fired();
  if (part) combine_stats(world, ctx.stats, net.activity(), events, deadlock);
  TrafficResult r;
  r.json = summarize(plat, o, ctx, net, elaborate_s, wall_s, events, net.watchdog());
  std::vector<std::uint64_t> by_block(queue.events_by_block().begin(), queue.events_by_block().end());
  if (part) world.sum(by_block);
  for (std::size_t b = 0; b < sim::kEventBlocks; ++b)
    r.json["events_by_block"][sim::event_block_name(sim::EventBlock(b))] = by_block[b];
  if (part) {
    r.json["deadlock"] = deadlock;
    r.json["parallel"] = platforms::split_report(world, *part, windows, *boundary, optical.get());
  }
  if (o.batch_packets == 0) {
    r.json["drain_limited"] = phases.drain_limited;
    r.json["ports"] = phases.ports;
    r.json["window_link_flits"] = phases.window_link_flits;
    r.json["energy"] = platforms::energy_json(plat, phases.energy, phases.energy_window,
                                              double(ctx.stats.window_flits_delivered), "flit");
    r.json["drain_cycles"] = o.drain_cycles ? o.drain_cycles : o.warmup_cycles + o.measure_cycles;
    if (o.warmup_converge)
      r.json["warmup"] = {{"rule", "converge"},
                          {"sample_cycles", o.sample_cycles},
                          {"threshold", o.warmup_threshold},
                          {"converged", phases.warmup_converged},
                          {"cycles", phases.warmup_cycles_used}};
  } else {                                             // a batch: the whole run, from time 0
    const sim::Time end = ctx.stats.last_delivery_ps;  // the batch's last packet, for any process count
    const platforms::EnergyTally energy = network_energy(net, part, queue.now(), end);
    r.json["energy"] = platforms::energy_json(plat, energy, end, double(ctx.stats.flits_delivered), "flit");
  }
  r.deadlock = deadlock;
  r.blocked = net.watchdog().blocked();
  r.lost_or_duplicated = !r.deadlock && (r.json["packets_lost"] != 0 || r.json["packets_duplicated"] != 0);
  return r;
}

}  // namespace kairo::traffic
