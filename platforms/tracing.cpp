#include "platforms/tracing.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <stdexcept>

#include "observe/packet_label.h"
#include "platforms/network.h"
#include "platforms/observe_blocks.h"

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

// --trace-nodes and --trace-box: per node, whether it is selected.
std::vector<char> node_filter(const Network& net, const TraceSelection& sel) {
  const hw::Topology* topo = net.torus();
  const std::uint64_t n = net.num_nodes();
  std::vector<char> node_on(n, 1);
  if (!sel.nodes.empty()) {
    const auto ids = id_set("--trace-nodes", sel.nodes, n);
    std::fill(node_on.begin(), node_on.end(), 0);
    for (auto id : ids) node_on[id] = 1;
  }
  if (sel.box.empty()) return node_on;
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
  for (hw::NodeId id = 0; id < n; ++id) {
    const auto c = topo->coord_of(id);
    for (int d = 0; d < topo->num_dims(); ++d)
      if (c[d] < range[std::size_t(d)].first || c[d] > range[std::size_t(d)].second) node_on[id] = 0;
  }
  return node_on;
}

// --trace-signals: the classes named, or those the blocks record by default.
std::set<std::string> class_filter(const std::vector<observe::SignalClass>& known, const std::string& text) {
  std::set<std::string> classes;
  if (text.empty()) {
    for (const observe::SignalClass& c : known)
      if (c.by_default) classes.insert(c.name);
    return classes;
  }
  for (const std::string& c : split(text, ',')) {
    if (std::none_of(known.begin(), known.end(),
                     [&c](const observe::SignalClass& k) { return c == k.name; })) {
      std::string expected;
      for (std::size_t k = 0; k < known.size(); ++k)
        expected += std::string(k == 0 ? "" : k + 1 == known.size() ? " or " : ", ") + known[k].name;
      throw std::invalid_argument("--trace-signals: expected " + expected + ", got '" + c + "'");
    }
    classes.insert(c);
  }
  return classes;
}

// --trace-dims, in lower case: the platform's dimensions or switch port kinds, and ni.
std::set<std::string> dim_filter(const Network& net, const std::string& text) {
  const hw::Topology* topo = net.torus();
  std::set<std::string> dims;
  for (const std::string& d : split(text, ',')) {
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
  return dims;
}

// --trace-switches: names of the fabric's switches.
std::set<std::string> switch_filter(Network& net, const std::string& text) {
  std::set<std::string> names;
  for (const std::string& s : split(text, ',')) names.insert(s);
  if (names.empty()) return names;
  if (net.torus())
    throw std::invalid_argument(
        "--trace-switches: the platform is a mesh/torus; use --trace-nodes or --trace-box");
  std::set<std::string> known;
  for (std::size_t i = 0; i < net.num_routers(); ++i) known.insert(net.router_at(i).name());
  for (const std::string& s : names)
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
  return names;
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
  const observe::Registry reg = observe_blocks(net, machine);
  observe::TraceFilter f;
  f.nodes = node_filter(net, sel);
  f.classes = class_filter(reg.signal_classes(), sel.classes);
  f.dims = dim_filter(net, sel.dims);
  f.units = switch_filter(net, sel.switches);
  f.indices = sel.tnis;
  // A packet's value (observe/packet_label.h) has room for so many nodes and TNIs.
  const std::uint64_t n = net.num_nodes();
  if (machine && (n > observe::PacketLabel::kMaxNodes ||
                  std::uint64_t(machine->tnis_per_node()) > observe::PacketLabel::kMaxTnis))
    throw std::invalid_argument(fmt::format(
        "--vcd/--fst: a packet's waveform value names at most {} nodes and {} TNIs per node; the "
        "platform has {} nodes and {} TNIs per node",
        observe::PacketLabel::kMaxNodes, observe::PacketLabel::kMaxTnis, n, machine->tnis_per_node()));
  for (const observe::TraceSet& t : reg.traced()) {
    if (t.prepare) t.prepare(f);
    std::size_t counted = 0;
    for (std::size_t i = 0; i < t.blocks; ++i)
      if (auto r = t.attach(i, f, trace)) {
        counted += r->counted();
        recordings_.push_back(std::move(r));
      }
    if (t.counted_as) traced_.emplace_back(t.counted_as, counted);
  }
  if (recordings_.empty())
    throw std::invalid_argument(
        "the trace selection "
        "(--trace-nodes/--trace-box/--trace-switches/--trace-dims/--trace-tnis/--trace-signals) selects "
        "nothing");
}

Tracer::~Tracer() = default;

}  // namespace kairo::platforms
