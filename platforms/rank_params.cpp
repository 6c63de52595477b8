// The `ranks:` keys, declared once (sim/params.h). ranks.map is a shape (a
// word or a list of nodes), read by hand in platforms/yaml/ranks.cpp, which
// also checks it against the node count.
#include "platforms/rank_params.h"

#include <climits>

#include "platforms/platform.h"

namespace kairo::platforms {

const std::vector<sim::ParamDecl>& rank_param_decls() {
  static const std::vector<sim::ParamDecl> decls = [] {
    sim::ParamBlock<Platform> b("ranks");
    b.shape(
        "map", "name", "linear",
        "the node each rank runs on: linear (rank r on node r), random (a seeded permutation, ranks.seed) "
        "or an explicit list of distinct node ids, one per rank (fewer ranks than nodes allowed)");
    b.integer("seed", &Platform::ranks_seed, sim::ParamKind::kCount, 0, LLONG_MAX,
              "seed of ranks.map: random", "seed of ranks.map: random");
    return b.decls();
  }();
  return decls;
}

}  // namespace kairo::platforms
