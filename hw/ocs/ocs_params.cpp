// The `ocs:` keys, declared once (sim/params.h), and the optical port map.
#include "hw/ocs/ocs_params.h"

#include <algorithm>
#include <climits>

namespace kairo::ocs {

int OcsParams::port_of(std::uint32_t n) const {
  auto it = std::lower_bound(optical_nodes.begin(), optical_nodes.end(), n);
  return it != optical_nodes.end() && *it == n ? int(it - optical_nodes.begin()) : -1;
}

const std::vector<sim::ParamDecl>& ocs_param_decls() {
  using K = sim::ParamKind;
  using P = OcsParams;
  static const std::vector<sim::ParamDecl> decls = [] {
    sim::ParamBlock<P> b("ocs");
    b.rate("bandwidth", &P::bytes_per_s, "an optical link",
           "rate of an optical link (Takizawa et al. 2008: 32Gbps, PCIe x16)");
    b.duration("latency", &P::latency_ps, "a duration such as 80ns",
               "propagation delay of an optical pathway, end to end");
    b.duration("reconfiguration", &P::reconfiguration_ps, "a duration such as 10ms",
               "MEMS reconfiguration delay: a circuit set up, torn down or moved is dark this long");
    b.integer("switch_ports", &P::switch_ports, K::kCount, 1, INT_MAX, "ports per side of a MEMS bank",
              "N: ports per side of each N x N MEMS bank")
        .deflt = "= optical NICs";
    b.integer("banks", &P::banks, K::kCount, 1, INT_MAX, "ingress banks of the Clos fabric",
              "m: ingress (and egress) banks of the Clos fabric; m x N ports; m must divide N");
    b.integer("middle_banks", &P::middle_banks, K::kCount, 1, INT_MAX, "middle-stage banks",
              "middle-stage banks; fewer than ocs.banks is the cheaper, blocking build")
        .deflt = "= ocs.banks";
    b.name("mode", &P::rearrange, {{"rearrangeable", true}, {"non_rearrangeable", false}}, "",
           "rearrangeable (existing circuits may move, Paull) or non_rearrangeable (a request can fail)");
    b.shape("optical_nics", "list", "all",
            "nodes with an optical NIC (TNI 1): all, a range list \"0-7,32-39\" or [node, ...]");
    b.integer("pathways", &P::pathways, K::kCount, 0, INT_MAX, "OCS pathways",
              "OCS pathways (bidirectional circuits) to assign, SP or CP");
    b.name("on_circuit_down", &P::hold, {{"hold", true}, {"error", false}}, "",
           "an RDMA command to a node its circuit does not reach: hold (wait) or error (kCircuitDown)");
    b.bytes("buffer", &P::buffer_bytes, 0, UINT64_MAX, "a size such as 64KiB", "",
            "receive buffer of an optical NIC (end-to-end credits)");
    b.bytes("threshold", &P::threshold_bytes, 0, UINT64_MAX, "a size such as 8192B", "",
            "messages larger than this to another edge switch take the OCS (Takizawa et al. 2008 §3)");
    return b.decls();
  }();
  return decls;
}

}  // namespace kairo::ocs
