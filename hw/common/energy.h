// What the hardware costs: energy per event, static power and area of a
// router, of a link, of a NIC's DMA and of an optical circuit switch, from a
// technology (process node, supply voltage, wire capacitance) and the block's
// shape (ports, VCs, buffer depth, flit width). docs/energy.md gives the
// equations and their sources.
//
// The router's per-event energies, leakage and areas follow DSENT's
// electrical router (Sun et al. 2012: DFF-RAM input buffers, a multiplexer
// crossbar, a separable switch allocator of matrix arbiters, a broadcast
// H-tree clock), fitted at its bulk 45 nm LVT technology
// (bench/dsent_reference.py, bench/data/dsent_45nm.csv) and scaled to other
// nodes and supplies by the usual rules (dynamic energy with C V^2, C with
// the feature size; area with its square). Every derived coefficient can be
// given directly by an `energy.*` key instead, so that another tool's table
// (Noxim's power.yaml, an ORION run) can be used as is.
//
// Read once when a platform is loaded and once when a run reports; nothing
// here is on a simulation path.
#pragma once
#include <vector>

#include "sim/params.h"

namespace kairo::hw {

// The `energy:` section. A coefficient left at kFromModel is derived from the
// technology keys; a value given replaces the derivation.
struct EnergyParams {
  static constexpr double kFromModel = -1;
  // Technology.
  double node_nm = 45;          // energy.node
  double vdd = 1.0;             // energy.vdd
  double wire_ff_per_mm = 157;  // energy.wire_capacitance: effective, repeaters included
  double link_length_mm = 1.0;  // energy.link_length: router-to-router wire
  // Router, per event (pJ) and per cycle (pJ), and leakage (mW per router).
  double buffer_write_pj = kFromModel;    // energy.buffer_write: a flit into an input buffer
  double buffer_read_pj = kFromModel;     // energy.buffer_read: a flit out of it
  double crossbar_pj = kFromModel;        // energy.crossbar: a flit through the crossbar
  double arbitration_pj = kFromModel;     // energy.arbitration: a packet's switch allocation
  double vc_allocation_pj = kFromModel;   // energy.vc_allocation: a head's VC allocation
  double routing_pj = 0;                  // energy.routing: a head's route computation
  double clock_pj = kFromModel;           // energy.clock: the clock tree, per router cycle
  double router_leakage_mw = kFromModel;  // energy.router_leakage: the whole router
  // Link, per flit per mm (pJ).
  double link_pj_per_mm = kFromModel;  // energy.link
  // NIC (pJ): DMA per byte moved to or from node memory, per command.
  double dma_pj_per_byte = 162.5;  // energy.dma: Horowitz 2014, 1.3 nJ per 64-bit DRAM access
  double command_pj = 10400;       // energy.nic_command: a 64-byte descriptor read from DRAM
  // Optical circuit switch.
  double ocs_port_w = 0.24;              // energy.ocs_port: static, per port (Farrington et al. 2010)
  double ocs_reconfiguration_uj = 0.05;  // energy.ocs_reconfiguration: per circuit set up or torn down
};

const std::vector<sim::ParamDecl>& energy_param_decls();

// A router's shape, as the model sees it.
struct RouterShape {
  int ports = 5;         // input = output ports, network interfaces included
  int vcs = 1;           // per port
  int buffer_flits = 4;  // per VC
  int flit_bits = 64;
};

// Dynamic energies (pJ per event), static power (W) and area (um^2) of one
// router, by component class.
struct RouterCost {
  double write_pj = 0, read_pj = 0, crossbar_pj = 0, arbitration_pj = 0, vc_allocation_pj = 0, routing_pj = 0,
         clock_pj = 0;
  // allocator: the switch allocator (DSENT's); vc_allocator: the VC allocator beside it
  double buffer_leak_w = 0, crossbar_leak_w = 0, allocator_leak_w = 0, vc_allocator_leak_w = 0;
  double buffer_um2 = 0, crossbar_um2 = 0, allocator_um2 = 0, vc_allocator_um2 = 0;
  double leak_w() const { return buffer_leak_w + crossbar_leak_w + allocator_leak_w + vc_allocator_leak_w; }
  double area_um2() const { return buffer_um2 + crossbar_um2 + allocator_um2 + vc_allocator_um2; }
};
RouterCost router_cost(const EnergyParams& e, const RouterShape& s);

// A link's energy per flit (pJ) and its leakage (W), for flits of `flit_bits`.
struct LinkCost {
  double flit_pj = 0, leak_w = 0;
};
LinkCost link_cost(const EnergyParams& e, int flit_bits);

}  // namespace kairo::hw
