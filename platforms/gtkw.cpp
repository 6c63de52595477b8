#include "platforms/gtkw.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <string_view>

#include "sim/output_file.h"

namespace kairo::platforms {

namespace {

std::string leaf_of(const std::string& path) { return path.substr(path.rfind('.') + 1); }
std::string scope_of(const std::string& path) { return path.substr(0, path.rfind('.') + 1); }
bool is_packet_signal(const std::string& path) {
  const std::string leaf = leaf_of(path);
  return leaf == "pkt" || leaf == "tx_pkt";
}

// When the packet labelled `value` last leaves a packet signal (a link or
// the injecting TNI): a label is unique in the run, so its last interval on
// any of them is the packet's tail; `end` closes one still open.
sim::Time last_shown(const sim::Trace& trace, const std::vector<sim::Trace::Emitted>& changes,
                     std::uint64_t value, sim::Time end) {
  std::vector<std::uint8_t> showing(trace.num_signals(), 0);
  sim::Time tail = 0;
  bool open = false;
  for (const auto& e : changes) {
    if (!is_packet_signal(trace.name(e.s))) continue;
    if (showing[e.s] && e.v != value) showing[e.s] = 0, tail = std::max(tail, e.t);
    if (e.v == value) showing[e.s] = 1;
  }
  for (std::uint8_t s : showing) open |= s != 0;
  return open ? end : tail;
}

std::string value_name(const sim::Trace& trace, sim::Trace::Signal s, std::uint64_t v) {
  const sim::Trace::States& st = trace.states(s);
  for (std::size_t k = 0; k < st.count; ++k)
    if (st.states[k].value == v) return st.states[k].name;
  return st.name_of ? st.name_of(v) : fmt::format("{}", v);
}

double zoom_for(sim::Time from, sim::Time to) {
  const double ps_per_pixel = double(to - from) / kGtkwWavePixels;
  return -std::log2(ps_per_pixel / kGtkwPsPerPixelAtZoom0);
}

// The half width of a marker's name in pixels, and a pixel's room beside it.
double half_name(const std::string& name) { return double(name.size()) * kGtkwMarkerCharPixels / 2.0 + 4; }
// The window's end (its start kept) that leaves `name`, centred at `t`, whole
// inside: (to - t) / ((to - from) / pixels) >= half, solved for `to`.
sim::Time name_fits_to(sim::Time t, const std::string& name, sim::Time from, sim::Time to) {
  const double h = half_name(name) / kGtkwWavePixels;
  if (h >= 0.5) return to;
  return std::max(to, sim::Time(std::ceil((double(t) - h * double(from)) / (1 - h))));
}
// Likewise the window's start (its end kept), for a name at the left.
sim::Time name_fits_from(sim::Time t, const std::string& name, sim::Time from, sim::Time to) {
  const double h = half_name(name) / kGtkwWavePixels;
  if (h >= 0.5) return from;
  const double f = (double(t) - h * double(to)) / (1 - h);
  return f <= 0 ? 0 : std::min(from, sim::Time(std::floor(f)));
}

// Marker B (gtkw.h): the tail when its name clears A's, else the operation's completion when that does.
void place_markers(GtkwStory& st) {
  st.a_name = "head of " + st.name;
  st.b_name = "tail of " + st.name;
  if (gtkw_names_clear(st.a_name, st.head, st.b_name, st.tail, st.zoom)) {
    st.marker_b = st.tail;
    return;
  }
  const std::string op = st.name.substr(0, st.name.find('/'));
  st.b_name = "completion of " + op;
  if (st.done != sim::kNever && gtkw_names_clear(st.a_name, st.head, st.b_name, st.done, st.zoom)) {
    st.marker_b = st.done;
    return;
  }
  st.b_name.clear();
}

}  // namespace

double gtkw_ps_per_pixel(double zoom) { return std::pow(2.0, -zoom) * kGtkwPsPerPixelAtZoom0; }

bool gtkw_names_clear(const std::string& a, sim::Time ta, const std::string& b, sim::Time tb, double zoom) {
  const double apart = double(tb - ta) / gtkw_ps_per_pixel(zoom);
  const double half_widths = double(a.size() + b.size()) * kGtkwMarkerCharPixels / 2.0;
  return apart >= half_widths + kGtkwMarkerGapPixels;
}

GtkwStory gtkw_story(const sim::Trace& trace, const std::vector<sim::Trace::Emitted>& changes,
                     sim::Time story_from) {
  GtkwStory st;
  const sim::Time start = std::max(trace.window_from(), story_from);
  st.start = start;
  sim::Time first = sim::kNever, last = start;
  for (const auto& e : changes)
    if (e.t > start) first = std::min(first, e.t), last = std::max(last, e.t);
  if (first == sim::kNever) first = start;
  st.from = first;
  st.to = last;
  const sim::Trace::Emitted* head = nullptr;
  for (const auto& e : changes)
    if (e.v != 0 && e.t >= start && is_packet_signal(trace.name(e.s))) {
      head = &e;
      break;
    }
  if (head) {
    st.packet = head->v;
    st.name = value_name(trace, head->s, head->v);
    st.head = head->t;
    st.tail = std::max(head->t, last_shown(trace, changes, head->v, last));
    st.from = std::min(first, st.head);
    st.to = st.tail;
    // The story of an operation ends with its completion at the TNI that
    // injected its first packet: the first completion there after the head.
    if (leaf_of(trace.name(head->s)) == "tx_pkt") {
      const std::string done = scope_of(trace.name(head->s)) + "completions";
      for (const auto& e : changes)
        if (e.t > st.head && trace.name(e.s) == done) {
          st.done = e.t;
          st.to = std::max(st.to, e.t);
          break;
        }
    }
  }
  // A window the user bounded (--trace-to) is the story as asked: it opens
  // on the whole recorded interval, the packet's markers inside it.
  if (trace.window_to() != sim::kNever) {
    st.from = start;
    st.to = std::max(start + 1, std::min(trace.window_to(), std::max(last, st.to)));
  } else {
    const sim::Time margin = std::max<sim::Time>((st.to - st.from) / 20, 1000);
    st.from = st.from - std::min(st.from - start, margin);
    st.to += margin;
  }
  st.zoom = zoom_for(st.from, st.to);
  if (head) place_markers(st);
  // A marker's name is centred on it: widen an unbounded window until the
  // names of A and B are whole inside it (a few rounds: widening zooms out,
  // which may move B).
  for (int round = 0; head && trace.window_to() == sim::kNever && round < 4; ++round) {
    const sim::Time from = std::min(st.from, name_fits_from(st.head, st.a_name, st.from, st.to));
    const sim::Time to = st.marker_b == sim::kNever
                             ? st.to
                             : std::max(st.to, name_fits_to(st.marker_b, st.b_name, from, st.to));
    if (from == st.from && to == st.to) break;
    st.from = std::max(start, from), st.to = to;
    st.zoom = zoom_for(st.from, st.to);
    place_markers(st);
  }
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
  std::string meaning = words(leaf);
  if (meaning.size() >= 3 && meaning.compare(meaning.size() - 3, 3, "pkt") == 0)
    meaning.replace(meaning.size() - 3, 3, "packet");  // pkt, tx pkt, tx dma pkt: a packet, by its label
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

bool same_table(const sim::Trace::States& a, const sim::Trace::States& b) {
  return a.table && b.table && std::string_view(a.table) == b.table;
}

// A table's filter file: states_<table>.txt for a fixed table (the same for
// every save file), <save file>_<table>s.txt for one named by the values a
// run shows (a packet's label), so save files side by side keep their own.
std::string filter_file(const sim::Trace::States& t, const std::string& stem) {
  return t.name_of ? fmt::format("{}_{}s.txt", stem, t.table) : fmt::format("states_{}.txt", t.table);
}

// `file` as seen from `dir`; a bare name's directory is "." (the working
// directory), never the empty path, which has no absolute form.
std::string relative_to(const std::string& file, const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path abs = fs::weakly_canonical(fs::absolute(file, ec), ec);
  const fs::path base = fs::weakly_canonical(fs::absolute(dir.empty() ? fs::path(".") : dir, ec), ec);
  const fs::path rel = abs.lexically_relative(base);
  return rel.empty() ? abs.string() : rel.string();
}

}  // namespace

void write_gtkw(const sim::Trace& trace, const std::string& path, const std::string& dump,
                sim::Time story_from) {
  namespace fs = std::filesystem;
  const auto changes = trace.emitted();
  const GtkwStory st = gtkw_story(trace, changes, story_from);
  const fs::path parent = fs::path(path).parent_path();
  const fs::path dir = parent.empty() ? fs::path(".") : parent;

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
    if (e.t > st.start && moves[e.s]) {
      Group& g = groups[index[block_of(trace.name(e.s))]];
      g.first = std::min(g.first, e.t);
    }
  std::stable_sort(groups.begin(), groups.end(),
                   [](const Group& a, const Group& b) { return a.first < b.first; });

  std::string out;
  out += "[*] kairo: a GTKWave save file for " + fs::path(dump).filename().string() + "\n";
  if (st.head != sim::kNever) {
    out += fmt::format("[*] packet {} (value {}): head at {} ps (marker A), tail at {} ps{}\n", st.name,
                       st.packet, st.head, st.tail, st.marker_b == st.tail ? " (marker B)" : "");
    if (st.done != sim::kNever)
      out += fmt::format("[*] its operation completes at {} ps{}\n", st.done,
                         st.marker_b == st.done && st.marker_b != st.tail ? " (marker B)" : "");
  }
  if (left_out)
    out += fmt::format("[*] {} signals that stay at their first value (0) the whole run are left out\n",
                       left_out);
  out += "[dumpfile] \"" + relative_to(dump, dir) + "\"\n";
  // A bare name: GTKWave then finds the dump and the filters beside the save file.
  out += "[savefile] \"" + fs::path(path).filename().string() + "\"\n";
  out += fmt::format("[timestart] {}\n[size] {} 900\n[pos] -1 -1\n", st.from, kGtkwWidth);
  const bool marked = st.head != sim::kNever;
  out += fmt::format("*{:.6f} {}", st.zoom, marked ? std::int64_t(st.head) : -1);
  const bool marked_b = marked && st.marker_b != sim::kNever;
  for (int m = 0; m < 26; ++m)
    out += fmt::format(" {}", m == 0 && marked     ? std::int64_t(st.head)
                              : m == 1 && marked_b ? std::int64_t(st.marker_b)
                                                   : -1);
  out += "\n";
  if (marked) out += "[markername] A" + st.a_name + "\n";
  if (marked_b) out += "[markername] B" + st.b_name + "\n";
  out += fmt::format("[sst_width] {}\n[signals_width] {}\n[sst_expanded] 1\n[sst_vpaned_height] 240\n",
                     kGtkwSstWidth, kGtkwSignalsWidth);

  const std::string stem = fs::path(path).stem().string();
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
      if (states.table) {
        auto [it, added] = filters.emplace(states.table, int(filters.size()) + 1);
        if (added) tables.push_back(&states);
        out += fmt::format("@2024\n^{} {}\n", it->second, filter_file(states, stem));
      } else {
        out += w == 1 ? "@28\n" : p.find(".alloc.") != std::string::npos ? "@22\n" : "@24\n";
      }
      out += "+{" + label_of(p) + "} " + p + (w == 1 ? "" : fmt::format("[{}:0]", w - 1)) + "\n";
    }
    out += fmt::format("@1000200\n-{}\n", name);
  }
  out += "[pattern_trace] 1\n[pattern_trace] 0\n";

  // A filter matches the text GTKWave would show: the value in decimal (the rows' format, @2024).
  for (const sim::Trace::States* t : tables) {
    std::string text =
        fmt::format("# kairo: the values of a {} signal, by name (a GTKWave translate filter)\n", t->table);
    std::set<std::uint64_t> named;
    for (std::size_t k = 0; k < t->count; ++k) {
      text += fmt::format("{} {}\n", t->states[k].value, t->states[k].name);
      named.insert(t->states[k].value);
    }
    if (t->name_of) {  // the values this run shows, each named once
      std::set<std::uint64_t> shown;
      for (const auto& e : changes)
        if (same_table(trace.states(e.s), *t) && !named.count(e.v)) shown.insert(e.v);
      for (std::uint64_t v : shown) text += fmt::format("{} {}\n", v, t->name_of(v));
    }
    sim::write_output_file("--gtkw", (dir / filter_file(*t, stem)).string(), text);
  }
  sim::write_output_file("--gtkw", path, out);
}

}  // namespace kairo::platforms
