// kairo view COUNTERS --out DIR: Yazaki et al. 2015's two views of a counter log
// (platforms/counter_log.h), as SVG pictures and one self-contained HTML
// page whose views are linked (docs/views.md): the model of the log in
// view_model.h, the SVG pictures in view_svg.h, the page in view_page.h
// (its template app/view/page.html).
//
//   time-series view ... per dimension and direction (X+, X-, ..., ni), the
//                        maximum and the average over its links of the
//                        utilization (busy time / interval) per interval, in
//                        two colours (Yazaki et al. 2015, Fig. 1); the same for stall
//                        (zero-credit time per VC / interval)
//   topological view ... the links at one interval, coloured by utilization
//                        or stall: the first three dimensions laid out (X
//                        across, Y down, Z slices side by side), the others
//                        folded (a segment shows the most loaded of the links
//                        it stands for; on Tofu, the XYZ torus with each ABC
//                        group folded), and one folded group unfolded (the
//                        ABC group with the most traffic)
#include <fmt/format.h>

#include <cctype>
#include <filesystem>
#include <iostream>
#include <map>

#include "app/cli_common.h"
#include "app/view_header.h"
#include "app/view_model.h"
#include "app/view_page.h"
#include "app/view_report.h"
#include "app/view_svg.h"
#include "platforms/counter_log.h"
#include "sim/units.h"

namespace kairo::app {

using platforms::CounterLogData;
using namespace view;

namespace {

// A dimension's name as the pictures write it ("X"); empty past the last.
std::string dim_name(const Model& m, std::size_t d) {
  std::string s = d < m.dims.size() ? m.dims[d] : "";
  for (char& c : s) c = char(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

int render_views(const std::string& in, const std::string& dir, const std::string& from_s,
                 const std::string& to_s, const std::string& at_s, const std::string& summary_s) {
  CounterLogData d;
  try {
    d = platforms::read_counter_log(in);
  } catch (const std::exception& e) {
    return bad_input(e.what());
  }
  // The run's summary for the header: --summary, else one next to the log.
  const std::string summary_path = summary_s.empty() ? summary_beside(in) : summary_s;
  nlohmann::json summary;
  if (!summary_path.empty()) try {
      summary = read_summary(summary_path);
    } catch (const std::exception& e) {
      if (!summary_s.empty()) return bad_input(std::string("--summary: ") + e.what());
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
  if (d.intervals.empty())
    return bad_input("counter log " + in + ": no intervals (in the --from/--to window)");
  // The views draw the "link" table (none: a CSV log whose links never moved).
  static const platforms::CounterTable kNoLinks;
  const platforms::CounterTable* links = d.table("link");
  if (links && links->field("busy_ps") < 0)
    return bad_input("counter log " + in +
                     ": its link table has no busy_ps column; the views colour links by it");
  if (!links) links = &kNoLinks;
  const Model m = build(d);
  const nlohmann::json header =
      header_json(summary.is_null() ? nullptr : &summary, summary_path, m, in, links->rows.size());
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
    write_text_file(dir + "/timeseries_util.svg", timeseries_svg(m, us, util_metric()));
    write_text_file(dir + "/timeseries_stall.svg", timeseries_svg(m, ss, stall_metric()));
    const Picture pic = picture(m, false, {});
    const auto [unit, scale] = time_unit(m.start_s.back() + m.seconds.back());
    const std::string when = fmt::format("interval {}, {:g} to {:g} {}", initial, m.start_s[initial] / scale,
                                         (m.start_s[initial] + m.seconds[initial]) / scale, unit);
    const std::string run = header["title"].get<std::string>() + ": ";
    write_text_file(dir + "/topology_util.svg",
                    topo_svg(pic, m.util[initial], run + "utilization in " + when, util_metric(), ""));
    write_text_file(dir + "/topology_stall.svg",
                    topo_svg(pic, m.stall[initial], run + "stall in " + when, stall_metric(), ""));
    if (!m.power.empty()) {  // a log with the energy column: the power view beside utilization
      write_text_file(dir + "/timeseries_power.svg",
                      timeseries_svg(m, series(m, m.power), power_metric(m.power_max_mw)));
      write_text_file(dir + "/topology_power.svg",
                      topo_svg(pic, m.power[initial], run + "dynamic power in " + when,
                               power_metric(m.power_max_mw), ""));
    }
    // One picture per dimension: the first three on the folded view, the
    // folded ones (Tofu's A, B, C) on every group folded onto one, where
    // their links are drawn (the folded view has none of them).
    const Picture folded_groups = m.dims.size() > 3 ? picture(m, true, {}) : Picture{};
    for (const auto& g : m.group_names) {
      if (g == "ni") continue;
      const std::string dim(1, g[0]);
      const std::string file = dir + "/topology_util_" + dim + ".svg";
      bool folded = false;  // a dimension past the first three
      for (std::size_t k = 3; k < m.dims.size(); ++k)
        folded |= m.dims[k][0] == std::tolower(static_cast<unsigned char>(g[0]));
      if (!std::filesystem::exists(file))
        write_text_file(file, topo_svg(folded ? folded_groups : pic, m.util[initial],
                                       fmt::format("{}utilization of the {} links in {}{}", run, dim, when,
                                                   folded ? ", every group folded onto one" : ""),
                                       util_metric(), dim));
    }
    if (m.dims.size() > 3) {  // one folded group unfolded: the busiest
      std::map<std::vector<int>, double> load;
      for (std::size_t i = 0; i < m.from.size(); ++i)
        if (!m.from[i].empty())
          load[std::vector<int>(m.from[i].begin(), m.from[i].begin() + 3)] += m.util[initial][i];
      std::vector<int> g = load.empty() ? std::vector<int>{0, 0, 0} : load.begin()->first;
      for (const auto& [k, v] : load)
        if (v > load[g]) g = k;
      write_text_file(dir + "/group_util.svg",
                      topo_svg(picture(m, true, g), m.util[initial],
                               fmt::format("The {}{}{} group at {}={} {}={} {}={}, utilization in {}",
                                           dim_name(m, 3), dim_name(m, 4), dim_name(m, 5), dim_name(m, 0),
                                           g[0], dim_name(m, 1), g[1], dim_name(m, 2), g[2], when),
                               util_metric(), ""));
    }
    write_text_file(dir + "/index.html", html_page(m, us, ss, pic, initial, header));
  } catch (const std::exception& e) {
    return bad_input(std::string("--out ") + dir + ": " + e.what());
  }
  std::cout << fmt::format("kairo view: {} intervals, {} links; wrote {}/index.html and the SVG views\n",
                           d.intervals.size(), links->rows.size(), dir);
  return kExitOk;
}

void add_view_command(CLI::App& app, int& exit_code) {
  auto in = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>(), summary = std::make_shared<std::string>();
  auto from = std::make_shared<std::string>(), to = std::make_shared<std::string>(),
       at = std::make_shared<std::string>();
  CLI::App* c = app.add_subcommand(
      "view", "render the time-series and topological views of a counter log, or a run directory's report");
  c->add_option("counters", *in,
                "a counter log from kairo run --counters (.kcl or .csv), or a run's output directory (its "
                "report: index.html linking the summary, plots, counter views and waveforms)")
      ->required();
  c->add_option("--out", *out,
                "directory for index.html and the SVG pictures (required for a counter log; for a run "
                "directory, default: that directory)");
  c->add_option(
      "--summary", *summary,
      "the run's --json output, shown in the header (default: LOG.json or run.json next to the log)");
  c->add_option("--from", *from, "show the run from this simulated time on, e.g. 10us");
  c->add_option("--to", *to, "show the run up to this simulated time, e.g. 60us");
  c->add_option("--at", *at,
                "the time the topological pictures show (default: the busiest interval), e.g. 25us");
  c->callback([in, out, from, to, at, summary, &exit_code] {
    std::error_code ec;
    if (std::filesystem::is_directory(*in, ec)) {
      if (!from->empty() || !to->empty() || !at->empty())
        exit_code = bad_input("--from/--to/--at apply to a counter log, not to the run directory " + *in);
      else
        exit_code = render_report(*in, out->empty() ? *in : *out, *summary);
      return;
    }
    if (!std::filesystem::exists(*in, ec)) {
      exit_code = bad_input("counters " + *in + ": no such file or directory");
      return;
    }
    if (out->empty()) {
      exit_code = bad_input("counters " + *in + ": --out DIR is required for a counter log");
      return;
    }
    exit_code = render_views(*in, *out, *from, *to, *at, *summary);
  });
}

}  // namespace kairo::app
