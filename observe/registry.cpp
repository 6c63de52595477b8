// The observation registry's few functions (observe/registry.h).
#include "observe/registry.h"

#include <algorithm>
#include <cctype>

namespace kairo::observe {

std::string CounterSet::name(std::size_t i) const {
  const Place p = place(i);
  // An engine's port "tni1" reads "1" under scope "tni".
  const bool numbered = p.port.empty() || p.port.compare(0, scope.size(), scope) == 0;
  return scope + " " + p.coord + "." + (numbered ? std::to_string(p.index) : p.port);
}

bool TraceFilter::dim(const std::string& dim) const {
  if (dims.empty()) return true;
  std::string lower = dim;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char ch) { return char(std::tolower(ch)); });
  return dims.count(lower) > 0;
}

std::vector<const CounterSet*> Registry::table(const std::string& name) const {
  std::vector<const CounterSet*> v;
  for (const CounterSet& s : sets_)
    if (s.table == name) v.push_back(&s);
  return v;
}

std::vector<std::string> Registry::tables() const {
  std::vector<std::string> v;
  for (const CounterSet& s : sets_)
    if (std::find(v.begin(), v.end(), s.table) == v.end()) v.push_back(s.table);
  return v;
}

std::vector<std::uint64_t> totals(const CounterSet& s) {
  const std::size_t n = s.counters.size();
  std::vector<std::uint64_t> total(n, 0), values(n, 0);
  for (std::size_t i = 0; i < s.blocks; ++i) {
    s.read(i, 0, values.data());
    add_to_totals(s.counters, values.data(), total);
  }
  return total;
}

void add_to_totals(const std::vector<Counter>& counters, const std::uint64_t* values,
                   std::vector<std::uint64_t>& total) {
  for (std::size_t k = 0; k < counters.size(); ++k)
    total[k] = counters[k].kind == Kind::kHigh ? std::max(total[k], values[k]) : total[k] + values[k];
}

nlohmann::json summary(const std::vector<Counter>& counters, const std::vector<std::uint64_t>& total) {
  nlohmann::json j = nlohmann::json::object();
  for (std::size_t k = 0; k < counters.size(); ++k) {
    const Counter& c = counters[k];
    if (!(c.shown & kInSummary) || c.kind == Kind::kLevel) continue;
    const std::string& name = c.name;
    const bool ps = name.size() > 3 && name.compare(name.size() - 3, 3, "_ps") == 0;
    if (c.kind == Kind::kHigh)
      j[name + "_max"] = total[k];
    else if (ps)
      j[name.substr(0, name.size() - 3) + "_ns"] = double(total[k]) / 1000.0;
    else
      j[name] = total[k];
  }
  return j;
}

nlohmann::json summary(const CounterSet& s) { return summary(s.counters, totals(s)); }

}  // namespace kairo::observe
