// kairo view's SVG pictures (app/view_svg.h).
#include "app/view_svg.h"

#include <fmt/format.h>

#include <algorithm>

#include "app/svg_text.h"

namespace kairo::app::view {
namespace {

// Text safe inside SVG/XML.
std::string esc(const std::string& s) {
  std::string o;
  for (char c : s) o += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : std::string(1, c);
  return o;
}

std::string svg_open(double w, double h, int font) {
  return fmt::format(
      "<svg xmlns='http://www.w3.org/2000/svg' width='{:.0f}' height='{:.0f}' viewBox='0 0 {:.0f} {:.0f}' "
      "font-family='sans-serif' font-size='{}'>\n<rect width='100%' height='100%' fill='white'/>\n",
      w, h, w, h, font);
}

// The colour scale: a gradient bar from 0 to 1 with 0, 0.5 and 1 marked.
std::string colour_bar(double x, double y, double w, const Metric& what) {
  std::string o = "<defs><linearGradient id='scale'>";
  for (int i = 0; i <= 10; ++i)
    o += fmt::format("<stop offset='{}' stop-color='{}'/>", i / 10.0, colour(i / 10.0));
  o += fmt::format(
      "</linearGradient></defs>\n<rect x='{:.1f}' y='{:.1f}' width='{:.1f}' height='10' "
      "fill='url(#scale)' stroke='#888'/>\n",
      x, y, w);
  for (double t : {0.0, 0.5, 1.0})
    o += fmt::format("<text x='{:.1f}' y='{:.1f}' text-anchor='middle'>{}</text>\n", x + t * w, y + 23,
                     t == 0.5 ? "0.5"
                     : t == 0 ? "0"
                              : "1");
  return o + fmt::format("<text x='{:.1f}' y='{:.1f}'>{} ({})</text>\n", x + w + 12, y + 9, what.name,
                         what.ratio);
}

}  // namespace

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

Metric util_metric() { return {"utilization", "busy time / interval"}; }
Metric stall_metric() { return {"stall", "zero-credit time per VC / interval"}; }
Metric power_metric(double max_mw) {
  return {"power", fmt::format("dynamic power / the highest link's, {:.4g} mW", max_mw)};
}

std::string timeseries_svg(const Model& m, const std::map<std::string, Series>& s, const Metric& what) {
  const int W = 900, H = 90, gap = 12, top = 48, x0 = 84, w = W - x0 - 20;
  const std::size_t T = m.seconds.size();
  const double t0 = m.start_s.front(), t1 = m.start_s.back() + m.seconds.back();
  const auto [unit, scale] = time_unit(t1);
  auto xof = [&](double t) { return x0 + (t - t0) / (t1 - t0) * w; };
  const int rows = int(m.group_names.size()), bottom = top + rows * (H + gap);
  // Values up to 1.1 fit, so that a maximum of 1.0 stays visible below the top edge.
  auto yof = [&](int y0, double v) { return y0 + H - v / 1.1 * H; };
  std::string o = svg_open(W, bottom + 44, 11);
  o += fmt::format(
      "<text x='10' y='18' font-size='13'>{} ({}) per interval over the links of each dimension and "
      "direction</text>\n<line x1='10' x2='34' y1='34' y2='34' stroke='#ff3030' stroke-width='2'/><text "
      "x='38' y='38'>maximum</text><line x1='110' x2='134' y1='34' y2='34' stroke='#30d030' "
      "stroke-width='2'/><text x='138' y='38'>average</text>\n",
      what.name, what.ratio);
  o += fmt::format("<text transform='translate(14,{}) rotate(-90)' text-anchor='middle'>{} ({})</text>\n",
                   (top + bottom) / 2, what.name, what.ratio);
  int row = 0;
  for (const auto& g : m.group_names) {
    const Series& v = s.at(g);
    const int y0 = top + row++ * (H + gap);
    o += fmt::format(
        "<text x='30' y='{}' font-weight='bold'>{}</text><rect x='{}' y='{}' width='{}' "
        "height='{}' fill='black'/>\n",
        y0 + H / 2 + 4, esc(g), x0, y0, w, H);
    for (double y : {0.0, 0.5, 1.0})
      o += fmt::format(
          "<line x1='{}' x2='{}' y1='{:.1f}' y2='{:.1f}' stroke='#555' stroke-dasharray='2,3'/>"
          "<text x='{}' y='{:.1f}' text-anchor='end'>{}</text>\n",
          x0 - 4, x0 + w, yof(y0, y), yof(y0, y), x0 - 6, yof(y0, y) + 4,
          y == 0.5 ? "0.5"
          : y == 0 ? "0"
                   : "1");
    auto line = [&](const std::vector<double>& ys, const char* c) {
      std::string pts;
      for (std::size_t t = 0; t < T; ++t)
        pts += fmt::format("{:.1f},{:.1f} ", xof(m.start_s[t] + m.seconds[t] / 2), yof(y0, ys[t]));
      o += fmt::format("<polyline points='{}' fill='none' stroke='{}' stroke-width='1.5'/>\n", pts, c);
    };
    line(v.max, "#ff3030");
    line(v.avg, "#30d030");
  }
  for (double t : ticks(t0 / scale, t1 / scale))
    o += fmt::format(
        "<line x1='{0:.1f}' x2='{0:.1f}' y1='{1}' y2='{2}' stroke='black'/><text x='{0:.1f}' "
        "y='{3}' text-anchor='middle'>{4:g}</text>\n",
        xof(t * scale), bottom - gap, bottom - gap + 5, bottom + 6, t);
  return o + fmt::format("<text x='{}' y='{}' text-anchor='middle'>simulated time ({})</text>\n</svg>\n",
                         x0 + w / 2, bottom + 26, unit);
}

std::string topo_svg(const Picture& pic, const std::vector<float>& v, const std::string& title,
                     const Metric& what, const std::string& dim_filter) {
  // As wide as the picture, and as its title at 13px (0.6 em a character at most).
  const double top = 28, w = std::max({pic.width, 560.0, 20 + 0.6 * 13 * double(text_chars(title))});
  const auto lines = wrap_words(pic.caption, std::size_t(w / 6.6));
  std::string o = svg_open(w, top + pic.height + 50 + 15 * double(lines.size()), 12);
  o += fmt::format("<text x='10' y='18' font-size='13'>{}</text>\n<g transform='translate(0,{})'>\n",
                   esc(title), top);
  for (const auto& l : pic.labels)
    o += fmt::format("<text x='{:.1f}' y='{:.1f}' fill='#555'>{}</text>\n", l.x, l.y, esc(l.text));
  for (const auto& s : pic.segs) {
    if (!dim_filter.empty() && s.group.rfind(dim_filter, 0) != 0) continue;
    o += fmt::format(
        "<line x1='{:.1f}' y1='{:.1f}' x2='{:.1f}' y2='{:.1f}' stroke='{}' stroke-width='{:.2f}'/>\n", s.x1,
        s.y1, s.x2, s.y2, colour(seg_value(s, v)), pic.stroke);
  }
  o += "</g>\n" + colour_bar(10, top + pic.height + 8, 160, what);
  for (std::size_t i = 0; i < lines.size(); ++i)  // the caption (SVG text does not wrap by itself)
    o += fmt::format("<text x='10' y='{:.1f}' fill='#333'>{}</text>\n",
                     top + pic.height + 58 + 15 * double(i), esc(lines[i]));
  return o + "</svg>\n";
}

}  // namespace kairo::app::view
