// The scenario file's reader (sw/workloads/scenario_file.h), shared by the
// files that read its sections: scalars with their units and ranges, and
// mappings read key by key, every failure `FILE:LINE:COL: what was expected`.
#pragma once
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sw/workloads/scenario_file.h"

namespace kairo::sw::scenario {

class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}
  const std::string& file() const { return file_; }
  // Where `n` is; a node without a mark (an empty value) is placed at `fallback`.
  Where at(const YAML::Node& n, Where fallback = {}) const;
  [[noreturn]] void fail(Where w, const std::string& what) const;
  [[noreturn]] void fail(const YAML::Node& n, const std::string& what, Where fallback = {}) const {
    fail(at(n, fallback), what);
  }
  // "'abc'", "a list", "a mapping", "nothing".
  static std::string describe(const YAML::Node& n);

  // Scalars, each checked; `key` names the value in the message.
  std::string text(const YAML::Node& n, const std::string& key) const;
  std::string name(const YAML::Node& n, const std::string& key) const;     // [A-Za-z_][A-Za-z0-9_.-]*
  std::uint64_t bytes(const YAML::Node& n, const std::string& key) const;  // 4KiB, 8B, 4096
  sim::Time duration(const YAML::Node& n, const std::string& key) const;   // 2us, 500ns
  std::uint64_t unsigned_integer(const YAML::Node& n, const std::string& key,
                                 std::uint64_t max = ~std::uint64_t(0)) const;  // decimal or 0x hex
  bool boolean(const YAML::Node& n, const std::string& key) const;
  const YAML::Node& list(const YAML::Node& n, const std::string& key) const;  // fails unless a sequence

 private:
  std::string file_;
};

inline bool all_digits(const std::string& t) {
  return !t.empty() && std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A mapping read key by key: get() and need() take keys, done() fails at
// the first key nothing took, naming the keys this mapping has.
class Fields {
 public:
  Fields(const Reader& r, const YAML::Node& map, std::string what, Where fallback = {});
  std::optional<YAML::Node> get(const std::string& key);
  YAML::Node need(const std::string& key);
  bool has(const std::string& key) const { return bool(map_[key]); }
  void done() const;
  Where where() const { return at_; }
  const Reader& reader() const { return r_; }

 private:
  const Reader& r_;
  YAML::Node map_;
  std::string what_;
  Where at_;
  std::vector<std::string> asked_;
};

// `fill:` and `equals:` (zero, pattern, {pattern_of: R}, {u64: N}, {bytes: [...]}).
Contents read_contents(const Reader& r, const YAML::Node& n, const std::string& key, Where fallback);
// A rank set (`rank: 3`, `ranks: [1, 2]`, `ranks: 1-7`, `ranks: all`).
RankSet read_rank_set(const Reader& r, const YAML::Node& n, bool single, Where fallback);
// A step list (scenario_steps.cpp); `ids` collects the ids its operations define.
std::vector<Step> read_steps(const Reader& r, const YAML::Node& list, std::vector<std::string>& ids,
                             std::vector<std::uint32_t>& tags);
std::vector<Expectation> read_expectations(const Reader& r, const YAML::Node& list);

}  // namespace kairo::sw::scenario
