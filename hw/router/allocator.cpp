// The switch allocators' descriptors: the one place that names them and maps
// a platform file's allocator name to its strategy class.
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

namespace {
template <typename A>
std::unique_ptr<Allocator> make_plain(int inputs, int vcs, int outputs, const AllocatorKnobs&) {
  return std::make_unique<A>(inputs, vcs, outputs);
}

std::vector<std::string> names_where(bool rtl) {
  std::vector<std::string> names;
  for (const AllocatorKind& k : allocator_kinds())
    if (k.rtl == rtl) names.emplace_back(k.name);
  return names;
}
}  // namespace

const std::vector<AllocatorKind>& allocator_kinds() {
  static const std::vector<AllocatorKind> kinds = {
      {RoundRobinAllocator::kName,
       "separable input-first: a round-robin arbiter over each input's VCs, then one per output", "", false,
       [](int inputs, int vcs, int outputs, const AllocatorKnobs& k) -> std::unique_ptr<Allocator> {
         return std::make_unique<RoundRobinAllocator>(inputs, vcs, outputs, k.shared_rounds);
       }},
      {IslipAllocator::kName, "iterative request-grant-accept, pointers updated on first-iteration accepts",
       "router.islip_iterations", false,
       [](int inputs, int vcs, int outputs, const AllocatorKnobs& k) -> std::unique_ptr<Allocator> {
         return std::make_unique<IslipAllocator>(inputs, vcs, outputs, k.islip_iterations);
       }},
      {OldestFirstAllocator::kName, "greedy by age, ties by input then VC index", "", false,
       [](int inputs, int vcs, int outputs, const AllocatorKnobs& k) -> std::unique_ptr<Allocator> {
         return std::make_unique<OldestFirstAllocator>(inputs, vcs, outputs, k.shared_rounds);
       }},
      {SeparableInputFirstAllocator::kName,
       "BookSim's port-level separable input-first allocator with round-robin arbiters, "
       "hw/router/port_match_allocator.h",
       "", false, make_plain<SeparableInputFirstAllocator>},
      {SeparableOutputFirstAllocator::kName,
       "BookSim's port-level separable output-first allocator with round-robin arbiters", "", false,
       make_plain<SeparableOutputFirstAllocator>},
      {WavefrontAllocator::kName, "BookSim's port-level wavefront allocator", "", false,
       make_plain<WavefrontAllocator>},
      {RtlSeparableAllocator::kName, "the Verilated RTL of round_robin, hw/router/rtl", "", true,
       make_plain<RtlSeparableAllocator>},
  };
  return kinds;
}

const AllocatorKind* find_allocator_kind(const std::string& name) {
  for (const AllocatorKind& k : allocator_kinds())
    if (name == k.name) return &k;
  return nullptr;
}

std::unique_ptr<Allocator> make_allocator(const std::string& name, int inputs, int vcs, int outputs,
                                          bool shared_rounds, int islip_iterations) {
  const AllocatorKind* kind = find_allocator_kind(name);
  return kind ? kind->make(inputs, vcs, outputs, AllocatorKnobs{shared_rounds, islip_iterations}) : nullptr;
}

const std::vector<std::string>& allocator_names() {
  static const std::vector<std::string> names = names_where(false);
  return names;
}

const std::vector<std::string>& rtl_allocator_names() {
  static const std::vector<std::string> names = names_where(true);
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
