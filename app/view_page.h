// kairo view's page (index.html): the data of both views, written into the
// page template app/view/page.html, whose script draws the views and links
// them (a click on the time axis picks the interval shown), under a header
// (app/view_header.h).
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/view_model.h"

namespace kairo::app::view {

std::string html_page(const Model& m, const std::map<std::string, Series>& us,
                      const std::map<std::string, Series>& ss, const Picture& pic, std::size_t initial,
                      const nlohmann::json& header);

}  // namespace kairo::app::view
