// Quantities with units, parsed once from text: sizes ("32B", "32KiB", "2MB"),
// durations ("500ns", "10us", "10ms"), bandwidths ("5GB/s", "10Gbps") and
// frequencies ("312.5MHz"). Every parser throws UnitError whose message says
// what was expected, e.g. "expected a duration such as 500ns, 10us or 10ms".
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "sim/time.h"

namespace kairo::units {

struct UnitError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Sizes: B, KB/MB/GB (powers of 1000), KiB/MiB/GiB (powers of 1024). A bare
// integer is bytes. Result in bytes.
std::uint64_t parse_bytes(std::string_view text);
// Durations: ps, ns, us, ms, s. A bare number is rejected (ambiguous).
// Result in picoseconds, rounded to the nearest picosecond.
sim::Time parse_duration(std::string_view text);
// Bandwidths: B/s, KB/s, MB/s, GB/s (bytes, powers of 1000) and bps, Kbps,
// Mbps, Gbps (bits). Result in bytes per second.
double parse_bandwidth(std::string_view text);
// Frequencies: Hz, kHz, MHz, GHz. Result in Hz.
double parse_frequency(std::string_view text);

// Human-readable forms used in messages and --list-params.
std::string format_duration(sim::Time ps);         // "6.4ns", "10ms"
std::string format_bytes(std::uint64_t b);         // "32B", "32KiB"
std::string format_size(double b);                 // rounded for messages: "16.2 MiB", "1.0 GiB"
std::string format_bandwidth(double bytes_per_s);  // "5GB/s"
std::string format_frequency(double hz);           // "312.5MHz"

}  // namespace kairo::units
