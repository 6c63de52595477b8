// The `router:` keys, declared once (sim/params.h), the router's derived
// quantities, and the one translation from parameters to RouterConfig.
#include "hw/router/router_params.h"

#include <algorithm>
#include <climits>
#include <cmath>

#include "hw/common/link.h"
#include "hw/router/allocator.h"
#include "hw/router/router_config.h"

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
           "router-to-router link bandwidth per direction; sets the flit time");
    b.rate("host_bandwidth", &P::host_bytes_per_s, "network interface <-> router channel",
           "network interface <-> router channel bandwidth")
        .deflt = "= link_bandwidth";
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
        "...} naming every dimension");
    b.duration("host_latency", &P::host_latency_ps, "a duration such as 0ns",
               "propagation delay of the network interface <-> router channel");
    b.integer("credit_delay_cycles", &P::credit_delay_cycles, K::kCycles, 0, INT_MAX,
              "cycles a credit takes back upstream, on top of the cable",
              "credit return delay, added to the cable latency on the way back");
    b.integer("max_packet_flits", &P::max_packet_flits, K::kFlits, 1, 65535, "flits in the largest packet",
              "largest packet, header included (at most 65535)");
    b.shape("routing_order", "names", "declared order",
            "dimension-order routing: the order dimensions are corrected in, e.g. [X, Y, Z, A, C, B]");
    b.name("tie_break", &P::tie_break,
           {{"balanced", TieBreak::kBalanced},
            {"random", TieBreak::kRandom},
            {"plus", TieBreak::kPlus},
            {"minus", TieBreak::kMinus}},
           "ring direction when both ways are equally short",
           "the way round an even ring when both are equally short: balanced (by the starting coordinate's "
           "parity: even +, odd -), random (a coin per packet, as BookSim), plus or minus (always that way)");
    b.name("dateline", &P::dateline,
           {{"on_crossing", DatelineRule::kOnCrossing}, {"at_entry", DatelineRule::kAtEntry}},
           "when a packet takes a ring's high VC class",
           "mesh/torus rings: on_crossing (the low class up to the wrap-around link, the high class from it "
           "on) or at_entry (BookSim's dim_order_torus: the class is fixed as the packet enters the ring, by "
           "whether its way there crosses the wrap-around link)");
    b.name("routing", &P::routing,
           {{"dimension_order", RoutingAlgorithm::kDimensionOrder},
            {"minimal_adaptive", RoutingAlgorithm::kMinimalAdaptive},
            {"minimal", RoutingAlgorithm::kMinimal},
            {"valiant", RoutingAlgorithm::kValiant},
            {"ugal", RoutingAlgorithm::kUgal}},
           "routing strategy",
           "mesh/torus: dimension_order, or minimal_adaptive (any productive hop on the adaptive VCs, with "
           "dimension order on the escape VCs: VC 0, and VC 1 after the dateline when there is a ring (VC 0 "
           "alone under router.flow_control: bubble); needs "
           "router.vcs above those). Dragonfly: minimal (local, global, local; dimension_order means the "
           "same), valiant (through a random intermediate group) or ugal (minimal or Valiant, chosen at the "
           "source router by the two outputs' used credits); minimal needs router.vcs >= 2, the others >= 3 "
           "(one VC class per phase)");
    b.name("adaptive_selection", &P::adaptive_selection,
           {{"most_credits", AdaptiveSelection::kMostCredits},
            {"vc_allocator", AdaptiveSelection::kVcAllocator}},
           "how minimal_adaptive picks among its ways",
           "minimal_adaptive: most_credits (each round, the adaptive way whose output is free with the most "
           "free credits in an adaptive VC; the escape way only when no adaptive way can go) or vc_allocator "
           "(every free VC with credits for the packet on every way, adaptive and escape alike, is requested "
           "from router.vc_allocator, whose matching picks, as BookSim's iq router with min_adapt routing; "
           "needs a router.vc_allocator); other routings ignore it");
    b.name("adaptive_half_way", &P::adaptive_half_way, {{"both", HalfWay::kBoth}, {"minus", HalfWay::kMinus}},
           "minimal_adaptive's ways half-way round an even ring",
           "minimal_adaptive: the adaptive ways of a packet exactly half-way round an even ring: both "
           "directions, or minus only (BookSim's min_adapt_torus); the escape way follows router.tie_break; "
           "other routings ignore it");
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
        "router.vc_buffer_flits >= 2 x router.max_packet_flits; router.dateline does not apply)");
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
  cfg.adaptive_by_vc_allocator = p.routing == RoutingAlgorithm::kMinimalAdaptive &&
                                 p.adaptive_selection == AdaptiveSelection::kVcAllocator &&
                                 !cfg.vc_allocator.empty();
  cfg.store_and_forward = p.store_and_forward;
}

}  // namespace kairo::router
