// The `ranks:` section: the node each rank runs on (the keys are declared in
// platforms/rank_params.cpp; ranks.map is read here, against the node count).
#include <algorithm>

#include "platforms/yaml/reader.h"

namespace kairo::platforms::yaml {

// ranks: {map: linear | random | [node, ...], seed: N}.
void Reader::read_ranks(const YAML::Node& root, Platform& pl) {
  auto ranks = child(root, "ranks");
  if (!ranks) return;
  note("ranks", *ranks);
  const char* expect = "a mapping {map: linear | random | [node ids], seed: N}";
  if (!ranks->IsMap()) fail("ranks", fmt::format("expected {}, got {}", expect, describe(*ranks)));
  check_keys(*ranks, "ranks", section_keys("ranks"));
  const std::uint64_t nodes = pl.nodes();
  read_fields(*ranks, "ranks", "ranks", declared_fields("ranks", typeid(Platform)), pl);
  const std::uint64_t seed = pl.ranks_seed;
  auto m = child(*ranks, "map");
  if (!m) return;
  note("ranks.map", *m);
  if (m->IsScalar() && m->Scalar() == "linear") return;
  if (m->IsScalar() && m->Scalar() == "random") {
    pl.ranks_random = true;
    pl.rank_nodes.resize(std::size_t(nodes));
    for (std::size_t i = 0; i < pl.rank_nodes.size(); ++i) pl.rank_nodes[i] = hw::NodeId(i);
    std::uint64_t x = seed;  // Fisher-Yates with splitmix64: the same permutation everywhere
    for (std::size_t i = pl.rank_nodes.size(); i > 1; --i) {
      std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      z ^= z >> 31;
      std::swap(pl.rank_nodes[i - 1], pl.rank_nodes[std::size_t(z % i)]);
    }
    return;
  }
  if (!m->IsSequence() || m->size() == 0)
    fail("ranks.map",
         fmt::format("expected linear, random or a list of node ids (one per rank), got {}", describe(*m)));
  std::vector<bool> used(std::size_t(nodes), false);
  for (std::size_t r = 0; r < m->size(); ++r) {
    const std::string at = fmt::format("ranks.map[{}]", r);
    const auto n = std::uint64_t(
        read_int((*m)[r], at, 0, fmt::format("the node rank {} runs on", r), (long long)nodes - 1));
    if (used[std::size_t(n)])
      fail(at, fmt::format("expected a node no other rank runs on, got node {} again", n));
    used[std::size_t(n)] = true;
    pl.rank_nodes.push_back(hw::NodeId(n));
  }
}

}  // namespace kairo::platforms::yaml
