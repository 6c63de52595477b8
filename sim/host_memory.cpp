#include "sim/host_memory.h"

#include <fmt/format.h>
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <vector>

#include "sim/units.h"

namespace kairo::sim {

std::uint64_t host_memory_bytes() {
  if (const char* v = std::getenv("KAIRO_HOST_MEMORY"); v && *v) {
    try {
      return units::parse_bytes(v);
    } catch (const units::UnitError& e) {
      throw std::invalid_argument(std::string("KAIRO_HOST_MEMORY: ") + e.what());
    }
  }
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return ~std::uint64_t(0);  // unknown: no limit
  return std::uint64_t(pages) * std::uint64_t(page);
}

void check_host_memory(const std::string& what, double bytes) {
  const double host = double(host_memory_bytes());
  if (bytes <= 0.9 * host) return;
  throw std::invalid_argument(
      fmt::format("{} would need about {:.1f} GiB of host memory; this host has {:.1f} GiB", what,
                  bytes / double(1ULL << 30), host / double(1ULL << 30)));
}

std::uint64_t prepare_huge_pages(std::uint64_t bytes) {
  if (bytes < kHugePagesFromBytes) return 0;
  // The heap grows by `bytes` now, in blocks below malloc's mmap threshold
  // (so they come from the heap), and is given back to malloc without being
  // trimmed: the machine is then built inside it.
  constexpr std::size_t kBlock = std::size_t{16} << 20;
  ::mallopt(M_MMAP_THRESHOLD, int(2 * kBlock));
  ::mallopt(M_TRIM_THRESHOLD, std::numeric_limits<int>::max());
  std::vector<void*> blocks;
  blocks.reserve(std::size_t(bytes / kBlock) + 1);
  for (std::uint64_t got = 0; got < bytes; got += kBlock) blocks.push_back(std::malloc(kBlock));
  for (void* b : blocks) std::free(b);
  // "from-to perms offset dev inode [heap]"
  std::ifstream maps("/proc/self/maps");
  for (std::string line; std::getline(maps, line);) {
    if (line.size() < 6 || line.compare(line.size() - 6, 6, "[heap]") != 0) continue;
    unsigned long from = 0, to = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx", &from, &to) != 2) return 0;
    constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
    const std::uintptr_t a = (from + kHuge - 1) & ~(kHuge - 1), z = to & ~(kHuge - 1);
    if (z <= a || ::madvise(reinterpret_cast<void*>(a), z - a, MADV_HUGEPAGE) != 0) return 0;
    return z - a;
  }
  return 0;
}

}  // namespace kairo::sim
