// kairo view's SVG pictures: the time series of a metric per group, and the
// topological view of the links at one interval (docs/views.md).
#pragma once
#include <map>
#include <string>
#include <vector>

#include "app/view_model.h"

namespace kairo::app::view {

// 0: pale blue-grey, 1: red, through yellow (the page's script has the same).
std::string colour(double x);

// What a metric is, with its unit, for axis titles and legends.
struct Metric {
  std::string name;   // "utilization"
  std::string ratio;  // "busy time / interval"
};
Metric util_metric();
Metric stall_metric();
// Dynamic power, as a share of the log's highest (`max_mw`).
Metric power_metric(double max_mw);

// Per group, the maximum (red) and the average (green) of a metric per
// interval, against simulated time, with axes and a legend.
std::string timeseries_svg(const Model& m, const std::map<std::string, Series>& s, const Metric& what);

// The picture's segments coloured by `v` (one interval's values per link),
// only the groups starting with `dim_filter` when it is given; with a title,
// the colour scale and the caption.
std::string topo_svg(const Picture& pic, const std::vector<float>& v, const std::string& title,
                     const Metric& what, const std::string& dim_filter);

}  // namespace kairo::app::view
