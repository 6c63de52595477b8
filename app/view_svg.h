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

// Per group, the maximum (red) and the average (green) of `what` per interval.
std::string timeseries_svg(const Model& m, const std::map<std::string, Series>& s, const std::string& what);

// The segments coloured by `v` (one interval's values per link); only the
// groups starting with `dim_filter` when it is given.
std::string topo_svg(const std::vector<Segment>& segs, const std::vector<float>& v, const std::string& title,
                     const std::string& dim_filter);

}  // namespace kairo::app::view
