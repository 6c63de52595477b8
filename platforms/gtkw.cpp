#include "platforms/gtkw.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

#include "sim/output_file.h"

namespace kairo::platforms {

namespace {

std::string leaf_of(const std::string& path) { return path.substr(path.rfind('.') + 1); }
std::string scope_of(const std::string& path) { return path.substr(0, path.rfind('.') + 1); }
bool is_packet_signal(const std::string& path) {
  const std::string leaf = leaf_of(path);
  return leaf == "pkt" || leaf == "tx_pkt";
}

struct Interval {
  sim::Time from, to;
};

// The intervals during which each packet signal shows `value`.
std::vector<Interval> showing(const sim::Trace& trace, const std::vector<sim::Trace::Emitted>& changes,
                              std::uint64_t value, sim::Time end) {
  std::vector<sim::Time> since(trace.num_signals(), sim::kNever);
  std::vector<Interval> out;
  for (const auto& e : changes) {
    if (!is_packet_signal(trace.name(e.s))) continue;
    sim::Time& s = since[e.s];
    if (s != sim::kNever && e.v != value) out.push_back({s, e.t}), s = sim::kNever;
    if (s == sim::kNever && e.v == value) s = e.t;
  }
  for (sim::Time s : since)
    if (s != sim::kNever) out.push_back({s, end});
  std::sort(out.begin(), out.end(), [](const Interval& a, const Interval& b) { return a.from < b.from; });
  return out;
}

}  // namespace

GtkwStory gtkw_story(const sim::Trace& trace, const std::vector<sim::Trace::Emitted>& changes) {
  GtkwStory st;
  const sim::Time start = trace.window_from();
  sim::Time first = sim::kNever, last = start;
  for (const auto& e : changes)
    if (e.t > start) first = std::min(first, e.t), last = std::max(last, e.t);
  if (first == sim::kNever) first = start;
  st.from = first;
  st.to = last;
  const sim::Trace::Emitted* head = nullptr;
  for (const auto& e : changes)
    if (e.v != 0 && is_packet_signal(trace.name(e.s))) {
      head = &e;
      break;
    }
  if (head) {
    st.packet = head->v;
    st.head = head->t;
    const auto shown = showing(trace, changes, head->v, last);
    sim::Time tail = head->t;
    for (const Interval& i : shown)
      if (i.from >= head->t && i.from <= tail) tail = std::max(tail, i.to);
    st.tail = tail;
    st.from = std::min(first, st.head);
    st.to = tail;
    // A put's story ends with the completion at the TNI that injected it.
    if (leaf_of(trace.name(head->s)) == "tx_pkt") {
      const std::string done = scope_of(trace.name(head->s)) + "completions";
      for (const auto& e : changes)
        if (e.t > tail && trace.name(e.s) == done) {
          st.to = e.t;
          break;
        }
    }
  }
  // A window the user bounded (--trace-to) is the story as asked: it opens
  // on the whole recorded interval, the packet's markers inside it.
  if (trace.window_to() != sim::kNever) {
    st.from = start;
    st.to = std::max(start + 1, std::min(trace.window_to(), std::max(last, st.to)));
    const double ps_per_pixel = double(st.to - st.from) / kGtkwWavePixels;
    st.zoom = -std::log2(ps_per_pixel / kGtkwPsPerPixelAtZoom0);
    return st;
  }
  const sim::Time margin = std::max<sim::Time>((st.to - st.from) / 20, 1000);
  st.from = st.from - std::min(st.from - start, margin);
  st.to += margin;
  const double ps_per_pixel = double(st.to - st.from) / kGtkwWavePixels;
  st.zoom = -std::log2(ps_per_pixel / kGtkwPsPerPixelAtZoom0);
  return st;
}

namespace {

// A block: a router (rtr_<coords>), an RDMA engine (nic_<coords>.tni<i>) or
// an optical port (ocs.<port>_<node>); its rows share a group.
std::string block_of(const std::string& path) {
  const auto dot = path.find('.');
  const std::string first = path.substr(0, dot);
  if (first.rfind("nic_", 0) == 0 || first == "ocs") return path.substr(0, path.find('.', dot + 1));
  return first;
}

std::string words(std::string s) {
  std::replace(s.begin(), s.end(), '_', ' ');
  std::replace(s.begin(), s.end(), '.', ' ');
  return s;
}

// "rtr x0y0 -> xp busy", "rtr x1y0 <- xp vc0 flits held", "nic x0y0 tni0 tx dma",
// "rtr x1y1 alloc grant valid" (the Verilated allocator's wires: no port).
std::string label_of(const std::string& path) {
  const std::string block = block_of(path);
  std::string rest = path.substr(block.size() + 1);
  const std::string leaf = leaf_of(path);
  std::string meaning = leaf == "pkt" ? "packet id+1" : leaf == "tx_pkt" ? "tx packet id+1" : words(leaf);
  const auto occ = meaning.find(" occupancy");
  if (occ != std::string::npos) meaning.replace(occ, 10, " flits held");
  std::string port = rest.size() > leaf.size() ? rest.substr(0, rest.size() - leaf.size() - 1) : "";
  std::string arrow;
  if (block.rfind("rtr_", 0) == 0 && !port.empty() && port.find('.') == std::string::npos && port != "alloc")
    arrow = occ != std::string::npos ? "<- " : "-> ";
  return words(block) + " " + arrow + (port.empty() ? "" : words(port) + " ") + meaning;
}

struct Group {
  std::string block;
  sim::Time first = sim::kNever;  // its first change after the trace's start
  std::vector<sim::Trace::Signal> rows;
};

std::string relative_to(const std::string& file, const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path abs = fs::weakly_canonical(fs::absolute(file), ec);
  const fs::path base = fs::weakly_canonical(fs::absolute(dir), ec);
  const fs::path rel = abs.lexically_relative(base);
  return rel.empty() ? abs.string() : rel.string();
}

}  // namespace

void write_gtkw(const sim::Trace& trace, const std::string& path, const std::string& dump) {
  namespace fs = std::filesystem;
  const auto changes = trace.emitted();
  const GtkwStory st = gtkw_story(trace, changes);
  const fs::path dir = fs::path(path).parent_path();

  // A signal that never moves in the recorded run (an idle port's rows, the
  // VCs no packet took) is left out: its row would say nothing.
  std::vector<std::uint8_t> moves(trace.num_signals(), 0);
  std::vector<std::uint64_t> first_value(trace.num_signals(), 0);
  std::vector<std::uint8_t> seen(trace.num_signals(), 0);
  for (const auto& e : changes) {
    if (!seen[e.s]) {
      seen[e.s] = 1, first_value[e.s] = e.v;
      if (e.v != 0) moves[e.s] = 1;
    } else if (e.v != first_value[e.s]) {
      moves[e.s] = 1;
    }
  }
  std::size_t left_out = 0;
  std::vector<Group> groups;
  std::map<std::string, std::size_t> index;
  for (sim::Trace::Signal s = 0; s < trace.num_signals(); ++s) {
    if (!moves[s]) {
      ++left_out;
      continue;
    }
    const std::string block = block_of(trace.name(s));
    auto [it, added] = index.emplace(block, groups.size());
    if (added) groups.push_back(Group{block, sim::kNever, {}});
    groups[it->second].rows.push_back(s);
  }
  for (const auto& e : changes)
    if (e.t > trace.window_from() && moves[e.s]) {
      Group& g = groups[index[block_of(trace.name(e.s))]];
      g.first = std::min(g.first, e.t);
    }
  std::stable_sort(groups.begin(), groups.end(),
                   [](const Group& a, const Group& b) { return a.first < b.first; });

  std::string out;
  out += "[*] kairo: a GTKWave save file for " + fs::path(dump).filename().string() + "\n";
  if (st.head != sim::kNever)
    out +=
        fmt::format("[*] packet {} (operation id + 1): head at {} ps (marker A), tail at {} ps (marker B)\n",
                    st.packet, st.head, st.tail);
  if (left_out)
    out += fmt::format("[*] {} signals that stay at their first value (0) the whole run are left out\n",
                       left_out);
  out += "[dumpfile] \"" + relative_to(dump, dir) + "\"\n";
  // A bare name: GTKWave then finds the dump and the filters beside the save file.
  out += "[savefile] \"" + fs::path(path).filename().string() + "\"\n";
  out += fmt::format("[timestart] {}\n[size] {} 900\n[pos] -1 -1\n", st.from, kGtkwWidth);
  const bool marked = st.head != sim::kNever;
  out += fmt::format("*{:.6f} {}", st.zoom, marked ? std::int64_t(st.head) : -1);
  for (int m = 0; m < 26; ++m)
    out += fmt::format(" {}", !marked  ? -1
                              : m == 0 ? std::int64_t(st.head)
                              : m == 1 ? std::int64_t(st.tail)
                                       : -1);
  out += "\n";
  if (marked)
    out += fmt::format("[markername] Ahead of packet {}\n[markername] Btail of packet {}\n", st.packet,
                       st.packet);
  out += fmt::format("[sst_width] {}\n[signals_width] {}\n[sst_expanded] 1\n[sst_vpaned_height] 240\n",
                     kGtkwSstWidth, kGtkwSignalsWidth);

  std::map<std::string, int> filters;  // table -> GTKWave's filter number
  std::vector<const sim::Trace::States*> tables;
  for (const Group& g : groups) {
    const bool quiet = g.first > st.to;  // nothing happens in it while the story runs: closed
    const std::string name = words(g.block);
    out += fmt::format("@{}\n-{}\n", quiet ? "c00200" : "800200", name);
    for (sim::Trace::Signal s : g.rows) {
      const std::string& p = trace.name(s);
      const int w = trace.width(s);
      const sim::Trace::States& states = trace.states(s);
      if (states.count) {
        auto [it, added] = filters.emplace(states.table, int(filters.size()) + 1);
        if (added) tables.push_back(&states);
        out += fmt::format("@2024\n^{} states_{}.txt\n", it->second, states.table);
      } else {
        out += w == 1 ? "@28\n" : p.find(".alloc.") != std::string::npos ? "@22\n" : "@24\n";
      }
      out += "+{" + label_of(p) + "} " + p + (w == 1 ? "" : fmt::format("[{}:0]", w - 1)) + "\n";
    }
    out += fmt::format("@1000200\n-{}\n", name);
  }
  out += "[pattern_trace] 1\n[pattern_trace] 0\n";

  for (const sim::Trace::States* t : tables) {
    std::string text =
        fmt::format("# kairo: the values of a {} signal, by name (a GTKWave translate filter)\n", t->table);
    for (std::size_t k = 0; k < t->count; ++k)
      text += fmt::format("{} {}\n", t->states[k].value, t->states[k].name);
    sim::write_output_file("--gtkw", (dir / fmt::format("states_{}.txt", t->table)).string(), text);
  }
  sim::write_output_file("--gtkw", path, out);
}

}  // namespace kairo::platforms
