// Unit parsing: every size, duration, bandwidth and frequency in a platform
// file or on the command line goes through these parsers. Expected values are
// written as arithmetic on the unit definitions.
#include <gtest/gtest.h>

#include <string>

#include "sim/units.h"

namespace kairo::units {
namespace {

// The UnitError message for `parse(text)`, or a test failure if it parsed.
template <typename F>
std::string error_of(F parse, const std::string& text) {
  try {
    parse(text);
  } catch (const UnitError& e) {
    return e.what();
  }
  ADD_FAILURE() << "'" << text << "' was accepted";
  return "";
}

void expect_contains(const std::string& msg, const std::string& part) {
  EXPECT_NE(msg.find(part), std::string::npos) << "message: " << msg << "\nshould contain: " << part;
}

TEST(Units, SizesUseDecimalAndBinaryPrefixes) {
  EXPECT_EQ(parse_bytes("32B"), 32u);
  EXPECT_EQ(parse_bytes("32"), 32u);  // a bare integer is bytes
  EXPECT_EQ(parse_bytes("32KiB"), 32u * 1024);
  EXPECT_EQ(parse_bytes("2MB"), 2u * 1000 * 1000);
  EXPECT_EQ(parse_bytes("2MiB"), 2u * 1024 * 1024);
  EXPECT_EQ(parse_bytes("4GiB"), 4ull * 1024 * 1024 * 1024);
  EXPECT_EQ(parse_bytes("1KB"), 1000u);
  EXPECT_EQ(parse_bytes("1.5KiB"), 1536u);  // 1.5 * 1024
  EXPECT_EQ(parse_bytes("0.25MB"), 250000u);
  EXPECT_EQ(parse_bytes(" 64B "), 64u);
}

TEST(Units, SizesMustBeWholeBytes) {
  expect_contains(error_of(parse_bytes, "1.5B"), "whole number of bytes");
  expect_contains(error_of(parse_bytes, "0.1KiB"), "whole number of bytes");  // 102.4 B
}

TEST(Units, DurationsAreExactPicoseconds) {
  EXPECT_EQ(parse_duration("0.6ns"), 600u);
  EXPECT_EQ(parse_duration("500ns"), 500u * 1000);
  EXPECT_EQ(parse_duration("10us"), 10ull * 1000 * 1000);
  EXPECT_EQ(parse_duration("10ms"), 10ull * 1000 * 1000 * 1000);
  EXPECT_EQ(parse_duration("2s"), 2ull * 1000 * 1000 * 1000 * 1000);
  EXPECT_EQ(parse_duration("6.4ns"), 6400u);
  EXPECT_EQ(parse_duration("3ps"), 3u);
  EXPECT_EQ(parse_duration("0ns"), 0u);
  EXPECT_EQ(parse_duration("1.25us"), 1250u * 1000);
}

TEST(Units, DurationsRoundToTheNearestPicosecond) {
  EXPECT_EQ(parse_duration("1.0004ns"), 1000u);  // 1000.4 ps
  EXPECT_EQ(parse_duration("1.0006ns"), 1001u);  // 1000.6 ps
  EXPECT_EQ(parse_duration("0.5ps"), 1u);        // halves round up
}

TEST(Units, BareNumberIsNotADuration) {
  std::string msg = error_of(parse_duration, "5");
  expect_contains(msg, "expected a duration with a unit");
  expect_contains(msg, "500ns");
}

TEST(Units, BandwidthsInBytesAndBits) {
  EXPECT_DOUBLE_EQ(parse_bandwidth("5GB/s"), 5e9);
  EXPECT_DOUBLE_EQ(parse_bandwidth("6.8GB/s"), 6.8e9);
  EXPECT_DOUBLE_EQ(parse_bandwidth("32GB/s"), 32e9);
  EXPECT_DOUBLE_EQ(parse_bandwidth("100MB/s"), 100e6);
  EXPECT_DOUBLE_EQ(parse_bandwidth("100Gbps"), 100e9 / 8);
  EXPECT_DOUBLE_EQ(parse_bandwidth("10Mbps"), 10e6 / 8);
  EXPECT_DOUBLE_EQ(parse_bandwidth("1KiB/s"), 1024.0);
}

TEST(Units, FrequenciesInHertz) {
  EXPECT_DOUBLE_EQ(parse_frequency("312.5MHz"), 312.5e6);
  EXPECT_DOUBLE_EQ(parse_frequency("1GHz"), 1e9);
  EXPECT_DOUBLE_EQ(parse_frequency("2.2GHz"), 2.2e9);
  EXPECT_DOUBLE_EQ(parse_frequency("100kHz"), 100e3);
  EXPECT_DOUBLE_EQ(parse_frequency("50Hz"), 50.0);
}

TEST(Units, NegativeValuesAreRejected) {
  expect_contains(error_of(parse_duration, "-5ns"), "expected a non-negative duration");
  expect_contains(error_of(parse_bytes, "-32B"), "expected a non-negative size");
  expect_contains(error_of(parse_bandwidth, "-5GB/s"), "expected a non-negative bandwidth");
  expect_contains(error_of(parse_frequency, "-1GHz"), "expected a non-negative frequency");
}

TEST(Units, EmptyValuesAreRejected) {
  expect_contains(error_of(parse_duration, ""),
                  "expected a duration such as 500ns, 10us or 10ms, got an empty value");
  expect_contains(error_of(parse_bytes, "  "), "expected a size");
  expect_contains(error_of(parse_bandwidth, ""), "expected a bandwidth");
  expect_contains(error_of(parse_frequency, ""), "expected a frequency");
}

TEST(Units, UnknownUnitsAreRejectedWithTheValidOnes) {
  std::string msg = error_of(parse_duration, "5parsecs");
  expect_contains(msg, "unknown unit 'parsecs'");
  expect_contains(msg, "ps, ns, us, ms or s");
  expect_contains(error_of(parse_bandwidth, "5GB"),
                  "expected a bandwidth such as 5GB/s");  // a size, not a rate
  expect_contains(error_of(parse_frequency, "3THz"), "unknown unit 'THz'");
  expect_contains(error_of(parse_bytes, "32b"), "unknown unit 'b'");  // bits are not a size
  expect_contains(error_of(parse_frequency, "1ns"), "expected a frequency");
}

TEST(Units, TrailingJunkIsRejected) {
  expect_contains(error_of(parse_duration, "5ns junk"), "got '5ns junk'");
  expect_contains(error_of(parse_duration, "1.2.3ns"), "expected a duration");
  expect_contains(error_of(parse_bytes, "32B32"), "expected a size");
  expect_contains(error_of(parse_bandwidth, "5GB/s/s"), "expected a bandwidth");
  expect_contains(error_of(parse_frequency, "ghz"),
                  "expected a frequency such as 312.5MHz or 1GHz, got 'ghz'");
}

TEST(Units, ValuesTooLargeForPicosecondsAreRejected) {
  expect_contains(error_of(parse_duration, "99999999999999999s"), "too large");
  expect_contains(error_of(parse_duration, "1234567890123456789012ns"), "too many digits");
}

TEST(Units, FormattedValuesReadBackExactly) {
  EXPECT_EQ(format_duration(6400), "6.4ns");
  EXPECT_EQ(format_duration(10 * sim::kMs), "10ms");
  EXPECT_EQ(format_duration(312), "312ps");
  EXPECT_EQ(format_duration(0), "0ns");
  EXPECT_EQ(format_bytes(32), "32B");
  EXPECT_EQ(format_bytes(32 * 1024), "32KiB");
  EXPECT_EQ(format_bytes(2 * 1000 * 1000), "2MB");
  EXPECT_EQ(format_bandwidth(5e9), "5GB/s");
  EXPECT_EQ(format_bandwidth(6.8e9), "6.8GB/s");
  EXPECT_EQ(format_frequency(312.5e6), "312.5MHz");
  EXPECT_EQ(format_frequency(1e9), "1GHz");
  for (sim::Time t : {sim::Time(1), sim::Time(999), sim::Time(1234567), 10 * sim::kUs + 1, 3 * sim::kSec})
    EXPECT_EQ(parse_duration(format_duration(t)), t) << format_duration(t);
  for (std::uint64_t b : {1ull, 1000ull, 1024ull, 1536ull, 1ull << 40})
    EXPECT_EQ(parse_bytes(format_bytes(b)), b) << format_bytes(b);
  for (double r : {5e9, 12.5e9, 1.0, 3e3}) EXPECT_DOUBLE_EQ(parse_bandwidth(format_bandwidth(r)), r);
  for (double f : {312.5e6, 2.2e9, 50.0}) EXPECT_DOUBLE_EQ(parse_frequency(format_frequency(f)), f);
}

}  // namespace
}  // namespace kairo::units
