// The `energy:` keys, declared once (sim/params.h), and the cost model of
// hw/common/energy.h. The coefficients below are least-squares fits (relative
// error) to DSENT's router at bulk 45 nm LVT, 1.0 V, timed at 1 GHz, over 30
// shapes: 5 and 7 ports, 32/64/128-bit flits, 1x4 to 8x8 VCs x buffers
// (bench/data/dsent_45nm.csv; the fits' worst errors are in docs/energy.md).
#include "hw/common/energy.h"

#include <cmath>
#include <string>

namespace kairo::hw {

namespace {

// The reference technology of the fits.
constexpr double kRefNodeNm = 45, kRefVdd = 1.0;

// Energies scale with switched capacitance (the feature size) and the
// square of the supply; areas with the square of the feature size; leakage
// with the supply and, in DSENT's bulk LVT models from 45 to 22 nm, about
// the square root of the feature size.
struct Scale {
  double dynamic, area, leakage;
};
Scale scale_of(const EnergyParams& e) {
  const double s = e.node_nm / kRefNodeNm, v = e.vdd / kRefVdd;
  return {s * v * v, s * s, std::sqrt(s) * v};
}

// Priority bits of a matrix arbiter among n requesters: n (n - 1) / 2.
double pairs(int n) { return double(n) * double(n - 1) / 2; }

double given_or(double given, double derived) { return given >= 0 ? given : derived; }

}  // namespace

const std::vector<sim::ParamDecl>& energy_param_decls() {
  using P = EnergyParams;
  // One row per key: its member, its bounds (`from_zero`: 0 allowed), its
  // unit, what a message calls its value, and its doc line. `derived`: left
  // unset, the model computes it ("= model").
  struct Row {
    const char* key;
    double P::*member;
    double max;
    bool from_zero, derived;
    const char *unit, *what, *doc;
  };
  static const Row kRows[] = {
      {"node", &P::node_nm, 1000, false, false, "nm", "the process's feature size in nm",
       "process node; energies scale with it, areas with its square"},
      {"vdd", &P::vdd, 5, false, false, "V", "the supply in volts",
       "supply voltage; energies scale with its square"},
      {"wire_capacitance", &P::wire_ff_per_mm, 10000, false, false, "fF/mm", "fF per mm of wire",
       "capacitance of a router-to-router wire per mm, repeaters included (DSENT 45 nm global wire: 157)"},
      {"link_length", &P::link_length_mm, 1e6, false, false, "mm", "mm of wire between two routers",
       "length of a router-to-router link; its energy per flit grows with it"},
      {"buffer_write", &P::buffer_write_pj, 1e6, true, true, "pJ", "pJ per flit",
       "energy of a flit written into an input buffer"},
      {"buffer_read", &P::buffer_read_pj, 1e6, true, true, "pJ", "pJ per flit",
       "energy of a flit read out of an input buffer"},
      {"crossbar", &P::crossbar_pj, 1e6, true, true, "pJ", "pJ per flit",
       "energy of a flit through the crossbar"},
      {"arbitration", &P::arbitration_pj, 1e6, true, true, "pJ", "pJ per packet and hop",
       "energy of a packet's switch allocation (its input's and its output's arbiters)"},
      {"vc_allocation", &P::vc_allocation_pj, 1e6, true, true, "pJ", "pJ per packet and hop",
       "energy of a head's VC allocation (its input VC's arbiter and the output VC's)"},
      {"routing", &P::routing_pj, 1e6, true, false, "pJ", "pJ per packet and hop",
       "energy of a head's route computation (none in DSENT's router)"},
      {"clock", &P::clock_pj, 1e6, true, true, "pJ", "pJ per router cycle",
       "energy of a router's clock tree and pipeline registers per cycle, busy or idle"},
      {"router_leakage", &P::router_leakage_mw, 1e6, true, true, "mW", "mW per router",
       "static power of a router (buffers, crossbar, allocators)"},
      {"link", &P::link_pj_per_mm, 1e6, true, true, "pJ/mm", "pJ per flit and mm",
       "energy of a flit over 1 mm of link; = flit bits x wire_capacitance x vdd^2 / 4"},
      {"dma", &P::dma_pj_per_byte, 1e6, true, false, "pJ", "pJ per byte",
       "NIC DMA energy per byte read from or written to node memory (Horowitz 2014: 1.3 nJ per 64 bits)"},
      {"nic_command", &P::command_pj, 1e9, true, false, "pJ", "pJ per command",
       "NIC energy per command: its 64-byte descriptor read from node memory"},
      {"ocs_port", &P::ocs_port_w, 1000, true, false, "W", "W per port",
       "static power of an optical circuit switch port (Farrington et al. 2010: 0.24 W)"},
      {"ocs_reconfiguration", &P::ocs_reconfiguration_uj, 1e7, true, false, "uJ", "uJ per circuit change",
       "energy of moving a MEMS mirror pair for one circuit set up or torn down"},
  };
  static const std::vector<sim::ParamDecl> decls = [] {
    sim::ParamBlock<P> b("energy");
    for (const Row& r : kRows) {
      sim::ParamDecl& d = b.real(r.key, r.member, r.key == std::string("node") ? 1 : 0, r.max, r.what, r.doc);
      d.unit = r.unit;
      d.min_inclusive = r.from_zero;
      if (r.derived) d.deflt = "= model";
    }
    return b.decls();
  }();
  return decls;
}

RouterCost router_cost(const EnergyParams& e, const RouterShape& s) {
  const Scale k = scale_of(e);
  const double p = s.ports, w = s.flit_bits, n = double(s.vcs) * s.buffer_flits;
  const double arbiter_bits = pairs(s.vcs) + pairs(s.ports);            // one input and one output arbiter
  const double allocator_bits = p * pairs(s.ports) + p * pairs(s.vcs);  // all of them
  // A separable VC allocator (Peh and Dally 2001) of the same matrix arbiters:
  // per input VC one over the V VCs of its output, per output VC one over
  // the P x V input VCs; a head wakes one of each.
  const int input_vcs = s.ports * s.vcs;
  const double vc_head_bits = pairs(s.vcs) + pairs(input_vcs);
  const double vc_allocator_bits = double(input_vcs) * (pairs(s.vcs) + pairs(input_vcs));
  RouterCost c;
  c.write_pj = given_or(e.buffer_write_pj, k.dynamic * w * (0.013672 + 0.0015069 * n));
  c.read_pj = given_or(e.buffer_read_pj, k.dynamic * w * (0.0076242 + 0.0015791 * n));
  c.crossbar_pj = given_or(e.crossbar_pj, k.dynamic * w * (0.0038833 + 0.0025887 * p));
  c.arbitration_pj = given_or(e.arbitration_pj, k.dynamic * 0.01295 * arbiter_bits);
  c.vc_allocation_pj = given_or(e.vc_allocation_pj, k.dynamic * 0.01295 * vc_head_bits);
  c.routing_pj = e.routing_pj;
  c.clock_pj = given_or(e.clock_pj, k.dynamic * (0.13721 + 0.0011315 * p * w + 3.7731e-6 * p * n * w));
  c.buffer_leak_w = k.leakage * 1e-3 * p * w * (0.003417 + 0.0023653 * n);
  c.crossbar_leak_w = k.leakage * 1e-3 * 0.00081927 * w * p * p;
  c.allocator_leak_w = k.leakage * 1e-3 * 0.0050199 * allocator_bits;
  c.vc_allocator_leak_w = k.leakage * 1e-3 * 0.0050199 * vc_allocator_bits;
  if (e.router_leakage_mw >= 0) {  // a given total, split as the model splits it
    const double f = e.router_leakage_mw * 1e-3 / c.leak_w();
    c.buffer_leak_w *= f, c.crossbar_leak_w *= f, c.allocator_leak_w *= f, c.vc_allocator_leak_w *= f;
  }
  c.buffer_um2 = k.area * p * w * (10.704 + 8.045 * n);
  c.crossbar_um2 = k.area * (1.5631 * p * p * w + 0.041415 * (p * w) * (p * w));
  c.allocator_um2 = k.area * 15.873 * allocator_bits;
  c.vc_allocator_um2 = k.area * 15.873 * vc_allocator_bits;
  return c;
}

LinkCost link_cost(const EnergyParams& e, int flit_bits) {
  // A bit toggles with probability 1/2 on random data, and each toggle
  // draws C V^2 / 2 from the supply: C V^2 / 4 per bit and mm.
  const double per_mm = given_or(e.link_pj_per_mm, flit_bits * e.wire_ff_per_mm * 1e-3 * e.vdd * e.vdd / 4);
  // DSENT's repeated 45 nm global link leaks 0.433 uW per bit.
  return {per_mm * e.link_length_mm, scale_of(e).leakage * 0.433e-6 * flit_bits};
}

}  // namespace kairo::hw
