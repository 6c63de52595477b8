#include "platforms/counter_log.h"

#include <fmt/format.h>

#include <charconv>
#include <cstdio>
#include <fstream>
#include <map>
#include <unordered_map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "hw/common/endpoint.h"
#include "platforms/hybrid_netlist.h"
#include "sim/output_file.h"

namespace kairo::platforms {

namespace {

constexpr char kMagic[8] = {'K', 'A', 'I', 'R', 'O', 'C', 'L', '1'};

void put_varint(std::string& b, std::uint64_t v) {
  while (v >= 0x80) {
    b.push_back(char(v | 0x80));
    v >>= 7;
  }
  b.push_back(char(v));
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

const char* const kLinkNames[kLinkFixedFields] = {"packets_sent",     "flits_sent",     "bytes_sent",
                                                   "packets_received", "flits_received", "bytes_received",
                                                   "busy_ps",          "stall_ps"};
const char* const kTniNames[kTniFields] = {"commands",         "dma_bytes_read",       "dma_bytes_written",
                                           "tni_packets_sent", "tni_packets_received", "circuit_refusals",
                                           "circuit_wait_ps",  "cmdq_depth"};

}  // namespace

// Buffers one interval's rows and appends them to the file. A write that
// fails during the run (a full disk) does not stop the run: the log stops
// there, its file is removed, and finish() reports the failure.
struct CounterLog::Writer {
  std::unique_ptr<sim::OutputFile> f;
  bool csv = true;
  std::string path, buf, error;
  void flush() {
    if (f && !buf.empty()) {
      try {
        f->write(buf);
      } catch (const sim::OutputError& e) {
        error = e.what();
        f.reset();
      }
    }
    buf.clear();
  }
};

CounterLog::CounterLog(Network& net, RdmaMachine* machine, sim::EventQueue& q, sim::Time interval_ps,
                       const std::string& path)
    : net_(net), q_(q), interval_(interval_ps), out_(std::make_unique<Writer>()) {
  if (interval_ps == 0) throw std::invalid_argument("--interval: expected a duration above zero, e.g. 10us");
  out_->path = path;
  if (ends_with(path, ".kcl"))
    out_->csv = false;
  else if (!ends_with(path, ".csv"))
    throw std::invalid_argument("--counters " + path + ": expected a file name ending in .csv or .kcl");
  for (std::size_t i = 0; i < net.num_routers(); ++i) vcs_ = std::max(vcs_, net.router_at(i).vcs());
  // Link table: every connected router port, with its peer (another
  // router's port, or a network interface), kept as indices: the names are
  // derived when a row or the header is written (at K-computer scale the
  // names would cost a gigabyte).
  std::unordered_map<const hw::PacketSink*, std::uint32_t> router_of;
  for (std::size_t i = 0; i < net.num_routers(); ++i) router_of[&net.router_at(i)] = std::uint32_t(i);
  for (std::size_t i = 0; i < net.num_routers(); ++i) {
    router::Router& r = net.router_at(i);
    for (int port = 0; port < r.num_ports(); ++port) {
      if (!r.port_connected(port)) continue;
      LinkRef l{std::uint32_t(i), std::uint16_t(port), kNoPeer, 0};
      const hw::LinkOut& out = r.link_out(port);
      if (auto it = router_of.find(out.dst); it != router_of.end()) l.peer = it->second, l.peer_port = out.dst_port;
      links_.push_back(l);
    }
  }
  // The optical ports of a hybrid network: one row each, dimension "ocs"
  // (docs/counters.md: stall_ps is the time its circuit was not up).
  if (auto* h = dynamic_cast<HybridNetlist*>(&net)) ocs_ = &h->ocs();
  prev_links_.assign(links() * std::size_t(kLinkFixedFields + vcs_), 0);
  if (machine) {
    for (router::NodeId n = 0; n < machine->nodes(); ++n)
      for (int t = 0; t < machine->tnis_per_node(); ++t) tnis_.push_back(&machine->tni(n, t));
    tnis_per_node_ = machine->tnis_per_node();
    prev_tnis_.assign(tnis_.size() * kTniFields, 0);
  }
  try {
    out_->f = std::make_unique<sim::OutputFile>("--counters", path);
  } catch (const sim::OutputError& e) {
    throw std::invalid_argument(e.what());
  }
  const sim::Time period = net.num_routers() ? net.router_at(0).clock_period_ps() : 1;
  if (out_->csv) {
    std::string& b = out_->buf;
    b += fmt::format("# kairo counter log v1: interval_ps={} clock_period_ps={} vcs={}; times in ps; "
                     "rows with every counter zero are left out\n",
                     interval_, period, vcs_);
    b += "kind,interval_start_ps,interval_end_ps,unit,port,coord,peer,peer_port,dim,dir";
    for (const char* n : kLinkNames) b += std::string(",") + n;
    for (int v = 0; v < vcs_; ++v) b += fmt::format(",zero_credit_ps_vc{}", v);
    for (const char* n : kTniNames) b += std::string(",") + n;
    b += "\n";
  } else {
    // The header is written piece by piece: at K-computer scale one JSON
    // document of every link would cost gigabytes while it is built.
    std::vector<std::string> lf(std::begin(kLinkNames), std::end(kLinkNames));
    for (int v = 0; v < vcs_; ++v) lf.push_back(fmt::format("zero_credit_ps_vc{}", v));
    std::string text = fmt::format(
        "{{\"format\":\"kairo counter log\",\"version\":1,\"interval_ps\":{},\"clock_period_ps\":{},\"vcs\":{},"
        "\"link_fields\":{},\"tni_fields\":{},\"links\":[",
        interval_, period, vcs_, nlohmann::json(lf).dump(),
        nlohmann::json(std::vector<std::string>(std::begin(kTniNames), std::end(kTniNames))).dump());
    // The tables are written in pieces, twice formatted: once to learn the
    // header's length (it comes first), then into the file.
    auto str = [](const std::string& x) { return nlohmann::json(x).dump(); };  // quoted and escaped
    auto entry = [&](bool link, std::size_t k) {
      if (link) {
        const LinkInfo l = link_info(k);
        return fmt::format("{}[{},{},{},{},{},{},{}]", k ? "," : "", str(l.router), str(l.port), str(l.coord),
                           str(l.peer), str(l.peer_port), str(l.dim), str(l.dir));
      }
      const TniInfo t = tni_info(k);
      return fmt::format("{}[{},{},{}]", k ? "," : "", str(t.node), str(t.coord), t.tni);
    };
    const std::string middle = "],\"tnis\":[", tail = "]}";
    std::uint64_t length = text.size() + middle.size() + tail.size();
    for (std::size_t k = 0; k < links(); ++k) length += entry(true, k).size();
    for (std::size_t k = 0; k < tnis_.size(); ++k) length += entry(false, k).size();
    std::string& b = out_->buf;
    b.append(kMagic, 8);
    put_varint(b, length);
    b += text;
    for (std::size_t k = 0; k < links(); ++k) {
      b += entry(true, k);
      if (b.size() > (1u << 20)) out_->flush();
    }
    b += middle;
    for (std::size_t k = 0; k < tnis_.size(); ++k) {
      b += entry(false, k);
      if (b.size() > (1u << 20)) out_->flush();
    }
    b += tail;
  }
  out_->flush();
}

CounterLog::~CounterLog() = default;

LinkInfo CounterLog::link_info(std::size_t i) const {
  if (i >= links_.size()) {
    const int port = int(i - links_.size());
    return LinkInfo{"ocs", ocs_->port_name(port), net_.node_name(ocs_->node_of(port)), "ocs", "", "ocs", ""};
  }
  const router::Topology* topo = net_.torus();
  const LinkRef& ref = links_[i];
  const router::Router& r = net_.router_at(ref.router);
  const int port = ref.port;
  LinkInfo l;
  l.router = r.name();
  l.port = r.port_name(port);
  l.coord = topo ? net_.node_name(router::NodeId(ref.router)) : l.router;
  if (ref.peer != kNoPeer) {
    const router::Router& peer = net_.router_at(ref.peer);
    l.peer = peer.name();
    l.peer_port = peer.port_name(ref.peer_port);
  } else {
    l.peer = "nic_" + (topo ? net_.node_name(router::NodeId(ref.router)) : l.port);
    l.peer_port = topo ? fmt::format("tni{}", port - (r.num_ports() - net_.network_interfaces())) : "";
  }
  const int d = r.port_dim(port);
  if (d < 0)
    l.dim = "ni";
  else if (topo)
    l.dim = topo->dim(d).name;
  else
    l.dim = l.port.substr(0, l.port.find_first_of("0123456789"));
  if (topo && d >= 0) {
    const int dir = topo->port_dir(port);
    l.dir = dir > 0 ? "+" : dir < 0 ? "-" : "";
  }
  return l;
}

TniInfo CounterLog::tni_info(std::size_t i) const {
  const router::NodeId n = router::NodeId(i / std::size_t(tnis_per_node_));
  return TniInfo{net_.node_name(n), net_.node_name(n), int(i % std::size_t(tnis_per_node_))};
}

void CounterLog::start() {
  pending_ = true;
  q_.at(interval_, sim::kPrioLast, this, 0);
}

void CounterLog::on_event(std::uint32_t, std::uint32_t, void*) {
  const sim::Time now = q_.now();
  pending_ = false;
  sample(now);
  // Keep sampling while anything else is still to happen (the watchdog
  // watching an idle network does not count). Once nothing is, nothing can
  // change any more: the log is complete.
  const std::size_t others = q_.size() - (net_.watchdog().armed() ? 1 : 0);
  if (others > 0) {
    pending_ = true;
    q_.at(now + interval_, sim::kPrioLast, this, 0);
  }
}

void CounterLog::finish() {
  if (done_) return;
  done_ = true;
  // A run stopped early (a deadlock) leaves a partial interval to log.
  if (pending_ && q_.now() > last_) sample(q_.now());
  if (!out_->csv) out_->buf.push_back('E');
  out_->flush();
  if (!out_->error.empty()) throw sim::OutputError(out_->error);
  out_->f->close();  // throws (and removes the file) if the last flush fails
}

// Link i's running totals at `now`: a router port, or an optical port.
void CounterLog::read_link(std::size_t i, sim::Time now, std::vector<std::uint64_t>& cur) {
  if (i >= links_.size()) {
    const int port = int(i - links_.size());
    const ocs::OcsPortCounters c = ocs_->counters(port, now);
    cur[0] = c.packets_sent, cur[1] = c.flits_sent, cur[2] = c.bytes_sent;
    cur[3] = c.packets_received, cur[4] = c.flits_received, cur[5] = c.bytes_received;
    cur[6] = c.busy_ps - ocs_->busy_after(port, now);
    cur[7] = now - c.up_ps;  // not up: dark or reconfiguring
    std::fill(cur.begin() + kLinkFixedFields, cur.end(), 0);
    return;
  }
  router::Router& r = net_.router_at(links_[i].router);
  const int port = links_[i].port;
  const router::PortCounters c = r.counters(port, now);
  cur[0] = c.packets_sent, cur[1] = c.flits_sent, cur[2] = c.bytes_sent;
  cur[3] = c.packets_received, cur[4] = c.flits_received, cur[5] = c.bytes_received;
  cur[6] = c.busy_ps - r.busy_after(port, now);  // the part of a packet still to go is later's
  cur[7] = c.stall_ps;
  for (int v = 0; v < vcs_; ++v) cur[std::size_t(kLinkFixedFields + v)] = v < r.vcs() ? c.zero_credit_ps[v] : 0;
}

void CounterLog::sample(sim::Time now) {
  const std::size_t lf = std::size_t(kLinkFixedFields + vcs_);
  std::vector<std::uint64_t> cur(lf);
  std::string& b = out_->buf;
  std::string rows;  // kcl: this interval's link rows
  std::uint64_t n_rows = 0;
  std::uint32_t last_index = 0;
  for (std::size_t i = 0; i < links(); ++i) {
    read_link(i, now, cur);
    std::uint64_t* prev = &prev_links_[i * lf];
    bool any = false;
    for (std::size_t k = 0; k < lf; ++k) any |= cur[k] != prev[k];
    if (!any) continue;
    ++n_rows;
    if (out_->csv) {
      const LinkInfo l = link_info(i);
      b += fmt::format("link,{},{},{},{},{},{},{},{},{}", last_, now, l.router, l.port, l.coord, l.peer, l.peer_port,
                       l.dim, l.dir);
      for (std::size_t k = 0; k < lf; ++k) b += fmt::format(",{}", cur[k] - prev[k]);
      for (int k = 0; k < kTniFields; ++k) b += ",";
      b += "\n";
    } else {
      put_varint(rows, std::uint32_t(i) - last_index);
      last_index = std::uint32_t(i);
      for (std::size_t k = 0; k < lf; ++k) put_varint(rows, cur[k] - prev[k]);
    }
    std::copy(cur.begin(), cur.end(), prev);
  }
  if (!out_->csv) {
    b.push_back('I');
    put_varint(b, last_);
    put_varint(b, now);
    put_varint(b, n_rows);
    b += rows;
    rows.clear();
  }
  rows_ += n_rows;
  n_rows = 0;
  last_index = 0;
  std::uint64_t t[kTniFields];
  for (std::size_t i = 0; i < tnis_.size(); ++i) {
    const nic::TniCounters& c = tnis_[i]->counters();
    t[0] = c.commands, t[1] = c.dma_bytes_read, t[2] = c.dma_bytes_written, t[3] = c.packets_sent,
    t[4] = c.packets_received, t[5] = c.circuit_refusals, t[6] = tnis_[i]->circuit_wait_ps(now);
    std::uint64_t* prev = &prev_tnis_[i * kTniFields];
    const std::uint64_t depth = tnis_[i]->command_queue_depth();
    bool any = depth != 0;
    for (int k = 0; k < kTniDeltas; ++k) any |= t[k] != prev[k];
    if (!any) continue;
    ++n_rows;
    if (out_->csv) {
      const TniInfo ti = tni_info(i);
      b += fmt::format("tni,{},{},{},tni{},{},,,,", last_, now, ti.node, ti.tni, ti.coord);
      for (std::size_t k = 0; k < lf; ++k) b += ",";
      for (int k = 0; k < kTniDeltas; ++k) b += fmt::format(",{}", t[k] - prev[k]);
      b += fmt::format(",{}\n", depth);
    } else {
      put_varint(rows, std::uint32_t(i) - last_index);
      last_index = std::uint32_t(i);
      for (int k = 0; k < kTniDeltas; ++k) put_varint(rows, t[k] - prev[k]);
      put_varint(rows, depth);
    }
    std::copy(t, t + kTniDeltas, prev);
  }
  if (!out_->csv) {
    put_varint(b, n_rows);
    b += rows;
  }
  rows_ += n_rows;
  ++intervals_;
  last_ = now;
  if (b.size() > (1u << 20)) out_->flush();
}

// ---- reading ----------------------------------------------------------------

namespace {

std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> v;
  std::string cur;
  for (char c : line) {
    if (c == ',') {
      v.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  v.push_back(cur);
  return v;
}

}  // namespace

CounterLogData read_counter_log(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read the counter log " + path);
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CounterLogData d;
  auto bad = [&](const std::string& what) { return std::runtime_error("counter log " + path + ": " + what); };
  // A whole unsigned decimal number, or the reader's error.
  auto number = [&](const std::string& text) {
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size())
      throw bad("expected a whole number, got '" + text.substr(0, 40) + "'");
    return v;
  };
  auto check_vcs = [&](long long vcs) {
    if (vcs < 1 || vcs > 64) throw bad("expected 1 to 64 VCs per port, got " + std::to_string(vcs));
  };
  if (data.size() >= 8 && data.compare(0, 8, std::string(kMagic, 8)) == 0) {
    std::size_t at = 8;
    auto varint = [&]() {
      std::uint64_t v = 0;
      for (int shift = 0;; shift += 7) {
        if (at >= data.size() || shift > 63) throw bad("truncated");
        const auto byte = static_cast<unsigned char>(data[at++]);
        v |= std::uint64_t(byte & 0x7f) << shift;
        if (!(byte & 0x80)) return v;
      }
    };
    const std::uint64_t hlen = varint();
    if (hlen > data.size() - at) throw bad("truncated header");
    nlohmann::json h = nlohmann::json::parse(data.substr(at, hlen), nullptr, false);
    if (h.is_discarded() || !h.is_object() || !h.contains("version") || h["version"] != 1)
      throw bad("not a version 1 header");
    at += hlen;
    try {
      // Integers only: a float converted to an integer is undefined behaviour.
      auto whole = [&](const nlohmann::json& v, const char* what) {
        if (!v.is_number_unsigned()) throw bad(std::string("bad header: ") + what + " is not a whole number >= 0");
        return v.get<std::uint64_t>();
      };
      d.interval_ps = whole(h.at("interval_ps"), "interval_ps");
      d.clock_period_ps = whole(h.at("clock_period_ps"), "clock_period_ps");
      const std::uint64_t vcs = whole(h.at("vcs"), "vcs");
      check_vcs(vcs > 64 ? 65 : (long long)vcs);
      d.vcs = int(vcs);
      for (const auto& l : h.at("links")) {
        if (!l.is_array() || l.size() != 7) throw bad("a link of the header is not a list of 7 names");
        d.links.push_back(LinkInfo{l[0], l[1], l[2], l[3], l[4], l[5], l[6]});
      }
      for (const auto& t : h.at("tnis")) {
        if (!t.is_array() || t.size() != 3) throw bad("an engine of the header is not a list of 3 fields");
        const std::uint64_t tni = whole(t[2], "an engine's index");
        if (tni > 1023) throw bad("bad header: an engine's index passes 1023");
        d.tnis.push_back(TniInfo{t[0], t[1], int(tni)});
      }
    } catch (const nlohmann::json::exception& e) {
      throw bad(std::string("bad header: ") + e.what());
    }
    const std::size_t lf = std::size_t(kLinkFixedFields + d.vcs);
    for (;;) {
      if (at >= data.size()) throw bad("truncated: no end mark (was the run interrupted?)");
      const char tag = data[at++];
      if (tag == 'E') break;
      if (tag != 'I') throw bad("corrupt interval mark");
      CounterLogData::Interval iv;
      iv.start = varint();
      iv.end = varint();
      for (int table = 0; table < 2; ++table) {
        const std::size_t fields = table == 0 ? lf : std::size_t(kTniFields);
        const std::size_t limit = table == 0 ? d.links.size() : d.tnis.size();
        std::uint64_t index = 0;
        const std::uint64_t n = varint();
        if (n > data.size() - at) throw bad("truncated: more rows than bytes");  // a row takes bytes
        for (std::uint64_t k = 0; k < n; ++k) {
          index += varint();
          if (index >= limit) throw bad("a row names an unknown link or engine");
          std::vector<std::uint64_t> f(fields);
          for (auto& x : f) x = varint();
          (table == 0 ? iv.links : iv.tnis).emplace_back(std::uint32_t(index), std::move(f));
        }
      }
      d.intervals.push_back(std::move(iv));
    }
    return d;
  }
  // CSV
  std::stringstream ss(data);
  std::string line;
  if (!std::getline(ss, line) || line.rfind("# kairo counter log v1:", 0) != 0) throw bad("not a kairo counter log");
  unsigned long long interval = 0, period = 0;
  int vcs = 0;
  if (std::sscanf(line.c_str(), "# kairo counter log v1: interval_ps=%llu clock_period_ps=%llu vcs=%d", &interval,
                  &period, &vcs) != 3)
    throw bad("bad first line");
  check_vcs(vcs);
  d.interval_ps = interval, d.clock_period_ps = period, d.vcs = vcs;
  std::getline(ss, line);  // column names
  const std::size_t lf = std::size_t(kLinkFixedFields + vcs);
  std::map<std::string, std::uint32_t> link_index, tni_index;
  while (std::getline(ss, line)) {
    if (line.empty()) continue;
    const auto c = split_csv(line);
    if (c.size() != 10 + lf + kTniFields) throw bad("a row has " + std::to_string(c.size()) + " columns");
    const sim::Time start = number(c[1]), end = number(c[2]);
    if (d.intervals.empty() || d.intervals.back().end != end) {
      d.intervals.push_back({});
      d.intervals.back().start = start, d.intervals.back().end = end;
    }
    auto& iv = d.intervals.back();
    if (c[0] == "link") {
      const std::string key = c[3] + "." + c[4];
      auto [it, fresh] = link_index.emplace(key, std::uint32_t(d.links.size()));
      if (fresh) d.links.push_back(LinkInfo{c[3], c[4], c[5], c[6], c[7], c[8], c[9]});
      std::vector<std::uint64_t> f(lf);
      for (std::size_t k = 0; k < lf; ++k) f[k] = number(c[10 + k]);
      iv.links.emplace_back(it->second, std::move(f));
    } else if (c[0] == "tni") {
      const std::string key = c[3] + "." + c[4];
      auto [it, fresh] = tni_index.emplace(key, std::uint32_t(d.tnis.size()));
      if (c[4].rfind("tni", 0) != 0 || c[4].size() > 6) throw bad("expected an engine named tniN, got '" + c[4] + "'");
      if (fresh) d.tnis.push_back(TniInfo{c[3], c[5], int(number(c[4].substr(3)))});
      std::vector<std::uint64_t> f(kTniFields);
      for (int k = 0; k < kTniFields; ++k) f[std::size_t(k)] = number(c[10 + lf + std::size_t(k)]);
      iv.tnis.emplace_back(it->second, std::move(f));
    } else {
      throw bad("unknown row kind '" + c[0] + "'");
    }
  }
  return d;
}

}  // namespace kairo::platforms
