// kairo view's page (app/view_page.h). The template is embedded at build
// time (app/view/embed.cmake); its data goes where it says {{kairo_view_data}}.
#include "app/view_page.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace kairo::app {
namespace embedded {
extern const char* const kViewPage;  // app/view/page.html
}  // namespace embedded

namespace view {

std::string html_page(const Model& m, const std::map<std::string, Series>& us,
                      const std::map<std::string, Series>& ss, const std::vector<Segment>& segs,
                      std::size_t initial) {
  nlohmann::json data;
  data["seconds"] = m.seconds;
  data["groups"] = m.group_names;
  for (const auto& g : m.group_names) {
    data["util"][g] = {{"max", us.at(g).max}, {"avg", us.at(g).avg}};
    data["stall"][g] = {{"max", ss.at(g).max}, {"avg", ss.at(g).avg}};
  }
  nlohmann::json sj = nlohmann::json::array();
  for (const auto& s : segs) {
    std::vector<double> u, st;
    for (std::size_t t = 0; t < m.util.size(); ++t)
      u.push_back(seg_value(s, m.util[t])), st.push_back(seg_value(s, m.stall[t]));
    sj.push_back(
        {{"x1", s.x1}, {"y1", s.y1}, {"x2", s.x2}, {"y2", s.y2}, {"g", s.group}, {"u", u}, {"s", st}});
  }
  data["segments"] = sj;
  data["initial"] = initial;
  std::string json = data.dump();
  // Keep "</script>" out of the embedded data.
  for (std::size_t p = 0; (p = json.find("</", p)) != std::string::npos; p += 3) json.replace(p, 2, "<\\/");
  const std::string page = embedded::kViewPage;
  const std::string slot = "{{kairo_view_data}}";
  const std::size_t at = page.find(slot);
  if (at == std::string::npos) throw std::logic_error("app/view/page.html has no " + slot);
  return page.substr(0, at) + json + page.substr(at + slot.size());
}

}  // namespace view
}  // namespace kairo::app
