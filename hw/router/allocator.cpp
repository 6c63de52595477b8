// Switch allocator factory: the one place that maps a platform file's
// allocator name to its strategy class.
#include "hw/router/allocator.h"

#include <stdexcept>
#include <string>

#include "hw/router/islip_allocator.h"
#include "hw/router/oldest_first_allocator.h"
#include "hw/router/round_robin_allocator.h"
#include "hw/router/rtl/rtl_allocator.h"
#include "hw/router/separable_input_first_allocator.h"
#include "hw/router/separable_output_first_allocator.h"
#include "hw/router/wavefront_allocator.h"

namespace kairo::router {

std::string Allocator::shape_text(int inputs, int vcs, int outputs) {
  return std::to_string(inputs) + " inputs x " + std::to_string(vcs) + " VCs x " + std::to_string(outputs) +
         " outputs";
}

__attribute__((noinline, cold)) void Allocator::reject_request(const char* name, int input, int vc,
                                                               int output, bool repeated) const {
  const std::string who =
      std::string(name) + " switch allocator: input " + std::to_string(input) + " VC " + std::to_string(vc);
  if (repeated) throw std::logic_error(who + " requested twice in one round; call clear() between rounds");
  throw std::out_of_range(who + " requesting output " + std::to_string(output) + " is outside its " +
                          shape_text(inputs(), vcs(), outputs()));
}

std::unique_ptr<Allocator> make_allocator(const std::string& name, int inputs, int vcs, int outputs,
                                          bool shared_rounds, int islip_iterations) {
  if (name == RoundRobinAllocator::kName)
    return std::make_unique<RoundRobinAllocator>(inputs, vcs, outputs, shared_rounds);
  if (name == IslipAllocator::kName)
    return std::make_unique<IslipAllocator>(inputs, vcs, outputs, islip_iterations);
  if (name == OldestFirstAllocator::kName)
    return std::make_unique<OldestFirstAllocator>(inputs, vcs, outputs);
  if (name == SeparableInputFirstAllocator::kName)
    return std::make_unique<SeparableInputFirstAllocator>(inputs, vcs, outputs);
  if (name == SeparableOutputFirstAllocator::kName)
    return std::make_unique<SeparableOutputFirstAllocator>(inputs, vcs, outputs);
  if (name == WavefrontAllocator::kName) return std::make_unique<WavefrontAllocator>(inputs, vcs, outputs);
  if (name == RtlSeparableAllocator::kName)
    return std::make_unique<RtlSeparableAllocator>(inputs, vcs, outputs);
  return nullptr;
}

const std::vector<std::string>& allocator_names() {
  static const std::vector<std::string> names = {
      RoundRobinAllocator::kName,           IslipAllocator::kName,
      OldestFirstAllocator::kName,          SeparableInputFirstAllocator::kName,
      SeparableOutputFirstAllocator::kName, WavefrontAllocator::kName};
  return names;
}

const std::vector<std::string>& rtl_allocator_names() {
  static const std::vector<std::string> names = {RtlSeparableAllocator::kName};
  return names;
}

const std::vector<std::string>& allocator_choices() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all = allocator_names();
    for (const std::string& n : rtl_allocator_names()) all.push_back(n);
    return all;
  }();
  return names;
}

}  // namespace kairo::router
