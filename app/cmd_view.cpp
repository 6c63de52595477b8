// kairo view COUNTERS --out DIR: seed 000's two views of a counter log
// (platforms/counter_log.h), as SVG pictures and one self-contained HTML
// page whose views are linked (docs/views.md).
//
//   time-series view ... per dimension and direction (X+, X-, ..., ni), the
//                        maximum and the average over its links of the
//                        utilization (busy time / interval) per interval, in
//                        two colours (seed 000, Fig. 1); the same for stall
//                        (zero-credit time per VC / interval)
//   topological view ... the links at one interval, coloured by utilization
//                        or stall: the first three dimensions laid out (X
//                        across, Y down, Z slices side by side), the others
//                        folded (a segment shows the most loaded of the links
//                        it stands for; on Tofu, the XYZ torus with each ABC
//                        group folded), and one folded group unfolded (the
//                        ABC group with the most traffic)
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "app/cli_common.h"
#include "platforms/counter_log.h"
#include "sim/units.h"

namespace kairo::app {

namespace {

using platforms::CounterLogData;

// "x1y0z2a0b1c0" -> {{"x",1},{"y",0},...}; empty for names that are not coordinates.
std::vector<std::pair<std::string, int>> parse_coord(const std::string& s) {
  std::vector<std::pair<std::string, int>> c;
  std::size_t i = 0;
  while (i < s.size()) {
    std::size_t j = i;
    while (j < s.size() && std::isalpha(static_cast<unsigned char>(s[j]))) ++j;
    std::size_t k = j;
    while (k < s.size() && std::isdigit(static_cast<unsigned char>(s[k]))) ++k;
    if (j == i || k == j) return {};
    c.emplace_back(s.substr(i, j - i), std::stoi(s.substr(j, k - j)));
    i = k;
  }
  return c;
}

struct Model {
  std::vector<std::string> dims;  // coordinate letters in order ("x","y","z","a","b","c")
  std::vector<int> sizes;
  std::vector<std::vector<int>> from, to;  // per link: coordinates of its two ends (empty: not a mesh/torus link)
  std::vector<std::string> group;          // per link: "X+", "X-", "X", "ni", "up", ...
  std::vector<std::string> group_names;    // in order of first appearance
  std::vector<double> seconds;             // per interval: length in s
  // per interval, per link: utilization and stall in [0, 1]
  std::vector<std::vector<float>> util, stall;
};

Model build(const CounterLogData& d) {
  Model m;
  const std::size_t L = d.links.size();
  m.from.resize(L);
  m.to.resize(L);
  m.group.resize(L);
  std::set<std::string> seen;
  for (std::size_t i = 0; i < L; ++i) {
    const auto& l = d.links[i];
    std::string g = l.dim == "ni" ? "ni" : l.dim + l.dir;
    if (!l.dim.empty() && l.dim != "ni") g[0] = char(std::toupper(static_cast<unsigned char>(g[0])));
    m.group[i] = g;
    if (seen.insert(g).second) m.group_names.push_back(g);
    const auto a = parse_coord(l.coord);
    std::string peer = l.peer.rfind("rtr_", 0) == 0 ? l.peer.substr(4) : std::string();
    const auto b = parse_coord(peer);
    if (a.empty() || b.empty() || a.size() != b.size() || l.dim == "ni") continue;
    if (m.dims.empty())
      for (const auto& [n, v] : a) m.dims.push_back(n), m.sizes.push_back(1);
    if (a.size() != m.dims.size()) continue;
    for (std::size_t k = 0; k < a.size(); ++k) {
      m.from[i].push_back(a[k].second);
      m.to[i].push_back(b[k].second);
      m.sizes[k] = std::max({m.sizes[k], a[k].second + 1, b[k].second + 1});
    }
  }
  const double vc_norm = double(std::max(1, d.vcs));
  for (const auto& iv : d.intervals) {
    const double len = double(std::max<sim::Time>(1, iv.end - iv.start));
    m.seconds.push_back(len * 1e-12);
    std::vector<float> u(L, 0.f), s(L, 0.f);
    for (const auto& [i, f] : iv.links) {
      u[i] = float(std::min(1.0, double(f[6]) / len));
      double z = 0;
      for (int v = 0; v < d.vcs; ++v) z += double(f[std::size_t(platforms::kLinkFixedFields + v)]);
      s[i] = float(std::min(1.0, z / (len * vc_norm)));
    }
    m.util.push_back(std::move(u));
    m.stall.push_back(std::move(s));
  }
  return m;
}

struct Series {
  std::vector<double> max, avg;
};

std::map<std::string, Series> series(const Model& m, const std::vector<std::vector<float>>& v) {
  std::map<std::string, Series> out;
  std::map<std::string, int> count;
  for (const auto& g : m.group) ++count[g];
  for (const auto& g : m.group_names) out[g] = Series{std::vector<double>(v.size(), 0), std::vector<double>(v.size(), 0)};
  for (std::size_t t = 0; t < v.size(); ++t)
    for (std::size_t i = 0; i < m.group.size(); ++i) {
      Series& s = out[m.group[i]];
      s.max[t] = std::max(s.max[t], double(v[t][i]));
      s.avg[t] += double(v[t][i]) / count[m.group[i]];
    }
  return out;
}

std::string colour(double x) {  // 0: pale blue-grey, 1: red, through yellow
  x = std::clamp(x, 0.0, 1.0);
  int r, g, b;
  if (x < 0.5) {
    r = int(200 + 110 * x), g = int(210 + 20 * x), b = int(225 - 350 * x);
  } else {
    r = 255, g = int(220 - 400 * (x - 0.5)), b = int(50 - 80 * (x - 0.5));
  }
  return fmt::format("#{:02x}{:02x}{:02x}", std::clamp(r, 0, 255), std::clamp(g, 0, 255), std::clamp(b, 0, 255));
}

std::string timeseries_svg(const Model& m, const std::map<std::string, Series>& s, const std::string& what) {
  const int W = 900, H = 120, top = 30;
  const std::size_t T = m.seconds.size();
  std::string o = fmt::format(
      "<svg xmlns='http://www.w3.org/2000/svg' width='{}' height='{}' font-family='sans-serif' font-size='11'>\n"
      "<rect width='100%' height='100%' fill='white'/>\n<text x='10' y='18' font-size='13'>{} per interval: "
      "maximum (red) and average (green) over the links of each dimension and direction</text>\n",
      W, top + int(m.group_names.size()) * (H + 20) + 10, what);
  int row = 0;
  for (const auto& g : m.group_names) {
    const Series& v = s.at(g);
    const int y0 = top + row++ * (H + 20), x0 = 60, w = W - x0 - 20;
    o += fmt::format("<text x='10' y='{}'>{}</text><rect x='{}' y='{}' width='{}' height='{}' fill='black'/>\n",
                     y0 + H / 2, g, x0, y0, w, H);
    auto line = [&](const std::vector<double>& ys, const char* c) {
      std::string pts;
      for (std::size_t t = 0; t < T; ++t) {
        const double x = x0 + (T > 1 ? double(t) * w / double(T - 1) : w / 2.0);
        pts += fmt::format("{:.1f},{:.1f} ", x, y0 + H - ys[t] * H);
      }
      o += fmt::format("<polyline points='{}' fill='none' stroke='{}' stroke-width='1.5'/>\n", pts, c);
    };
    line(v.max, "#ff3030");
    line(v.avg, "#30d030");
  }
  return o + "</svg>\n";
}

// Layout of the first three dimensions (X across, Y down, Z slices side by side).
struct Layout {
  int d0 = 0, d1 = 1, d2 = 2;  // which coordinates are laid out
  double cell = 28, gap = 40;
  std::pair<double, double> at(const Model& m, const std::vector<int>& c) const {
    const int n0 = m.sizes[std::size_t(d0)], n2 = d2 < int(m.sizes.size()) ? c[std::size_t(d2)] : 0;
    const double x = 30 + (n2 * (n0 * cell + gap)) + c[std::size_t(d0)] * cell;
    const double y = 50 + (d1 < int(m.sizes.size()) ? c[std::size_t(d1)] : 0) * cell;
    return {x, y};
  }
};

struct Segment {
  double x1, y1, x2, y2;
  std::string group;
  std::vector<std::size_t> links;  // the links it stands for (their maximum is shown)
};

// Segments of the folded view (dims beyond the first three folded), or of
// one group unfolded (its links along the other dimensions, laid out by them).
std::vector<Segment> segments(const Model& m, bool unfold_group, const std::vector<int>& group) {
  std::map<std::tuple<int, int, int, int, std::string>, Segment> seg;
  const int D = int(m.dims.size());
  Layout lay;
  if (unfold_group) lay.d0 = 3, lay.d1 = 4, lay.d2 = 5;
  for (std::size_t i = 0; i < m.from.size(); ++i) {
    const auto& a = m.from[i];
    const auto& b = m.to[i];
    if (a.empty()) continue;
    bool inside = true;  // both ends in the same position of the first three dims
    for (int k = 0; k < std::min(3, D); ++k) inside &= a[std::size_t(k)] == b[std::size_t(k)];
    if (unfold_group) {
      if (!inside || D <= 3) continue;
      bool mine = true;
      for (int k = 0; k < 3; ++k) mine &= a[std::size_t(k)] == group[std::size_t(k)];
      if (!mine) continue;
    } else if (inside) {
      continue;  // a link inside a folded group
    }
    auto [x1, y1] = lay.at(m, a);
    auto [x2, y2] = lay.at(m, b);
    // Wrap-around links are drawn as short ticks leaving the edge; both
    // directions of a link side by side.
    const double dx = x2 - x1, dy = y2 - y1, len = std::hypot(dx, dy);
    if (len > lay.cell * 1.5) {
      x2 = x1 + (dx > 0 ? -1 : dx < 0 ? 1 : 0) * lay.cell * 0.45;
      y2 = y1 + (dy > 0 ? -1 : dy < 0 ? 1 : 0) * lay.cell * 0.45;
    }
    const std::string& g = m.group[i];
    const double off = g.size() > 1 && g.back() == '-' ? -3 : g.size() > 1 && g.back() == '+' ? 3 : 0;
    const double ox = dy != 0 ? off : 0, oy = dx != 0 ? off : 0;
    const auto key = std::make_tuple(int(x1), int(y1), int(x2), int(y2), g);
    auto it = seg.find(key);
    if (it == seg.end()) it = seg.emplace(key, Segment{x1 + ox, y1 + oy, x2 + ox, y2 + oy, g, {}}).first;
    it->second.links.push_back(i);
  }
  std::vector<Segment> out;
  for (auto& [k, s] : seg) out.push_back(std::move(s));
  return out;
}

double seg_value(const Segment& s, const std::vector<float>& v) {
  double x = 0;
  for (std::size_t i : s.links) x = std::max(x, double(v[i]));
  return x;
}

std::string topo_svg(const std::vector<Segment>& segs, const std::vector<float>& v,
                     const std::string& title, const std::string& dim_filter) {
  double w = 200, h = 200;
  for (const auto& s : segs) w = std::max({w, s.x1 + 40, s.x2 + 40}), h = std::max({h, s.y1 + 40, s.y2 + 40});
  std::string o = fmt::format(
      "<svg xmlns='http://www.w3.org/2000/svg' width='{:.0f}' height='{:.0f}' font-family='sans-serif' "
      "font-size='12'>\n<rect width='100%' height='100%' fill='white'/>\n<text x='10' y='20'>{}</text>\n",
      w, h, title);
  for (const auto& s : segs) {
    if (!dim_filter.empty() && s.group.rfind(dim_filter, 0) != 0) continue;
    o += fmt::format("<line x1='{:.1f}' y1='{:.1f}' x2='{:.1f}' y2='{:.1f}' stroke='{}' stroke-width='3'/>\n", s.x1,
                     s.y1, s.x2, s.y2, colour(seg_value(s, v)));
  }
  return o + "</svg>\n";
}

// The interactive page: the data of both views and a script that draws them
// and links them (a click on the time axis picks the interval shown).
std::string html_page(const Model& m, const std::map<std::string, Series>& us, const std::map<std::string, Series>& ss,
                      const std::vector<Segment>& segs, std::size_t initial) {
  nlohmann::json data;
  data["seconds"] = m.seconds;
  data["groups"] = m.group_names;
  for (const auto& g : m.group_names) {
    data["util"][g] = {{"max", us.at(g).max}, {"avg", us.at(g).avg}};
    data["stall"][g] = {{"max", ss.at(g).max}, {"avg", ss.at(g).avg}};
  }
  nlohmann::json sj = nlohmann::json::array();
  for (const auto& s : segs) {
    std::vector<double> u, st;
    for (std::size_t t = 0; t < m.util.size(); ++t) u.push_back(seg_value(s, m.util[t])), st.push_back(seg_value(s, m.stall[t]));
    sj.push_back({{"x1", s.x1}, {"y1", s.y1}, {"x2", s.x2}, {"y2", s.y2}, {"g", s.group}, {"u", u}, {"s", st}});
  }
  data["segments"] = sj;
  data["initial"] = initial;
  std::string json = data.dump();
  // Keep "</script>" out of the embedded data.
  for (std::size_t p = 0; (p = json.find("</", p)) != std::string::npos; p += 3) json.replace(p, 2, "<\\/");
  return R"(<!doctype html>
<html><head><meta charset="utf-8"><title>kairo counter views</title>
<style>body{font-family:sans-serif;margin:16px} #ts{cursor:crosshair} .row{display:flex;gap:16px;align-items:center}</style>
</head><body>
<h2>kairo: link utilization and stall</h2>
<div class="row"><label>metric <select id="metric"><option value="util">utilization</option><option value="stall">stall</option></select></label>
<span id="dims"></span><span id="picked"></span></div>
<svg id="ts" width="900"></svg>
<svg id="topo"></svg>
<script id="data" type="application/json">)" +
         json + R"(</script>
<script>
"use strict";
window.kairoErrors = [];
window.addEventListener("error", e => window.kairoErrors.push(String(e.message)));
const D = JSON.parse(document.getElementById("data").textContent);
const NS = "http://www.w3.org/2000/svg";
let current = D.initial, metric = "util";
const shown = new Set(D.groups);
function el(name, attrs, parent) { const e = document.createElementNS(NS, name); for (const k in attrs) e.setAttribute(k, attrs[k]); parent.appendChild(e); return e; }
function colour(x) {
  x = Math.max(0, Math.min(1, x)); let r, g, b;
  if (x < 0.5) { r = 200 + 110 * x; g = 210 + 20 * x; b = 225 - 350 * x; } else { r = 255; g = 220 - 400 * (x - 0.5); b = 50 - 80 * (x - 0.5); }
  const h = v => Math.max(0, Math.min(255, Math.floor(v))).toString(16).padStart(2, "0");
  return "#" + h(r) + h(g) + h(b);
}
const W = 900, H = 90, X0 = 60, T = D.seconds.length;
function xOf(t) { return X0 + (T > 1 ? t * (W - X0 - 20) / (T - 1) : (W - X0 - 20) / 2); }
function drawSeries() {
  const svg = document.getElementById("ts"); svg.innerHTML = "";
  const groups = D.groups.filter(g => shown.has(g));
  svg.setAttribute("height", 20 + groups.length * (H + 14));
  groups.forEach((g, row) => {
    const y0 = 10 + row * (H + 14);
    el("text", {x: 5, y: y0 + H / 2}, svg).textContent = g;
    const axis = el("rect", {x: X0, y: y0, width: W - X0 - 20, height: H, fill: "black", "class": "axis"}, svg);
    axis.addEventListener("click", ev => {
      const box = svg.getBoundingClientRect();
      const x = ev.clientX - box.left;
      let best = 0; for (let t = 0; t < T; ++t) if (Math.abs(xOf(t) - x) < Math.abs(xOf(best) - x)) best = t;
      pick(best);
    });
    for (const [key, c] of [["max", "#ff3030"], ["avg", "#30d030"]]) {
      const v = D[metric][g][key];
      el("polyline", {points: v.map((y, t) => xOf(t) + "," + (y0 + H - y * H)).join(" "), fill: "none", stroke: c, "stroke-width": 1.5, "pointer-events": "none"}, svg);
    }
    el("line", {x1: xOf(current), x2: xOf(current), y1: y0, y2: y0 + H, stroke: "white", "stroke-dasharray": "3,3", "pointer-events": "none"}, svg);
  });
}
function drawTopo() {
  const svg = document.getElementById("topo"); svg.innerHTML = "";
  let w = 200, h = 200;
  for (const s of D.segments) { w = Math.max(w, s.x1 + 40, s.x2 + 40); h = Math.max(h, s.y1 + 40, s.y2 + 40); }
  svg.setAttribute("width", w); svg.setAttribute("height", h);
  el("text", {x: 10, y: 20}, svg).textContent = (metric === "util" ? "utilization" : "stall") + " in interval " + current;
  for (const s of D.segments) {
    if (!shown.has(s.g)) continue;
    el("line", {x1: s.x1, y1: s.y1, x2: s.x2, y2: s.y2, stroke: colour(s[metric === "util" ? "u" : "s"][current]), "stroke-width": 3, "class": "seg"}, svg);
  }
  document.getElementById("picked").textContent = "interval " + current + " of " + T;
}
function pick(t) { current = t; drawSeries(); drawTopo(); }
const dims = document.getElementById("dims");
for (const g of D.groups) {
  const l = document.createElement("label"); const c = document.createElement("input");
  c.type = "checkbox"; c.checked = true; c.addEventListener("change", () => { c.checked ? shown.add(g) : shown.delete(g); pick(current); });
  l.appendChild(c); l.appendChild(document.createTextNode(g + " ")); dims.appendChild(l);
}
document.getElementById("metric").addEventListener("change", e => { metric = e.target.value; pick(current); });
pick(current);
// Self-test (tests/test_views.cpp): a click on the time axis must change the topological view.
if (location.hash === "#selftest") {
  const before = [...document.querySelectorAll("#topo line")].map(l => l.getAttribute("stroke")).join();
  const axis = document.querySelector("#ts rect.axis");
  const box = axis.getBoundingClientRect();
  const target = current === 0 ? T - 1 : 0;
  const svgBox = document.getElementById("ts").getBoundingClientRect();
  axis.dispatchEvent(new MouseEvent("click", {bubbles: true, clientX: svgBox.left + xOf(target), clientY: box.top + 5}));
  const after = [...document.querySelectorAll("#topo line")].map(l => l.getAttribute("stroke")).join();
  document.body.setAttribute("data-selftest", JSON.stringify({errors: window.kairoErrors, from: target === 0 ? T - 1 : 0, to: current, changed: before !== after}));
}
</script></body></html>
)";
}

int view(const std::string& in, const std::string& dir, const std::string& from_s, const std::string& to_s,
         const std::string& at_s) {
  CounterLogData d;
  try {
    d = platforms::read_counter_log(in);
  } catch (const std::exception& e) {
    return bad_input(e.what());
  }
  try {  // the part of the run to show
    const sim::Time from = from_s.empty() ? 0 : units::parse_duration(from_s);
    const sim::Time to = to_s.empty() ? sim::kNever : units::parse_duration(to_s);
    std::vector<CounterLogData::Interval> keep;
    for (auto& iv : d.intervals)
      if (iv.end > from && iv.start < to) keep.push_back(std::move(iv));
    d.intervals = std::move(keep);
  } catch (const units::UnitError& e) {
    return bad_input(std::string("--from/--to: ") + e.what());
  }
  if (d.intervals.empty()) return bad_input("counter log " + in + ": no intervals (in the --from/--to window)");
  const Model m = build(d);
  const auto us = series(m, m.util), ss = series(m, m.stall);
  // The interval shown: the one holding --at, or the one with the most busy time.
  std::size_t initial = 0;
  if (!at_s.empty()) {
    sim::Time at = 0;
    try {
      at = units::parse_duration(at_s);
    } catch (const units::UnitError& e) {
      return bad_input(std::string("--at: ") + e.what());
    }
    while (initial + 1 < d.intervals.size() && d.intervals[initial].end <= at) ++initial;
    if (at < d.intervals.front().start || at > d.intervals.back().end)
      return bad_input(fmt::format("--at {}: outside the log's {} to {}", at_s,
                                   units::format_duration(d.intervals.front().start),
                                   units::format_duration(d.intervals.back().end)));
  } else {
    double best = -1;
    for (std::size_t t = 0; t < m.util.size(); ++t) {
      double sum = 0;
      for (float x : m.util[t]) sum += x;
      if (sum > best) best = sum, initial = t;
    }
  }
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  try {
    write_text_file(dir + "/timeseries_util.svg", timeseries_svg(m, us, "Link utilization"));
    write_text_file(dir + "/timeseries_stall.svg", timeseries_svg(m, ss, "Stall (zero-credit time per VC)"));
    const auto segs = segments(m, false, {});
    write_text_file(dir + "/topology_util.svg",
                    topo_svg(segs, m.util[initial], fmt::format("Utilization in interval {}", initial), ""));
    write_text_file(dir + "/topology_stall.svg",
                    topo_svg(segs, m.stall[initial], fmt::format("Stall in interval {}", initial), ""));
    for (const auto& g : m.group_names) {
      if (g == "ni") continue;
      const std::string dim(1, g[0]);
      const std::string file = dir + "/topology_util_" + dim + ".svg";
      if (!std::filesystem::exists(file))
        write_text_file(file, topo_svg(segs, m.util[initial],
                                       fmt::format("Utilization of the {} links in interval {}", dim, initial), dim));
    }
    if (m.dims.size() > 3) {  // one folded group unfolded: the busiest
      std::map<std::vector<int>, double> load;
      for (std::size_t i = 0; i < m.from.size(); ++i)
        if (!m.from[i].empty()) load[std::vector<int>(m.from[i].begin(), m.from[i].begin() + 3)] += m.util[initial][i];
      std::vector<int> g = load.empty() ? std::vector<int>{0, 0, 0} : load.begin()->first;
      for (const auto& [k, v] : load)
        if (v > load[g]) g = k;
      write_text_file(dir + "/group_util.svg",
                      topo_svg(segments(m, true, g), m.util[initial],
                               fmt::format("The {}{}{} group at {}={} {}={} {}={}, utilization in interval {}", m.dims[3],
                                           m.dims.size() > 4 ? m.dims[4] : "", m.dims.size() > 5 ? m.dims[5] : "",
                                           m.dims[0], g[0], m.dims[1], g[1], m.dims[2], g[2], initial),
                               ""));
    }
    write_text_file(dir + "/index.html", html_page(m, us, ss, segs, initial));
  } catch (const std::exception& e) {
    return bad_input(std::string("--out ") + dir + ": " + e.what());
  }
  std::cout << fmt::format("kairo view: {} intervals, {} links; wrote {}/index.html and the SVG views\n",
                           d.intervals.size(), d.links.size(), dir);
  return kExitOk;
}

}  // namespace

void add_view_command(CLI::App& app, int& exit_code) {
  auto in = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  auto from = std::make_shared<std::string>(), to = std::make_shared<std::string>(),
       at = std::make_shared<std::string>();
  CLI::App* c = app.add_subcommand("view", "render the time-series and topological views of a counter log");
  c->add_option("counters", *in, "a counter log from kairo run --counters (.kcl or .csv)")->required();
  c->add_option("--out", *out, "directory for index.html and the SVG pictures")->required();
  c->add_option("--from", *from, "show the run from this simulated time on, e.g. 10us");
  c->add_option("--to", *to, "show the run up to this simulated time, e.g. 60us");
  c->add_option("--at", *at, "the time the topological pictures show (default: the busiest interval), e.g. 25us");
  c->callback([in, out, from, to, at, &exit_code] { exit_code = view(*in, *out, *from, *to, *at); });
}

}  // namespace kairo::app
