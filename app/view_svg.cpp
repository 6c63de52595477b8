// kairo view's SVG pictures (app/view_svg.h).
#include "app/view_svg.h"

#include <fmt/format.h>

#include <algorithm>

namespace kairo::app::view {

std::string colour(double x) {
  x = std::clamp(x, 0.0, 1.0);
  int r, g, b;
  if (x < 0.5) {
    r = int(200 + 110 * x), g = int(210 + 20 * x), b = int(225 - 350 * x);
  } else {
    r = 255, g = int(220 - 400 * (x - 0.5)), b = int(50 - 80 * (x - 0.5));
  }
  return fmt::format("#{:02x}{:02x}{:02x}", std::clamp(r, 0, 255), std::clamp(g, 0, 255),
                     std::clamp(b, 0, 255));
}

std::string timeseries_svg(const Model& m, const std::map<std::string, Series>& s, const std::string& what) {
  const int W = 900, H = 120, top = 30;
  const std::size_t T = m.seconds.size();
  std::string o = fmt::format(
      "<svg xmlns='http://www.w3.org/2000/svg' width='{}' height='{}' font-family='sans-serif' "
      "font-size='11'>\n"
      "<rect width='100%' height='100%' fill='white'/>\n<text x='10' y='18' font-size='13'>{} per interval: "
      "maximum (red) and average (green) over the links of each dimension and direction</text>\n",
      W, top + int(m.group_names.size()) * (H + 20) + 10, what);
  int row = 0;
  for (const auto& g : m.group_names) {
    const Series& v = s.at(g);
    const int y0 = top + row++ * (H + 20), x0 = 60, w = W - x0 - 20;
    o += fmt::format(
        "<text x='10' y='{}'>{}</text><rect x='{}' y='{}' width='{}' height='{}' fill='black'/>\n",
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

std::string topo_svg(const std::vector<Segment>& segs, const std::vector<float>& v, const std::string& title,
                     const std::string& dim_filter) {
  double w = 200, h = 200;
  for (const auto& s : segs) w = std::max({w, s.x1 + 40, s.x2 + 40}), h = std::max({h, s.y1 + 40, s.y2 + 40});
  std::string o = fmt::format(
      "<svg xmlns='http://www.w3.org/2000/svg' width='{:.0f}' height='{:.0f}' font-family='sans-serif' "
      "font-size='12'>\n<rect width='100%' height='100%' fill='white'/>\n<text x='10' y='20'>{}</text>\n",
      w, h, title);
  for (const auto& s : segs) {
    if (!dim_filter.empty() && s.group.rfind(dim_filter, 0) != 0) continue;
    o += fmt::format("<line x1='{:.1f}' y1='{:.1f}' x2='{:.1f}' y2='{:.1f}' stroke='{}' stroke-width='3'/>\n",
                     s.x1, s.y1, s.x2, s.y2, colour(seg_value(s, v)));
  }
  return o + "</svg>\n";
}

}  // namespace kairo::app::view
