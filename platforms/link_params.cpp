// The `links:` keys, declared once (sim/params.h), and the checks across
// them and the router's packet size.
#include "platforms/link_params.h"

#include <fmt/format.h>

#include <algorithm>

#include "platforms/platform.h"
#include "sim/units.h"

namespace kairo::platforms {

namespace {

using F = SwitchedFabric;

// One class of links: where the fabric keeps it, the kinds of fabric that
// have it, when a file must give it, and what differs in the table (the
// bandwidth's default and the lines).
struct ClassDoc {
  const char* name;
  LinkClass F::*member;
  std::vector<FabricKind> kinds;
  bool (*required)(const F&);
  const char* bandwidth_deflt;
  const char* bandwidth;
  const char* latency;
  const char* buffer;
};

const ClassDoc kClasses[] = {
    {"host",
     &F::host,
     {FabricKind::kFatTree, FabricKind::kClusters, FabricKind::kDragonfly},
     [](const F&) { return true; },
     "(required)",
     "switched fabrics: host <-> edge switch, per direction",
     "propagation delay of a host link",
     "receiver's buffer per VC on a host link"},
    {"up",
     &F::up,
     {FabricKind::kFatTree, FabricKind::kClusters},
     [](const F& f) { return f.edges > 1 || f.uplinks_per_edge > 0; },
     "(required)",
     "edge switch <-> spine (fat tree) or cluster switch <-> its gateway (clusters), per direction",
     "propagation delay of an up link",
     "receiver's buffer per VC on an up link"},
    {"local",
     &F::local,
     {FabricKind::kDragonfly},
     [](const F& f) { return f.group_routers > 1; },
     "(required for a > 1)",
     "dragonfly: router <-> router of one group, per direction",
     "propagation delay of a local link",
     "receiver's buffer per VC on a local link"},
    {"global",
     &F::global,
     {FabricKind::kDragonfly},
     [](const F& f) { return f.groups > 1; },
     "(required for groups > 1)",
     "dragonfly: group <-> group, per direction",
     "propagation delay of a global link",
     "receiver's buffer per VC on a global link"},
    {"wan",
     &F::wan,
     {FabricKind::kClusters},
     [](const F& f) { return f.edges > 1; },
     "(required for clusters)",
     "gateway <-> gateway wide-area link",
     "propagation delay of a wide-area link (e.g. 10ms)",
     "receiver's buffer per VC on a wide-area link; bandwidth x round trip keeps it busy"},
};

// The class `name` where p's kind of fabric has it.
const ClassDoc* class_doc(const Platform& p, const std::string& name) {
  for (const ClassDoc& c : kClasses)
    if (name == c.name && std::find(c.kinds.begin(), c.kinds.end(), p.kind) != c.kinds.end()) return &c;
  return nullptr;
}

void add_class(std::vector<sim::ParamDecl>& out, const ClassDoc& c) {
  sim::ParamBlock<LinkClass> b(std::string("links.") + c.name);
  b.rate("bandwidth", &LinkClass::bytes_per_s, "per direction", c.bandwidth).deflt = c.bandwidth_deflt;
  b.real("multiplier", &LinkClass::multiplier, 0, 0, "Takizawa et al. 2008's U: bandwidth x U",
         "Takizawa et al. 2008's U: the class's bandwidth is multiplied by it (0.25, 5, ...)");
  b.duration("latency", &LinkClass::latency_ps, "a duration such as 20ns", c.latency);
  b.bytes("buffer", &LinkClass::buffer_bytes, 1, UINT64_MAX, "a size such as 64KiB", "", c.buffer).deflt =
      "= router.vc_buffer_flits";
  out.insert(out.end(), b.decls().begin(), b.decls().end());
}

void add_wan_flow(std::vector<sim::ParamDecl>& out) {
  using K = sim::ParamKind;
  using W = WanFlow;
  sim::ParamBlock<W> b("links.wan");
  b.name("flow_control", &W::loss, {{"credit", false}, {"loss", true}},
         "credit: lossless, credit flow control; loss: TCP-like streams through a drop-tail bottleneck",
         "credit: lossless, credit flow control; loss: each inter-cluster stream (source host, destination "
         "host) runs a TCP-like window (slow start, AIMD, fast retransmit, timeout) through a drop-tail "
         "bottleneck (hw/router/wan_path.h)");
  b.bytes("queue", &W::queue_bytes, 1, UINT64_MAX, "a size such as 1MiB", "the bottleneck's buffer",
          "flow_control: loss: the bottleneck's drop-tail buffer in front of the wide-area link (assumed)");
  sim::ParamDecl& rto =
      b.duration("rto", &W::rto_ps, "a duration such as 1s",
                 "flow_control: loss: retransmission timeout, from the lost transmission (Linux's minimum)");
  rto.what = "the retransmission timeout", rto.min = 1;
  b.integer("initial_window", &W::initial_window, K::kCount, 1, 1 << 20,
            "segments in a stream's first congestion window",
            "flow_control: loss: a stream's initial congestion window in segments (one segment = one packet; "
            "RFC 3390)");
  out.insert(out.end(), b.decls().begin(), b.decls().end());
}

}  // namespace

const std::vector<sim::ParamDecl>& link_param_decls() {
  static const std::vector<sim::ParamDecl> decls = [] {
    std::vector<sim::ParamDecl> d;
    for (const ClassDoc& c : kClasses) {
      if (std::string(c.name) == "wan") {  // a list of cables, read by hand
        sim::ParamBlock<SwitchedFabric::PortOverride> ports("links");
        ports.shape(
            "ports", "list", "-",
            "cables with their own values: [{switch, port, bandwidth, latency, buffer}], names as kairo "
            "check --ports lists them");
        d.insert(d.end(), ports.decls().begin(), ports.decls().end());
      }
      add_class(d, c);
    }
    add_wan_flow(d);
    return d;
  }();
  return decls;
}

std::vector<std::string> link_classes(const Platform& p) {
  std::vector<std::string> names;
  for (const ClassDoc& c : kClasses)
    if (class_doc(p, c.name)) names.push_back(c.name);
  return names;
}

const LinkClass* link_class(const Platform& p, const std::string& name) {
  const ClassDoc* c = class_doc(p, name);
  return c ? &(p.fabric.*c->member) : nullptr;
}

LinkClass* link_class(Platform& p, const std::string& name) {
  const ClassDoc* c = class_doc(p, name);
  return c ? &(p.fabric.*c->member) : nullptr;
}

bool link_class_required(const Platform& p, const std::string& name) {
  const ClassDoc* c = class_doc(p, name);
  return c && c->required(p.fabric);
}

std::optional<sim::ParamProblem> link_problem(const Platform& p) {
  const SwitchedFabric& f = p.fabric;
  const RouterParams& r = p.router;
  // Virtual cut-through: every receive buffer holds the largest packet.
  const std::uint64_t packet = std::uint64_t(r.max_packet_flits) * std::uint64_t(r.flit_bytes);
  for (const ClassDoc& k : kClasses)
    if (const LinkClass& c = f.*k.member; c.buffer_bytes > 0 && c.buffer_bytes < packet)
      return sim::ParamProblem{
          std::string("links.") + k.name + ".buffer",
          fmt::format(
              "expected at least router.max_packet_flits x router.flit_size ({}B): a VC must hold the "
              "largest packet, got {}B",
              packet, c.buffer_bytes)};
  // Times are integer picoseconds: a flit time must round to at least 1ps.
  const auto representable = [&](double bw) {
    double ps = r.flit_bytes * 1e12 / bw;
    return ps >= 0.5 && ps < 1e18;
  };
  for (const ClassDoc& k : kClasses)
    if (const LinkClass& c = f.*k.member; c.bytes_per_s > 0 && !representable(c.bytes_per_s))
      return sim::ParamProblem{
          std::string("links.") + k.name + ".bandwidth",
          fmt::format("expected a bandwidth at which one {}B flit takes between 1ps and 1e18ps, got {}",
                      r.flit_bytes, units::format_bandwidth(c.bytes_per_s))};
  return std::nullopt;
}

}  // namespace kairo::platforms
