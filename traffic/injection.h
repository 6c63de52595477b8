// Traffic sources: when a node creates its packets (the injection process)
// and how many flits each has (the packet-size mix). BookSim 2's injection
// processes (src/injection.cpp), with its names and parameters; the rate is
// in flits per node per cycle, so packets are created at p = rate / mean size
// per cycle on average (BookSim with injection_rate_uses_flits = 1):
//   bernoulli  each cycle, a packet with probability p.
//   onoff      a two-state Markov chain per node, advanced once a cycle: an
//              off source turns on with probability alpha, an on source turns
//              off with probability beta; while on, a packet with probability
//              r1 = p (alpha + beta) / alpha. The chain is on a share
//              alpha / (alpha + beta) of the cycles, so the long-run rate is p;
//              on-periods last 1/beta cycles on average, off-periods 1/alpha.
// Both are sampled by inversion (geometric gaps and period lengths), so a
// source costs one event per packet and idle cycles cost nothing.
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sim/random.h"
#include "sim/time.h"

namespace kairo::traffic {

// Known injection process names (--injection), in the order above. Adding a
// process: a class below and one entry in injection.cpp's table of kinds.
const std::vector<std::string>& injection_names();

// One source's state: onoff's current (or next) on-period, the cycles
// [on_start, on_end). Bernoulli has none.
struct SourceState {
  sim::Time on_start = 0, on_end = 0;
};

// The process every source of a run shares; each node keeps its own
// SourceState and random stream, so a node's packets do not depend on which
// process of a partitioned run (docs/parallel.md) creates them.
class InjectionProcess {
 public:
  virtual ~InjectionProcess() = default;
  // The source's state at its first cycle `t`.
  virtual void start(sim::Time t, sim::Rng& rng, SourceState& s) const = 0;
  // The cycle of the source's next packet at or after cycle `from` (on the clock).
  virtual sim::Time next(sim::Time from, sim::Rng& rng, SourceState& s) const = 0;
};

class BernoulliProcess final : public InjectionProcess {
 public:
  BernoulliProcess(double packets_per_cycle, sim::Clock clock) : p_(packets_per_cycle), clock_(clock) {}
  void start(sim::Time, sim::Rng&, SourceState&) const override {}
  // Trials happen once per cycle starting at `from`; the first success is
  // geometric(p) trials away.
  sim::Time next(sim::Time from, sim::Rng& rng, SourceState&) const override {
    return from + clock_.cycles(rng.geometric(p_) - 1);
  }

 private:
  double p_;
  sim::Clock clock_;
};

// BookSim's on_off with burst_alpha and burst_beta given (burst_r1 derived).
// Initial state: BookSim draws each source on or off with probability 1/2
// (RandomInt(1)); here a source starts in the chain's stationary state (on with
// probability alpha / (alpha + beta)), so the offered rate is the long-run rate
// from the first cycle, whatever the warm-up.
class OnOffProcess final : public InjectionProcess {
 public:
  // Requires alpha, beta in (0, 1] and r1() <= 1 (validate_source).
  OnOffProcess(double packets_per_cycle, double alpha, double beta, sim::Clock clock);
  void start(sim::Time t, sim::Rng& rng, SourceState& s) const override;
  sim::Time next(sim::Time from, sim::Rng& rng, SourceState& s) const override;
  // Probability of a packet in a cycle while on.
  double r1() const { return r1_; }
  // Long-run share of the cycles a source is on.
  double on_share() const { return alpha_ / (alpha_ + beta_); }

 private:
  double alpha_, beta_, r1_;
  sim::Clock clock_;
};

// Packet sizes in flits with weights (BookSim's packet_size = {...} and
// packet_size_rate = {...}): each packet draws its size with probability
// weight / sum of weights. A single size draws nothing from the stream.
class PacketSizeMix {
 public:
  explicit PacketSizeMix(int flits = 1) : flits_{flits}, cumulative_{1.0}, single_(flits), mean_(flits) {}
  // Sizes >= 1 with weights > 0 (validate_source), at least one.
  explicit PacketSizeMix(const std::vector<std::pair<int, double>>& sizes);
  int draw(sim::Rng& rng) const { return single_ ? single_ : draw_mixed(rng); }
  double mean_flits() const { return mean_; }

 private:
  int draw_mixed(sim::Rng& rng) const;
  std::vector<int> flits_;
  std::vector<double> cumulative_;  // of the normalized weights; the last is 1
  int single_ = 0;                  // the size when there is one, else 0
  double mean_ = 1;
};

// "F1:W1,F2:W2,..." (a size without ":W" weighs 1). Throws
// std::invalid_argument naming --packet-sizes.
std::vector<std::pair<int, double>> parse_packet_sizes(const std::string& text);

// Weight-average size of a mix (sizes as given, weights > 0).
double mean_packet_flits(const std::vector<std::pair<int, double>>& sizes);

// The highest rate (flits per node per cycle) onoff can offer with packets of
// `mean_flits` on average: r1 = 1, and at most 1.
double onoff_max_rate(double alpha, double beta, double mean_flits);

struct TrafficOptions;
// The mean packet size of a run's sources: its mix's, or packet_flits.
double source_mean_flits(const TrafficOptions& o);

// The run's process (o.injection), creating p = o.rate / source_mean_flits(o)
// packets per cycle on average.
std::unique_ptr<InjectionProcess> make_injection(const TrafficOptions& o, sim::Clock clock);

// The source options of a run (--injection, --burst-alpha, --burst-beta,
// --packet-sizes, with --rate and --batch): throws std::invalid_argument
// naming the option. `max_packet_flits` is router.max_packet_flits of the
// platform file `platform_source`.
void validate_source(const TrafficOptions& o, int max_packet_flits, const std::string& platform_source);

}  // namespace kairo::traffic
