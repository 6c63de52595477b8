// The `links:` keys, declared once (sim/params.h), and the checks across
// them and the router's packet size.
#include "platforms/link_params.h"

#include <fmt/format.h>

#include "platforms/platform.h"
#include "sim/units.h"

namespace kairo::platforms {

namespace {

// What differs between classes: the bandwidth's default and the lines of the table.
struct ClassDoc {
  const char* name;
  const char* bandwidth_deflt;
  const char* bandwidth;
  const char* latency;
  const char* buffer;
};

const ClassDoc kClasses[] = {
    {"host", "(required)", "switched fabrics: host <-> edge switch, per direction",
     "propagation delay of a host link", "receiver's buffer per VC on a host link"},
    {"up", "(required)",
     "edge switch <-> spine (fat tree) or cluster switch <-> its gateway (clusters), per direction",
     "propagation delay of an up link", "receiver's buffer per VC on an up link"},
    {"local", "(required for a > 1)", "dragonfly: router <-> router of one group, per direction",
     "propagation delay of a local link", "receiver's buffer per VC on a local link"},
    {"global", "(required for groups > 1)", "dragonfly: group <-> group, per direction",
     "propagation delay of a global link", "receiver's buffer per VC on a global link"},
    {"wan", "(required for clusters)", "gateway <-> gateway wide-area link",
     "propagation delay of a wide-area link (e.g. 10ms)",
     "receiver's buffer per VC on a wide-area link; bandwidth x round trip keeps it busy"},
};

// links.<class>.multiplier: a factor, read by hand (no declared kind is a
// real number); `what` is the message's explanation.
sim::ParamDecl multiplier(const char* cls, const char* doc) {
  sim::ParamBlock<LinkClass> b(std::string("links.") + cls);
  sim::ParamDecl& d = b.shape("multiplier", "count", fmt::format("{}", LinkClass{}.multiplier), doc);
  d.what = "Takizawa et al. 2008's U: bandwidth x U";
  return d;
}

void add_class(std::vector<sim::ParamDecl>& out, const ClassDoc& c) {
  sim::ParamBlock<LinkClass> b(std::string("links.") + c.name);
  b.rate("bandwidth", &LinkClass::bytes_per_s, "per direction", c.bandwidth).deflt = c.bandwidth_deflt;
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
      if (std::string(c.name) == "wan") {
        sim::ParamDecl ports;  // a list of cables, read by hand
        ports.key = "links.ports", ports.kind = sim::ParamKind::kShape, ports.unit = "list",
        ports.deflt = "-";
        ports.doc =
            "cables with their own values: [{switch, port, bandwidth, latency, buffer}], names as kairo "
            "check "
            "--ports lists them";
        ports.owner = &typeid(SwitchedFabric::PortOverride);
        d.push_back(std::move(ports));
      }
      add_class(d, c);
      if (std::string(c.name) == "up")
        d.push_back(
            multiplier("up",
                       "Takizawa et al. 2008's U: the class's bandwidth is multiplied by it (0.25, 5, "
                       "...); also links.host/wan.multiplier"));
    }
    add_wan_flow(d);
    return d;
  }();
  return decls;
}

const std::vector<sim::ParamDecl>& link_field_decls() {
  static const std::vector<sim::ParamDecl> decls = [] {
    std::vector<sim::ParamDecl> d;
    for (const ClassDoc& c : kClasses)
      if (std::string(c.name) != "up")
        d.push_back(multiplier(c.name, "as links.up.multiplier, for this class"));
    return d;
  }();
  return decls;
}

std::optional<sim::ParamProblem> link_problem(const Platform& p) {
  const SwitchedFabric& f = p.fabric;
  const RouterParams& r = p.router;
  const std::pair<const char*, const LinkClass&> classes[] = {
      {"host", f.host}, {"up", f.up}, {"wan", f.wan}, {"local", f.local}, {"global", f.global}};
  // Virtual cut-through: every receive buffer holds the largest packet.
  const std::uint64_t packet = std::uint64_t(r.max_packet_flits) * std::uint64_t(r.flit_bytes);
  for (const auto& [name, c] : classes)
    if (c.buffer_bytes > 0 && c.buffer_bytes < packet)
      return sim::ParamProblem{
          std::string("links.") + name + ".buffer",
          fmt::format(
              "expected at least router.max_packet_flits x router.flit_size ({}B): a VC must hold the "
              "largest packet, got {}B",
              packet, c.buffer_bytes)};
  // Times are integer picoseconds: a flit time must round to at least 1ps.
  const auto representable = [&](double bw) {
    double ps = r.flit_bytes * 1e12 / bw;
    return ps >= 0.5 && ps < 1e18;
  };
  for (const auto& [name, c] : classes)
    if (c.bytes_per_s > 0 && !representable(c.bytes_per_s))
      return sim::ParamProblem{
          std::string("links.") + name + ".bandwidth",
          fmt::format("expected a bandwidth at which one {}B flit takes between 1ps and 1e18ps, got {}",
                      r.flit_bytes, units::format_bandwidth(c.bytes_per_s))};
  return std::nullopt;
}

}  // namespace kairo::platforms
