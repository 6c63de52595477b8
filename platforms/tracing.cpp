#include "platforms/tracing.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <stdexcept>

#include "hw/nic/tni_observe.h"
#include "hw/ocs/ocs_fabric.h"
#include "hw/ocs/ocs_observe.h"
#include "hw/router/router_observe.h"
#include "platforms/network.h"

namespace kairo::platforms {

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> v;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, sep);)
    if (!item.empty()) v.push_back(item);
  return v;
}

long to_int(const std::string& option, const std::string& text) {
  std::size_t used = 0;
  long v = -1;
  try {
    v = std::stol(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || v < 0)
    throw std::invalid_argument(option + ": expected a non-negative integer, got '" + text + "'");
  return v;
}

// The signal classes the blocks register (--trace-signals), in this order.
std::vector<std::string> signal_classes() {
  std::vector<std::string> v;
  auto add = [&v](const char* c) {
    if (!std::count(v.begin(), v.end(), c)) v.push_back(c);
  };
  for (const auto& s : router::kPortSignals) add(s.signal_class);
  add(router::kOccupancyClass);
  for (const auto& s : nic::kTniSignals) add(s.signal_class);
  for (const auto& s : ocs::kPortSignals) add(s.signal_class);
  add(router::kAllocatorClass);
  add(router::kAllocationClass);
  add(router::kCreditClass);
  return v;
}

}  // namespace

// "0,5,17" or "0-15,32": the set, each below `limit`.
std::set<std::uint64_t> id_set(const std::string& option, const std::string& text, std::uint64_t limit) {
  std::set<std::uint64_t> ids;
  for (const std::string& item : split(text, ',')) {
    const auto dash = item.find('-');
    const long lo = to_int(option, item.substr(0, dash));
    const long hi = dash == std::string::npos ? lo : to_int(option, item.substr(dash + 1));
    if (hi < lo || std::uint64_t(hi) >= limit)
      throw std::invalid_argument(fmt::format("{}: '{}' is outside 0..{}", option, item, limit - 1));
    for (long k = lo; k <= hi; ++k) ids.insert(std::uint64_t(k));
  }
  return ids;
}

Tracer::Tracer(Network& net, RdmaMachine* machine, const TraceSelection& sel, sim::Trace& trace) {
  const router::Topology* topo = net.torus();
  const std::uint64_t n = net.num_nodes();
  // Nodes: the id list and the coordinate box.
  std::vector<char> node_on(n, 1);
  if (!sel.nodes.empty()) {
    const auto ids = id_set("--trace-nodes", sel.nodes, n);
    std::fill(node_on.begin(), node_on.end(), 0);
    for (auto id : ids) node_on[id] = 1;
  }
  if (!sel.box.empty()) {
    if (!topo)
      throw std::invalid_argument(
          "--trace-box: the platform is a switched fabric; select hosts with --trace-nodes");
    std::vector<std::pair<int, int>> range(std::size_t(topo->num_dims()), {0, 1 << 30});
    for (const std::string& item : split(sel.box, ',')) {
      const auto eq = item.find('=');
      const int d = eq == std::string::npos ? -1 : topo->dim_index(item.substr(0, eq));
      if (d < 0)
        throw std::invalid_argument(
            "--trace-box: expected DIM=lo:hi or DIM=v with a dimension of the platform, got '" + item + "'");
      const std::string r = item.substr(eq + 1);
      const auto colon = r.find(':');
      const long lo = to_int("--trace-box", r.substr(0, colon));
      const long hi = colon == std::string::npos ? lo : to_int("--trace-box", r.substr(colon + 1));
      if (hi < lo || hi >= topo->dim(d).size)
        throw std::invalid_argument(fmt::format("--trace-box: {} is outside dimension {} (0..{})", item,
                                                topo->dim(d).name, topo->dim(d).size - 1));
      range[std::size_t(d)] = {int(lo), int(hi)};
    }
    for (router::NodeId id = 0; id < n; ++id) {
      const auto c = topo->coord_of(id);
      for (int d = 0; d < topo->num_dims(); ++d)
        if (c[d] < range[std::size_t(d)].first || c[d] > range[std::size_t(d)].second) node_on[id] = 0;
    }
  }
  const std::vector<std::string> known = signal_classes();
  std::set<std::string> classes(known.begin(), known.end());
  classes.erase(router::kCreditClass);  // only when named: the default selection keeps its signals
  if (!sel.classes.empty()) {
    classes.clear();
    for (const std::string& c : split(sel.classes, ',')) {
      if (!std::count(known.begin(), known.end(), c)) {
        std::string expected;
        for (std::size_t k = 0; k < known.size(); ++k)
          expected += (k == 0 ? "" : k + 1 == known.size() ? " or " : ", ") + known[k];
        throw std::invalid_argument("--trace-signals: expected " + expected + ", got '" + c + "'");
      }
      classes.insert(c);
    }
  }
  auto selected = [&classes](const char* signal_class) { return classes.count(signal_class) > 0; };
  std::set<std::string> dims;
  for (const std::string& d : split(sel.dims, ',')) {
    std::string lower = d;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char ch) { return char(std::tolower(ch)); });
    const bool known = lower == "ni" || (topo ? topo->dim_index(d) >= 0
                                              : (lower == "up" || lower == "down" || lower == "wan" ||
                                                 lower == "local" || lower == "global"));
    if (!known)
      throw std::invalid_argument("--trace-dims: '" + d + "' is not " +
                                  (topo ? std::string("a dimension of the platform or ni")
                                        : std::string("ni (host ports), up, down, wan, local or global")));
    dims.insert(lower);
  }
  std::set<std::string> switch_names;
  for (const std::string& s : split(sel.switches, ',')) switch_names.insert(s);
  if (!switch_names.empty() && topo)
    throw std::invalid_argument(
        "--trace-switches: the platform is a mesh/torus; use --trace-nodes or --trace-box");
  if (!switch_names.empty()) {
    std::set<std::string> known;
    for (std::size_t i = 0; i < net.num_routers(); ++i) known.insert(net.router_at(i).name());
    for (const std::string& s : switch_names)
      if (!known.count(s)) {
        std::string some;
        int shown = 0;
        for (const std::string& k : known) {
          if (shown++ == 8) {
            some += ", ...";
            break;
          }
          some += (some.empty() ? "" : ", ") + k;
        }
        throw std::invalid_argument("--trace-switches: the platform has no switch named '" + s +
                                    "'; its switches: " + some);
      }
  }

  // A packet's value (observe/packet_label.h) has room for so many nodes and TNIs.
  if (machine && (n > observe::PacketLabel::kMaxNodes ||
                  std::uint64_t(machine->tnis_per_node()) > observe::PacketLabel::kMaxTnis))
    throw std::invalid_argument(fmt::format(
        "--vcd/--fst: a packet's waveform value names at most {} nodes and {} TNIs per node; the "
        "platform has {} nodes and {} TNIs per node",
        observe::PacketLabel::kMaxNodes, observe::PacketLabel::kMaxTnis, n, machine->tnis_per_node()));
  // Routers.
  for (std::size_t i = 0; i < net.num_routers(); ++i) {
    router::Router& r = net.router_at(i);
    const std::string name = r.name();
    if (topo ? !node_on[i] : (!switch_names.empty() && !switch_names.count(name))) continue;
    auto* rtl = dynamic_cast<router::RtlSeparableAllocator*>(&r.allocator());
    if (rtl && selected(router::kAllocatorClass)) {
      rtl->trace(&trace, name + ".alloc", &r.queue());
      traced_rtl_.push_back(rtl);
    }
    auto probe = router::new_probe(r, trace);
    bool any = false;
    for (int port = 0; port < r.num_ports(); ++port) {
      if (!r.port_connected(port)) continue;
      if (!dims.empty()) {
        std::string key = router::port_dim_name(r, port, topo);
        std::transform(key.begin(), key.end(), key.begin(),
                       [](unsigned char ch) { return char(std::tolower(ch)); });
        if (!dims.count(key)) continue;
      }
      any |= router::add_port_signals(trace, name + "." + r.port_name(port) + ".", *probe, port, r.vcs(),
                                      selected, r.routes_adaptively() || r.routes_nonminimally(),
                                      r.has_vc_allocation_stage(), r.speculative());
      // On an RDMA machine every packet is a NIC's: its label names its operation and place.
      const auto pkt = probe->out[std::size_t(port)].pkt;
      if (machine && pkt != router::RouterProbe::kOff) trace.set_states(pkt, nic::kPacketStates);
      if (selected(router::kCreditClass)) {
        router::add_credit_signals(trace, name + "." + r.port_name(port) + ".", *probe, r, port);
        any = true;
      }
    }
    if (!any) continue;
    r.set_probe(probe.get());
    traced_routers_.push_back(&r);
    routers_.push_back(std::move(probe));
  }
  // NICs.
  if (machine && selected(nic::kTniClass)) {
    const int per = machine->tnis_per_node();

    std::set<std::uint64_t> tni_on;
    if (!sel.tnis.empty()) tni_on = id_set("--trace-tnis", sel.tnis, std::uint64_t(per));
    for (router::NodeId id = 0; id < n; ++id) {
      if (!node_on[id]) continue;
      for (int t = 0; t < per; ++t) {
        if (!tni_on.empty() && !tni_on.count(std::uint64_t(t))) continue;
        auto probe = std::make_unique<nic::TniProbe>();
        probe->trace = &trace;
        const std::string base = fmt::format("nic_{}.tni{}.", net.node_name(id), t);
        observe::add_signals(trace, base, nic::kTniSignals, *probe, selected);
        nic::Tni& tni = machine->tni(id, t);
        tni.set_probe(probe.get());
        traced_tnis_.push_back(&tni);
        tnis_.push_back(std::move(probe));
      }
    }
  }
  // Optical ports (hybrid platforms).
  if (auto* h = net.optical(); h && classes.count("ocs")) {
    ocs::OcsFabric& f = h->ocs();
    auto probe = ocs::new_probe(f, trace);
    bool any = false;
    for (int port = 0; port < f.ports(); ++port) {
      if (!node_on[f.node_of(port)]) continue;
      const std::string base = fmt::format("ocs.{}_{}.", f.port_name(port), net.node_name(f.node_of(port)));
      any |= observe::add_signals_at(trace, base, ocs::kPortSignals, *probe, std::size_t(port), selected);
    }
    if (any) {
      f.set_probe(probe.get());
      traced_ocs_ = &f;
      ocs_ = std::move(probe);
    }
  }
  if (routers_.empty() && tnis_.empty() && !ocs_ && traced_rtl_.empty())
    throw std::invalid_argument(
        "the trace selection "
        "(--trace-nodes/--trace-box/--trace-switches/--trace-dims/--trace-tnis/--trace-signals) selects "
        "nothing");
}

Tracer::~Tracer() {
  for (router::Router* r : traced_routers_) r->set_probe(nullptr);
  for (nic::Tni* t : traced_tnis_) t->set_probe(nullptr);
  if (traced_ocs_) traced_ocs_->set_probe(nullptr);
  for (router::RtlSeparableAllocator* a : traced_rtl_) a->trace(nullptr, "", nullptr);
}

}  // namespace kairo::platforms
