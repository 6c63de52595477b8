// The `nic:` section: the declared keys (hw/nic/nic_params.cpp), read
// generically; the checks across them are the NIC's (nic_params.cpp).
#include "platforms/yaml/reader.h"

namespace kairo::platforms {
namespace yaml {

void Reader::read_nic(const YAML::Node& n, NicParams& p) {
  if (n.IsMap()) check_keys(n, "nic", section_keys("nic"));
  read_declared(n, nic::nic_param_decls(), p);
}

}  // namespace yaml

void check_nic_fits_router(const Platform& p) {
  if (auto problem = nic::fit_problem(p.nic, p.router.max_packet_flits, p.router.flit_bytes))
    throw ConfigError(fmt::format("{}: nic.mtu: {}", p.source, *problem));
}

}  // namespace kairo::platforms
