// kairo view's model of a counter log (app/view_model.h).
#include "app/view_model.h"

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

}  // namespace

Model build(const platforms::CounterLogData& d) {
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

}  // namespace kairo::app::view
