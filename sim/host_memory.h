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

// Before a large machine is built (`bytes`, its estimated memory, at least
// kHugePagesFromBytes): the heap grows by that much at once and is marked for
// transparent huge pages (madvise MADV_HUGEPAGE), so the machine built in it
// faults in 2 MiB pages. A run that touches a router, an engine and a rank in
// different places of a gigabyte at every event then misses the TLB far less
// often (what glibc's glibc.malloc.hugetlb=1 tunable does, without asking the
// user to set it). Nothing else changes; a kernel that refuses the advice
// leaves 4 KiB pages. Returns the bytes advised (0: none).
std::uint64_t prepare_huge_pages(std::uint64_t bytes);
// The size from which runs do so: smaller runs stay in the caches' reach anyway.
inline constexpr std::uint64_t kHugePagesFromBytes = std::uint64_t{512} << 20;

}  // namespace kairo::sim
