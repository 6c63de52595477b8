// BookSim 2 configuration -> kairo settings; see the header. BookSim's keys,
// defaults and meanings are those of its src/booksim_config.cpp,
// src/routefunc.cpp and src/trafficmanager.cpp at commit 28f4329.
#include "traffic/booksim_config.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>

#include "traffic/injection.h"

namespace kairo::traffic {

namespace {

[[noreturn]] void refuse(const BookSimEntry& e, const std::string& file, const std::string& what) {
  const std::string where = e.where.empty() ? file + " (BookSim's default, not given)" : e.where;
  throw std::invalid_argument(fmt::format("{}: {} = {}: {}", where, e.key, e.value, what));
}

bool identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha((unsigned char)s[0]) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum((unsigned char)c) || c == '_')) return false;
  return true;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

// Splits `key = value`; throws naming `where`.
BookSimEntry statement(const std::string& text, const std::string& where) {
  const auto eq = text.find('=');
  BookSimEntry e{trim(text.substr(0, eq == std::string::npos ? text.size() : eq)), "", where};
  if (eq == std::string::npos || !identifier(e.key))
    throw std::invalid_argument(fmt::format("{}: expected `key = value;`, got '{}'", where, trim(text)));
  e.value = trim(text.substr(eq + 1));
  if (e.value.size() >= 2 && e.value.front() == '"' && e.value.back() == '"')
    e.value = e.value.substr(1, e.value.size() - 2);
  if (e.value.empty())
    throw std::invalid_argument(fmt::format("{}: {}: expected a value after '='", where, e.key));
  return e;
}

// BookSim's defaults (src/booksim_config.cpp) for the keys the mapping reads.
const std::map<std::string, std::string>& defaults() {
  static const std::map<std::string, std::string> d = {{"topology", "torus"},
                                                       {"k", "8"},
                                                       {"n", "2"},
                                                       {"routing_function", "none"},
                                                       {"use_noc_latency", "1"},
                                                       {"num_vcs", "16"},
                                                       {"vc_buf_size", "8"},
                                                       {"vc_allocator", "islip"},
                                                       {"sw_allocator", "islip"},
                                                       {"alloc_iters", "1"},
                                                       {"speculative", "0"},
                                                       {"routing_delay", "1"},
                                                       {"vc_alloc_delay", "1"},
                                                       {"sw_alloc_delay", "1"},
                                                       {"st_final_delay", "1"},
                                                       {"credit_delay", "0"},
                                                       {"traffic", "uniform"},
                                                       {"packet_size", "1"},
                                                       {"injection_rate", "0.1"},
                                                       {"injection_rate_uses_flits", "0"},
                                                       {"seed", "0"},
                                                       {"sample_period", "1000"},
                                                       {"warmup_periods", "3"},
                                                       {"max_samples", "10"},
                                                       {"injection_process", "bernoulli"},
                                                       {"burst_alpha", "0.5"},
                                                       {"burst_beta", "0.5"},
                                                       {"burst_r1", "-1"},
                                                       {"packet_size_rate", "1"}};
  return d;
}

// Keys kairo does exactly as BookSim's default value does and has no setting
// for: accepted at that value only (docs/booksim.md, "Fixed options", has why each is so).
const std::map<std::string, std::string>& fixed() {
  static const std::map<std::string, std::string> f = {
      {"router", "iq"},  // input-queued VC router
      {"buffer_policy", "private"},
      {"wait_for_tail_credit", "0"},  // a VC is free again once its tail has left
      {"hold_switch_for_packet", "0"},
      {"arb_type", "round_robin"},
      {"input_speedup", "1"},
      {"output_speedup", "1"},
      {"internal_speedup", "1"},
      {"include_queuing", "1"},  // packet latency counts the source queue
      {"st_prepare_delay", "0"},
      {"xr", "1"},  // one node per router
      {"yr", "1"},
      {"c", "1"},
      {"classes", "1"},
      {"subnets", "1"},
      {"sim_count", "1"},
      {"sim_type", "latency"},
      // BookSim's convergence test (when to stop measuring): kairo measures
      // fixed windows, which the mapping sizes to BookSim's longest at these
      // values.
      {"latency_thres", "500"},
      {"warmup_thres", "0.05"},
      {"acc_warmup_thres", "0.05"},
      {"stopping_thres", "0.05"},
      {"acc_stopping_thres", "0.05"}};
  return f;
}

// BookSim traffic names -> kairo patterns (docs/traffic.md, "Against BookSim 2's definitions").
const std::map<std::string, std::string>& patterns() {
  static const std::map<std::string, std::string> p = {
      {"uniform", "uniform_self"},  {"transpose", "transpose"}, {"bitcomp", "bitcomp"},
      {"bitrev", "bitrev"},         {"shuffle", "shuffle"},     {"tornado", "tornado"},
      {"neighbor", "neighbor"},     {"randperm", "randperm"},   {"diagonal", "diagonal"},
      {"asymmetric", "asymmetric"}, {"taper64", "taper64"},     {"bad_dragon", "bad_dragon"}};
  return p;
}

bool number_equal(const std::string& a, const std::string& b) {
  char *ea = nullptr, *eb = nullptr;
  const double x = std::strtod(a.c_str(), &ea), y = std::strtod(b.c_str(), &eb);
  return *ea == '\0' && *eb == '\0' && !a.empty() && x == y;
}

// The items of a BookSim list "{a, b, c}" (a plain value: itself alone).
std::vector<std::string> list_items(const std::string& value) {
  std::string v = value;
  if (!v.empty() && v.front() == '{')
    v = v.substr(1, v.find('}') == std::string::npos ? v.npos : v.find('}') - 1);
  std::vector<std::string> items;
  std::stringstream ss(v);
  for (std::string item; std::getline(ss, item, ',');) {
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    if (!item.empty()) items.push_back(item);
  }
  return items;
}

// A whole integer or number, else -1 / NaN (the callers refuse those by key).
long parse_long(const std::string& s) {
  char* end = nullptr;
  const long v = std::strtol(s.c_str(), &end, 10);
  return *end == '\0' && !s.empty() ? v : -1;
}
double parse_double(const std::string& s) {
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  return *end == '\0' && !s.empty() ? v : std::nan("");
}

// The configuration after every statement, with BookSim's defaults.
class Config {
 public:
  Config(const std::vector<BookSimEntry>& entries, std::string file) : file_(std::move(file)) {
    for (const auto& e : entries) last_[e.key] = e;
  }
  const std::map<std::string, BookSimEntry>& given() const { return last_; }
  BookSimEntry entry(const std::string& key) const {
    if (auto it = last_.find(key); it != last_.end()) return it->second;
    return BookSimEntry{key, defaults().at(key), ""};
  }
  std::string str(const std::string& key) const { return entry(key).value; }
  long integer(const std::string& key, long lo, long hi) const {
    const BookSimEntry e = entry(key);
    char* end = nullptr;
    const long v = std::strtol(e.value.c_str(), &end, 10);
    if (e.value.front() == '{') refuse(e, file_, "expected one integer; lists are not modeled for this key");
    if (*end != '\0' || v < lo || v > hi)
      refuse(e, file_, fmt::format("expected an integer in [{}, {}]", lo, hi));
    return v;
  }
  double real(const std::string& key) const {
    const BookSimEntry e = entry(key);
    char* end = nullptr;
    const double v = std::strtod(e.value.c_str(), &end);
    if (*end != '\0' || !(v > 0)) refuse(e, file_, "expected a number above 0");
    return v;
  }
  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    refuse(entry(key), file_, what);
  }
  const std::string& file() const { return file_; }

 private:
  std::map<std::string, BookSimEntry> last_;
  std::string file_;
};

// Every key given must be mapped, or fixed at the value kairo has.
void check_keys(const Config& c) {
  for (const auto& [key, e] : c.given()) {
    if (defaults().count(key)) continue;
    if (auto f = fixed().find(key); f != fixed().end()) {
      if (e.value != f->second && !number_equal(e.value, f->second))
        refuse(e, c.file(), fmt::format("kairo models {} = {} only", key, f->second));
      continue;
    }
    refuse(e, c.file(), "BookSim's " + key + " has no counterpart in kairo (not modeled)");
  }
  const std::string process = c.str("injection_process");
  if (process != "bernoulli" && process != "on_off")
    c.fail("injection_process", "expected bernoulli or on_off (kairo's --injection bernoulli and onoff)");
  if (c.str("burst_r1") != "-1" && !number_equal(c.str("burst_r1"), "-1"))
    c.fail("burst_r1",
           "kairo derives burst_r1 from burst_alpha, burst_beta and the rate (BookSim's derivation when both "
           "are "
           "given): give burst_alpha and burst_beta instead");
  if (c.str("injection_rate").front() == '{')
    c.fail("injection_rate", "kairo's --booksim maps one injection_rate (one traffic class)");
}

// The platform and its channels: sets, and the link's zero-load cycles.
int map_network(const Config& c, const std::string& topology, BookSimRun& r) {
  const long k = c.integer("k", 2, 64);
  if (topology == "dragonflynew") {
    // n = 1: p = k hosts and h = k global links per router, a = 2k routers a
    // group, a*h + 1 groups. One flit per 1 ns cycle on every channel; a
    // BookSim channel of L cycles is that flit time plus a cable of L - 1 ns:
    // its compiled-in DRAGON_LATENCY, 10 cycles in a group, 100 between
    // groups, 1 to and from a host.
    if (c.integer("n", 1, 8) != 1) c.fail("n", "expected 1 (BookSim's dragonflynew asserts n = 1)");
    r.platform = "dragonfly-342";
    r.sets = {"router.clock=1GHz",
              "router.flit_size=32B",
              "links.host.bandwidth=32GB/s",
              "links.local.bandwidth=32GB/s",
              "links.global.bandwidth=32GB/s",
              "links.host.latency=0ns",
              "links.local.latency=9ns",
              "links.global.latency=99ns"};
    if (k != 3)
      for (const auto& s :
           {fmt::format("topology.dragonfly.p={}", k), fmt::format("topology.dragonfly.a={}", 2 * k),
            fmt::format("topology.dragonfly.h={}", k)})
        r.sets.push_back(s);
    return 10;  // a local hop (a global one is 90 cycles more)
  }
  if (c.integer("n", 1, 8) != 2)
    c.fail("n", "expected 2 (kairo's meshes and tori for BookSim's router are 2-D: mesh-8x8, torus-8x8)");
  r.platform = topology + "-8x8";
  r.sets = {"router.clock=1GHz", "router.flit_size=32B", "router.link_bandwidth=32GB/s",
            "router.host_bandwidth=32GB/s"};
  if (k != 8) {
    r.sets.push_back(fmt::format("topology.dims.X.size={}", k));
    r.sets.push_back(fmt::format("topology.dims.Y.size={}", k));
  }
  // BookSim: mesh channels 1 cycle, torus channels 2 (kncube.cpp, with
  // use_noc_latency = 1), injection and ejection channels 1.
  const long noc = c.integer("use_noc_latency", 0, 1);
  const int link = topology == "torus" && noc == 1 ? 2 : 1;
  r.sets.push_back(fmt::format("router.cable_latency={}ns", link - 1));
  r.sets.push_back("router.host_latency=0ns");
  return link;
}

// Routing: dimension order or minimal adaptive on a mesh/torus, minimal or
// UGAL on a dragonfly. Returns the VCs kairo needs for BookSim's num_vcs.
long map_routing(const Config& c, const std::string& topology, const std::string& routing, long vcs,
                 BookSimRun& r) {
  const bool dragonfly = topology == "dragonflynew", torus = topology == "torus";
  if (dragonfly) {
    if (routing != "min" && routing != "ugal")
      c.fail("routing_function", "expected min or ugal on dragonflynew (kairo's minimal and ugal)");
    // min_dragonflynew: VC 0 up to the global channel, VC 1 from it on;
    // ugal_dragonflynew: VC = phase. Both eject on the phase's VC.
    r.sets.push_back(routing == "min" ? "router.routing=minimal" : "router.routing=ugal");
    r.sets.push_back("router.ejection_vc=phase");
    return vcs;
  }
  if (routing == "dim_order") {
    r.sets.push_back("router.routing=dimension_order");
    if (torus)
      r.sets.push_back("router.tie_break=random");  // dim_order_torus: a coin per packet half-way round
  } else if (routing == "min_adapt") {
    r.sets.push_back("router.routing=minimal_adaptive");
    // BookSim's iq router requests every free VC the routing function lists
    // and its VC allocator picks; min_adapt_torus's adaptive hop half-way
    // round a ring goes - only.
    r.sets.push_back("router.adaptive_selection=vc_allocator");
    if (torus) {
      r.sets.push_back("router.adaptive_half_way=minus");
      r.sets.push_back("router.tie_break=random");  // its escape hop: dor_next_torus's coin
      // min_adapt_torus: VCs 0-1 escape (one per dateline class), VC 3 the
      // only adaptive one whatever num_vcs is; VC 2 carries no packet between
      // routers. kairo's adaptive VCs are all above its two escape VCs.
      r.notes.push_back(
          fmt::format("router.vcs=3: BookSim's min_adapt_torus uses VCs 0-1 (escape) and 3 (adaptive) "
                      "between routers, of its {}",
                      vcs));
      if (vcs < 4) c.fail("num_vcs", "expected at least 4 (min_adapt_torus uses VC 3)");
      vcs = 3;
    }
  } else {
    c.fail("routing_function", "expected dim_order or min_adapt on a " + topology +
                                   " (kairo's dimension_order, minimal_adaptive)");
  }
  // dor_next_torus fixes a packet's dateline class as it enters a ring.
  if (torus) r.sets.push_back("router.dateline=at_entry");
  return vcs;
}

}  // namespace

std::vector<BookSimEntry> parse_booksim_text(const std::string& text, const std::string& name) {
  std::vector<BookSimEntry> out;
  std::string stmt;
  int line = 1, start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (ch == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n') ++i;
      --i;
      continue;
    }
    if (ch == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      const auto end = text.find("*/", i + 2);
      if (end == std::string::npos)
        throw std::invalid_argument(fmt::format("{}:{}: unclosed /* comment", name, line));
      for (std::size_t j = i; j < end; ++j) line += text[j] == '\n';
      i = end + 1;
      continue;
    }
    if (ch == '\n') ++line;
    if (ch == ';') {
      out.push_back(statement(stmt, fmt::format("{}:{}", name, start)));
      stmt.clear();
      continue;
    }
    if (stmt.empty() && std::isspace((unsigned char)ch)) continue;
    if (stmt.empty()) start = line;
    stmt += ch;
  }
  if (!trim(stmt).empty())
    throw std::invalid_argument(fmt::format("{}:{}: expected ';' after '{}'", name, start, trim(stmt)));
  return out;
}

BookSimRun map_booksim(const std::vector<BookSimEntry>& entries, const std::string& file) {
  const Config c(entries, file);
  check_keys(c);
  BookSimRun r;
  const std::string topology = c.str("topology"), routing = c.str("routing_function");
  if (topology != "mesh" && topology != "torus" && topology != "dragonflynew")
    c.fail("topology", "expected mesh, torus or dragonflynew (kairo's mesh-8x8, torus-8x8, dragonfly-342)");
  if (auto p = patterns().find(c.str("traffic")); p != patterns().end())
    r.pattern = p->second;
  else
    c.fail("traffic",
           "kairo has no counterpart of this traffic pattern (docs/traffic.md lists BookSim's it has)");
  const int link = map_network(c, topology, r);
  // Router pipeline and credits. kairo returns credits credit_delay_cycles +
  // cable after the tail leaves; BookSim's credit channel has the flit
  // channel's latency plus credit_delay.
  const long rt = c.integer("routing_delay", 0, 64), va = c.integer("vc_alloc_delay", 0, 64),
             sa = c.integer("sw_alloc_delay", 0, 64), st = c.integer("st_final_delay", 0, 64);
  r.sets.push_back(fmt::format("router.routing_cycles={}", rt));
  r.sets.push_back(fmt::format("router.vc_alloc_cycles={}", va));
  r.sets.push_back(fmt::format("router.sw_alloc_cycles={}", sa));
  r.sets.push_back(fmt::format("router.switch_traversal_cycles={}", st));
  r.sets.push_back(fmt::format("router.credit_delay_cycles={}", 1 + c.integer("credit_delay", 0, 64)));
  r.per_hop_cycles = int(rt + va + sa + st) + link;

  // BookSim's iq router allocates VCs in a stage of its own, then the switch.
  const std::string sw = c.str("sw_allocator"), vca = c.str("vc_allocator");
  for (const auto& [key, name] : {std::pair{"sw_allocator", sw}, std::pair{"vc_allocator", vca}})
    if (name != "islip" && name != "separable_input_first" && name != "separable_output_first" &&
        name != "wavefront")
      c.fail(key,
             "expected islip, separable_input_first, separable_output_first or wavefront (kairo has these)");
  r.sets.push_back("router.allocator=" + sw);
  r.sets.push_back("router.vc_allocator=" + vca);
  const long iters = c.integer("alloc_iters", 1, 64);
  if (sw == "islip" || vca == "islip") r.sets.push_back(fmt::format("router.islip_iterations={}", iters));
  const long buf = c.integer("vc_buf_size", 1, 1 << 20);
  const long vcs = map_routing(c, topology, routing, c.integer("num_vcs", 1, 32), r);
  r.sets.push_back(fmt::format("router.vcs={}", vcs));
  r.sets.push_back(fmt::format("router.vc_buffer_flits={}", buf));

  // packet_size = {F1, F2, ...} with packet_size_rate = {W1, W2, ...}: a size
  // mix (--packet-sizes), its largest size the router's; one size: --packet-flits.
  const std::vector<std::string> sizes = list_items(c.str("packet_size")),
                                 weights = list_items(c.str("packet_size_rate"));
  if (sizes.size() > 1 || c.str("packet_size").front() == '{') {
    if (weights.size() != sizes.size() && !(weights.size() == 1 && c.entry("packet_size_rate").where.empty()))
      c.fail("packet_size_rate", fmt::format("expected {} weights, one per packet_size", sizes.size()));
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      const long f = parse_long(sizes[i]);
      const double w = weights.size() == sizes.size() ? parse_double(weights[i]) : 1.0;
      if (f < 1 || f > 65535) c.fail("packet_size", "expected sizes in [1, 65535] flits");
      if (!(w > 0)) c.fail("packet_size_rate", "expected weights above 0");
      r.packet_sizes.emplace_back(int(f), w);
      r.packet_flits = std::max(r.packet_flits, int(f));
    }
  } else {
    r.packet_flits = int(c.integer("packet_size", 1, 65535));
  }
  if (r.packet_flits > 8) r.sets.push_back(fmt::format("router.max_packet_flits={}", r.packet_flits));
  if (c.str("injection_process") == "on_off") {
    r.injection = "onoff";
    r.burst_alpha = c.real("burst_alpha"), r.burst_beta = c.real("burst_beta");
  }
  // BookSim's iq router is wormhole for every packet; kairo's virtual
  // cut-through has the same timing while a packet fits in a VC buffer.
  if (r.packet_flits > buf) r.sets.push_back("router.flow_control=wormhole");
  if (c.integer("speculative", 0, 1) == 1) r.sets.push_back("router.speculative=true");

  const double mean_flits =
      r.packet_sizes.empty() ? double(r.packet_flits) : mean_packet_flits(r.packet_sizes);
  r.rate_scale = c.integer("injection_rate_uses_flits", 0, 1) == 1 ? 1.0 : mean_flits;
  r.rate = c.real("injection_rate") * r.rate_scale;
  if (r.rate > 1)
    c.fail("injection_rate",
           fmt::format("expected at most one flit per node-cycle, got {} flits{}", r.rate,
                       r.rate_scale == 1 ? "" : " (injection_rate_uses_flits = 0: packets)"));
  // BookSim warms up for warmup_periods sample periods and measures at most
  // max_samples periods in all: kairo measures BookSim's longest window.
  const long period = c.integer("sample_period", 1, 1L << 40),
             warm = c.integer("warmup_periods", 0, 1L << 20), samples = c.integer("max_samples", 1, 1L << 20);
  if (samples <= warm)
    c.fail("max_samples", "expected more sample periods than warmup_periods (none is measured)");
  r.warmup_cycles = std::uint64_t(period * warm);
  r.measure_cycles = std::uint64_t(period * (samples - warm));
  const BookSimEntry seed = c.entry("seed");
  if (seed.value == "time") refuse(seed, file, "kairo's runs are reproducible: expected an integer seed");
  r.seed = std::uint64_t(c.integer("seed", 0, std::numeric_limits<long>::max()));
  return r;
}

BookSimRun read_booksim(const std::string& path, const std::vector<std::string>& overrides) {
  std::ifstream f(path);
  if (!f) throw std::invalid_argument("--booksim: cannot read '" + path + "'");
  std::stringstream ss;
  ss << f.rdbuf();
  std::vector<BookSimEntry> entries = parse_booksim_text(ss.str(), path);
  for (const std::string& o : overrides) {
    const std::string where = "command line '" + o + "'";
    if (o.find('=') == std::string::npos)
      throw std::invalid_argument(where +
                                  ": expected key=value after --booksim FILE (BookSim's own overrides)");
    entries.push_back(statement(o, where));
  }
  return map_booksim(entries, path);
}

nlohmann::json BookSimRun::json() const {
  return {{"platform", platform},
          {"sets", sets},
          {"pattern", pattern},
          {"packet_flits", packet_flits},
          {"packet_sizes", packet_sizes},
          {"injection", injection},
          {"burst_alpha", burst_alpha},
          {"burst_beta", burst_beta},
          {"rate", rate},
          {"rate_scale", rate_scale},
          {"warmup_cycles", warmup_cycles},
          {"measure_cycles", measure_cycles},
          {"seed", seed},
          {"per_hop_cycles", per_hop_cycles},
          {"notes", notes}};
}

void apply_booksim(const BookSimRun& run, std::string& platform, std::vector<std::string>& sets,
                   TrafficOptions& opt, const std::function<bool(const char*)>& given) {
  platform = run.platform;
  sets.insert(sets.begin(), run.sets.begin(), run.sets.end());
  if (!given("--pattern")) opt.pattern = run.pattern;
  if (!given("--packet-flits")) opt.packet_flits = run.packet_flits;
  if (!given("--packet-sizes")) opt.packet_sizes = run.packet_sizes;
  if (!given("--injection")) opt.injection = run.injection;
  if (!given("--burst-alpha")) opt.burst_alpha = run.burst_alpha;
  if (!given("--burst-beta")) opt.burst_beta = run.burst_beta;
  if (!given("--rate")) opt.rate = run.rate;
  if (!given("--warmup-cycles")) opt.warmup_cycles = run.warmup_cycles;
  if (!given("--measure-cycles")) opt.measure_cycles = run.measure_cycles;
  if (!given("--seed")) opt.seed = run.seed;
}

}  // namespace kairo::traffic
