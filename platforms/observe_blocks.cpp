// Registering a machine's blocks for observation (platforms/observe_blocks.h).
#include "platforms/observe_blocks.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <set>
#include <stdexcept>
#include <unordered_map>

#include "hw/nic/tni_observe.h"
#include "hw/ocs/ocs_fabric.h"
#include "hw/ocs/ocs_observe.h"
#include "hw/router/router_observe.h"
#include "platforms/energy.h"
#include "platforms/network.h"
#include "platforms/tracing.h"

namespace kairo::platforms {

namespace {

// A link row: a connected router port and its peer router's port, or kNoPeer
// for a network interface, kept as indices: names are derived on output (at
// K-computer scale stored names would cost a gigabyte).
struct LinkRef {
  std::uint32_t router;
  std::uint16_t port;
  std::uint32_t peer;
  std::uint16_t peer_port;
};
constexpr std::uint32_t kNoPeer = ~std::uint32_t(0);

observe::Place link_place(Network& net, const LinkRef& ref) {
  const hw::Topology* topo = net.torus();
  const router::Router& r = net.router_at(ref.router);
  const int port = ref.port;
  observe::Place l;
  l.unit = r.name();
  l.port = r.port_name(port);
  l.coord = topo ? net.node_name(hw::NodeId(ref.router)) : l.unit;
  if (ref.peer != kNoPeer) {
    const router::Router& peer = net.router_at(ref.peer);
    l.peer = peer.name();
    l.peer_port = peer.port_name(ref.peer_port);
  } else {
    l.peer = "nic_" + (topo ? net.node_name(hw::NodeId(ref.router)) : l.port);
    l.peer_port = topo ? fmt::format("tni{}", port - (r.num_ports() - net.network_interfaces())) : "";
  }
  l.dim = router::port_dim_name(r, port, topo);
  if (topo && r.port_dim(port) >= 0) {
    const int dir = topo->port_dir(port);
    l.dir = dir > 0 ? "+" : dir < 0 ? "-" : "";
  }
  return l;
}

// The router ports' rows, and each router's address (read at every sample
// without the network's virtual lookup).
struct Links {
  std::vector<LinkRef> refs;
  std::vector<router::Router*> routers;
};

// The connected ports of the routers `which` accepts, as rows.
template <class Which>
std::shared_ptr<Links> port_rows(Network& net, Which which) {
  auto shared = std::make_shared<Links>();
  for (std::size_t i = 0; i < net.num_routers(); ++i) shared->routers.push_back(&net.router_at(i));
  std::unordered_map<const hw::PacketSink*, std::uint32_t> router_of;
  for (std::size_t i = 0; i < net.num_routers(); ++i) router_of[&net.router_at(i)] = std::uint32_t(i);
  for (std::size_t i = 0; i < net.num_routers(); ++i) {
    router::Router& r = net.router_at(i);
    if (!which(r)) continue;
    for (int port = 0; port < r.num_ports(); ++port) {
      if (!r.port_connected(port)) continue;
      LinkRef l{std::uint32_t(i), std::uint16_t(port), kNoPeer, 0};
      const hw::LinkOut& out = r.link_out(port);
      if (auto it = router_of.find(out.dst); it != router_of.end())
        l.peer = it->second, l.peer_port = out.dst_port;
      shared->refs.push_back(l);
    }
  }
  return shared;
}

// The link table's energy column, on router ports and optical ports alike.
observe::Counter energy_counter() {
  return {"energy_fj",
          "fJ",
          "dynamic energy this port spent: a router port's buffer writes of the flits in, reads and crossbar "
          "of the flits out, switch allocations, route computations and the link's flits; 0 on an optical "
          "port (a circuit costs nothing per bit; its static power is in the run's energy object)",
          observe::Kind::kTotal,
          observe::kInLog,
          ""};
}

// A row of the "link" table for `scope`: its counters, then the port's
// dynamic energy (docs/energy.md), written like the counts it comes from as
// a running total, so that an interval's difference over its length is the
// port's dynamic power (fJ per ps = mW). `energy` gets that column's index.
observe::CounterSet link_rows(const char* scope, std::vector<observe::Counter> counters,
                              std::size_t* energy) {
  observe::CounterSet s;
  s.table = "link";
  s.scope = scope;
  s.counters = std::move(counters);
  *energy = s.counters.size();
  s.counters.push_back(energy_counter());
  return s;
}

observe::CounterSet router_ports(Network& net, int vcs) {
  auto shared = port_rows(net, [](const router::Router&) { return true; });
  auto costs = std::make_shared<const RouterCosts>(net, net.platform());
  std::size_t energy = 0;
  observe::CounterSet s = link_rows("rtr", router::port_counters(vcs), &energy);
  s.blocks = shared->refs.size();
  s.read = [shared, costs, vcs, energy](std::size_t i, sim::Time now, std::uint64_t* out) {
    const LinkRef& l = shared->refs[i];
    router::Router& r = *shared->routers[l.router];
    router::read_port(r, l.port, now, vcs, out);
    RouterTraffic traffic;
    traffic.add_port(r, l.port, r.counters(l.port, now));
    const double pj = traffic_energy(traffic, costs->of(r), costs->link_flit_pj()).total_pj();
    out[energy] = std::uint64_t(std::llround(pj * 1e3));
  };
  s.place = [&net, shared](std::size_t i) { return link_place(net, shared->refs[i]); };
  s.state.home = [shared](std::size_t i) {
    return observe::Home{observe::Home::kRouter, shared->refs[i].router};
  };
  s.state.touched = [shared](std::size_t i) {
    const LinkRef& l = shared->refs[i];
    return router::port_touched(*shared->routers[l.router], l.port);
  };
  s.state.save = [shared](std::size_t i, sim::ByteWriter& w) {
    const LinkRef& l = shared->refs[i];
    router::save_port(*shared->routers[l.router], l.port, w);
  };
  s.state.load = [shared](std::size_t i, sim::ByteReader& r) {
    const LinkRef& l = shared->refs[i];
    router::load_port(*shared->routers[l.router], l.port, r);
  };
  return s;
}

// Table "alloc": the ports of the routers that count their allocation's
// choices (router::Router::counts_allocation); none on most platforms, and
// then no table, so their logs keep their bytes.
observe::CounterSet router_alloc_ports(Network& net) {
  auto shared = port_rows(net, [](const router::Router& r) { return r.counts_allocation(); });
  observe::CounterSet s;
  s.table = "alloc";
  s.scope = "rtr";
  s.counters = router::alloc_counters();
  s.blocks = shared->refs.size();
  s.read = [shared](std::size_t i, sim::Time, std::uint64_t* out) {
    const LinkRef& l = shared->refs[i];
    router::read_alloc(*shared->routers[l.router], l.port, out);
  };
  s.place = [&net, shared](std::size_t i) { return link_place(net, shared->refs[i]); };
  return s;
}

// The optical ports of a hybrid network: dimension "ocs" (docs/counters.md:
// stall_ps is the time its circuit was not up).
observe::CounterSet optical_ports(Network& net, ocs::OcsFabric& f, int vcs) {
  std::size_t energy = 0;
  observe::CounterSet s = link_rows("ocs", ocs::port_counters(vcs), &energy);
  s.blocks = std::size_t(f.ports());
  s.read = [&f, vcs, energy](std::size_t i, sim::Time now, std::uint64_t* out) {
    ocs::read_port(f, int(i), now, vcs, out);
    out[energy] = 0;  // no energy per bit; a row stays all zero, and left out, when its port is idle
  };
  s.place = [&net, &f](std::size_t i) {
    const int port = int(i);
    return observe::Place{"ocs", f.port_name(port), net.node_name(f.node_of(port)), "ocs", "", "ocs", "", 0};
  };
  s.state.home = [&f](std::size_t i) { return observe::Home{observe::Home::kNode, f.node_of(int(i))}; };
  s.state.touched = [](std::size_t) { return true; };  // its circuit's state counts even idle
  s.state.save = [&f](std::size_t i, sim::ByteWriter& w) { f.save_port(int(i), w); };
  s.state.load = [&f](std::size_t i, sim::ByteReader& r) { f.load_port(int(i), r); };
  return s;
}

// Routers by index: on a mesh/torus router i is node i's, selected with its
// node; a switch is selected by name. An RDMA machine's packets are all its
// NICs', so their labels name operation and place.
observe::TraceSet router_traces(Network& net, bool nic_packets) {
  observe::TraceSet t;
  t.blocks = net.num_routers();
  t.counted_as = "routers";
  const sim::Trace::States* packets = nic_packets ? &nic::kPacketStates : nullptr;
  t.attach = [&net, packets](std::size_t i, const observe::TraceFilter& f,
                             sim::Trace& trace) -> std::unique_ptr<observe::Recording> {
    router::Router& r = net.router_at(i);
    const hw::Topology* topo = net.torus();
    if (topo ? !f.node(i) : !f.unit(r.name())) return nullptr;
    return router::record(r, topo, f, trace, packets);
  };
  return t;
}

// The RDMA engines, node by node; --trace-tnis picks engines of a node.
observe::TraceSet tni_traces(RdmaMachine* machine) {
  observe::TraceSet t;
  t.counted_as = "tnis";
  if (!machine) return t;
  const int per = machine->tnis_per_node();
  t.blocks = machine->nodes() * std::size_t(per);
  auto engines = std::make_shared<std::set<std::uint64_t>>();  // empty: all
  t.prepare = [engines, per](const observe::TraceFilter& f) {
    if (f.selected(nic::kTniClass) && !f.indices.empty())
      *engines = id_set("--trace-tnis", f.indices, std::uint64_t(per));
  };
  t.attach = [machine, per, engines](std::size_t i, const observe::TraceFilter& f,
                                     sim::Trace& trace) -> std::unique_ptr<observe::Recording> {
    const hw::NodeId n = hw::NodeId(i / std::size_t(per));
    const int e = int(i % std::size_t(per));
    if (!f.node(n) || (!engines->empty() && !engines->count(std::uint64_t(e)))) return nullptr;
    const std::string scope = fmt::format("nic_{}.tni{}.", machine->network().node_name(n), e);
    return nic::record(machine->tni(n, e), scope, f, trace);
  };
  return t;
}

// A hybrid network's optical switch: one block, its ports selected by node.
observe::TraceSet optical_traces(Network& net, ocs::OcsFabric& f) {
  observe::TraceSet t;
  t.blocks = 1;
  t.attach = [&net, &f](std::size_t, const observe::TraceFilter& sel, sim::Trace& trace) {
    return ocs::record(f, sel, trace, [&net, &f](int port) {
      return fmt::format("ocs.{}_{}.", f.port_name(port), net.node_name(f.node_of(port)));
    });
  };
  return t;
}

}  // namespace

int widest_vcs(Network& net) {
  int vcs = 1;
  for (std::size_t i = 0; i < net.num_routers(); ++i) vcs = std::max(vcs, net.router_at(i).vcs());
  return vcs;
}

observe::CounterSet tni_blocks(RdmaMachine* machine) {
  observe::CounterSet s;
  s.table = "tni";
  s.scope = "tni";
  s.counters = nic::tni_counters();
  if (!machine) return s;
  if (machine->network().partial())  // its blocks would not be numbered as the whole machine's
    throw std::logic_error("tni_blocks: the machine is a partial build (OwnedPart)");
  const int per = machine->tnis_per_node();
  auto tnis = std::make_shared<std::vector<const nic::Tni*>>();
  for (hw::NodeId n = 0; n < machine->nodes(); ++n)
    for (int t = 0; t < per; ++t) tnis->push_back(&machine->tni(n, t));
  s.blocks = tnis->size();
  s.read = [tnis](std::size_t i, sim::Time now, std::uint64_t* out) {
    nic::read_counters(*(*tnis)[i], now, out);
  };
  s.place = [machine, per](std::size_t i) {
    const hw::NodeId n = hw::NodeId(i / std::size_t(per));
    const int t = int(i % std::size_t(per));
    const std::string node = machine->network().node_name(n);
    return observe::Place{node, fmt::format("tni{}", t), node, "", "", "", "", t};
  };
  s.state.home = [per](std::size_t i) { return observe::Home{observe::Home::kNode, i / std::size_t(per)}; };
  s.state.touched = [tnis, per](std::size_t i) {  // a node's engines move together
    const std::size_t first = i - i % std::size_t(per);
    for (std::size_t k = first; k < first + std::size_t(per); ++k)
      if (nic::active(*(*tnis)[k])) return true;
    return false;
  };
  s.state.save = [tnis](std::size_t i, sim::ByteWriter& w) { nic::save(*(*tnis)[i], w); };
  s.state.load = [machine, per](std::size_t i, sim::ByteReader& r) {
    nic::load(machine->tni(hw::NodeId(i / std::size_t(per)), int(i % std::size_t(per))), r);
  };
  return s;
}

observe::Registry observe_blocks(Network& net, RdmaMachine* machine) {
  if (net.partial()) throw std::logic_error("observe_blocks: the network is a partial build (OwnedPart)");
  const int vcs = widest_vcs(net);
  observe::Registry reg;
  reg.add(router_ports(net, vcs));
  if (auto* h = net.optical()) reg.add(optical_ports(net, h->ocs(), vcs));
  reg.add(tni_blocks(machine));
  if (observe::CounterSet a = router_alloc_ports(net); a.blocks > 0) reg.add(std::move(a));
  // The waveform's signal classes, in the order --trace-signals lists them,
  // and the blocks that record them, in the waveform's order.
  for (const observe::SignalClass c :
       {observe::SignalClass{router::kLinkClass}, observe::SignalClass{router::kOccupancyClass},
        observe::SignalClass{nic::kTniClass}, observe::SignalClass{ocs::kOcsClass},
        observe::SignalClass{router::kAllocatorClass}, observe::SignalClass{router::kAllocationClass},
        observe::SignalClass{router::kCreditClass, false}})
    reg.add(c);
  reg.add(router_traces(net, machine != nullptr));
  reg.add(tni_traces(machine));
  if (auto* h = net.optical()) reg.add(optical_traces(net, h->ocs()));
  return reg;
}

std::vector<std::uint64_t> nic_counter_totals(RdmaMachine& m) {
  const std::vector<observe::Counter>& counters = nic::tni_counters();
  std::vector<std::uint64_t> total(counters.size(), 0), values(counters.size(), 0);
  for (hw::NodeId n = 0; n < m.nodes(); ++n) {
    if (!m.has_node(n)) continue;
    for (int t = 0; t < m.tnis_per_node(); ++t) {
      nic::read_counters(m.tni(n, t), 0, values.data());
      observe::add_to_totals(counters, values.data(), total);
    }
  }
  return total;
}

nlohmann::json nic_counter_summary(RdmaMachine& m) {
  return observe::summary(nic::tni_counters(), nic_counter_totals(m));
}

std::string tni_table_header() {
  std::string out = "node,coord,tni";
  for (const observe::Counter& c : nic::tni_counters())
    if (c.shown & observe::kInTable) out += "," + c.name;
  return out + "\n";
}

std::vector<std::pair<std::uint64_t, std::string>> tni_table_rows(RdmaMachine& m) {
  const std::vector<observe::Counter>& counters = nic::tni_counters();
  std::size_t commands = 0, received = 0;
  for (std::size_t k = 0; k < counters.size(); ++k) {
    if (counters[k].name == "commands") commands = k;
    if (counters[k].name == "packets_received") received = k;
  }
  std::vector<std::pair<std::uint64_t, std::string>> rows;
  std::vector<std::uint64_t> v(counters.size());
  const int per = m.tnis_per_node();
  for (hw::NodeId n = 0; n < m.nodes(); ++n) {
    if (!m.has_node(n)) continue;
    for (int t = 0; t < per; ++t) {
      nic::read_counters(m.tni(n, t), 0, v.data());
      if (!v[commands] && !v[received]) continue;
      std::string line = fmt::format("{},{},{}", n, m.network().node_name(n), t);
      for (std::size_t k = 0; k < counters.size(); ++k)
        if (counters[k].shown & observe::kInTable) line += fmt::format(",{}", v[k]);
      rows.emplace_back(std::uint64_t(n) * std::uint64_t(per) + std::uint64_t(t), line + "\n");
    }
  }
  return rows;
}

std::string tni_table(RdmaMachine& m) {
  std::string out = tni_table_header();
  for (const auto& row : tni_table_rows(m)) out += row.second;
  return out;
}

}  // namespace kairo::platforms
