// Declared parameters: unit names and the text forms of defaults.
#include "sim/params.h"

#include <fmt/format.h>

#include "sim/units.h"

namespace kairo::sim {

const char* unit_of(ParamKind k) {
  switch (k) {
    case ParamKind::kCount:
      return "count";
    case ParamKind::kFlits:
      return "flits";
    case ParamKind::kCycles:
      return "cycles";
    case ParamKind::kBytes:
      return "B";
    case ParamKind::kRate:
      return "GB/s";
    case ParamKind::kDuration:
      return "ns";
    case ParamKind::kFrequency:
      return "MHz";
    case ParamKind::kReal:
      return "number";
    case ParamKind::kName:
      return "name";
    case ParamKind::kBool:
      return "bool";
    case ParamKind::kShape:
      return "";
  }
  return "";
}

std::string choice_text(const std::vector<std::string>& choices) {
  if (choices.size() == 2) return choices[0] + " or " + choices[1];
  std::string s = "one of ";
  for (std::size_t i = 0; i < choices.size(); ++i) s += (i ? " | " : "") + choices[i];
  return s;
}

std::string shown_bytes(std::uint64_t b) { return units::format_bytes(b); }
std::string shown_rate(double bytes_per_s) { return units::format_bandwidth(bytes_per_s); }
std::string shown_duration(sim::Time ps) { return units::format_duration(ps); }
std::string shown_frequency(double hz) { return units::format_frequency(hz); }
std::string shown_real(double x) { return fmt::format("{}", x); }

}  // namespace kairo::sim
