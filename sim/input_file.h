// Files kairo reads whole (counter logs for `kairo view`, JSON results for
// `kairo plot` and the run report), read with a stated bound: a file larger
// than the bound, or a device or FIFO that gives more (/dev/zero), is refused
// with the bound in the message instead of filling the host's memory
// (docs/reliability.md, "Readers").
#pragma once
#include <cstdint>
#include <string>

namespace kairo::sim {

inline constexpr std::uint64_t kCounterLogLimitBytes = std::uint64_t(1) << 30;    // 1 GiB
inline constexpr std::uint64_t kResultFileLimitBytes = std::uint64_t(256) << 20;  // 256 MiB

// The whole of `path`, at most `limit` bytes. Throws std::invalid_argument
// "WHAT PATH: 20.0 GiB, more than kairo reads (1.0 GiB); ADVICE" when it is
// larger, and "WHAT PATH: cannot read: REASON" when it cannot be opened.
std::string read_bounded(const std::string& path, std::uint64_t limit, const std::string& what,
                         const std::string& advice);

}  // namespace kairo::sim
