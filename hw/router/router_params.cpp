// The `router:` keys, declared once (sim/params.h), the checks across them,
// the router's derived quantities, and the one translation from parameters
// to RouterConfig.
#include "hw/router/router_params.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cmath>

#include "hw/common/link.h"
#include "hw/router/allocator.h"
#include "hw/router/router_config.h"
#include "sim/units.h"

namespace kairo::router {

namespace {
sim::Time round_ps(double ps) { return sim::Time(std::llround(ps)); }
}  // namespace

sim::Time RouterParams::clock_period_ps() const { return round_ps(1e12 / clock_hz); }

sim::Time RouterParams::flit_ps() const { return round_ps(double(flit_bytes) * 1e12 / link_bytes_per_s); }

sim::Time RouterParams::host_flit_ps() const {
  double rate = host_bytes_per_s > 0 ? host_bytes_per_s : link_bytes_per_s;
  return round_ps(double(flit_bytes) * 1e12 / rate);
}

double RouterParams::link_flits_per_cycle() const { return link_bytes_per_s / double(flit_bytes) / clock_hz; }

const std::vector<sim::ParamDecl>& router_param_decls() {
  using K = sim::ParamKind;
  using P = RouterParams;
  static const std::vector<sim::ParamDecl> decls = [] {
    // Keys of the networks that route by coordinates or by dragonfly arithmetic;
    // a fat tree's or clusters' switches route by destination tables.
    const std::vector<std::string> kTorusOnly = {kMeshTorus}, kTorusDragonfly = {kMeshTorus, kDragonfly};
    sim::ParamBlock<P> b("router");
    b.integer(
        "vcs", &P::vcs, K::kCount, 1, hw::kMaxVcs, "VCs per port",
        "virtual channels per port, 1 to 16; a ring dimension needs >= 2, split into two dateline classes "
        "(the low floor(vcs/2) before the dateline, the rest after)");
    b.integer("vc_buffer_flits", &P::vc_buffer_flits, K::kFlits, 1, INT_MAX, "flits of buffer per VC",
              "buffer per VC; must be >= router.max_packet_flits (virtual cut-through)");
    b.bytes("flit_size", &P::flit_bytes, 1, INT_MAX, "a size such as 32B", "bytes per flit",
            "bytes per flit");
    b.rate("link_bandwidth", &P::link_bytes_per_s, "per link direction",
           "router-to-router link bandwidth per direction; sets the flit time")
        .only = kTorusOnly;
    sim::ParamDecl& host =
        b.rate("host_bandwidth", &P::host_bytes_per_s, "network interface <-> router channel",
               "network interface <-> router channel bandwidth");
    host.deflt = "= link_bandwidth", host.only = kTorusOnly;
    b.frequency("clock", &P::clock_hz, "router clock",
                "router clock; pipeline stages and credits are counted in its cycles");
    b.integer("routing_cycles", &P::routing_cycles, K::kCycles, 0, INT_MAX, "cycles of route computation",
              "route computation per hop");
    b.integer("vc_alloc_cycles", &P::vc_alloc_cycles, K::kCycles, 0, INT_MAX, "cycles of VC allocation",
              "VC allocation per hop");
    b.integer("sw_alloc_cycles", &P::sw_alloc_cycles, K::kCycles, 0, INT_MAX, "cycles of switch allocation",
              "switch allocation per hop");
    b.integer("switch_traversal_cycles", &P::switch_traversal_cycles, K::kCycles, 0, INT_MAX,
              "cycles through the crossbar", "crossbar traversal per hop");
    b.shape(
         "cable_latency", "ns", sim::shown_duration(P::kDefaultCablePs),
         "propagation delay of a router-to-router cable: one duration for all dimensions or a map {X: 10ns, "
         "...} naming every dimension")
        .only = kTorusOnly;
    b.duration("host_latency", &P::host_latency_ps, "a duration such as 0ns",
               "propagation delay of the network interface <-> router channel")
        .only = kTorusOnly;
    b.integer("credit_delay_cycles", &P::credit_delay_cycles, K::kCycles, 0, INT_MAX,
              "cycles a credit takes back upstream, on top of the cable",
              "credit return delay, added to the cable latency on the way back");
    b.integer("max_packet_flits", &P::max_packet_flits, K::kFlits, 1, 65535, "flits in the largest packet",
              "largest packet, header included (at most 65535)");
    b.shape("routing_order", "names", "declared order",
            "dimension-order routing: the order dimensions are corrected in, e.g. [X, Y, Z, A, C, B]")
        .only = kTorusOnly;
    b.name("tie_break", &P::tie_break,
           {{"balanced", TieBreak::kBalanced},
            {"random", TieBreak::kRandom},
            {"plus", TieBreak::kPlus},
            {"minus", TieBreak::kMinus}},
           "ring direction when both ways are equally short",
           "the way round an even ring when both are equally short: balanced (by the starting coordinate's "
           "parity: even +, odd -), random (a coin per packet, as BookSim), plus or minus (always that way)")
        .only = kTorusOnly;
    b.name("dateline", &P::dateline,
           {{"on_crossing", DatelineRule::kOnCrossing}, {"at_entry", DatelineRule::kAtEntry}},
           "when a packet takes a ring's high VC class",
           "mesh/torus rings: on_crossing (the low class up to the wrap-around link, the high class from it "
           "on) or at_entry (BookSim's dim_order_torus: the class is fixed as the packet enters the ring, by "
           "whether its way there crosses the wrap-around link)")
        .only = kTorusOnly;
    // The routings' names and doc lines come from their descriptors (hw/router/routing.cpp).
    std::vector<std::pair<std::string, RoutingAlgorithm>> routings;
    std::string routing_doc = "routing strategy:";
    for (const RoutingKind& k : routing_kinds()) {
      routings.emplace_back(k.name, k.algorithm);
      routing_doc += std::string(routings.size() == 1 ? " " : "; ") + k.name + " (" + k.doc + ")";
    }
    b.name("routing", &P::routing, routings, "routing strategy", routing_doc.c_str()).only = kTorusDragonfly;
    b.name("adaptive_selection", &P::adaptive_selection,
           {{"most_credits", AdaptiveSelection::kMostCredits},
            {"vc_allocator", AdaptiveSelection::kVcAllocator}},
           "how an adaptive routing picks among its ways",
           "adaptive routings (minimal_adaptive): most_credits (each round, the adaptive way whose output is "
           "free with the most "
           "free credits in an adaptive VC; the escape way only when no adaptive way can go) or vc_allocator "
           "(every free VC with credits for the packet on every way, adaptive and escape alike, is requested "
           "from router.vc_allocator, whose matching picks, as BookSim's iq router with min_adapt routing; "
           "needs a router.vc_allocator); routings that are not adaptive ignore it");
    b.name(
        "adaptive_half_way", &P::adaptive_half_way, {{"both", HalfWay::kBoth}, {"minus", HalfWay::kMinus}},
        "an adaptive routing's ways half-way round an even ring",
        "adaptive routings (minimal_adaptive): the adaptive ways of a packet exactly half-way round an even "
        "ring: both directions, or minus only (BookSim's min_adapt_torus); the escape way follows "
        "router.tie_break; routings that are not adaptive ignore it");
    b.integer(
        "ugal_threshold", &P::ugal_threshold, K::kFlits, -1000000, 1000000,
        "flits of bias toward the minimal way",
        "dragonfly ugal: the packet goes minimally when the minimal output's used credits are at most "
        "twice the Valiant output's plus this (BookSim's adaptive_threshold, 30); other routings ignore it");
    b.name("ejection_vc", &P::ejection_vc, {{"any", EjectionVc::kAny}, {"phase", EjectionVc::kPhase}},
           "the VCs a packet may take to its host",
           "the channel to a host: any (any VC with room) or phase (dragonfly only: the VCs of the packet's "
           "routing phase, as BookSim's dragonfly routing functions eject; one VC then takes a phase's "
           "packets one after another)");
    // The allocators' names and doc lines come from their descriptors (hw/router/allocator.cpp).
    std::vector<std::pair<std::string, std::string>> allocators;
    std::string allocator_doc = "switch allocator:";
    for (const AllocatorKind& k : allocator_kinds()) {
      allocators.emplace_back(k.name, k.name);
      allocator_doc += std::string(allocators.size() == 1 ? " " : "; ") + k.name + " (" + k.doc +
                       (*k.knobs ? std::string(", reads ") + k.knobs : std::string()) + ")";
    }
    b.name("allocator", &P::allocator, allocators, "", allocator_doc.c_str());
    b.integer("islip_iterations", &P::islip_iterations, K::kCount, 1, INT_MAX,
              "request-grant-accept iterations per round",
              "iterations of the islip allocator per allocation round (BookSim's alloc_iters, 1 there by "
              "default); other allocators ignore it");
    std::vector<std::pair<std::string, std::string>> vc_allocators = {{"none", "none"}};
    for (const std::string& n : allocator_names()) vc_allocators.emplace_back(n, n);
    b.name("vc_allocator", &P::vc_allocator, vc_allocators, "",
           "none (the output VC is chosen in the switch allocation round: the VC of the packet's class with "
           "the most free credits) or an allocator (as router.allocator, C++ ones) running VC allocation as "
           "its own stage: heads that passed routing and router.vc_alloc_cycles are matched to free output "
           "VCs with credits for the whole packet; a VC is held by its packet until it leaves; switch "
           "allocation follows router.sw_alloc_cycles later. A head is routed once the packet ahead of it "
           "in its input VC has left (its last flit switch-allocated), as in a flit-level router");
    b.flag(
        "speculative", &P::speculative, "switch allocation in parallel with VC allocation",
        "with a router.vc_allocator: a head requests the switch in the same round as its VC (Peh & Dally); "
        "the grant is used only if the VC was granted too, and only where the switch allocator, working "
        "beside it, granted neither its input nor its output (heads that already hold a VC win). The "
        "zero-load pipeline is routing + max(VC, switch allocation) cycles");
    b.name(
         "flow_control", &P::flow_control,
         {{"cut_through", FlowControl::kCutThrough},
          {"wormhole", FlowControl::kWormhole},
          {"bubble", FlowControl::kBubble}},
         "",
         "mesh/torus and dragonfly: cut_through (virtual cut-through: a packet moves whole, a VC takes it "
         "only with credits for all of it, so router.vc_buffer_flits >= router.max_packet_flits; rings split "
         "their VCs into two dateline classes) or wormhole (a packet moves as flits, may be longer than a VC "
         "buffer, holds each downstream VC from its head flit to its tail flit, one credit per flit; body "
         "flits pass switch allocation only). Mesh/torus also: bubble (virtual "
         "cut-through with bubble flow control on rings: no dateline classes, every VC serves every packet "
         "(under minimal_adaptive routing the escape network is VC 0 alone); "
         "a VC between routers holds router.vc_buffer_flits / router.max_packet_flits packets, whatever "
         "their size, and a packet enters a ring only into a VC with room for two, so "
         "router.vc_buffer_flits >= 2 x router.max_packet_flits; router.dateline does not apply)")
        .only = kTorusDragonfly;
    b.integer("network_interfaces", &P::network_interfaces, K::kCount, 1, 64,
              "injection/ejection port pairs per router",
              "injection/ejection port pairs per router, 1 to 64 (Tofu: 4 TNIs, TofuD: 6)");
    b.integer("watchdog_cycles", &P::watchdog_cycles, K::kCycles, 1, LLONG_MAX,
              "cycles without progress before a deadlock is reported",
              "cycles without any progress in a router holding packets before a deadlock is reported");
    b.duration(
         "switching_delay", &P::switching_delay_ps, "a duration such as 128ns",
         "switched fabrics: time from a packet's arrival (its tail, store-and-forward) to its departure; "
         "replaces routing, VC and switch allocation cycles (in a switched fabric the crossbar traversal "
         "too)")
        .deflt = "= the cycle counts";
    b.name("forwarding", &P::store_and_forward, {{"cut_through", false}, {"store_and_forward", true}}, "",
           "switched fabrics: cut_through (forward once the head is in) or store_and_forward (once the tail "
           "is)");
    return b.decls();
  }();
  return decls;
}

std::optional<sim::ParamProblem> routing_problem(const RouterParams& p, bool dragonfly) {
  const RoutingKind& k = routing_kind(p.routing);
  if (dragonfly && !k.dragonfly) {
    std::string same;  // the routings that are another on a dragonfly
    for (const RoutingKind& r : routing_kinds())
      if (*r.same_as)
        same += fmt::format("{}{}, the same as {}", same.empty() ? "" : "; ", r.name, r.same_as);
    return sim::ParamProblem{
        "router.routing",
        fmt::format("expected {} on a dragonfly{}, got {} (meshes and tori only)",
                    routing_names(own_dragonfly_routing), same.empty() ? "" : " (or " + same + ")", k.name)};
  }
  if (dragonfly && p.bubble())
    return sim::ParamProblem{"router.flow_control",
                             "expected cut_through or wormhole on a dragonfly, got bubble (bubble flow "
                             "control keeps the rings of a "
                             "mesh/torus free of deadlock; a dragonfly's phases take VC classes instead)"};
  if (!dragonfly && p.ejection_vc == EjectionVc::kPhase)
    return sim::ParamProblem{"router.ejection_vc",
                             "expected any on a mesh/torus, got phase (routing phases are a dragonfly's; a "
                             "mesh or torus packet may "
                             "eject on any VC, as in BookSim)"};
  if (!dragonfly && !k.torus)
    return sim::ParamProblem{
        "router.routing",
        fmt::format("expected {} on a mesh/torus; {} route dragonflies",
                    routing_names([](const RoutingKind& r) { return r.torus != nullptr; }),
                    routing_names([](const RoutingKind& r) { return r.torus == nullptr; }, "and"))};
  return std::nullopt;
}

namespace {

// A check across router keys: the key it names, the message, the keys the
// values came from (the router's section when the file gives none of them).
sim::ParamProblem across(std::string key, std::string message, std::vector<std::string> from) {
  return sim::ParamProblem{std::move(key), std::move(message), std::move(from), "router"};
}

std::optional<sim::ParamProblem> vc_problem(const std::vector<hw::DimSpec>& dims, const RouterParams& p) {
  for (const auto& d : dims) {
    if (d.wrap && d.size >= 3 && p.vcs < 2 && !p.bubble())
      return across(
          "router.vcs",
          fmt::format(
              "expected an integer >= 2 because dimension {} is a ring (wrap: true, size {}) and needs "
              "two dateline VC classes, got {} (router.flow_control: bubble needs no classes)",
              d.name, d.size, p.vcs),
          {"router.vcs", "topology.dims." + d.name + ".size", "topology.dims." + d.name + ".wrap"});
  }
  const RoutingKind& k = routing_kind(p.routing);
  if (k.adaptive) {
    bool ring = false;
    for (const auto& d : dims) ring = ring || (d.wrap && d.size >= 3);
    const bool two = ring && !p.bubble();  // dateline classes; bubble needs one escape VC
    const int escape = two ? 2 : 1;
    if (p.vcs <= escape)
      return across(
          "router.vcs",
          fmt::format("expected an integer >= {} because router.routing is {}, whose escape network "
                      "takes {} ({}) and needs at least one adaptive VC beside, got {}",
                      escape + 1, k.name, escape == 2 ? "VCs 0 and 1" : "VC 0",
                      two    ? "the topology has a ring: two dateline classes"
                      : ring ? "bubble flow control keeps its rings with one"
                             : "no ring",
                      p.vcs),
          {"router.vcs", "router.routing"});
  }
  if (k.adaptive && p.adaptive_selection == AdaptiveSelection::kVcAllocator && p.vc_allocator == "none")
    return across(
        "router.adaptive_selection",
        "expected most_credits while router.vc_allocator is none: vc_allocator lets the VC allocation "
        "stage pick the way; name an allocator in router.vc_allocator (e.g. islip)",
        {"router.adaptive_selection", "router.vc_allocator"});
  if (p.speculative && p.vc_allocator == "none")
    return across(
        "router.speculative",
        "expected false while router.vc_allocator is none: speculation overlaps switch allocation with "
        "a VC allocation stage; name an allocator in router.vc_allocator (e.g. islip) or drop "
        "router.speculative",
        {"router.speculative", "router.vc_allocator"});
  return std::nullopt;
}

std::optional<sim::ParamProblem> buffer_problem(const RouterParams& p) {
  if (p.bubble() && p.max_packet_flits > 32767)
    return across(
        "router.max_packet_flits",
        fmt::format("expected at most 32767 flits under router.flow_control: bubble (a packet entering "
                    "a ring asks for two of them), got {}",
                    p.max_packet_flits),
        {"router.max_packet_flits", "router.flow_control"});
  if (p.bubble() && std::int64_t(p.vc_buffer_flits) < 2 * std::int64_t(p.max_packet_flits))
    return across(
        "router.vc_buffer_flits",
        fmt::format("expected at least 2 x router.max_packet_flits ({0}) flits under router.flow_control: "
                    "bubble, got {1}: a packet enters a ring only into a VC with room for two of the "
                    "largest packets; raise router.vc_buffer_flits to at least {0} or lower "
                    "router.max_packet_flits",
                    2 * std::int64_t(p.max_packet_flits), p.vc_buffer_flits),
        {"router.vc_buffer_flits", "router.max_packet_flits", "router.flow_control"});
  if (!p.wormhole() && p.vc_buffer_flits < p.max_packet_flits)
    return across(
        "router.vc_buffer_flits",
        fmt::format(
            "expected at least router.max_packet_flits ({0}) flits, got {1}: under virtual cut-through a "
            "VC must hold the largest packet: raise router.vc_buffer_flits to at least {0} or lower "
            "router.max_packet_flits",
            p.max_packet_flits, p.vc_buffer_flits),
        {"router.vc_buffer_flits", "router.max_packet_flits"});
  return std::nullopt;
}

// Times are integer picoseconds: a period or flit time that rounds to 0 ps
// (or overflows) cannot be simulated.
std::optional<sim::ParamProblem> time_problem(const RouterParams& p) {
  auto representable = [](double ps) { return ps >= 0.5 && ps < 1e18; };
  if (!representable(1e12 / p.clock_hz))
    return sim::ParamProblem{
        "router.clock", fmt::format("expected a clock whose period is at least 1ps when rounded to whole "
                                    "picoseconds (at most 2THz), got {} (period {:.3g}ps)",
                                    units::format_frequency(p.clock_hz), 1e12 / p.clock_hz)};
  const char* flit = "expected a bandwidth at which one {}B flit takes between 1ps and 1e18ps, got {}";
  if (!representable(p.flit_bytes * 1e12 / p.link_bytes_per_s))
    return sim::ParamProblem{"router.link_bandwidth",
                             fmt::format(flit, p.flit_bytes, units::format_bandwidth(p.link_bytes_per_s))};
  if (p.host_bytes_per_s > 0 && !representable(p.flit_bytes * 1e12 / p.host_bytes_per_s))
    return sim::ParamProblem{"router.host_bandwidth",
                             fmt::format(flit, p.flit_bytes, units::format_bandwidth(p.host_bytes_per_s))};
  // A hop's pipeline, summed in cycles and then in picoseconds, and the
  // watchdog's patience stay far from 2^64 ps (the message names the
  // longest stage). A watchdog shorter than the pipeline is legal: it
  // reports the heads in the pipeline as blocked (tests use one of 1 cycle).
  const std::pair<const char*, long long> stages[] = {
      {"router.routing_cycles", p.routing_cycles},
      {"router.vc_alloc_cycles", p.vc_alloc_cycles},
      {"router.sw_alloc_cycles", p.sw_alloc_cycles},
      {"router.switch_traversal_cycles", p.switch_traversal_cycles},
      {"router.credit_delay_cycles", p.credit_delay_cycles}};
  long long pipeline = 0;
  const auto* longest = &stages[0];
  for (const auto& s : stages) {
    pipeline += s.second;  // each at most 2^31 - 1: no wrap in 64 bits
    if (s.second > longest->second) longest = &s;
  }
  const double period_ps = 1e12 / p.clock_hz;
  if (double(pipeline) * period_ps >= 1e17)
    return across(
        longest->first,
        fmt::format("expected a pipeline of at most 1e17ps, but its {} cycles of {:.3g}ps are {:.3g}ps",
                    pipeline, period_ps, double(pipeline) * period_ps),
        {longest->first, "router.clock"});
  if (double(p.watchdog_cycles) * period_ps >= 1e18)
    return sim::ParamProblem{
        "router.watchdog_cycles",
        fmt::format("expected at most {:.0f} cycles (1e18ps at the router.clock's {:.3g}ps), got {}",
                    std::floor(1e18 / period_ps), period_ps, p.watchdog_cycles)};
  return std::nullopt;
}

}  // namespace

std::optional<sim::ParamProblem> router_problem(const std::vector<hw::DimSpec>& dims, const RouterParams& p) {
  if (auto q = vc_problem(dims, p)) return q;
  if (auto q = buffer_problem(p)) return q;
  return time_problem(p);
}

void apply_router_params(const RouterParams& p, RouterSite site, RouterConfig& cfg) {
  const sim::Clock& clock = cfg.clock;
  cfg.vcs = p.vcs;
  dimension_order_vc_classes(p.vcs, cfg.vc_first.data(), cfg.vc_last.data());
  cfg.vc_buffer_flits = p.vc_buffer_flits;
  cfg.flit_bytes = p.flit_bytes;
  cfg.network_interfaces = p.network_interfaces;
  cfg.pipeline_ps = p.switching_delay_ps > 0
                        ? clock.ceil(p.switching_delay_ps)
                        : clock.cycles(p.routing_cycles + p.vc_alloc_cycles + p.sw_alloc_cycles);
  const bool delay_is_whole_switch = site == RouterSite::kSwitchedFabric && p.switching_delay_ps > 0;
  cfg.traversal_ps = delay_is_whole_switch ? 0 : clock.cycles(p.switch_traversal_cycles);
  cfg.credit_delay_ps = clock.cycles(p.credit_delay_cycles);
  cfg.allocator = p.allocator;
  cfg.vc_allocator = p.vc_allocator == "none" ? std::string() : p.vc_allocator;
  cfg.speculative = p.speculative;
  cfg.wormhole = p.wormhole();
  cfg.bubble_flits = p.bubble() ? p.max_packet_flits : 0;
  cfg.body_pipeline_ps = clock.cycles(p.sw_alloc_cycles);
  // With a VC allocation stage: VC allocation is decided routing + VA cycles
  // after arrival (routing + max(VA, SA) when speculative), and switch
  // allocation SA cycles after the VC grant (in the same round when
  // speculative). The zero-load pipeline is then the same as without the
  // stage, less min(VA, SA) when speculative.
  if (p.switching_delay_ps == 0 && !cfg.vc_allocator.empty()) {
    const int va = p.speculative ? std::max(p.vc_alloc_cycles, p.sw_alloc_cycles) : p.vc_alloc_cycles;
    cfg.va_ready_ps = clock.cycles(p.routing_cycles + va);
    cfg.sa_after_va_ps = p.speculative ? 0 : clock.cycles(p.sw_alloc_cycles);
    cfg.pipeline_ps = cfg.va_ready_ps + cfg.sa_after_va_ps;
  }
  cfg.islip_iterations = p.islip_iterations;
  cfg.adaptive_by_vc_allocator = routing_kind(p.routing).adaptive &&
                                 p.adaptive_selection == AdaptiveSelection::kVcAllocator &&
                                 !cfg.vc_allocator.empty();
  cfg.store_and_forward = p.store_and_forward;
}

}  // namespace kairo::router
