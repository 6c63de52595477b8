// Where the ranks run: what a platform file sets under `ranks:`. The values
// live in Platform (rank_nodes, ranks_random, ranks_seed); the keys are
// declared in rank_params.cpp.
#pragma once
#include <vector>

#include "sim/params.h"

namespace kairo::platforms {

// The `ranks:` keys, in table order.
const std::vector<sim::ParamDecl>& rank_param_decls();

}  // namespace kairo::platforms
