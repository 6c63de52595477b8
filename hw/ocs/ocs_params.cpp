// The `ocs:` keys, declared once (sim/params.h), the checks across them,
// and the optical port map.
#include "hw/ocs/ocs_params.h"

#include <fmt/format.h>

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

std::optional<sim::ParamProblem> interfaces_problem(int network_interfaces) {
  if (network_interfaces == 1) return std::nullopt;
  return sim::ParamProblem{"router.network_interfaces",
                           "expected 1 with an ocs: section: the EPS NIC is TNI 0, the optical NIC TNI 1",
                           {"router.network_interfaces"},
                           "ocs"};
}

void fill_defaults(OcsParams& o) {
  const int nics = int(o.optical_nodes.size());
  if (o.middle_banks == 0) o.middle_banks = o.banks;
  if (o.switch_ports == 0) o.switch_ports = std::max(1, (nics + o.banks - 1) / o.banks);
}

std::optional<sim::ParamProblem> ocs_problem(const OcsParams& o, std::uint64_t packet_bytes) {
  const int nics = int(o.optical_nodes.size());
  if (o.switch_ports % o.banks != 0)
    return sim::ParamProblem{
        "",
        fmt::format(
            "expected ocs.banks ({}) to divide ocs.switch_ports ({}): each ingress bank has N/m fibres "
            "to each middle bank",
            o.banks, o.switch_ports),
        {"ocs.banks", "ocs.switch_ports"},
        "ocs"};
  // The Clos fabric numbers its ports in an int (hw/ocs/clos_fabric.cpp):
  // refused here, before anything is printed or built.
  for (const auto& [key, banks] :
       {std::pair{"ocs.banks", o.banks}, std::pair{"ocs.middle_banks", o.middle_banks}})
    if (std::int64_t(banks) * o.switch_ports > INT_MAX / 2)
      return sim::ParamProblem{
          key,
          fmt::format(
              "expected {} x ocs.switch_ports at most 2^30 (the fabric's ports are numbered in 31 bits), "
              "got {} x {}",
              key, banks, o.switch_ports),
          {key, "ocs.switch_ports"},
          "ocs"};
  if (std::int64_t(o.banks) * o.switch_ports < nics)
    return sim::ParamProblem{
        "",
        fmt::format("{} optical NICs need {} OCS ports; ocs.banks x ocs.switch_ports = {} x {} gives {}",
                    nics, nics, o.banks, o.switch_ports, o.banks * o.switch_ports),
        {"ocs.switch_ports", "ocs.banks", "ocs.optical_nics"},
        "ocs"};
  if (2 * std::int64_t(o.pathways) > nics)
    return sim::ParamProblem{
        "",
        fmt::format(
            "expected at most {} pathways: each takes the optical NICs of two nodes, and {} nodes have one",
            nics / 2, nics),
        {"ocs.pathways", "ocs.optical_nics"},
        "ocs.pathways"};
  if (o.buffer_bytes < packet_bytes)
    return sim::ParamProblem{"ocs.buffer",
                             fmt::format("expected at least one packet, router.max_packet_flits x "
                                         "router.flit_size = {}B, got {}B",
                                         packet_bytes, o.buffer_bytes)};
  return std::nullopt;
}

}  // namespace kairo::ocs
