// kairo view's model of a counter log (app/view_model.h).
#include "app/view_model.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <tuple>

namespace kairo::app::view {
namespace {

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

// Layout of three dimensions (d0 across, d1 down, one panel per d2 value),
// the panels in a grid and the cell size chosen so that the whole fits a
// width x height box: an 8x8x8 or 10x10x10 machine and Tofu's XYZ torus fit
// a screen without scrolling.
struct Layout {
  int d0 = 0, d1 = 1, d2 = 2;
  int n0 = 1, n1 = 1, n2 = 1, cols = 1;
  double cell = 28;
  static constexpr double kTop = 8, kLabel = 16, kPad = 0.8;  // px, px, cells
  Layout(const Model& m, int first, double width, double height) : d0(first), d1(first + 1), d2(first + 2) {
    n0 = size(m, d0), n1 = size(m, d1), n2 = size(m, d2);
    double best = 0;
    for (int c = 1; c <= n2; ++c) {
      const int rows = (n2 + c - 1) / c;
      const double w = width / (c * (n0 - 1 + 2 * kPad));
      const double h = (height - kTop - rows * kLabel) / (rows * (n1 - 1 + 2 * kPad));
      if (std::min(w, h) > best) best = std::min(w, h), cols = c;
    }
    cell = std::min(best, 44.0);
  }
  static int size(const Model& m, int d) { return d < int(m.sizes.size()) ? m.sizes[std::size_t(d)] : 1; }
  static int at_dim(const std::vector<int>& c, int d) { return d < int(c.size()) ? c[std::size_t(d)] : 0; }
  // The top left corner of panel p's first router.
  std::pair<double, double> origin(int p) const {
    const double x = (p % cols) * (n0 - 1 + 2 * kPad) * cell + kPad * cell;
    const double y = kTop + (p / cols) * ((n1 - 1 + 2 * kPad) * cell + kLabel) + kLabel + kPad * cell;
    return {x, y};
  }
  std::pair<double, double> at(const std::vector<int>& c) const {
    auto [x, y] = origin(at_dim(c, d2));
    return {x + at_dim(c, d0) * cell, y + at_dim(c, d1) * cell};
  }
  double width() const { return cols * (n0 - 1 + 2 * kPad) * cell; }
  double height() const {
    const int rows = (n2 + cols - 1) / cols;
    return kTop + rows * ((n1 - 1 + 2 * kPad) * cell + kLabel);
  }
};

std::string upper(std::string s) {
  for (char& c : s) c = char(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// How to read the picture, in words; `all_groups`: every group folded onto one (picture()).
std::string caption(const Model& m, const Layout& lay, bool unfold, bool all_groups) {
  const int D = int(m.dims.size());
  auto name = [&](int d) { return d < D ? upper(m.dims[std::size_t(d)]) : std::string(); };
  if (D == 0)
    return "No topological view: this network is switched (a fat tree, a dragonfly, clusters joined by "
           "wide-area links), its links have no mesh or torus coordinates to lay out. The time series show "
           "each class of its links (local, global, up, down, wan, and ni for the links to the NICs).";
  std::string c = name(lay.d0) + " across";
  if (lay.d1 < D) c += ", " + name(lay.d1) + " down";
  if (lay.d2 < D) c += ", one panel per " + name(lay.d2);
  c += "; a link's two directions side by side (+ below or right of -); wrap-around links as short ticks "
       "leaving the edge";
  if (lay.d2 < D)
    c += "; " + name(lay.d2) + " links as diagonal ticks at the sending router (" + name(lay.d2) +
         "+ down-right, " + name(lay.d2) + "- up-left)";
  c += ". Colour: the value in the interval shown.";
  if (D > 3 && unfold && all_groups) {
    std::string inner;
    int groups = 1;
    for (int d = 3; d < D; ++d) inner += name(d);
    for (int d = 0; d < 3; ++d) groups *= m.sizes[std::size_t(d)];
    c = fmt::format(
            "The {} links of all {} {}{}{} positions folded onto one {} group: a segment stands for that "
            "link "
            "of every group ({} links) and shows the most loaded of them. ",
            inner, groups, name(0), name(1), name(2), inner, groups) +
        c;
  }
  if (D > 3 && !unfold) {
    std::string folded, shape;
    int n = 1;
    for (int d = 3; d < D; ++d)
      folded += name(d), shape += (d > 3 ? "x" : "") + std::to_string(m.sizes[std::size_t(d)]),
          n *= m.sizes[std::size_t(d)];
    c = fmt::format(
            "{}D {} drawn as the papers on Tofu do: the {}{}{} torus laid out, each {} group ({} routers, {} "
            "in all) folded into one point. A segment stands for the {} links of one dimension and direction "
            "between two neighbouring groups and shows the most loaded of them; the {} links inside a group "
            "are not drawn here (group_util.svg unfolds the busiest group; topology_util_{}.svg and the "
            "others "
            "draw each with every group folded onto one). ",
            D, D == 6 ? "Tofu" : "torus", name(0), name(1), name(2), folded, shape, n, n, folded, name(3)) +
        c;
  }
  return c;
}

}  // namespace

Model build(const platforms::CounterLogData& d) {
  Model m;
  // The view draws the "link" table: its rows' places lay the links out,
  // busy_ps and the zero-credit times colour them (render_views checks the
  // log has them).
  static const platforms::CounterTable kNone;
  const int lt = d.table_index("link");
  const platforms::CounterTable& links = lt < 0 ? kNone : d.tables[std::size_t(lt)];
  const int busy = links.field("busy_ps"), energy = links.field("energy_fj");
  std::vector<std::size_t> zero;
  for (int v = 0; v < d.vcs; ++v)
    if (const int k = links.field("zero_credit_ps_vc" + std::to_string(v)); k >= 0)
      zero.push_back(std::size_t(k));
  const std::size_t L = links.rows.size();
  m.from.resize(L);
  m.to.resize(L);
  m.group.resize(L);
  std::set<std::string> seen;
  for (std::size_t i = 0; i < L; ++i) {
    const auto& l = links.rows[i];
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
  // Groups in the dimensions' order, + before -, then the classes of a
  // switched fabric as they first appear, ni last (the first link of a
  // dimension in the log need not be its + one: tofu-k's Y is a mesh whose
  // first routers have no Y- link).
  auto rank = [&m](const std::string& g) {
    if (g == "ni") return std::pair<int, int>(1000, 0);
    for (std::size_t k = 0; k < m.dims.size(); ++k)
      if (!g.empty() && std::tolower(static_cast<unsigned char>(g[0])) == m.dims[k][0] &&
          (g.size() == 1 || g[1] == '+' || g[1] == '-'))
        return std::pair<int, int>(int(k), g.size() > 1 && g[1] == '-' ? 1 : 0);
    return std::pair<int, int>(999, 0);
  };
  std::stable_sort(m.group_names.begin(), m.group_names.end(),
                   [&](const std::string& a, const std::string& b) { return rank(a) < rank(b); });
  m.interval_s = double(d.interval_ps) * 1e-12;
  m.vcs = d.vcs;
  const double vc_norm = double(std::max(1, d.vcs));
  for (const auto& iv : d.intervals) {
    const double len = double(std::max<sim::Time>(1, iv.end - iv.start));
    m.start_s.push_back(double(iv.start) * 1e-12);
    m.seconds.push_back(len * 1e-12);
    std::vector<float> u(L, 0.f), s(L, 0.f);
    for (const auto& [i, f] : iv.of(lt)) {
      if (busy >= 0) u[i] = float(std::min(1.0, double(f[std::size_t(busy)]) / len));
      double z = 0;
      for (std::size_t k : zero) z += double(f[k]);
      s[i] = float(std::min(1.0, z / (len * vc_norm)));
    }
    m.util.push_back(std::move(u));
    m.stall.push_back(std::move(s));
    if (energy < 0) continue;
    std::vector<float> p(L, 0.f);
    for (const auto& [i, f] : iv.of(lt)) {
      const double mw = double(f[std::size_t(energy)]) / len;  // fJ per ps = mW
      p[i] = float(mw);
      m.power_max_mw = std::max(m.power_max_mw, mw);
    }
    m.power.push_back(std::move(p));
  }
  if (m.power_max_mw > 0)
    for (auto& p : m.power)
      for (float& x : p) x = float(double(x) / m.power_max_mw);
  return m;
}

std::map<std::string, Series> series(const Model& m, const std::vector<std::vector<float>>& v) {
  std::map<std::string, Series> out;
  std::map<std::string, int> count;
  for (const auto& g : m.group) ++count[g];
  for (const auto& g : m.group_names)
    out[g] = Series{std::vector<double>(v.size(), 0), std::vector<double>(v.size(), 0)};
  for (std::size_t t = 0; t < v.size(); ++t)
    for (std::size_t i = 0; i < m.group.size(); ++i) {
      Series& s = out[m.group[i]];
      s.max[t] = std::max(s.max[t], double(v[t][i]));
      s.avg[t] += double(v[t][i]) / count[m.group[i]];
    }
  return out;
}

Picture picture(const Model& m, bool unfold_group, const std::vector<int>& group, double width,
                double height) {
  const int D = int(m.dims.size());
  const Layout lay(m, unfold_group ? 3 : 0, width, height);
  Picture pic;
  pic.width = std::max(200.0, lay.width());
  pic.height = lay.height();
  pic.stroke = std::clamp(lay.cell * 0.1, 1.0, 3.5);
  const bool all_groups = unfold_group && group.empty();
  pic.caption = caption(m, lay, unfold_group, all_groups);
  if (lay.d2 < D)
    for (int p = 0; p < lay.n2; ++p) {
      auto [x, y] = lay.origin(p);
      pic.labels.push_back({std::max(2.0, x - Layout::kPad * lay.cell), y - Layout::kPad * lay.cell - 4,
                            fmt::format("{}={}", upper(m.dims[std::size_t(lay.d2)]), p)});
    }
  std::map<std::pair<std::vector<int>, std::string>, Segment> seg;
  const double off = lay.cell * 0.1, tick = lay.cell * 0.42;
  for (std::size_t i = 0; i < m.from.size(); ++i) {
    const auto& a = m.from[i];
    const auto& b = m.to[i];
    if (a.empty()) continue;
    bool inside = true;  // both ends in the same position of the first three dims
    for (int k = 0; k < std::min(3, D); ++k) inside &= a[std::size_t(k)] == b[std::size_t(k)];
    if (unfold_group) {
      if (!inside || D <= 3) continue;
      bool mine = true;
      for (int k = 0; k < 3 && !all_groups; ++k) mine &= a[std::size_t(k)] == group[std::size_t(k)];
      if (!mine) continue;
    } else if (inside) {
      continue;  // a link inside a folded group
    }
    int k = -1;  // the laid-out dimension the link runs along
    for (int d : {lay.d0, lay.d1, lay.d2})
      if (Layout::at_dim(a, d) != Layout::at_dim(b, d)) k = d;
    if (k < 0) continue;
    const std::string& g = m.group[i];
    const int step = Layout::at_dim(b, k) - Layout::at_dim(a, k);
    const double sign = g.size() > 1 && g.back() == '-'   ? -1
                        : g.size() > 1 && g.back() == '+' ? 1
                        : step > 0                        ? 1
                                                          : -1;
    auto [x1, y1] = lay.at(a);
    auto [x2, y2] = lay.at(b);
    if (k == lay.d2) {  // across panels: a diagonal tick at the sending router
      x2 = x1 + sign * tick * 0.75, y2 = y1 + sign * tick * 0.75;
    } else {
      if (std::abs(step) > 1) {  // wrap-around: a short tick leaving the edge
        x2 = x1 + (x2 > x1 ? -tick : x2 < x1 ? tick : 0);
        y2 = y1 + (y2 > y1 ? -tick : y2 < y1 ? tick : 0);
      }
      const double ox = k == lay.d1 ? sign * off : 0, oy = k == lay.d0 ? sign * off : 0;
      x1 += ox, x2 += ox, y1 += oy, y2 += oy;
    }
    std::vector<int> key;
    for (int d : {lay.d0, lay.d1, lay.d2})
      key.push_back(Layout::at_dim(a, d)), key.push_back(Layout::at_dim(b, d));
    auto it = seg.find({key, g});
    if (it == seg.end()) it = seg.emplace(std::make_pair(key, g), Segment{x1, y1, x2, y2, g, {}}).first;
    it->second.links.push_back(i);
  }
  for (auto& [k, s] : seg) pic.segs.push_back(std::move(s));
  return pic;
}

double seg_value(const Segment& s, const std::vector<float>& v) {
  double x = 0;
  for (std::size_t i : s.links) x = std::max(x, double(v[i]));
  return x;
}

}  // namespace kairo::app::view

namespace kairo::app::view {

std::pair<std::string, double> time_unit(double end_s) {
  if (end_s < 2e-6) return {"ns", 1e-9};
  if (end_s < 2e-3) return {"\u00b5s", 1e-6};
  return {"ms", 1e-3};
}

std::vector<double> ticks(double lo, double hi, int target) {
  std::vector<double> t;
  if (!(hi > lo)) return {lo};
  const double raw = (hi - lo) / target, p = std::pow(10.0, std::floor(std::log10(raw)));
  double step = p;
  for (double f : {1.0, 2.0, 5.0, 10.0})
    if (f * p >= raw) {
      step = f * p;
      break;
    }
  for (double k = std::ceil(lo / step - 1e-9); k * step <= hi + step * 1e-9; k += 1)
    t.push_back(k * step + 0.0);
  return t;
}

}  // namespace kairo::app::view
