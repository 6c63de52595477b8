// A router port's counters and names as the router reports them
// (hw/router/router_observe.h).
#include "hw/router/router_observe.h"

#include <fmt/format.h>

#include <algorithm>

namespace kairo::router {

std::vector<observe::Counter> port_counters(int vcs) {
  using observe::Kind;
  std::vector<observe::Counter> c = {
      {"packets_sent", "packets", "packets this end sent onto the link", Kind::kTotal, observe::kInLog, ""},
      {"flits_sent", "flits", "flits this end sent onto the link", Kind::kTotal, observe::kInLog, ""},
      {"bytes_sent", "bytes", "bytes this end sent onto the link", Kind::kTotal, observe::kInLog, ""},
      {"packets_received", "packets", "packets this end received from the link", Kind::kTotal,
       observe::kInLog, ""},
      {"flits_received", "flits", "flits this end received from the link", Kind::kTotal, observe::kInLog, ""},
      {"bytes_received", "bytes", "bytes this end received from the link", Kind::kTotal, observe::kInLog, ""},
      {"busy_ps", "ps", "time the output link was serializing", Kind::kTotal, observe::kInLog, ""},
      {"stall_ps", "ps", "packet time spent ready but waiting for this output", Kind::kTotal, observe::kInLog,
       ""},
  };
  for (int v = 0; v < vcs; ++v)
    c.push_back({fmt::format("zero_credit_ps_vc{}", v), "ps",
                 "time the downstream VC had no credits (VC full)", Kind::kTotal, observe::kInLog, ""});
  return c;
}

void read_port(Router& r, int port, sim::Time now, int vcs, std::uint64_t* out) {
  const PortCounters c = r.counters(port, now);
  out[0] = c.packets_sent, out[1] = c.flits_sent, out[2] = c.bytes_sent;
  out[3] = c.packets_received, out[4] = c.flits_received, out[5] = c.bytes_received;
  out[6] = c.busy_ps - r.busy_after(port, now);  // the part of a packet still to go is later's
  out[7] = c.stall_ps;
  for (int v = 0; v < vcs; ++v) out[8 + v] = v < r.vcs() ? c.zero_credit_ps[std::size_t(v)] : 0;
}

std::vector<observe::Counter> alloc_counters() {
  using observe::Kind;
  return {
      {"adaptive_packets", "packets", "minimal adaptive routing: packets that left on an adaptive VC",
       Kind::kTotal, observe::kInLog, ""},
      {"escape_packets", "packets", "minimal adaptive routing: packets that left on an escape VC",
       Kind::kTotal, observe::kInLog, ""},
      {"nonminimal_packets", "packets", "dragonfly: packets that left on a Valiant (non-minimal) way",
       Kind::kTotal, observe::kInLog, ""},
      {"vc_requests", "rounds", "VC allocation rounds in which a head asked for a VC of this output",
       Kind::kTotal, observe::kInLog, ""},
      {"vc_grants", "rounds", "of those, the rounds that granted one", Kind::kTotal, observe::kInLog, ""},
      {"spec_hits", "grants", "speculative switch grants used (the VC was granted in the same round)",
       Kind::kTotal, observe::kInLog, ""},
      {"spec_misses", "grants", "speculative switch grants lost (no VC was granted)", Kind::kTotal,
       observe::kInLog, ""},
  };
}

void read_alloc(const Router& r, int port, std::uint64_t* out) {
  const AllocCounters a = r.alloc_counters(port);
  out[0] = a.adaptive_packets, out[1] = a.escape_packets, out[2] = a.nonminimal_packets;
  out[3] = a.vc_requests, out[4] = a.vc_grants, out[5] = a.spec_hits, out[6] = a.spec_misses;
}

std::string port_dim_name(const Router& r, int port, const hw::Topology* topo) {
  const int d = r.port_dim(port);
  if (d < 0) return "ni";
  if (topo) return topo->dim(d).name;
  const std::string name = r.port_name(port);
  return name.substr(0, name.find_first_of("0123456789"));  // switch ports: up1, down3, wan0
}

namespace {

// A probe for `r` recording into `trace`, every signal off.
std::unique_ptr<RouterProbe> new_probe(const Router& r, sim::Trace& trace) {
  auto probe = std::make_unique<RouterProbe>();
  probe->trace = &trace;
  probe->out.resize(std::size_t(r.num_ports()));
  probe->occupancy.assign(std::size_t(r.num_ports()) * std::size_t(r.vcs()), RouterProbe::kOff);
  probe->stall_from.assign(std::size_t(r.num_ports()), sim::kNever);
  probe->short_heads.assign(std::size_t(r.num_ports()), 0);
  probe->short_of_credits.assign(std::size_t(r.num_ports()) * std::size_t(r.vcs()), 0);
  probe->credits.assign(std::size_t(r.num_ports()) * std::size_t(r.vcs()), RouterProbe::kOff);
  return probe;
}

// Port `port`'s signals of the selected classes under `scope`
// ("rtr_x0y0.xp."), `probe` pointed at them; true if any was added. The
// "alloc" signals only where the router has the feature (`adaptive`:
// adaptive or non-minimal routing; a VC allocation stage; speculation).
bool add_port_signals(sim::Trace& trace, const std::string& scope, RouterProbe& probe, int port, int vcs,
                      const observe::TraceFilter& f, bool adaptive, bool staged, bool speculative) {
  auto selected = [&f](const char* c) { return f.selected(c); };
  bool any = observe::add_signals(trace, scope, kPortSignals, probe.out[std::size_t(port)], selected);
  if (f.selected(kAllocationClass)) {
    RouterProbe::Out& o = probe.out[std::size_t(port)];
    if (adaptive)
      o.route = trace.add(scope + "route", 3), trace.set_states(o.route, kRouteStates), any = true;
    if (staged) o.held = trace.add(scope + "vcs_held", 5), any = true;
    if (speculative) o.spec = trace.add(scope + "spec", 2), trace.set_states(o.spec, kSpecStates), any = true;
  }
  if (f.selected(kOccupancyClass))
    for (int vc = 0; vc < vcs; ++vc) {
      probe.occupancy[std::size_t(port) * std::size_t(vcs) + std::size_t(vc)] =
          trace.add(scope + fmt::format("vc{}_occupancy", vc), 16, /*delta=*/true);
      any = true;
    }
  return any;
}

// Class "credit": port `port`'s vcN_credits under `scope`, each starting at
// the router's free credits now (the receiver's buffer per VC, before the
// run) and as wide as that count needs.
void add_credit_signals(sim::Trace& trace, const std::string& scope, RouterProbe& probe, const Router& r,
                        int port) {
  for (int vc = 0; vc < r.vcs(); ++vc) {
    const auto full = std::uint64_t(std::max(r.free_credits(port, vc), 0));
    int width = 1;
    while (width < 32 && full >> width) ++width;
    const auto sig = trace.add(scope + fmt::format("vc{}_credits", vc), width, /*delta=*/true);
    probe.credits[std::size_t(port) * std::size_t(r.vcs()) + std::size_t(vc)] = sig;
    trace.add_delta(sig, 0, std::int64_t(full));
  }
}

// A traced router: its probe (null when no port is traced) and whether its
// allocator records its own wires.
class RouterRecording final : public observe::Recording {
 public:
  RouterRecording(Router& r, std::unique_ptr<RouterProbe> probe, bool allocator)
      : r_(r), probe_(std::move(probe)), allocator_(allocator) {
    if (probe_) r_.set_probe(probe_.get());
  }
  ~RouterRecording() override {
    if (probe_) r_.set_probe(nullptr);
    if (allocator_) r_.allocator().trace(nullptr, "", nullptr);
  }
  bool counted() const override { return probe_ != nullptr; }  // a router whose ports are traced

 private:
  Router& r_;
  std::unique_ptr<RouterProbe> probe_;
  bool allocator_;
};

}  // namespace

std::unique_ptr<observe::Recording> record(Router& r, const hw::Topology* topo, const observe::TraceFilter& f,
                                           sim::Trace& trace, const sim::Trace::States* packets) {
  const std::string name = r.name();
  const bool allocator =
      f.selected(kAllocatorClass) && r.allocator().trace(&trace, name + ".alloc", &r.queue());
  auto probe = new_probe(r, trace);
  bool any = false;
  for (int port = 0; port < r.num_ports(); ++port) {
    if (!r.port_connected(port) || !f.dim(port_dim_name(r, port, topo))) continue;
    const std::string scope = name + "." + r.port_name(port) + ".";
    any |= add_port_signals(trace, scope, *probe, port, r.vcs(), f,
                            r.routes_adaptively() || r.routes_nonminimally(), r.has_vc_allocation_stage(),
                            r.speculative());
    const auto pkt = probe->out[std::size_t(port)].pkt;
    if (packets && pkt != RouterProbe::kOff) trace.set_states(pkt, *packets);
    if (f.selected(kCreditClass)) {
      add_credit_signals(trace, scope, *probe, r, port);
      any = true;
    }
  }
  if (!any) probe.reset();
  if (!any && !allocator) return nullptr;
  return std::make_unique<RouterRecording>(r, std::move(probe), allocator);
}

bool port_touched(const Router& r, int port) {
  const LinkCounters& c = r.link_counters(port);
  return c.packets_sent || c.packets_received;
}

void save_port(const Router& r, int port, sim::ByteWriter& w) { r.save_port_counters(port, w); }

void load_port(Router& r, int port, sim::ByteReader& in) { r.load_port_counters(port, in); }

}  // namespace kairo::router
