// The statistics of repeated runs (several seeds per point): the sample
// mean and the half-width of its two-sided 95% confidence interval from
// Student's t distribution (Boost.Math), t(0.975, n - 1) x s / sqrt(n), with
// s the sample standard deviation. One sample has no interval.
#pragma once
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

namespace kairo::app::stats {

struct Summary {
  std::size_t n = 0;
  double mean = 0;
  double sd = 0;               // sample standard deviation (n - 1); 0 for one sample
  std::optional<double> ci95;  // half-width of the 95% interval; none for n < 2
};

inline Summary summarize(const std::vector<double>& xs) {
  Summary s;
  s.n = xs.size();
  if (s.n == 0) return s;
  double sum = 0;
  for (double x : xs) sum += x;
  s.mean = sum / double(s.n);
  if (s.n < 2) return s;
  double sq = 0;
  for (double x : xs) sq += (x - s.mean) * (x - s.mean);
  s.sd = std::sqrt(sq / double(s.n - 1));
  // In double throughout: the default policy promotes to long double, whose
  // constants Boost.Math computes at start-up (and which valgrind's x87
  // emulation overflows on).
  using Policy = boost::math::policies::policy<boost::math::policies::promote_double<false>>;
  const boost::math::students_t_distribution<double, Policy> t(double(s.n - 1));
  s.ci95 = boost::math::quantile(boost::math::complement(t, 0.025)) * s.sd / std::sqrt(double(s.n));
  return s;
}

// {"n", "mean", "sd", "ci95", "samples"}; ci95 null for one sample.
inline nlohmann::json to_json(const Summary& s, const std::vector<double>& samples) {
  return {{"n", s.n},
          {"mean", s.mean},
          {"sd", s.sd},
          {"ci95", s.ci95 ? nlohmann::json(*s.ci95) : nlohmann::json(nullptr)},
          {"samples", samples}};
}

}  // namespace kairo::app::stats
