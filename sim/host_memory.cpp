#include "sim/host_memory.h"

#include <fmt/format.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
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
  throw std::invalid_argument(fmt::format("{} would need about {} of host memory; this host has {}", what,
                                          units::format_size(bytes), units::format_size(host)));
}

std::uint64_t back_with_huge_pages(std::uint64_t min_bytes) {
#ifndef MADV_COLLAPSE
  constexpr int MADV_COLLAPSE = 25;  // Linux 6.1 (glibc 2.36's headers predate it)
#endif
  struct Range {
    std::uintptr_t from, to;
  };
  std::vector<Range> anonymous;
  std::uint64_t total = 0;
  std::ifstream maps("/proc/self/maps");
  // "from-to perms offset dev inode [path]": private writable memory that is
  // no file's (no inode), the heap included, the stack not.
  for (std::string line; std::getline(maps, line);) {
    unsigned long from = 0, to = 0, offset = 0, inode = 0;
    char perms[8] = {}, dev[16] = {};
    int path_at = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx %7s %lx %15s %lu %n", &from, &to, perms, &offset, dev, &inode,
                    &path_at) < 6)
      continue;
    const std::string path = path_at > 0 ? line.substr(std::size_t(path_at)) : std::string();
    if (std::string(perms) != "rw-p" || inode != 0 || !(path.empty() || path == "[heap]")) continue;
    anonymous.push_back(Range{from, to});
    total += to - from;
  }
  if (total < min_bytes) return 0;
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  std::uint64_t advised = 0;
  for (const Range& r : anonymous) {
    const std::uintptr_t from = (r.from + kHuge - 1) & ~(kHuge - 1), to = r.to & ~(kHuge - 1);
    if (to <= from) continue;
    void* at = reinterpret_cast<void*>(from);
    if (::madvise(at, to - from, MADV_HUGEPAGE) != 0) continue;
    ::madvise(at, to - from, MADV_COLLAPSE);  // best effort: what cannot be collapsed stays as it is
    advised += to - from;
  }
  return advised;
}

}  // namespace kairo::sim
