// The parameter table: every key a platform file takes, each declared once
// beside what it configures: the platform's own keys (name and topology:
// platforms/topology_params.cpp; links: link_params.cpp; ranks:
// rank_params.cpp) and the blocks' (router, ocs, nic: beside their models).
// `kairo --list-params` prints it and docs/parameters.md's table is
// generated from it (tools/gen_params.sh).
#include <fmt/format.h>

#include <string_view>

#include "platforms/platform.h"
#include "platforms/rank_params.h"
#include "platforms/topology_params.h"

namespace kairo::platforms {

namespace {

std::string cell(std::string s) {
  for (std::size_t i = 0; (i = s.find('|', i)) != std::string::npos; i += 2) s.insert(i, "\\");
  return s;
}

}  // namespace

const std::vector<ParamInfo>& param_table() {
  static const std::vector<ParamInfo> table = [] {
    std::vector<ParamInfo> t;
    auto add = [&t](const std::vector<ParamInfo>& keys) { t.insert(t.end(), keys.begin(), keys.end()); };
    add(topology_param_decls());
    add(router::router_param_decls());
    add(link_param_decls());
    add(rank_param_decls());
    add(ocs::ocs_param_decls());
    add(nic::nic_param_decls());
    add(hw::energy_param_decls());
    return t;
  }();
  return table;
}

const std::vector<const ParamInfo*>& declared_keys() {
  static const std::vector<const ParamInfo*> keys = [] {
    const std::vector<ParamInfo>& rows = param_table();
    auto parent = [](std::string_view key) { return key.substr(0, key.rfind('.')); };
    std::vector<std::string_view> parents;
    for (const ParamInfo& r : rows) parents.push_back(parent(r.key));
    // Each field goes after the last row beside it of its struct
    // (links.wan.buffer), else after its map's row (topology.fat_tree).
    std::vector<std::vector<const ParamInfo*>> after(rows.size());
    std::vector<const ParamInfo*> rest;
    for (const ParamInfo& f : topology_field_decls()) {
      const std::string_view pf = parent(f.key);
      std::size_t at = rows.size();
      for (std::size_t i = 0; i < rows.size(); ++i)
        if (rows[i].key == pf || (parents[i] == pf && *rows[i].owner == *f.owner)) at = i;
      (at < rows.size() ? after[at] : rest).push_back(&f);
    }
    std::vector<const ParamInfo*> k;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      k.push_back(&rows[i]);
      k.insert(k.end(), after[i].begin(), after[i].end());
    }
    k.insert(k.end(), rest.begin(), rest.end());
    return k;
  }();
  return keys;
}

std::string param_table_text() {
  std::string out;
  for (const ParamInfo& p : param_table())
    out += fmt::format("{:<32} {:<8} {:<14} {}\n", p.key, p.unit, p.deflt, p.doc);
  return out;
}

std::string param_table_markdown() {
  std::string out = "| Key | Unit | Default | Meaning |\n|---|---|---|---|\n";
  for (const ParamInfo& p : param_table())
    out += fmt::format("| `{}` | {} | {} | {} |\n", p.key, cell(p.unit), cell(p.deflt), cell(p.doc));
  return out;
}

}  // namespace kairo::platforms
