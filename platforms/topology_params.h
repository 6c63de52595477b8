// The platform's shape: its name and what a platform file sets under
// `topology:` (a mesh/torus's dimensions, a fat tree's or clusters' counts, a
// dragonfly's p, a, h and groups). The values live in Platform (dims) and
// SwitchedFabric; the keys are declared in topology_params.cpp, beside the
// checks that involve several of them.
#pragma once
#include <optional>
#include <vector>

#include "sim/params.h"

namespace kairo::platforms {

struct Platform;
struct SwitchedFabric;

// The form of p's network as sim::ParamDecl::only names it for router keys:
// "mesh/torus", "dragonfly", "fat_tree" or "clusters".
const char* network_form(const Platform& p);
// The form of p's topology.fat_tree as its keys' `only` names it:
// "two-level" or "k-ary".
const char* fat_tree_form(const Platform& p);

// The keys of the table's first rows: name, description and `topology:`.
const std::vector<sim::ParamDecl>& topology_param_decls();
// The counts inside topology.fat_tree and topology.clusters: declared like
// the rows (bounds, what they count), covered by their map's line of the table.
const std::vector<sim::ParamDecl>& topology_field_decls();

// The checks across a topology's keys, each the first that fails or nothing:
//  - a k-ary n-tree's radix and levels (after reading them);
//  - a dragonfly's groups against a x h + 1, and its host count;
//  - a switched fabric's switch ports (hosts x router.network_interfaces +
//    up links), a two-level fat tree's spines and uplinks, a dragonfly's VCs
//    per routing phase (on the platform as read, router included).
std::optional<sim::ParamProblem> kary_problem(const SwitchedFabric& f);
std::optional<sim::ParamProblem> dragonfly_problem(const SwitchedFabric& f);
std::optional<sim::ParamProblem> switched_problem(const Platform& p);

}  // namespace kairo::platforms
