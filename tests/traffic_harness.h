// Synthetic traffic runs for the router tests: one run's JSON summary with
// the router settings a test changes, the watchdog checked on the way.
#pragma once
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "platforms/platform.h"
#include "traffic/traffic_run.h"

namespace kairo::test {

// `platform` with `sets` (--set key=value), `pattern` at `rate` flits per
// node-cycle in `flits`-flit packets: `warmup` cycles, then `measure`. The
// run must end without a deadlock and without losing or duplicating a packet.
inline nlohmann::json traffic_json_after(const std::string& platform, const std::string& pattern, double rate,
                                         const std::vector<std::string>& sets, std::uint64_t warmup,
                                         std::uint64_t measure, std::uint64_t seed, int flits = 4) {
  traffic::TrafficOptions o;
  o.pattern = pattern;
  o.rate = rate;
  o.packet_flits = flits;
  o.warmup_cycles = warmup;
  o.measure_cycles = measure;
  o.seed = seed;
  o.use_systemc = false;
  const auto r = traffic::run_traffic(platforms::load_platform(platform, sets), o);
  EXPECT_FALSE(r.deadlock) << platform << " " << pattern << ": "
                           << (r.blocked.empty() ? "" : r.blocked.front());
  EXPECT_FALSE(r.lost_or_duplicated) << platform << " " << pattern;
  return r.json;
}

// The same after 2000 warm-up cycles.
inline nlohmann::json traffic_json(const std::string& platform, const std::string& pattern, double rate,
                                   const std::vector<std::string>& sets, std::uint64_t measure,
                                   std::uint64_t seed, int flits = 4) {
  return traffic_json_after(platform, pattern, rate, sets, 2000, measure, seed, flits);
}

// a's settings, then b's.
inline std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace kairo::test
