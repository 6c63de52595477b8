// A BookSim 2 configuration file run by kairo (`kairo traffic --booksim
// FILE.cfg [key=value ...]`, docs/traffic.md "Running a BookSim
// configuration"): BookSim's `key = value;` syntax (`//` and `/* */`
// comments, `{a, b}` lists), its command-line `key=value` overrides after
// the file, its defaults for the keys a file leaves out, and the one mapping
// of every key kairo models to a shipped platform, `--set` overrides and the
// traffic options. A key kairo does not model, or a value it cannot
// reproduce, is refused by name with the file and line it was given on.
#pragma once
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "traffic/traffic_run.h"

namespace kairo::traffic {

// One `key = value` of a configuration: where it was given ("FILE:LINE", or
// "command line 'key=value'"; empty for BookSim's default of a key left out).
struct BookSimEntry {
  std::string key, value, where;
};

// BookSim's statements in file order; throws std::invalid_argument naming
// `name:LINE` on a statement that is not `key = value;`.
std::vector<BookSimEntry> parse_booksim_text(const std::string& text, const std::string& name);

// What kairo runs for a BookSim configuration.
struct BookSimRun {
  std::string platform;           // a shipped platform
  std::vector<std::string> sets;  // --set overrides, key=value, in mapping order
  std::string pattern;
  int packet_flits = 1;                              // the one size, or a mix's largest
  std::vector<std::pair<int, double>> packet_sizes;  // packet_size = {...}: a mix (sizes, weights)
  std::string injection = "bernoulli";               // or "onoff" (injection_process = on_off)
  double burst_alpha = 0.5, burst_beta = 0.5;
  double rate = 0;        // flits per node-cycle: injection_rate, times packet_size unless it counts flits
  double rate_scale = 1;  // flits per unit of BookSim's injection_rate
  std::uint64_t warmup_cycles = 0, measure_cycles = 0, seed = 0;
  int per_hop_cycles = 0;          // zero-load cycles a router-to-router hop costs
  std::vector<std::string> notes;  // what the mapping cannot say in a setting

  nlohmann::json json() const;
};

// The mapping of parsed statements (later ones replace earlier ones, as in
// BookSim), with `file` named in messages about keys left at BookSim's
// defaults. Throws std::invalid_argument naming where the key was given,
// the key, and what kairo expects.
BookSimRun map_booksim(const std::vector<BookSimEntry>& entries, const std::string& file);

// Reads FILE and appends the command line's `key=value` overrides.
BookSimRun read_booksim(const std::string& path, const std::vector<std::string>& overrides);

// Applies `run` to a traffic command: the platform, the mapping's --set
// overrides before the command line's own (which win), and every traffic
// option the command line did not give itself (given(option name), e.g.
// given("--rate")).
void apply_booksim(const BookSimRun& run, std::string& platform, std::vector<std::string>& sets,
                   TrafficOptions& opt, const std::function<bool(const char*)>& given);

}  // namespace kairo::traffic
