// Traffic sources (traffic/injection.h): BookSim's on/off process against its
// Markov chain (long-run rate, stationary start, period lengths, the variance
// of window counts), the packet-size mix against its weights, hot-spot
// destinations against their shares, a whole on/off run with a size mix
// against the rate and the mix's mean, and each bad option refused naming it.
// Every expected value and tolerance comes from the formulas written here.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/test_support.h"
#include "traffic/injection.h"
#include "traffic/pattern.h"
#include "traffic/traffic_run.h"

namespace kairo {
namespace {

using sim::Time;
using traffic::OnOffProcess;

// One cycle per time unit: the processes only count cycles.
constexpr sim::Clock kCycle{1};

struct Chain {
  double alpha, beta, p;  // p: packets per cycle, long-run
  double on_share() const { return alpha / (alpha + beta); }
  double r1() const { return p / on_share(); }
  // Variance of the packets one stationary source creates in T cycles. The
  // cycle's count is X_t = S_t B_t (S the chain's state, B Bernoulli(r1)):
  // Var X_t = p (1 - p), and for k > 0 Cov(X_t, X_t+k) = r1^2 pi (1 - pi)
  // lambda^k, where pi is the on share and lambda = 1 - alpha - beta the
  // chain's second eigenvalue. Summed over the window's pairs.
  double count_variance(std::uint64_t cycles) const {
    const double pi = on_share(), lambda = 1 - alpha - beta, r = r1(), t = double(cycles);
    double pairs = 0, power = 1;
    for (std::uint64_t k = 1; k < cycles; ++k) {
      power *= lambda;
      pairs += (t - double(k)) * power;
    }
    return t * p * (1 - p) + 2 * r * r * pi * (1 - pi) * pairs;
  }
};

// The cycles in [0, cycles) at which a source creates packets, driven as
// TrafficNode drives it: start, then the next creation from the cycle after
// each one.
std::vector<Time> creations(const traffic::InjectionProcess& proc, std::uint64_t node, std::uint64_t cycles) {
  sim::Rng rng(11, node);
  traffic::SourceState s;
  proc.start(0, rng, s);
  std::vector<Time> out;
  for (Time t = proc.next(0, rng, s); t < cycles; t = proc.next(t + 1, rng, s)) out.push_back(t);
  return out;
}

const std::vector<Chain> kChains = {
    {0.5, 0.5, 0.2},     // BookSim's default burst_alpha and burst_beta
    {0.1, 0.4, 0.05},    // on 2.5 cycles, off 10
    {0.02, 0.08, 0.05},  // long bursts: on 12.5 cycles, off 50
    {1.0, 1.0, 0.3},     // alternates on and off every cycle (lambda = -1)
};

TEST(OnOffSource, LongRunRateIsTheRateWithinTheChainsStandardDeviation) {
  const std::uint64_t sources = 64, cycles = 50000;
  for (const Chain& c : kChains) {
    const OnOffProcess proc(c.p, c.alpha, c.beta, kCycle);
    ASSERT_NEAR(proc.r1(), c.p * (c.alpha + c.beta) / c.alpha, 1e-15);
    double created = 0;
    for (std::uint64_t n = 0; n < sources; ++n) created += double(creations(proc, n, cycles).size());
    const double expected = double(sources * cycles) * c.p;
    const double sigma = std::sqrt(double(sources) * c.count_variance(cycles));
    EXPECT_NEAR(created, expected, 4 * sigma) << "alpha " << c.alpha << " beta " << c.beta;
  }
}

// BookSim starts each source on or off with probability 1/2; kairo's start in
// the stationary state, on with probability alpha / (alpha + beta), so cycle 0
// already offers p (with alpha 0.02 and beta 0.08 BookSim's start, advanced
// one cycle, would offer r1 (1 + alpha - beta) / 2 = 2.35 p there).
TEST(OnOffSource, StartsInTheStationaryStateSoTheFirstCycleOffersTheLongRunRate) {
  const Chain c{0.02, 0.08, 0.05};
  const OnOffProcess proc(c.p, c.alpha, c.beta, kCycle);
  const std::uint64_t sources = 200000;
  double first = 0;
  for (std::uint64_t n = 0; n < sources; ++n) first += double(creations(proc, n, 1).size());
  const double sigma = std::sqrt(double(sources) * c.p * (1 - c.p));
  EXPECT_NEAR(first, double(sources) * c.p, 4 * sigma);
}

// With r1 = 1 (the highest rate) every on cycle creates a packet, so the runs
// of consecutive creations are the on-periods and the gaps between them the
// off-periods: geometric with means 1/beta and 1/alpha. Runs cut by the end
// of the window are left out.
TEST(OnOffSource, OnPeriodsLastOneOverBetaCyclesAndOffPeriodsOneOverAlpha) {
  for (const Chain& base : {Chain{0.1, 0.4, 0}, Chain{0.02, 0.08, 0}}) {
    Chain c = base;
    c.p = c.on_share();
    const OnOffProcess proc(c.p, c.alpha, c.beta, kCycle);
    ASSERT_DOUBLE_EQ(proc.r1(), 1.0);
    const std::uint64_t cycles = 200000;
    double on_sum = 0, on_n = 0, off_sum = 0, off_n = 0;
    for (std::uint64_t n = 0; n < 16; ++n) {
      const std::vector<Time> t = creations(proc, n, cycles);
      std::size_t i = 0;
      while (i < t.size()) {
        std::size_t j = i;
        while (j + 1 < t.size() && t[j + 1] == t[j] + 1) ++j;
        if (t[j] + 1 < cycles) {
          on_sum += double(t[j] - t[i] + 1), ++on_n;
          if (j + 1 < t.size()) off_sum += double(t[j + 1] - t[j] - 1), ++off_n;
        }
        i = j + 1;
      }
    }
    // A geometric(q) length has mean 1/q and variance (1 - q)/q^2.
    auto tolerance = [](double q, double n) { return 4 * std::sqrt((1 - q) / n) / q; };
    EXPECT_NEAR(on_sum / on_n, 1 / c.beta, tolerance(c.beta, on_n)) << "beta " << c.beta;
    EXPECT_NEAR(off_sum / off_n, 1 / c.alpha, tolerance(c.alpha, off_n)) << "alpha " << c.alpha;
  }
}

// Index of dispersion (variance / mean) of the packets created in windows of
// W cycles: 1 - p for Bernoulli; for on/off count_variance(W) / (W p), which
// tends to (1 - p) + 2 p (beta / alpha) (1 - alpha - beta) / (alpha + beta):
// 4.5 for the long bursts here. The sample variance of n windows has a
// relative standard error of about sqrt(2 / (n - 1)); tolerance 5 of them.
TEST(OnOffSource, WindowCountsAreOverDispersedAsTheChainPredictsAndBernoullisAreNot) {
  const Chain c{0.02, 0.08, 0.05};
  const std::uint64_t window = 500, per_source = 400, sources = 50;
  auto dispersion = [&](const traffic::InjectionProcess& proc) {
    std::vector<double> counts;
    for (std::uint64_t n = 0; n < sources; ++n) {
      std::vector<double> w(per_source, 0.0);
      for (Time t : creations(proc, n, window * per_source)) w[t / window] += 1;
      counts.insert(counts.end(), w.begin(), w.end());
    }
    double mean = 0, var = 0;
    for (double x : counts) mean += x;
    mean /= double(counts.size());
    for (double x : counts) var += (x - mean) * (x - mean);
    return var / double(counts.size() - 1) / mean;
  };
  const double n = double(per_source * sources), rel = 5 * std::sqrt(2 / (n - 1));
  const double onoff_expected = c.count_variance(window) / (double(window) * c.p);
  const double limit = (1 - c.p) + 2 * c.p * (c.beta / c.alpha) * (1 - c.alpha - c.beta) / (c.alpha + c.beta);
  ASSERT_NEAR(onoff_expected, limit, 0.05 * limit) << "a 500-cycle window is long against 1/(alpha+beta)";
  const double onoff = dispersion(OnOffProcess(c.p, c.alpha, c.beta, kCycle));
  const double bernoulli = dispersion(traffic::BernoulliProcess(c.p, kCycle));
  EXPECT_NEAR(onoff, onoff_expected, rel * onoff_expected);
  EXPECT_NEAR(bernoulli, 1 - c.p, rel * (1 - c.p));
  EXPECT_GT(onoff, 3 * bernoulli) << "on/off traffic must come in bursts";
}

TEST(PacketSizeMix, DrawsEachSizeInProportionToItsWeight) {
  const traffic::PacketSizeMix mix({{1, 1.0}, {4, 2.0}, {8, 1.0}});
  const double mean = (1 * 1.0 + 4 * 2.0 + 8 * 1.0) / 4.0;
  EXPECT_DOUBLE_EQ(mix.mean_flits(), mean);
  sim::Rng rng(3, 0);
  const double n = 200000;
  std::map<int, double> count;
  double sum = 0;
  for (int i = 0; i < int(n); ++i) {
    const int f = mix.draw(rng);
    count[f] += 1, sum += f;
  }
  EXPECT_EQ(count.size(), 3u);
  for (auto [f, share] : {std::pair{1, 0.25}, std::pair{4, 0.5}, std::pair{8, 0.25}})
    EXPECT_NEAR(count[f], n * share, 4 * std::sqrt(n * share * (1 - share))) << f << "-flit packets";
  const double var = (0.25 * 1 + 0.5 * 16 + 0.25 * 64) - mean * mean;
  EXPECT_NEAR(sum / n, mean, 4 * std::sqrt(var / n));
}

// The default source draws exactly what it drew before the mixes existed.
TEST(PacketSizeMix, OneSizeDrawsNothingFromTheNodesStream) {
  for (const traffic::PacketSizeMix& mix : {traffic::PacketSizeMix(4), traffic::PacketSizeMix({{4, 0.3}})}) {
    sim::Rng a(5, 9), b(5, 9);
    EXPECT_EQ(mix.draw(a), 4);
    EXPECT_DOUBLE_EQ(mix.mean_flits(), 4.0);
    EXPECT_EQ(a.next(), b.next());
  }
}

TEST(PacketSizeMix, ParsesSizesWithWeightsAndRefusesAnythingElseNamingTheOption) {
  using V = std::vector<std::pair<int, double>>;
  EXPECT_EQ(traffic::parse_packet_sizes("1:0.5,8:0.5"), (V{{1, 0.5}, {8, 0.5}}));
  EXPECT_EQ(traffic::parse_packet_sizes("4"), (V{{4, 1.0}}));
  EXPECT_EQ(traffic::parse_packet_sizes("2:3,16"), (V{{2, 3.0}, {16, 1.0}}));
  EXPECT_DOUBLE_EQ(traffic::mean_packet_flits({{1, 0.5}, {8, 0.5}}), 4.5);
  for (const char* bad :
       {"", "0:1", "-2:1", "4:0", "4:-1", "4:nan", "4:inf", "x", "4:", "1:0.5,", "1.5:1", "4:1:2"}) {
    try {
      traffic::parse_packet_sizes(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("--packet-sizes"), std::string::npos) << e.what();
    }
  }
}

// Hot spot: with probability f one of the H hotspot nodes (equally; a hotspot
// may draw itself), otherwise a node other than the source. From source s the
// share to the hotspot set is f + (1 - f) |H \ {s}| / (N - 1); summed over
// sources with M packets each, the count is a sum of binomials.
TEST(HotSpot, ShareToTheHotspotsIsTheFractionPlusTheirUniformShare) {
  const std::vector<hw::NodeId> hot = {5, 40};
  const std::uint64_t nodes = 64, per_source = 20000;
  for (double f : {0.0, 0.2, 0.7}) {
    const traffic::DestinationPicker picker(hw::NodeId(nodes), nullptr, traffic::Pattern::kHotspot, 1, hot,
                                            f);
    double to_hot = 0, expected = 0, variance = 0, to_first = 0;
    for (hw::NodeId s = 0; s < nodes; ++s) {
      sim::Rng rng(1, s);
      const bool is_hot = s == 5 || s == 40;
      const double q = f + (1 - f) * double(hot.size() - (is_hot ? 1 : 0)) / double(nodes - 1);
      expected += double(per_source) * q;
      variance += double(per_source) * q * (1 - q);
      for (std::uint64_t i = 0; i < per_source; ++i) {
        const hw::NodeId d = picker.pick(s, rng);
        if (!is_hot) ASSERT_NE(d, s) << "only a hotspot sends to itself";
        to_hot += d == 5 || d == 40;
        to_first += d == 5;
      }
    }
    EXPECT_NEAR(to_hot, expected, 4 * std::sqrt(variance)) << "fraction " << f;
    // The two hotspots share equally: the first gets half, within the binomial spread of a split.
    EXPECT_NEAR(to_first, to_hot / 2, 4 * std::sqrt(to_hot / 4)) << "fraction " << f;
  }
}

// A whole run: mesh-8x8 well below saturation, on/off with 1- and 8-flit
// packets half and half. Per node the flits created in the M-cycle window
// have variance E[N] Var(S) + E[S]^2 Var(N) (N packets, S a size); over the
// nodes the offered rate's standard deviation is sqrt(nodes x that)/(nodes M).
// Accepted differs from offered by the flits in flight at the window's two
// edges, rate x L per node for a latency of L cycles (Little's law).
TEST(TrafficSources, OnOffRunOffersAndAcceptsTheRateAndCreatesTheMixsMeanSize) {
  traffic::TrafficOptions o;
  o.rate = 0.2;
  o.injection = "onoff";
  o.burst_alpha = 0.1;
  o.burst_beta = 0.4;
  o.packet_sizes = {{1, 0.5}, {8, 0.5}};
  o.warmup_cycles = 2000;
  o.measure_cycles = 20000;
  o.seed = 3;
  o.use_systemc = false;
  const auto r = traffic::run_traffic(platforms::load_platform("mesh-8x8", {}), o);
  ASSERT_FALSE(r.deadlock);
  ASSERT_FALSE(r.lost_or_duplicated);
  const nlohmann::json& j = r.json;
  const double nodes = 64, m = double(o.measure_cycles), mean = 4.5,
               size_var = 0.5 * 1 + 0.5 * 64 - mean * mean;
  const Chain c{0.1, 0.4, o.rate / mean};
  const double node_var = m * c.p * size_var + mean * mean * c.count_variance(o.measure_cycles);
  const double sigma = std::sqrt(nodes * node_var) / (nodes * m);
  const double offered = j["offered_flits_per_node_cycle"], accepted = j["accepted_flits_per_node_cycle"];
  EXPECT_NEAR(offered, o.rate, 4 * sigma);
  const double latency = j["avg_packet_latency_cycles"];
  EXPECT_NEAR(accepted, offered, 4 * sigma + 2 * o.rate * latency / m);
  EXPECT_FALSE(j["drain_limited"].get<bool>());
  // Mean size: each packet is 8 flits with probability 1/2 (binomial), else 1.
  const double packets = double(j["measured_packets"]);
  EXPECT_NEAR(j["avg_packet_flits"].get<double>(), mean, 4 * 7 * std::sqrt(0.25 / packets));
  EXPECT_EQ(j["mode"], "onoff");
  EXPECT_EQ(j["injection"]["process"], "onoff");
  EXPECT_DOUBLE_EQ(j["injection"]["burst_r1"].get<double>(), c.r1());
  EXPECT_DOUBLE_EQ(j["packet_sizes_mean_flits"].get<double>(), mean);
  EXPECT_EQ(j["packet_sizes"].size(), 2u);
  EXPECT_FALSE(j.contains("packet_flits")) << "a mix has no single size";
}

void expect_bad_input(std::vector<std::string> args, const std::vector<std::string>& must_mention) {
  args.insert(args.begin(), {"traffic", "mesh-8x8", "--measure-cycles", "50", "--quiet"});
  const auto r = test::run_kairo(args);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  for (const auto& m : must_mention)
    EXPECT_NE(r.err.find(m), std::string::npos) << "missing '" << m << "' in: " << r.err;
}

TEST(TrafficSources, EachBadSourceOptionIsRefusedNamingTheOption) {
  expect_bad_input({"--injection", "poisson"}, {"--injection", "bernoulli, onoff"});
  expect_bad_input({"--injection", "onoff", "--burst-alpha", "0"}, {"--burst-alpha", "(0, 1]"});
  expect_bad_input({"--injection", "onoff", "--burst-alpha", "1.5"}, {"--burst-alpha"});
  expect_bad_input({"--injection", "onoff", "--burst-beta", "-0.1"}, {"--burst-beta", "(0, 1]"});
  // 4-flit packets, alpha 0.1, beta 0.4: at most 4 x 0.1 / 0.5 = 0.8 flits per node-cycle.
  expect_bad_input({"--injection", "onoff", "--burst-alpha", "0.1", "--burst-beta", "0.4", "--rate", "0.9"},
                   {"--rate", "highest --rate is 0.8"});
  expect_bad_input({"--injection", "onoff", "--batch", "4"}, {"--injection", "--batch"});
  expect_bad_input({"--packet-sizes", "1:0.5,9:0.5"}, {"--packet-sizes", "size 9", "max_packet_flits"});
  expect_bad_input({"--packet-sizes", "4:0"}, {"--packet-sizes"});
  expect_bad_input({"--packet-sizes", "a:b"}, {"--packet-sizes"});
  expect_bad_input({"--packet-sizes", "4:1", "--packet-flits", "4"}, {"--packet-sizes", "--packet-flits"});
  expect_bad_input({"--pattern", "hotspot"}, {"--hotspot-nodes"});
  expect_bad_input({"--pattern", "hotspot", "--hotspot-nodes", "64"}, {"--hotspot-nodes", "64", "0..63"});
  expect_bad_input({"--pattern", "hotspot", "--hotspot-nodes", "3", "--hotspot-fraction", "1.5"},
                   {"--hotspot-fraction", "[0, 1]"});
}

TEST(TrafficSources, CommandLineRunsOnOffWithASizeMixAndBatchWithAMix) {
  const std::string dir = test::temp_dir();
  auto r = test::run_kairo({"traffic", "mesh-8x8", "--injection", "onoff", "--burst-alpha", "0.1",
                            "--burst-beta", "0.4", "--rate", "0.1", "--packet-sizes", "1:0.5,8:0.5",
                            "--measure-cycles", "2000", "--quiet", "--json", dir + "/on.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(test::read_file(dir + "/on.json"));
  EXPECT_EQ(j["injection"]["burst_alpha"], 0.1);
  EXPECT_EQ(j["injection"]["burst_beta"], 0.4);
  EXPECT_EQ(j["injection"]["initial_state"], "stationary");
  r = test::run_kairo({"traffic", "mesh-8x8", "--batch", "50", "--packet-sizes", "2,6", "--quiet", "--json",
                       dir + "/b.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  j = nlohmann::json::parse(test::read_file(dir + "/b.json"));
  // 3200 packets of 2 or 6 flits, equally likely: mean 4, standard deviation 2 / sqrt(3200).
  EXPECT_NEAR(j["avg_packet_flits"].get<double>(), 4.0, 4 * 2 / std::sqrt(3200.0));
  EXPECT_FALSE(j.contains("injection")) << "batch mode has no injection process";
}

}  // namespace
}  // namespace kairo
