// kairo view's page (app/view_page.h). The template is embedded at build
// time (app/view/embed.cmake); its data goes where it says {{kairo_view_data}}.
#include "app/view_page.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "app/view_svg.h"

namespace kairo::app {
namespace embedded {
extern const char* const kViewPage;  // app/view/page.html
}  // namespace embedded

namespace view {

std::string html_page(const Model& m, const std::map<std::string, Series>& us,
                      const std::map<std::string, Series>& ss, const Picture& pic, std::size_t initial,
                      const nlohmann::json& header) {
  nlohmann::json data;
  data["header"] = header;
  data["start"] = m.start_s;
  data["seconds"] = m.seconds;
  const auto [unit, scale] = time_unit(m.start_s.back() + m.seconds.back());
  data["time"] = {{"unit", unit}, {"scale", scale}};
  data["metrics"] = {{"util", {util_metric().name, util_metric().ratio}},
                     {"stall", {stall_metric().name, stall_metric().ratio}}};
  const bool power = !m.power.empty();
  if (power)
    data["metrics"]["power"] = {power_metric(m.power_max_mw).name, power_metric(m.power_max_mw).ratio};
  data["picture"] = {
      {"width", pic.width}, {"height", pic.height}, {"stroke", pic.stroke}, {"caption", pic.caption}};
  for (const auto& l : pic.labels) data["picture"]["labels"].push_back({l.x, l.y, l.text});
  data["groups"] = m.group_names;
  for (const auto& g : m.group_names) {
    data["util"][g] = {{"max", us.at(g).max}, {"avg", us.at(g).avg}};
    data["stall"][g] = {{"max", ss.at(g).max}, {"avg", ss.at(g).avg}};
  }
  if (power)
    for (const auto& [g, s] : series(m, m.power)) data["power"][g] = {{"max", s.max}, {"avg", s.avg}};
  nlohmann::json sj = nlohmann::json::array();
  for (const auto& s : pic.segs) {
    std::vector<double> u, st, pw;
    for (std::size_t t = 0; t < m.util.size(); ++t)
      u.push_back(seg_value(s, m.util[t])), st.push_back(seg_value(s, m.stall[t]));
    for (const auto& p : m.power) pw.push_back(seg_value(s, p));
    sj.push_back(
        {{"x1", s.x1}, {"y1", s.y1}, {"x2", s.x2}, {"y2", s.y2}, {"g", s.group}, {"u", u}, {"s", st}});
    if (power) sj.back()["p"] = pw;
  }
  data["segments"] = sj;
  data["initial"] = initial;
  // Inside <script>, JSON holds no < > & of its own (they can only be in its
  // strings, where \u003c is the same character): no "</script>", no "<!--"
  // from a platform or file name can end or change the script.
  std::string json;
  for (const char c : data.dump())
    json += c == '<' ? "\\u003c" : c == '>' ? "\\u003e" : c == '&' ? "\\u0026" : std::string(1, c);
  const std::string page = embedded::kViewPage;
  const std::string slot = "{{kairo_view_data}}";
  const std::size_t at = page.find(slot);
  if (at == std::string::npos) throw std::logic_error("app/view/page.html has no " + slot);
  return page.substr(0, at) + json + page.substr(at + slot.size());
}

}  // namespace view
}  // namespace kairo::app
