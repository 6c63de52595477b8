// Line charts as SVG (app/plot_svg.h).
#include "app/plot_svg.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "app/svg_text.h"

namespace kairo::app::plot {
namespace {

// The plot area's top, bottom and right edge; its left edge leaves room for
// the y axis's tick labels and title (Frame). Below it: the x tick labels
// and title, then the legend, then the caption.
constexpr double kTop = 40, kBottom = 338, kRight = 622;
constexpr int kCaptionChars = 112;  // per line at 10px
// Text widths for layout, upper bounds for a sans-serif font: the average
// advance of a character is 0.5 to 0.6 em (Helvetica, Arial, DejaVu Sans).
constexpr double kCharEm = 0.6;
// The legend: entries of a 24-unit sample, a gap and the label at 11px, in
// as many columns as fit the figure's width, rows 16 units apart.
constexpr double kLegendSample = 32, kLegendPad = 8, kLegendRow = 16, kLegendLabelPx = 11;

// Where the plot area's left edge is and where the y axis's title goes, and
// the size of the whole drawing (the legend below may make it taller and, for
// very long entries, wider).
struct Frame {
  double left = 74;
  double y_title_x = 18;     // the title's baseline (it is rotated: it runs up the page)
  double y_title_font = 13;  // smaller when the title is longer than the plot area is high
  double width = kWidth, height = kHeight;
};

// Okabe and Ito's colour-blind-safe palette (yellow left out: too pale on
// white), with black; each series also has its own marker and dash.
constexpr const char* kColours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                    "#E69F00", "#56B4E9", "#000000"};
constexpr const char* kDashes[] = {"", "6 3", "2 2", "8 3 2 3", "4 4", "1 3", "10 4"};
constexpr int kStyles = 7;
constexpr int kShapes = 8;

std::string num(double v) { return fmt::format("{:.2f}", v); }

// Data to user units along one axis.
struct Mapping {
  Ticks t;
  Scale scale;
  double from, to;  // user units at t.lo and t.hi
  double operator()(double v) const {
    const double f = scale == Scale::kLog
                         ? (std::log10(v) - std::log10(t.lo)) / (std::log10(t.hi) - std::log10(t.lo))
                         : (v - t.lo) / (t.hi - t.lo);
    return from + f * (to - from);
  }
};

Ticks ticks_for(const Chart& c, const Axis& a, bool x_axis) {
  double lo = HUGE_VAL, hi = -HUGE_VAL;
  for (const Series& s : c.series)
    for (const Point& p : s.points) {
      const double v = x_axis ? p.x : p.y;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  if (lo > hi) lo = hi = a.scale == Scale::kLog ? 1 : 0;
  if (!x_axis && c.y_max > 0) {
    hi = c.y_max;
    lo = std::min(lo, hi / 10);
  }
  if (a.scale == Scale::kLog) return log_ticks(lo, hi);
  if (a.from_zero) lo = std::min(lo, 0.0);
  return linear_ticks(lo, hi);
}

// Marker `shape` centred at (x, y), about 8 units across.
std::string marker(int shape, double x, double y, const char* colour) {
  const std::string at = fmt::format("transform=\"translate({},{})\"", num(x), num(y));
  const std::string paint = fmt::format("fill=\"{}\" stroke=\"{}\"", colour, colour);
  switch (shape % kShapes) {
    case 0:
      return fmt::format("<circle {} r=\"3.6\" {}/>", at, paint);
    case 1:
      return fmt::format("<rect {} x=\"-3.4\" y=\"-3.4\" width=\"6.8\" height=\"6.8\" {}/>", at, paint);
    case 2:
      return fmt::format("<path {} d=\"M0,-4.4 L4,3 L-4,3 Z\" {}/>", at, paint);
    case 3:
      return fmt::format("<path {} d=\"M0,-4.6 L4,0 L0,4.6 L-4,0 Z\" {}/>", at, paint);
    case 4:
      return fmt::format("<path {} d=\"M0,4.4 L4,-3 L-4,-3 Z\" {}/>", at, paint);
    case 5:
      return fmt::format("<circle {} r=\"3.4\" fill=\"white\" stroke=\"{}\" stroke-width=\"1.6\"/>", at,
                         colour);
    case 6:
      return fmt::format(
          "<rect {} x=\"-3.2\" y=\"-3.2\" width=\"6.4\" height=\"6.4\" fill=\"white\" stroke=\"{}\" "
          "stroke-width=\"1.6\"/>",
          at, colour);
    default:
      return fmt::format(
          "<path {} d=\"M-3.6,-3.6 L3.6,3.6 M-3.6,3.6 L3.6,-3.6\" fill=\"none\" stroke=\"{}\" "
          "stroke-width=\"1.8\"/>",
          at, colour);
  }
}

std::string text(double x, double y, const std::string& s, const std::string& attrs) {
  return fmt::format("<text x=\"{}\" y=\"{}\" {}>{}</text>\n", num(x), num(y), attrs, xml_escape(s));
}

// Ticks, grid lines and labels of one axis.
std::string axis_svg(const Mapping& m, const Axis& a, bool x_axis, const Frame& fr) {
  std::string out = fmt::format("<g class=\"axis {}\">\n", x_axis ? "x" : "y");
  const double step = m.t.at.size() > 1 ? m.t.at[1] - m.t.at[0] : 0;
  for (double v : m.t.minor) {
    const double p = m(v);
    out += x_axis ? fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#000\"/>\n",
                                num(p), num(kBottom), num(kBottom + 3))
                  : fmt::format("<line x1=\"{1}\" y1=\"{0}\" x2=\"{2}\" y2=\"{0}\" stroke=\"#000\"/>\n",
                                num(p), num(fr.left - 3), num(fr.left));
  }
  for (double v : m.t.at) {
    const double p = m(v);
    const std::string label = tick_label(v, a.scale, step);
    if (x_axis) {
      out += fmt::format(
          "<g class=\"tick\" data-value=\"{0}\"><line x1=\"{1}\" y1=\"{2}\" x2=\"{1}\" y2=\"{3}\" "
          "stroke=\"#ddd\"/>"
          "<line x1=\"{1}\" y1=\"{3}\" x2=\"{1}\" y2=\"{4}\" stroke=\"#000\"/>",
          v, num(p), num(kTop), num(kBottom), num(kBottom + 5));
      out += text(p, kBottom + 17, label, "text-anchor=\"middle\"");
    } else {
      out += fmt::format(
          "<g class=\"tick\" data-value=\"{0}\"><line x1=\"{2}\" y1=\"{1}\" x2=\"{3}\" y2=\"{1}\" "
          "stroke=\"#ddd\"/>"
          "<line x1=\"{4}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"#000\"/>",
          v, num(p), num(fr.left), num(kRight), num(fr.left - 5));
      out += text(fr.left - 8, p + 4, label, "text-anchor=\"end\"");
    }
    out.insert(out.size() - 1, "</g>");
  }
  if (x_axis)
    out += text((fr.left + kRight) / 2, kBottom + 37, a.title,
                "class=\"title\" text-anchor=\"middle\" font-size=\"13\"");
  else
    out += fmt::format(
        "<text class=\"title\" transform=\"translate({},{}) rotate(-90)\" text-anchor=\"middle\" "
        "font-size=\"{}\">{}</text>\n",
        num(fr.y_title_x), num((kTop + kBottom) / 2), fr.y_title_font, xml_escape(a.title));
  return out + "</g>\n";
}

std::string series_svg(const Series& s, int i, const Mapping& mx, const Mapping& my) {
  const char* colour = kColours[i % kStyles];
  const std::string dash = kDashes[i % kStyles];
  std::string pts;
  for (const Point& p : s.points) pts += (pts.empty() ? "" : " ") + num(mx(p.x)) + "," + num(my(p.y));
  std::string out = fmt::format("<g class=\"series\" data-label=\"{}\">\n", xml_escape(s.label));
  out += fmt::format("<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"1.6\"{}/>\n", pts,
                     colour, dash.empty() ? "" : " stroke-dasharray=\"" + dash + "\"");
  for (const Point& p : s.points) out += marker(i, mx(p.x), my(p.y), colour) + "\n";
  for (const Point& p : s.points) {  // intervals; on a log axis only where the low end stays above 0
    if (!(p.y_err > 0) || (my.scale == Scale::kLog && p.y - p.y_err <= 0)) continue;
    const double x = mx(p.x), lo = my(p.y - p.y_err), hi = my(p.y + p.y_err);
    out += fmt::format(
        "<path class=\"ci\" data-y=\"{}\" data-ci95=\"{}\" d=\"M{} {}V{}M{} {}H{}M{} {}H{}\" stroke=\"{}\" "
        "fill=\"none\"/>\n",
        p.y, p.y_err, num(x), num(lo), num(hi), num(x - 3), num(lo), num(x + 3), num(x - 3), num(hi),
        num(x + 3), colour);
  }
  if (s.marked && *s.marked < s.points.size()) {
    const Point& p = s.points[*s.marked];
    out += fmt::format(
        "<circle class=\"mark\" data-x=\"{}\" data-y=\"{}\" cx=\"{}\" cy=\"{}\" r=\"8\" fill=\"none\" "
        "stroke=\"{}\" "
        "stroke-width=\"1.4\"/>\n",
        p.x, p.y, num(mx(p.x)), num(my(p.y)), colour);
  }
  return out + "</g>\n";
}

struct LegendEntry {
  std::string label;
  std::string sample;  // SVG of the line and marker, drawn at (0, 0)..(24, 0)
};

std::vector<LegendEntry> legend_entries(const Chart& c) {
  std::vector<LegendEntry> entries;
  for (std::size_t i = 0; i < c.series.size(); ++i) {
    const int k = int(i);
    const std::string dash = kDashes[k % kStyles];
    entries.push_back(
        {c.series[i].label,
         fmt::format("<line x1=\"0\" y1=\"0\" x2=\"24\" y2=\"0\" stroke=\"{}\" stroke-width=\"1.6\"{}/>",
                     kColours[k % kStyles], dash.empty() ? "" : " stroke-dasharray=\"" + dash + "\"") +
             marker(k, 12, 0, kColours[k % kStyles])});
  }
  if (c.diagonal)
    entries.push_back(
        {"accepted = offered",
         "<line x1=\"0\" y1=\"0\" x2=\"24\" y2=\"0\" stroke=\"#888\" stroke-dasharray=\"3 3\"/>"});
  const bool marks = std::any_of(c.series.begin(), c.series.end(), [](const Series& s) { return s.marked; });
  if (marks && !c.mark_legend.empty())
    entries.push_back({c.mark_legend, "<circle cx=\"12\" cy=\"0\" r=\"7\" fill=\"none\" stroke=\"#000\"/>"});
  return entries;
}

// The legend's grid: below the x axis's title, columns as wide as the
// longest entry, as many as fit the figure (at least one: a wider figure).
struct LegendGrid {
  double x0 = 0, y0 = 0, col = 0, w = 0, h = 0;
  std::size_t cols = 1, rows = 0;
};

LegendGrid legend_grid(const std::vector<LegendEntry>& entries, double left) {
  LegendGrid g;
  std::size_t chars = 0;
  for (const auto& e : entries) chars = std::max(chars, text_chars(e.label));
  g.col = kLegendSample + kLegendPad + kCharEm * kLegendLabelPx * double(chars);
  const double room = kWidth - 2 * kLegendPad;  // the figure's width less a margin each side
  g.cols = std::clamp<std::size_t>(std::size_t((room - kLegendPad) / g.col), 1,
                                   std::max<std::size_t>(1, entries.size()));
  g.rows = (entries.size() + g.cols - 1) / g.cols;
  g.w = kLegendPad + double(g.cols) * g.col;
  g.h = kLegendPad + kLegendRow * double(g.rows);
  // Centred under the plot area when it fits there, else as far left as the margin allows.
  g.x0 = std::max(kLegendPad, std::min((left + kRight - g.w) / 2, kWidth - kLegendPad - g.w));
  g.y0 = kBottom + 50;
  return g;
}

std::string legend_svg(const std::vector<LegendEntry>& entries, const LegendGrid& g) {
  std::string out =
      fmt::format("<g class=\"legend\" transform=\"translate({},{})\">\n", num(g.x0), num(g.y0));
  out += fmt::format("<rect x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"white\" stroke=\"#999\"/>\n",
                     num(g.w), num(g.h));
  for (std::size_t i = 0; i < entries.size(); ++i) {  // down the first column, then the next
    const double x = kLegendPad + g.col * double(i / g.rows), y = 12 + kLegendRow * double(i % g.rows);
    out += fmt::format("<g class=\"entry\" transform=\"translate({},{})\">{}", num(x), num(y),
                       entries[i].sample);
    out += text(kLegendSample, 4, entries[i].label, "font-size=\"11\"");
    out.insert(out.size() - 1, "</g>");
  }
  return out + "</g>\n";
}

// The y axis's tick labels and title left of the plot area: the area's left
// edge moves right for wide labels, and a title longer than the area is
// high is set smaller (down to 9px) so that it stays whole.
Frame frame_for(const Chart& c, const Mapping& my) {
  Frame fr;
  const double step = my.t.at.size() > 1 ? my.t.at[1] - my.t.at[0] : 0;
  std::size_t chars = 0;
  for (double v : my.t.at) chars = std::max(chars, text_chars(tick_label(v, c.y.scale, step)));
  const double labels = kCharEm * 12 * double(chars);
  const double title_chars = double(std::max<std::size_t>(1, text_chars(c.y.title)));
  fr.y_title_font = std::clamp(std::floor((kBottom - kTop) / (kCharEm * title_chars)), 9.0, 13.0);
  // From the left: a margin, the title's ascent (its baseline is its right side), its descent, a gap, the
  // labels.
  fr.y_title_x = 4 + fr.y_title_font;
  fr.left = std::max(74.0, fr.y_title_x + 0.3 * fr.y_title_font + 6 + labels + 8);
  return fr;
}

}  // namespace

Ticks linear_ticks(double lo, double hi, int target) {
  if (!(hi > lo)) hi = lo + (lo == 0 ? 1 : std::abs(lo));
  const double raw = (hi - lo) / target;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double norm = raw / mag;
  const double n = norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10;
  const double step = n * mag;
  // k x step as the double nearest the decimal (0.3, not 0.30000000000000004)
  const double scale = mag < 1 ? std::round(1 / mag) : 1;
  auto at = [&](double k) { return mag < 1 ? k * n / scale : k * step; };
  Ticks t;
  const double first = std::floor(lo / step + 1e-9), last = std::ceil(hi / step - 1e-9);
  t.lo = at(first);
  t.hi = at(last);
  for (double k = first; k <= last; ++k) t.at.push_back(at(k));
  return t;
}

Ticks log_ticks(double lo, double hi) {
  // A point within a tenth of a decade of a whole decade would sit on the
  // frame: the range then takes in one decade more.
  int first = int(std::floor(std::log10(lo) + 1e-9));
  if (std::log10(lo) - first < 0.1) --first;
  int last = int(std::ceil(std::log10(hi) - 1e-9));
  if (last - std::log10(hi) < 0.1) ++last;
  Ticks t;
  t.lo = std::pow(10.0, first);
  t.hi = std::pow(10.0, last);
  for (int k = first; k <= last; ++k) {
    t.at.push_back(std::pow(10.0, k));
    if (k < last)
      for (int m = 2; m <= 9; ++m) t.minor.push_back(m * std::pow(10.0, k));
  }
  return t;
}

std::string tick_label(double v, Scale scale, double step) {
  if (scale == Scale::kLog) {
    const int k = int(std::lround(std::log10(v)));
    if (k < 0) return fmt::format("{:.{}f}", v, -k);
    static const char* kPrefix[] = {"", "k", "M", "G", "T", "P"};
    if (k >= 18) return fmt::format("1e{}", k);
    return fmt::format("{}{}", k % 3 == 0 ? "1" : k % 3 == 1 ? "10" : "100", kPrefix[k / 3]);
  }
  const int decimals = step > 0 ? std::max(0, int(std::ceil(-std::log10(step) - 1e-9))) : 0;
  std::string s = fmt::format("{:.{}f}", v, decimals);
  if (s.find_first_not_of("-0.") == std::string::npos) s = "0";  // not "-0.00"
  return s;
}

std::string render_svg(const Chart& c) {
  const Mapping my{ticks_for(c, c.y, false), c.y.scale, kBottom, kTop};
  Frame fr = frame_for(c, my);
  const Mapping mx{ticks_for(c, c.x, true), c.x.scale, fr.left, kRight};
  const std::vector<LegendEntry> entries = legend_entries(c);
  const LegendGrid lg = legend_grid(entries, fr.left);
  const std::vector<std::string> lines =
      c.caption.empty() ? std::vector<std::string>{} : wrap_words(c.caption, kCaptionChars);
  const double caption_y = lg.y0 + lg.h + 18;  // the first caption line's baseline
  fr.width = std::max(double(kWidth), std::ceil(lg.x0 + lg.w + kLegendPad));
  fr.height = std::max(double(kHeight), std::ceil(caption_y + 13 * double(lines.size()) - 8));
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">\n",
      fr.width, fr.height);
  out += fmt::format("<rect width=\"{}\" height=\"{}\" fill=\"white\"/>\n", fr.width, fr.height);
  out += text(fr.width / 2.0, 24, c.title, "class=\"title\" text-anchor=\"middle\" font-size=\"14\"");
  out += axis_svg(mx, c.x, true, fr);
  out += axis_svg(my, c.y, false, fr);
  out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#000\"/>\n",
                     num(fr.left), num(kTop), num(kRight - fr.left), num(kBottom - kTop));
  if (c.diagonal) {
    // y = x over the range both axes share
    const double lo = std::max(mx.t.lo, my.t.lo), hi = std::min(mx.t.hi, my.t.hi);
    if (hi > lo)
      out += fmt::format(
          "<line class=\"diagonal\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#888\" "
          "stroke-dasharray=\"3 3\"/>\n",
          num(mx(lo)), num(my(lo)), num(mx(hi)), num(my(hi)));
  }
  // Curves cut at y_max, and intervals that reach past the axes, stay inside the frame.
  const bool clip =
      c.y_max > 0 || std::any_of(c.series.begin(), c.series.end(), [](const Series& s) {
        return std::any_of(s.points.begin(), s.points.end(), [](const Point& p) { return p.y_err > 0; });
      });
  if (clip)
    out += fmt::format(
        "<clipPath id=\"plot-area\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/></clipPath>\n<g "
        "clip-path=\"url(#plot-area)\">\n",
        num(fr.left), num(kTop), num(kRight - fr.left), num(kBottom - kTop));
  for (std::size_t i = 0; i < c.series.size(); ++i) out += series_svg(c.series[i], int(i), mx, my);
  if (clip) out += "</g>\n";
  out += legend_svg(entries, lg);
  for (std::size_t i = 0; i < lines.size(); ++i)
    out += text(2 * kLegendPad, caption_y + 13 * double(i), lines[i], "class=\"caption\" font-size=\"10\"");
  return out + "</svg>\n";
}

}  // namespace kairo::app::plot
