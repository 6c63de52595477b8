#include "sim/host_memory.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <stdexcept>

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

}  // namespace kairo::sim
