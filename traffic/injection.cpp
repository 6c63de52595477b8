// Injection processes and packet-size mixes (see injection.h), and the
// checks of their options.
#include "traffic/injection.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include "traffic/traffic_run.h"

namespace kairo::traffic {

using sim::Time;

OnOffProcess::OnOffProcess(double packets_per_cycle, double alpha, double beta, sim::Clock clock)
    : alpha_(alpha),
      beta_(beta),
      r1_(std::min(1.0, packets_per_cycle * (alpha + beta) / alpha)),
      clock_(clock) {}

// Stationary start: on with probability alpha / (alpha + beta). An on source
// stays on geometric(beta) cycles from `t` (memoryless: the rest of a period
// caught midway lasts as long as a fresh one); an off source stays off
// geometric(alpha) cycles, then turns on.
void OnOffProcess::start(Time t, sim::Rng& rng, SourceState& s) const {
  const bool on = rng.uniform() < on_share();
  s.on_start = on ? t : t + clock_.cycles(rng.geometric(alpha_));
  s.on_end = s.on_start + clock_.cycles(rng.geometric(beta_));
}

// Within the on-period, each cycle creates a packet with probability r1: the
// first one is geometric(r1) trials away. When that falls past the period's
// end, the period had no more packets; the next off-period (geometric(alpha)
// cycles) and on-period (geometric(beta)) follow, and the search goes on there.
Time OnOffProcess::next(Time from, sim::Rng& rng, SourceState& s) const {
  for (;;) {
    if (from < s.on_start) from = s.on_start;
    if (from < s.on_end) {
      const Time t = from + clock_.cycles(rng.geometric(r1_) - 1);
      if (t < s.on_end) return t;
    }
    s.on_start = s.on_end + clock_.cycles(rng.geometric(alpha_));
    s.on_end = s.on_start + clock_.cycles(rng.geometric(beta_));
  }
}

PacketSizeMix::PacketSizeMix(const std::vector<std::pair<int, double>>& sizes) {
  double total = 0, flits = 0;
  for (const auto& [f, w] : sizes) total += w, flits += f * w;
  double sum = 0;
  for (const auto& [f, w] : sizes) {
    sum += w;
    flits_.push_back(f);
    cumulative_.push_back(sum / total);
  }
  cumulative_.back() = 1.0;
  single_ = flits_.size() == 1 ? flits_[0] : 0;
  mean_ = flits / total;
}

// Inversion: the first size whose cumulative share passes a uniform draw.
int PacketSizeMix::draw_mixed(sim::Rng& rng) const {
  const double u = rng.uniform();
  const auto i =
      std::size_t(std::upper_bound(cumulative_.begin(), cumulative_.end(), u) - cumulative_.begin());
  return flits_[std::min(i, flits_.size() - 1)];
}

std::vector<std::pair<int, double>> parse_packet_sizes(const std::string& text) {
  auto bad = [&text](const std::string& why) {
    return std::invalid_argument(fmt::format(
        "--packet-sizes: expected SIZE:WEIGHT,... (flits >= 1, weights > 0; e.g. 1:0.5,8:0.5), got '{}': {}",
        text, why));
  };
  std::vector<std::pair<int, double>> sizes;
  if (text.empty()) throw bad("expected at least one size");
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    const std::size_t colon = item.find(':');
    const std::string size = item.substr(0, colon);
    const std::string weight = colon == std::string::npos ? "1" : item.substr(colon + 1);
    char* end = nullptr;
    const long f = std::strtol(size.c_str(), &end, 10);
    if (size.empty() || *end != '\0' || size.find_first_not_of("0123456789") != std::string::npos || f < 1 ||
        f > 1000000)
      throw bad(fmt::format("'{}' is not a size in flits", size));
    const double w = std::strtod(weight.c_str(), &end);
    if (weight.empty() || *end != '\0' || !std::isfinite(w) || !(w > 0))
      throw bad(fmt::format("'{}' is not a weight > 0", weight));
    sizes.emplace_back(int(f), w);
  }
  if (sizes.empty() || text.back() == ',') throw bad("a size is missing");
  return sizes;
}

double mean_packet_flits(const std::vector<std::pair<int, double>>& sizes) {
  double total = 0, flits = 0;
  for (const auto& [f, w] : sizes) total += w, flits += f * w;
  return flits / total;
}

double onoff_max_rate(double alpha, double beta, double mean_flits) {
  return std::min(1.0, mean_flits * alpha / (alpha + beta));
}

namespace {

void check_sizes(const TrafficOptions& o, int max_flits, const std::string& source) {
  if (o.packet_sizes.empty()) {
    if (o.packet_flits < 1 || o.packet_flits > max_flits)
      throw std::invalid_argument(
          fmt::format("--packet-flits: expected 1..{} (router.max_packet_flits of {}), got {}", max_flits,
                      source, o.packet_flits));
    return;
  }
  for (const auto& [f, w] : o.packet_sizes) {
    if (f < 1 || f > max_flits)
      throw std::invalid_argument(
          fmt::format("--packet-sizes: size {} flits: expected 1..{} (router.max_packet_flits of {})", f,
                      max_flits, source));
    if (!std::isfinite(w) || !(w > 0))
      throw std::invalid_argument(
          fmt::format("--packet-sizes: size {} flits: expected a weight > 0, got {}", f, w));
  }
}

void check_onoff(const TrafficOptions& o, double mean) {
  if (o.batch_packets > 0)
    throw std::invalid_argument(
        "--injection onoff: batch mode (--batch) queues every packet at once and has no injection process");
  if (!(o.burst_alpha > 0 && o.burst_alpha <= 1))
    throw std::invalid_argument(
        fmt::format("--burst-alpha: expected the probability that an off source turns on in a cycle, within "
                    "(0, 1], got {}",
                    o.burst_alpha));
  if (!(o.burst_beta > 0 && o.burst_beta <= 1))
    throw std::invalid_argument(
        fmt::format("--burst-beta: expected the probability that an on source turns off in a cycle, within "
                    "(0, 1], got {}",
                    o.burst_beta));
  const double r1 = o.rate / mean * (o.burst_alpha + o.burst_beta) / o.burst_alpha;
  if (r1 > 1 + 1e-12)
    throw std::invalid_argument(fmt::format(
        "--rate: {} flits per node per cycle with --injection onoff (--burst-alpha {}, --burst-beta {}, "
        "packets of {:.6g} flits on average) needs a packet in r1 = {:.6g} of the on cycles, more than one a "
        "cycle; the highest --rate is {:.6g} (mean size x alpha / (alpha + beta))",
        o.rate, o.burst_alpha, o.burst_beta, mean, r1, onoff_max_rate(o.burst_alpha, o.burst_beta, mean)));
}

// Every injection process, one entry each: its name, what it needs of the
// options (with packets of `mean` flits on average) and its builder.
struct ProcessKind {
  std::string name;
  void (*check)(const TrafficOptions& o, double mean);
  std::unique_ptr<InjectionProcess> (*build)(const TrafficOptions& o, double p, sim::Clock clock);
};

const std::vector<ProcessKind>& kinds() {
  static const std::vector<ProcessKind> k = {
      {"bernoulli", [](const TrafficOptions&, double) {},
       [](const TrafficOptions&, double p, sim::Clock c) -> std::unique_ptr<InjectionProcess> {
         return std::make_unique<BernoulliProcess>(p, c);
       }},
      {"onoff", check_onoff,
       [](const TrafficOptions& o, double p, sim::Clock c) -> std::unique_ptr<InjectionProcess> {
         return std::make_unique<OnOffProcess>(p, o.burst_alpha, o.burst_beta, c);
       }},
  };
  return k;
}

const ProcessKind* find_kind(const std::string& name) {
  for (const ProcessKind& k : kinds())
    if (k.name == name) return &k;
  return nullptr;
}

}  // namespace

const std::vector<std::string>& injection_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const ProcessKind& k : kinds()) n.push_back(k.name);
    return n;
  }();
  return names;
}

double source_mean_flits(const TrafficOptions& o) {
  return o.packet_sizes.empty() ? double(o.packet_flits) : mean_packet_flits(o.packet_sizes);
}

std::unique_ptr<InjectionProcess> make_injection(const TrafficOptions& o, sim::Clock clock) {
  const ProcessKind* kind = find_kind(o.injection);
  if (!kind) throw std::invalid_argument("--injection: unknown injection process '" + o.injection + "'");
  return kind->build(o, o.rate / source_mean_flits(o), clock);
}

void validate_source(const TrafficOptions& o, int max_packet_flits, const std::string& platform_source) {
  const ProcessKind* kind = find_kind(o.injection);
  if (!kind) {
    std::string known;
    for (const auto& n : injection_names()) known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument(
        fmt::format("--injection: unknown injection process '{}'; expected one of {}", o.injection, known));
  }
  check_sizes(o, max_packet_flits, platform_source);
  kind->check(o, source_mean_flits(o));
}

}  // namespace kairo::traffic
