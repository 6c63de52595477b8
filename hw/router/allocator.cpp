// Switch allocator factory: the one place that maps a platform file's
// allocator name to its strategy class.
#include "hw/router/allocator.h"

#include "hw/router/islip_allocator.h"
#include "hw/router/oldest_first_allocator.h"
#include "hw/router/round_robin_allocator.h"

namespace kairo::router {

std::unique_ptr<Allocator> make_allocator(const std::string& name, int inputs, int vcs, int outputs) {
  if (name == RoundRobinAllocator::kName) return std::make_unique<RoundRobinAllocator>(inputs, vcs, outputs);
  if (name == IslipAllocator::kName) return std::make_unique<IslipAllocator>(inputs, vcs, outputs);
  if (name == OldestFirstAllocator::kName)
    return std::make_unique<OldestFirstAllocator>(inputs, vcs, outputs);
  return nullptr;
}

const std::vector<std::string>& allocator_names() {
  static const std::vector<std::string> names = {RoundRobinAllocator::kName, IslipAllocator::kName,
                                                 OldestFirstAllocator::kName};
  return names;
}

}  // namespace kairo::router
