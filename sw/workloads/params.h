// Workload parameters from `--param key=value`: typed accessors that parse
// units and ranges, each key consumed once; a key no accessor took is an
// error naming it (check_all_used).
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/units.h"

namespace kairo::sw {

class Params {
 public:
  explicit Params(const std::vector<std::string>& kv) {
    for (const auto& s : kv) {
      auto eq = s.find('=');
      if (eq == std::string::npos || eq == 0)
        throw std::invalid_argument("--param " + s + ": expected key=value");
      values_[s.substr(0, eq)] = s.substr(eq + 1);
    }
  }
  std::string text(const std::string& k, const std::string& dflt) { return take(k).value_or(dflt); }
  // A size with units (8B, 2MB, 16MiB) in [lo, hi] bytes.
  std::uint64_t bytes(const std::string& k, std::uint64_t dflt, std::uint64_t lo = 0,
                      std::uint64_t hi = ~std::uint64_t(0)) {
    auto v = take(k);
    if (!v) return dflt;
    std::uint64_t b = 0;
    try {
      b = units::parse_bytes(*v);
    } catch (const units::UnitError& e) {
      throw std::invalid_argument("--param " + k + "=" + *v + ": " + e.what());
    }
    if (b < lo || b > hi)
      throw std::invalid_argument("--param " + k + "=" + *v + ": expected a size in [" + std::to_string(lo) +
                                  ", " + std::to_string(hi) + "] bytes");
    return b;
  }
  long long integer(const std::string& k, long long dflt, long long lo, long long hi) {
    auto v = take(k);
    if (!v) {
      // A default that does not fit this platform (dst=1 on a one-rank map) is bad input too.
      if (dflt < lo || dflt > hi)
        throw std::invalid_argument("--param " + k + ": its default, " + std::to_string(dflt) +
                                    ", does not fit this platform; give --param " + k + "=N with N in [" +
                                    std::to_string(lo) + ", " + std::to_string(hi) + "]");
      return dflt;
    }
    char* end = nullptr;
    long long x = std::strtoll(v->c_str(), &end, 10);
    if (v->empty() || *end || x < lo || x > hi)
      throw std::invalid_argument("--param " + k + "=" + *v + ": expected an integer in [" +
                                  std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return x;
  }
  // A finite real number in [lo, hi] (1, 0.5, 2e-3).
  double real(const std::string& k, double dflt, double lo, double hi) {
    auto v = take(k);
    if (!v) return dflt;
    char* end = nullptr;
    const double x = std::strtod(v->c_str(), &end);
    if (v->empty() || *end || !(x >= lo && x <= hi))
      throw std::invalid_argument("--param " + k + "=" + *v + ": expected a number in [" + shortest(lo) +
                                  ", " + shortest(hi) + "]");
    return x;
  }
  static std::string shortest(double x) {
    char b[32];
    std::snprintf(b, sizeof b, "%g", x);
    return b;
  }
  void check_all_used(const std::string& workload) const {
    for (const auto& [k, v] : values_)
      if (!used_.count(k))
        throw std::invalid_argument("--param " + k + ": not a parameter of workload " + workload);
  }

 private:
  std::optional<std::string> take(const std::string& k) {
    auto it = values_.find(k);
    if (it == values_.end()) return std::nullopt;
    used_[k] = true;
    return it->second;
  }
  std::map<std::string, std::string> values_;
  std::map<std::string, bool> used_;
};

}  // namespace kairo::sw
