// Unit parsing. Sizes and durations are computed exactly from the decimal
// text (mantissa * unit / 10^fraction digits in 128-bit integers), so "0.6ns"
// is 600 ps and "1.5KiB" is 1536 B with no floating-point drift. Bandwidths and
// frequencies are doubles.
#include "sim/units.h"

#include <fmt/format.h>

#include <limits>
#include <utility>
#include <vector>

namespace kairo::units {
namespace {

using u128 = unsigned __int128;

// A non-negative decimal number followed by a unit: "312.5MHz" is
// mantissa 3125, 1 fraction digit, unit "MHz".
struct Decimal {
  std::uint64_t mantissa = 0;
  int frac_digits = 0;
  std::string unit;
};

struct Kind {
  const char* what;      // "a duration"
  const char* noun;      // "duration"
  const char* examples;  // "500ns, 10us or 10ms"
  const char* units;     // "ps, ns, us, ms or s"
};

constexpr Kind kDuration{"a duration", "duration", "500ns, 10us or 10ms", "ps, ns, us, ms or s"};
constexpr Kind kSize{"a size", "size", "32B, 32KiB or 2MB", "B, KB, MB, GB, TB, KiB, MiB, GiB or TiB"};
constexpr Kind kBandwidth{"a bandwidth", "bandwidth", "5GB/s or 100Gbps",
                          "B/s, KB/s, MB/s, GB/s, TB/s, KiB/s, MiB/s, GiB/s or bps, Kbps, Mbps, Gbps, Tbps"};
constexpr Kind kFrequency{"a frequency", "frequency", "312.5MHz or 1GHz", "Hz, kHz, MHz or GHz"};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

[[noreturn]] void fail_expected(const Kind& k, std::string_view text) {
  throw UnitError(fmt::format("expected {} such as {}, got '{}'", k.what, k.examples, text));
}

Decimal split(std::string_view raw, const Kind& k) {
  std::string_view text = trim(raw);
  if (text.empty())
    throw UnitError(fmt::format("expected {} such as {}, got an empty value", k.what, k.examples));
  if (text.front() == '-')
    throw UnitError(fmt::format("expected a non-negative {} such as {}, got '{}'", k.noun, k.examples, text));
  Decimal d;
  std::size_t i = 0;
  int digits = 0, significant = 0;
  bool in_frac = false;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '.' && !in_frac) {
      in_frac = true;
      continue;
    }
    if (!is_digit(c)) break;
    ++digits;
    if (in_frac) ++d.frac_digits;
    if (d.mantissa == 0 && c == '0') continue;  // leading zeros carry no precision
    if (++significant > 18)
      throw UnitError(
          fmt::format("expected {} such as {}, got '{}' (too many digits)", k.what, k.examples, text));
    d.mantissa = d.mantissa * 10 + std::uint64_t(c - '0');
  }
  if (digits == 0) fail_expected(k, text);
  if (d.frac_digits > 18)
    throw UnitError(
        fmt::format("expected {} such as {}, got '{}' (too many digits)", k.what, k.examples, text));
  std::string_view unit = text.substr(i);
  while (!unit.empty() && is_space(unit.front())) unit.remove_prefix(1);
  d.unit = std::string(unit);
  return d;
}

u128 pow10(int n) {
  u128 p = 1;
  while (n-- > 0) p *= 10;
  return p;
}

template <typename T>
const T* find_unit(const std::vector<std::pair<const char*, T>>& table, const std::string& unit) {
  for (const auto& [name, mult] : table)
    if (unit == name) return &mult;
  return nullptr;
}

[[noreturn]] void fail_unit(const Kind& k, std::string_view text, const std::string& unit) {
  if (unit.empty())
    throw UnitError(fmt::format("expected {} with a unit such as {}, got '{}' (a bare number is ambiguous)",
                                k.what, k.examples, trim(text)));
  throw UnitError(fmt::format("expected {} such as {}, got '{}': unknown unit '{}' (use {})", k.what,
                              k.examples, trim(text), unit, k.units));
}

// mantissa * mult / 10^frac, rounded to the nearest integer; `exact` demands
// no remainder.
std::uint64_t scale_exact(const Decimal& d, std::uint64_t mult, const Kind& k, std::string_view text,
                          bool exact) {
  u128 num = u128(d.mantissa) * mult;
  u128 den = pow10(d.frac_digits);
  u128 q = num / den, r = num % den;
  if (exact && r != 0)
    throw UnitError(fmt::format("expected {} that is a whole number of bytes, such as {}, got '{}'", k.what,
                                k.examples, trim(text)));
  if (2 * r >= den) ++q;
  if (q > u128(std::numeric_limits<std::uint64_t>::max()))
    throw UnitError(
        fmt::format("expected {} such as {}, got '{}' (too large)", k.what, k.examples, trim(text)));
  return std::uint64_t(q);
}

double scale_double(const Decimal& d, double mult) {
  return double(d.mantissa) * mult / double(pow10(d.frac_digits));
}

// "12.340" -> "12.34", "5.000" -> "5": integer part plus the remainder as
// exact decimal digits of `unit`.
std::string exact_decimal(std::uint64_t value, std::uint64_t unit) {
  std::string s = std::to_string(value / unit);
  std::uint64_t rem = value % unit;
  if (rem == 0) return s;
  std::string frac;
  for (std::uint64_t u = unit / 10; u > 0; u /= 10) {
    frac += char('0' + rem / u);
    rem %= u;
  }
  while (!frac.empty() && frac.back() == '0') frac.pop_back();
  return s + "." + frac;
}

std::string scaled_double(double v, const std::vector<std::pair<const char*, double>>& table) {
  // table is ordered from the largest unit down; the last one is the base.
  for (const auto& [name, mult] : table)
    if (v >= mult || mult == table.back().second) return fmt::format("{}{}", v / mult, name);
  return fmt::format("{}", v);
}

}  // namespace

std::uint64_t parse_bytes(std::string_view text) {
  static const std::vector<std::pair<const char*, std::uint64_t>> kUnits = {
      {"", 1},
      {"B", 1},
      {"KB", 1000},
      {"kB", 1000},
      {"MB", 1000000},
      {"GB", 1000000000},
      {"TB", 1000000000000},
      {"KiB", 1ull << 10},
      {"MiB", 1ull << 20},
      {"GiB", 1ull << 30},
      {"TiB", 1ull << 40},
  };
  Decimal d = split(text, kSize);
  const std::uint64_t* mult = find_unit(kUnits, d.unit);
  if (!mult) fail_unit(kSize, text, d.unit);
  return scale_exact(d, *mult, kSize, text, true);
}

sim::Time parse_duration(std::string_view text) {
  static const std::vector<std::pair<const char*, std::uint64_t>> kUnits = {
      {"ps", sim::kPs},        {"ns", sim::kNs}, {"us", sim::kUs},
      {"\xC2\xB5s", sim::kUs}, {"ms", sim::kMs}, {"s", sim::kSec},
  };
  Decimal d = split(text, kDuration);
  const std::uint64_t* mult = find_unit(kUnits, d.unit);
  if (!mult) fail_unit(kDuration, text, d.unit);
  return scale_exact(d, *mult, kDuration, text, false);
}

double parse_bandwidth(std::string_view text) {
  static const std::vector<std::pair<const char*, double>> kUnits = {
      {"B/s", 1},        {"KB/s", 1e3},        {"kB/s", 1e3},
      {"MB/s", 1e6},     {"GB/s", 1e9},        {"TB/s", 1e12},
      {"KiB/s", 1024.0}, {"MiB/s", 1048576.0}, {"GiB/s", 1073741824.0},
      {"bps", 1 / 8.0},  {"Kbps", 1e3 / 8},    {"kbps", 1e3 / 8},
      {"Mbps", 1e6 / 8}, {"Gbps", 1e9 / 8},    {"Tbps", 1e12 / 8},
      {"b/s", 1 / 8.0},  {"Kb/s", 1e3 / 8},    {"kb/s", 1e3 / 8},
      {"Mb/s", 1e6 / 8}, {"Gb/s", 1e9 / 8},    {"Tb/s", 1e12 / 8},
  };
  Decimal d = split(text, kBandwidth);
  const double* mult = find_unit(kUnits, d.unit);
  if (!mult) fail_unit(kBandwidth, text, d.unit);
  return scale_double(d, *mult);
}

double parse_frequency(std::string_view text) {
  static const std::vector<std::pair<const char*, double>> kUnits = {
      {"Hz", 1}, {"kHz", 1e3}, {"KHz", 1e3}, {"MHz", 1e6}, {"GHz", 1e9},
  };
  Decimal d = split(text, kFrequency);
  const double* mult = find_unit(kUnits, d.unit);
  if (!mult) fail_unit(kFrequency, text, d.unit);
  return scale_double(d, *mult);
}

std::string format_duration(sim::Time ps) {
  static const std::pair<const char*, sim::Time> kUnits[] = {
      {"s", sim::kSec}, {"ms", sim::kMs}, {"us", sim::kUs}, {"ns", sim::kNs}};
  for (const auto& [name, unit] : kUnits)
    if (ps >= unit) return exact_decimal(ps, unit) + name;
  if (ps == 0) return "0ns";
  return std::to_string(ps) + "ps";
}

std::string format_bytes(std::uint64_t b) {
  // The exact form with the smallest number: 32768 -> "32KiB", 2000000 -> "2MB".
  static const std::pair<const char*, std::uint64_t> kUnits[] = {
      {"TiB", 1ull << 40}, {"TB", 1000000000000}, {"GiB", 1ull << 30}, {"GB", 1000000000},
      {"MiB", 1ull << 20}, {"MB", 1000000},       {"KiB", 1ull << 10}, {"KB", 1000},
  };
  for (const auto& [name, unit] : kUnits)
    if (b >= unit && b % unit == 0) return std::to_string(b / unit) + name;
  return std::to_string(b) + "B";
}

std::string format_size(double b) {
  if (b >= double(1ULL << 30)) return fmt::format("{:.1f} GiB", b / double(1ULL << 30));
  if (b >= double(1ULL << 20)) return fmt::format("{:.1f} MiB", b / double(1ULL << 20));
  return fmt::format("{:.1f} KiB", b / 1024.0);
}

std::string format_bandwidth(double bytes_per_s) {
  static const std::vector<std::pair<const char*, double>> kUnits = {
      {"TB/s", 1e12}, {"GB/s", 1e9}, {"MB/s", 1e6}, {"KB/s", 1e3}, {"B/s", 1}};
  return scaled_double(bytes_per_s, kUnits);
}

std::string format_frequency(double hz) {
  static const std::vector<std::pair<const char*, double>> kUnits = {
      {"GHz", 1e9}, {"MHz", 1e6}, {"kHz", 1e3}, {"Hz", 1}};
  return scaled_double(hz, kUnits);
}

}  // namespace kairo::units
