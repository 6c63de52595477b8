// What this host can hold. kairo estimates the memory a run will need before
// it builds or allocates anything, and refuses (exit 2) a run that could not
// fit, saying how much it would need (docs/reliability.md).
#pragma once
#include <cstdint>
#include <string>

namespace kairo::sim {

// The host's physical memory in bytes (KAIRO_HOST_MEMORY, e.g. "4GiB",
// overrides it: for tests, and to keep a run within a share of a machine).
std::uint64_t host_memory_bytes();

// Throws std::invalid_argument "<what> would need about X GiB of host memory;
// this host has Y GiB" when `bytes` passes 90% of host_memory_bytes().
void check_host_memory(const std::string& what, double bytes);

}  // namespace kairo::sim
