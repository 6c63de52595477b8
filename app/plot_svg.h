// Line charts as standalone SVG for papers and reports (docs/plots.md): data
// series in, one SVG document out. 640 wide with a viewBox, text as <text>
// in a generic font family (nothing external), a colour and a marker shape
// per series (told apart in greyscale), linear or logarithmic axes with
// numeric ticks. The same chart gives the same bytes.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace kairo::app::plot {

struct Point {
  double x = 0, y = 0;
  double y_err = 0;  // > 0: a whisker from y - y_err to y + y_err (a 95% interval)
};

struct Series {
  std::string label;  // the legend entry
  std::vector<Point> points;
  std::optional<std::size_t> marked;  // a point drawn with a ring (a saturation point)
};

enum class Scale { kLinear, kLog };

struct Axis {
  std::string title;  // with the unit, "offered load (flits/node/cycle)"
  Scale scale = Scale::kLinear;
  bool from_zero = true;  // linear: the axis starts at 0 (data >= 0)
};

struct Chart {
  std::string title;    // the line above the plot: platform, pattern
  std::string caption;  // the line below it: how to read a mark, or empty
  Axis x, y;
  std::vector<Series> series;
  bool diagonal = false;    // the y = x line (accepted against offered)
  std::string mark_legend;  // legend entry of the ring marks, when any series has one
  // The y axis ends here (0: at the data's largest y); what lies above is
  // cut off at the frame, as curves past saturation in a latency plot.
  double y_max = 0;
};

// An axis's range and where its labelled ticks are.
struct Ticks {
  double lo = 0, hi = 1;
  std::vector<double> at;     // labelled ticks, lo..hi
  std::vector<double> minor;  // log axes: 2..9 x each decade, unlabelled
};

// Linear: about `target` ticks at 1, 2 or 5 x 10^k apart, the range widened
// to whole steps. Log: one tick per decade, the range widened to whole
// decades, by one more where lo or hi is within a tenth of a decade of the
// edge (so no point sits on the frame); lo and hi must be > 0.
Ticks linear_ticks(double lo, double hi, int target = 6);
Ticks log_ticks(double lo, double hi);

// A tick's label: as few digits as tell the ticks apart ("0.05", "250");
// on a log axis 1, 10, 100, 1k, 10k, ..., 1M, 1G (SI prefixes).
std::string tick_label(double v, Scale scale, double step = 0);

// The whole SVG document: the plot area with its axes, the legend below it
// (every entry outside the curves, in as many columns as fit), the caption
// under the legend.
std::string render_svg(const Chart& c);

// The drawing's size in SVG user units: 640 x 420, taller when the legend
// and caption need it (and wider for an entry too long for 640).
constexpr int kWidth = 640, kHeight = 420;

}  // namespace kairo::app::plot
