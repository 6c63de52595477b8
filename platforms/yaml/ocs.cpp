// The `ocs:` section: the declared keys (hw/ocs/ocs_params.cpp), read
// generically, and the optical NICs' node list; the checks across them are
// the OCS's (ocs_params.cpp).
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "platforms/yaml/reader.h"

namespace kairo::platforms::yaml {

// ocs.optical_nics: all, "0-7,32-39", or [0, 1, ...]; sorted, distinct.
std::vector<std::uint32_t> Reader::read_node_list(const YAML::Node& n, const std::string& path,
                                                  std::uint64_t nodes) {
  note(path, n);
  const char* expect = "all, a range list such as \"0-7,32-39\" or a list of node ids";
  std::vector<std::uint64_t> ids;
  auto bad = [&](const std::string& what) { fail(path, fmt::format("expected {}; {}", expect, what)); };
  if (n.IsSequence()) {
    for (const YAML::Node& e : n) {
      std::uint64_t v = 0;
      if (!e.IsScalar() || !YAML::convert<std::uint64_t>::decode(e, v)) bad("got " + describe(e));
      ids.push_back(v);
    }
  } else if (n.IsScalar() && n.Scalar() == "all") {
    for (std::uint64_t i = 0; i < nodes; ++i) ids.push_back(i);
  } else if (n.IsScalar()) {
    std::stringstream ss(n.Scalar());
    for (std::string item; std::getline(ss, item, ',');) {
      unsigned long long a = 0, b = 0;
      char dash = 0, extra = 0;
      const int got = std::sscanf(item.c_str(), " %llu %c %llu %c", &a, &dash, &b, &extra);
      if (got == 1)
        b = a;
      else if (got != 3 || dash != '-' || b < a)
        bad(fmt::format("got '{}'", item));
      for (unsigned long long i = a; i <= b && i < a + nodes + 1; ++i) ids.push_back(i);
    }
  } else {
    bad("got " + describe(n));
  }
  std::sort(ids.begin(), ids.end());
  std::vector<std::uint32_t> out;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] >= nodes)
      fail(path, fmt::format("node {} does not exist; nodes are 0 to {}", ids[i], nodes - 1));
    if (i > 0 && ids[i] == ids[i - 1])
      fail(path, fmt::format(
                     "node {} is listed twice: a node has at most one optical NIC (Takizawa et al. 2008 §2)",
                     ids[i]));
    out.push_back(std::uint32_t(ids[i]));
  }
  return out;
}

void Reader::read_ocs(const YAML::Node& n, Platform& pl) {
  note("ocs", n);
  if (pl.kind != FabricKind::kFatTree || pl.fabric.levels > 0)
    fail("ocs", "only beside a two-level fat tree (topology.fat_tree with edges and hosts_per_edge)");
  if (!n.IsMap()) fail("ocs", fmt::format("expected a mapping of OCS parameters, got {}", describe(n)));
  check_keys(n, "ocs", section_keys("ocs"));
  report(ocs::interfaces_problem(pl.router.network_interfaces));
  OcsParams& o = pl.ocs;
  o.present = true;
  read_declared(n, ocs::ocs_param_decls(), o);
  const std::uint64_t nodes = pl.nodes();
  if (auto v = child(n, "optical_nics"))
    o.optical_nodes = read_node_list(*v, "ocs.optical_nics", nodes);
  else
    for (std::uint64_t i = 0; i < nodes; ++i) o.optical_nodes.push_back(std::uint32_t(i));
  ocs::fill_defaults(o);
  report(
      ocs::ocs_problem(o, std::uint64_t(pl.router.max_packet_flits) * std::uint64_t(pl.router.flit_bytes)));
}

}  // namespace kairo::platforms::yaml
