// `kairo check ... --processes N`: the partition, as docs/parallel.md shows it.
#include "app/cmd_partition.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <iostream>
#include <stdexcept>

#include "platforms/partition.h"

namespace kairo::app {

namespace {
std::string ns(sim::Time ps) { return fmt::format("{}ns", double(ps) / 1000.0); }
}  // namespace

platforms::Partition make_partition(const platforms::Platform& p, long long processes,
                                    const std::string& method) {
  const platforms::PartitionMethod asked = platforms::parse_partition_method(method);
  if (processes < 1 || processes > INT_MAX)
    throw std::invalid_argument(
        fmt::format("--processes: expected 1 to {} processes, got {}", INT_MAX, processes));
  return platforms::partition_platform(p, int(processes), asked);
}

void print_partition(const platforms::Platform& p, const platforms::Partition& r, const std::string& method) {
  std::cout << fmt::format("  partition  {} over {} processes (--partition {})\n",
                           platforms::partition_method_name(r.method), r.processes, method);
  if (!r.blocks.empty()) {
    std::string b;
    for (std::size_t d = 0; d < r.blocks.size(); ++d)
      b += fmt::format("{}{} {}", b.empty() ? "" : ", ", p.dims[d].name, r.blocks[d]);
    std::cout << fmt::format("  blocks     {}\n", b);
  }
  std::string cut;
  for (std::size_t c = 0; c < r.classes.size(); ++c)
    if (r.cut_per_class[c])
      cut += fmt::format("{}{} {}", cut.empty() ? "" : ", ", r.classes[c], r.cut_per_class[c]);
  std::cout << fmt::format("  cut        {} cables{}\n", r.cut.size(), cut.empty() ? "" : " (" + cut + ")");
  if (r.optical_lookahead)
    std::cout << fmt::format(
        "  lookahead  {} (ocs.latency: optical pathways may join nodes of two processes)\n",
        ns(r.lookahead_ps));
  else
    std::cout << fmt::format(
        "  lookahead  {} (the smallest cut cable's latency + the hop's fixed part {}: min(pipeline + "
        "traversal, traversal + credit delay))\n",
        r.cut.empty() ? std::string("infinite: nothing is cut") : ns(r.lookahead_ps), ns(r.hop_fixed_ps));
  auto row = [](const std::string& who, const platforms::PartitionLoad& l) {
    std::cout << fmt::format("  {:>9}  {:>8} {:>8} {:>10}\n", who, l.routers, l.hosts, l.weight);
  };
  std::cout << fmt::format("  {:>9}  {:>8} {:>8} {:>10}\n", "process", "routers", "hosts", "weight");
  if (r.parts.size() <= 64) {
    for (std::size_t i = 0; i < r.parts.size(); ++i) row(std::to_string(i), r.parts[i]);
  } else {  // the lightest and the heaviest
    auto by_weight = [](const auto& a, const auto& b) { return a.weight < b.weight; };
    const auto lo = std::min_element(r.parts.begin(), r.parts.end(), by_weight);
    const auto hi = std::max_element(r.parts.begin(), r.parts.end(), by_weight);
    row(fmt::format("min {}", lo - r.parts.begin()), *lo);
    row(fmt::format("max {}", hi - r.parts.begin()), *hi);
  }
  std::cout << fmt::format(
      "  imbalance  {:.4f} (the largest weight over the mean; weight = router-to-router ports + host "
      "network interfaces)\n",
      r.imbalance);
  if (!r.note.empty()) std::cout << fmt::format("  note       {}\n", r.note);
}

}  // namespace kairo::app
