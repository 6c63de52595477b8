// The header of kairo view's pages: what run a counter log comes from
// (platform, workload or traffic pattern, parameters, totals), read from the
// run's summary (kairo run --json, kairo traffic --json), and what the log
// itself says (docs/views.md).
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "app/view_model.h"

namespace kairo::app::view {

using Fields = std::vector<std::pair<std::string, std::string>>;

// A run's summary JSON; throws std::runtime_error naming the file.
nlohmann::json read_summary(const std::string& path);

// Whether a JSON document is a run's summary (it names a platform and a
// workload or a traffic pattern).
bool is_summary(const nlohmann::json& j);

// The summary next to a counter log: LOG's stem + ".json", else run.json in
// its directory; empty when there is none.
std::string summary_beside(const std::string& log);

// The useful figures of a summary, as (label, value with its unit).
Fields summary_fields(const nlohmann::json& j);

// What the log says of itself: its file, interval, span, links and VCs.
Fields log_fields(const Model& m, const std::string& log, std::size_t links);

// The page's header as JSON: {title, platform, source, fields, log}.
nlohmann::json header_json(const nlohmann::json* summary, const std::string& summary_path, const Model& m,
                           const std::string& log, std::size_t links);

}  // namespace kairo::app::view
