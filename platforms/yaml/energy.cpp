// The `energy:` section: the technology and cost coefficients declared in
// hw/common/energy.cpp, read generically.
#include "platforms/yaml/reader.h"

namespace kairo::platforms::yaml {

void Reader::read_energy(const YAML::Node& n, hw::EnergyParams& p) {
  note("energy", n);
  if (!n.IsNull() && !n.IsMap())
    fail("energy",
         fmt::format("expected a mapping of technology and energy parameters, got {}", describe(n)));
  if (n.IsMap()) check_keys(n, "energy", section_keys("energy"));
  read_declared(n, hw::energy_param_decls(), p);
}

}  // namespace kairo::platforms::yaml
