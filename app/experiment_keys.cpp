// The traffic options an experiment's configurations may set (app/experiment.h):
// the names are `kairo traffic`'s options without their dashes, '-' as '_'.
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "app/experiment.h"
#include "traffic/injection.h"

namespace kairo::app::experiment {
namespace {

std::uint64_t whole(const std::string& key, const std::string& v, std::uint64_t lo, std::uint64_t hi) {
  const bool digits = !v.empty() && v.find_first_not_of("0123456789") == std::string::npos;
  errno = 0;
  const std::uint64_t x = digits ? std::strtoull(v.c_str(), nullptr, 10) : 0;
  if (!digits || errno == ERANGE || x < lo || x > hi)
    throw std::invalid_argument(
        fmt::format("{}: expected a whole number in [{}, {}], got '{}'", key, lo, hi, v));
  return x;
}

double fraction(const std::string& key, const std::string& v) {
  char* end = nullptr;
  const double x = std::strtod(v.c_str(), &end);
  if (v.empty() || *end != '\0' || !(x >= 0 && x <= 1))
    throw std::invalid_argument(fmt::format("{}: expected a number in [0, 1], got '{}'", key, v));
  return x;
}

// "[0, 5]", "0,5" or "3": node ids.
std::vector<hw::NodeId> nodes(const std::string& key, std::string v) {
  if (!v.empty() && v.front() == '[' && v.back() == ']') v = v.substr(1, v.size() - 2);
  std::vector<hw::NodeId> out;
  std::stringstream ss(v);
  std::string item;
  while (std::getline(ss, item, ',')) {
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    out.push_back(hw::NodeId(whole(key, item, 0, 0xffffffffu)));
  }
  if (out.empty()) throw std::invalid_argument(key + ": expected a list of node ids, got '" + v + "'");
  return out;
}

}  // namespace

std::vector<std::string> split_values(const std::string& list) {
  std::vector<std::string> out(1);
  int depth = 0;
  for (char ch : list) {
    depth += ch == '[' || ch == '{' ? 1 : ch == ']' || ch == '}' ? -1 : 0;
    if (ch == ',' && depth == 0)
      out.emplace_back();
    else
      out.back() += ch;
  }
  for (const std::string& v : out)
    if (v.empty()) throw std::invalid_argument("--compare: an empty value in '" + list + "'");
  return out;
}

const std::vector<std::pair<std::string, std::string>>& traffic_keys() {
  static const std::vector<std::pair<std::string, std::string>> keys = {
      {"pattern", "a traffic pattern (kairo traffic --pattern)"},
      {"packet_flits", "packet size in flits"},
      {"packet_sizes", "a mix of packet sizes, F1:W1,F2:W2,... (flits:weight)"},
      {"injection", "injection process (bernoulli, onoff)"},
      {"burst_alpha", "onoff: probability per cycle that an off source turns on"},
      {"burst_beta", "onoff: probability per cycle that an on source turns off"},
      {"warmup_cycles", "warm-up cycles"},
      {"measure_cycles", "measurement window in cycles"},
      {"drain_cycles", "longest drain in cycles"},
      {"hotspot_nodes", "hotspot pattern: node ids"},
      {"hotspot_fraction", "hotspot pattern: share of packets sent to hotspots"},
      {"warmup_converge", "true: end the warm-up once latency and accepted rate settle"},
      {"sample_cycles", "warmup_converge: the sample period in cycles"},
      {"warmup_threshold", "warmup_converge: the largest relative change between periods"},
  };
  return keys;
}

bool apply_traffic_key(traffic::TrafficOptions& o, const std::string& key, const std::string& value) {
  if (key == "pattern") {
    o.pattern = value;  // traffic::validate names the patterns
  } else if (key == "packet_flits") {
    o.packet_flits = int(whole(key, value, 1, 65535));
  } else if (key == "packet_sizes") {
    try {
      std::string v = value;  // "[1:0.5, 8:0.5]" (a YAML list, or brackets in --compare) or "1:0.5,8:0.5"
      if (v.size() >= 2 && v.front() == '[' && v.back() == ']') v = v.substr(1, v.size() - 2);
      v.erase(std::remove(v.begin(), v.end(), ' '), v.end());
      o.packet_sizes = traffic::parse_packet_sizes(v);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(key + ": " + e.what());
    }
  } else if (key == "injection") {
    o.injection = value;  // traffic::validate names the processes
  } else if (key == "burst_alpha" || key == "burst_beta") {
    (key == "burst_alpha" ? o.burst_alpha : o.burst_beta) = fraction(key, value);
  } else if (key == "warmup_cycles") {
    o.warmup_cycles = whole(key, value, 0, ~std::uint64_t(0));
  } else if (key == "measure_cycles") {
    o.measure_cycles = whole(key, value, 1, ~std::uint64_t(0));
  } else if (key == "drain_cycles") {
    o.drain_cycles = whole(key, value, 0, ~std::uint64_t(0));
  } else if (key == "hotspot_nodes") {
    o.hotspots = nodes(key, value);
  } else if (key == "hotspot_fraction") {
    o.hotspot_fraction = fraction(key, value);
  } else if (key == "warmup_converge") {
    if (value != "true" && value != "false")
      throw std::invalid_argument(fmt::format("{}: expected true or false, got '{}'", key, value));
    o.warmup_converge = value == "true";
  } else if (key == "sample_cycles") {
    o.sample_cycles = whole(key, value, 1, ~std::uint64_t(0));
  } else if (key == "warmup_threshold") {
    o.warmup_threshold = fraction(key, value);
  } else {
    return false;
  }
  return true;
}

}  // namespace kairo::app::experiment
