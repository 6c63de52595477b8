// `kairo check PLATFORM --processes N [--partition auto|blocks|metis]`: the
// partition of a partitioned run (platforms/partition.h, docs/parallel.md).
#pragma once
#include <string>

#include "platforms/partition.h"
#include "platforms/platform.h"

namespace kairo::app {

// The partition of `p` over `processes` processes by `method` ("auto",
// "blocks", "metis"). Throws std::invalid_argument or platforms::ConfigError
// (bad N, a zero lookahead), which the caller turns into exit code 2.
platforms::Partition make_partition(const platforms::Platform& p, long long processes,
                                    const std::string& method);
// Prints it, after the platform's shape.
void print_partition(const platforms::Platform& p, const platforms::Partition& r, const std::string& method);

}  // namespace kairo::app
