// An experiment's figure (app/plot_bars.h).
#include "app/plot_bars.h"

#include <fmt/format.h>

#include <algorithm>

#include "app/plot_data.h"
#include "app/plot_svg.h"
#include "app/svg_text.h"

namespace kairo::app::plot {
namespace {

using nlohmann::json;

std::string num(double v) { return fmt::format("{:.2f}", v); }

// Bars: label, mean, interval half-width (0: none), and a mark for the best.
std::string bar_chart(const json& summary, const std::string& figure, const std::string& axis_title) {
  const json& rows = summary["rows"];
  std::size_t label_chars = 0;
  for (const auto& r : rows)
    label_chars = std::max(label_chars, text_chars(r["configuration"].get<std::string>()));
  const double left = std::clamp(16.0 + 6.2 * double(label_chars), 90.0, 330.0);
  const std::size_t max_chars = std::size_t((left - 16) / 6.2);
  constexpr double kRight = 610, kTop = 56, kBar = 22, kGap = 8;
  const double bottom = kTop + double(rows.size()) * (kBar + kGap);
  const double height = bottom + 64;
  double hi = 0;
  for (const auto& r : rows) {
    const json& x = r[figure];
    if (x["n"] == 0) continue;
    hi = std::max(hi, x["mean"].get<double>() + (x["ci95"].is_null() ? 0.0 : x["ci95"].get<double>()));
  }
  const Ticks t = linear_ticks(0, hi > 0 ? hi : 1);
  auto X = [&](double v) { return left + (v - t.lo) / (t.hi - t.lo) * (kRight - left); };
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
      kWidth, num(height));
  const std::string seeds = fmt::format("{} seed(s)", summary["seeds"].size());
  out += fmt::format("<text x=\"{}\" y=\"20\" font-size=\"13\">{}</text>\n", num(16),
                     xml_escape(fmt::format("{}, {} traffic: {}", summary["platform"].get<std::string>(),
                                            summary["traffic"]["pattern"].get<std::string>(), axis_title)));
  out += fmt::format("<text x=\"{}\" y=\"38\" fill=\"#444\">{}</text>\n", num(16),
                     xml_escape("bars: mean over " + seeds + "; whiskers: 95% confidence interval; ★ best"));
  for (double v : t.at) {
    out += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#ddd\"/>\n", num(X(v)),
                       num(kTop - 4), num(bottom));
    out +=
        fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", num(X(v)), num(bottom + 16),
                    tick_label(v, Scale::kLinear, t.at.size() > 1 ? t.at[1] - t.at[0] : 0));
  }
  out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", num((left + kRight) / 2),
                     num(bottom + 40), xml_escape(axis_title));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const json& r = rows[i];
    const double y = kTop + double(i) * (kBar + kGap);
    std::string label = r["configuration"].get<std::string>();
    if (text_chars(label) > max_chars) label = label.substr(0, max_chars - 1) + "…";
    out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n", num(left - 6),
                       num(y + kBar / 2 + 4), xml_escape(label));
    const json& x = r[figure];
    if (x["n"] == 0) continue;
    const double m = x["mean"];
    out += fmt::format(
        "<rect class=\"bar\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" data-mean=\"{}\"/>\n",
        num(left), num(y), num(X(m) - left), num(kBar), r.value("best", false) ? "#D55E00" : "#0072B2", m);
    if (!x["ci95"].is_null()) {
      const double c = x["ci95"], a = X(std::max(0.0, m - c)), b = X(m + c), mid = y + kBar / 2;
      out += fmt::format(
          "<path class=\"ci\" d=\"M{0} {1}H{2}M{0} {3}V{4}M{2} {3}V{4}\" stroke=\"black\" "
          "fill=\"none\" data-ci95=\"{5}\"/>\n",
          num(a), num(mid), num(b), num(mid - 5), num(mid + 5), c);
    }
    out += fmt::format("<text x=\"{}\" y=\"{}\" fill=\"white\">{}{}</text>\n", num(left + 4),
                       num(y + kBar / 2 + 4), fmt::format("{:.4g}", m), r.value("best", false) ? " ★" : "");
  }
  out += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"black\"/>\n", num(left),
                     num(kTop - 4), num(bottom));
  return out + "</svg>\n";
}

// A sweep: one curve per configuration, the means over seeds.
std::string sweep_chart(const json& summary) {
  std::vector<Input> inputs;
  for (const auto& r : summary["rows"]) {
    const std::string name = r["configuration"];
    auto it = std::find_if(inputs.begin(), inputs.end(), [&](const Input& in) { return in.name == name; });
    if (it == inputs.end()) {
      inputs.push_back({name,
                        {{"platform", summary["platform"]},
                         {"pattern", summary["traffic"]["pattern"]},
                         {"sweep", json::array()}},
                        name});
      it = inputs.end() - 1;
    }
    auto ci = [](const json& x) { return x["ci95"].is_null() ? json(0.0) : x["ci95"]; };
    it->data["sweep"].push_back({{"rate", r["rate"]},
                                 {"offered_flits_per_node_cycle", r["offered"]["mean"]},
                                 {"accepted_flits_per_node_cycle", r["accepted"]["mean"]},
                                 {"accepted_flits_per_node_cycle_ci95", ci(r["accepted"])},
                                 {"avg_packet_latency_cycles", r["avg_packet_latency_cycles"]["mean"]},
                                 {"avg_packet_latency_cycles_ci95", ci(r["avg_packet_latency_cycles"])}});
    if (r.contains("dynamic_pj_per_flit")) {  // summaries written before energy was reported have none
      it->data["sweep"].back()["dynamic_pj_per_flit"] = r["dynamic_pj_per_flit"]["mean"];
      it->data["sweep"].back()["dynamic_pj_per_flit_ci95"] = ci(r["dynamic_pj_per_flit"]);
    }
  }
  return render_svg(make_chart(inputs, Kind::kLatency));
}

}  // namespace

std::string experiment_svg(const json& summary) {
  const std::string kind = summary["measure"]["kind"];
  if (kind == "saturation")
    return bar_chart(summary, "saturation_throughput", "saturation throughput (flits/node/cycle)");
  if (kind == "rate")
    return bar_chart(summary, "avg_packet_latency_cycles",
                     fmt::format("average packet latency at {} flits/node/cycle (cycles)",
                                 summary["measure"]["rate"].get<double>()));
  return sweep_chart(summary);
}

}  // namespace kairo::app::plot
