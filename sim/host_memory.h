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

// A long run on a large machine (its anonymous memory, the heap and large
// blocks, at least `min_bytes`) moves that memory to transparent huge pages:
// madvise MADV_HUGEPAGE, then MADV_COLLAPSE to move what is there now. A run
// that touches a router, an engine and a rank in different places of a
// gigabyte at every event then misses the TLB far less often. Moving costs
// the kernel 1 to 4 s per GiB on a busy host (finding free 2 MiB pages), so
// runs do it only once they have run kHugePagesAfterS. Nothing else changes;
// a kernel that refuses either call (before Linux 6.1, or huge pages off)
// leaves the memory as it was. Returns the bytes advised (0: below the
// threshold, or refused).
std::uint64_t back_with_huge_pages(std::uint64_t min_bytes);
inline constexpr std::uint64_t kHugePagesFromBytes = std::uint64_t{512} << 20;
inline constexpr double kHugePagesAfterS = 10.0;

// A run's progress calls this with its wall time: it moves the memory once,
// the first time the run has gone on for kHugePagesAfterS.
class HugePagesOnceLong {
 public:
  void tick(double wall_s) {
    if (tried_ || wall_s < kHugePagesAfterS) return;
    tried_ = true;
    back_with_huge_pages(kHugePagesFromBytes);
  }

 private:
  bool tried_ = false;
};

}  // namespace kairo::sim
