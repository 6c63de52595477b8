// kairo view's model of a counter log (platforms/counter_log.h): every
// link's ends and group (dimension and direction), its utilization and
// stall per interval, the series per group, and the picture of the
// topological view (docs/views.md).
#pragma once
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "platforms/counter_log.h"

namespace kairo::app::view {

// A counter log as the views see it.
struct Model {
  std::vector<std::string> dims;  // coordinate letters in order ("x","y","z","a","b","c")
  std::vector<int> sizes;
  std::vector<std::vector<int>> from,
      to;                          // per link: coordinates of its two ends (empty: not a mesh/torus link)
  std::vector<std::string> group;  // per link: "X+", "X-", "X", "ni", "up", ...
  std::vector<std::string> group_names;  // in order of first appearance
  std::vector<double> start_s, seconds;  // per interval: simulated start and length in s
  // per interval, per link: utilization and stall in [0, 1]
  std::vector<std::vector<float>> util, stall;
  // per interval, per link: dynamic power (the link table's energy_fj over
  // the interval) over the highest of any link and interval, power_max_mw;
  // empty when the log has no energy column (written before it had one)
  std::vector<std::vector<float>> power;
  double power_max_mw = 0;
  double interval_s = 0;  // the log's interval
  int vcs = 1;
};

Model build(const platforms::CounterLogData& d);

// Per group: the maximum and the average over its links, per interval.
struct Series {
  std::vector<double> max, avg;
};

std::map<std::string, Series> series(const Model& m, const std::vector<std::vector<float>>& v);

// A line of the topological view.
struct Segment {
  double x1, y1, x2, y2;
  std::string group;
  std::vector<std::size_t> links;  // the links it stands for (their maximum is shown)
};

// The topological view: its segments scaled to fit a width x height box,
// the panels' labels ("Z=3") and a caption saying how to read it.
struct Picture {
  struct Label {
    double x, y;
    std::string text;
  };
  std::vector<Segment> segs;
  std::vector<Label> labels;
  double width = 0, height = 0, stroke = 3;
  std::string caption;
};

// The folded view (dims beyond the first three folded), or one group
// unfolded (its links along the other dimensions, laid out by them), or,
// with `unfold_group` and an empty `group`, every group's links along the
// other dimensions folded onto one group's layout: a segment stands for
// that link of every group and shows the most loaded (on Tofu, the A, B
// and C links of all XYZ positions on one 2x3x2 ABC group).
Picture picture(const Model& m, bool unfold_group, const std::vector<int>& group, double width = 820,
                double height = 600);

// The value a segment shows: the most loaded of its links.
double seg_value(const Segment& s, const std::vector<float>& v);

// The unit of the time axes for a run that ends at `end_s`: "ns", "µs" or "ms",
// and its length in s.
std::pair<std::string, double> time_unit(double end_s);

// About six round tick positions (1, 2 or 5 times a power of ten) in [lo, hi].
std::vector<double> ticks(double lo, double hi, int target = 6);

}  // namespace kairo::app::view
