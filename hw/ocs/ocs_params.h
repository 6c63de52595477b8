// The optical circuit-switched network's parameters: the `ocs:` section of a
// platform (Takizawa et al. 2008's hybrid EPS+OCS machine, an OCS beside a fat tree).
// Every node with an optical NIC gets a second network interface (TNI 1)
// whose channel goes through the OCS. The keys are declared in ocs_params.cpp.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "sim/params.h"
#include "sim/time.h"

namespace kairo::ocs {

struct OcsParams {
  bool present = false;                        // the file has an `ocs:` section
  double bytes_per_s = 4e9;                    // ocs.bandwidth: "32Gbps" per optical link
  sim::Time latency_ps = 80000;                // ocs.latency: "80ns" propagation of a pathway
  sim::Time reconfiguration_ps = 10000000000;  // ocs.reconfiguration: "10ms" MEMS set-up or tear-down
  int switch_ports = 0;                        // ocs.switch_ports: N of each N x N bank; 0 = the optical NICs
  int banks = 1;                               // ocs.banks: m ingress (= egress) banks
  int middle_banks = 0;                        // ocs.middle_banks: 0 = banks (rearrangeably non-blocking)
  bool rearrange = true;                       // ocs.mode: rearrangeable | non_rearrangeable
  std::vector<std::uint32_t> optical_nodes;    // ocs.optical_nics: all | "0-7,32-39" | [0, 1, ...]
  int pathways = 0;                            // ocs.pathways: OCS pathways to assign (SP/CP)
  bool hold = true;                            // ocs.on_circuit_down: hold | error
  std::uint64_t buffer_bytes = 65536;          // ocs.buffer: receive buffer of an optical NIC
  std::uint64_t threshold_bytes = 8192;        // ocs.threshold: messages above it may take the OCS
  // The optical port of node n, or -1 when it has no optical NIC.
  int port_of(std::uint32_t n) const;
};

// The `ocs:` keys, in table order.
const std::vector<sim::ParamDecl>& ocs_param_decls();

// The checks across ocs keys and the router's, each the first that fails or
// nothing: one network interface per router beside an OCS (before the ocs
// keys are read); then, on the values read and fill_defaults', a Clos shape
// (ocs.banks divides ocs.switch_ports, enough ports for the optical NICs),
// pathways the optical NICs can take, and a receive buffer that holds the
// largest packet (router.max_packet_flits x router.flit_size bytes).
std::optional<sim::ParamProblem> interfaces_problem(int network_interfaces);
std::optional<sim::ParamProblem> ocs_problem(const OcsParams& o, std::uint64_t packet_bytes);
// The defaults that follow other keys: ocs.middle_banks = ocs.banks,
// ocs.switch_ports = the optical NICs over ocs.banks, rounded up.
void fill_defaults(OcsParams& o);

}  // namespace kairo::ocs
