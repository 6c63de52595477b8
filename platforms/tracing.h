// Which parts of a machine go into a waveform (`kairo run --vcd/--fst` with
// --trace-* options), and the probes that record them (sim/trace.h). With no
// trace file nothing here exists and no component carries a probe.
//
// Selection (every given criterion must hold; an empty one selects all):
//   nodes ..... node ids ("0,5,17" or ranges "0-15"); on a switched fabric
//               they select hosts (their NICs)
//   box ....... a coordinate box on a mesh/torus ("X=0:3,Y=1": X from 0 to
//               3, Y = 1, other dimensions any)
//   switches .. switch names on a switched fabric ("edge0,spine1"); default
//               all switches
//   dims ...... router ports by dimension ("X,Z", "ni" for the network
//               interface ports; switch ports "ni" (hosts), "up", "down", "wan")
//   tnis ...... TNI indices of the selected nodes
//   classes ... signal classes (default all but credit): link (busy, pkt,
//               vc, credit_stall), credit (vcN_credits per output VC), vc
//               (input VC occupancy), tni (queue depth, DMA, counts), ocs
//               (hybrid platforms: each selected node's optical port, its
//               circuit `state` 0 dark / 1 setting up / 2 up / 3 tearing
//               down, and `peer`, the port it leads to plus one), rtl (a
//               traced router whose allocator is the Verilated RTL: its
//               wires under <router>.alloc)
//
// The tracer parses the selection and walks the blocks registered for
// tracing (platforms/observe_blocks.h): each kind attaches its own probes and
// declares its own signals (hw/*/..._observe.h); the tracer names none.
#pragma once
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "observe/registry.h"
#include "platforms/network.h"
#include "platforms/rdma_machine.h"
#include "sim/trace.h"

namespace kairo::platforms {

// "0,5,17" or "0-15,32": the set of ids, each below `limit`; throws
// std::invalid_argument naming `option` otherwise.
std::set<std::uint64_t> id_set(const std::string& option, const std::string& text, std::uint64_t limit);

struct TraceSelection {
  std::string nodes, box, switches, dims, tnis, classes;  // as given on the command line; empty: all
};

class Tracer {
 public:
  // Throws std::invalid_argument naming the option on a bad selection or one
  // that selects nothing. `machine` may be null (traffic runs: no NICs).
  Tracer(Network& net, RdmaMachine* machine, const TraceSelection& sel, sim::Trace& trace);
  ~Tracer();
  // Per kind that counts its traced blocks (TraceSet::counted_as), how many
  // are traced: {"routers", 4}, {"tnis", 0}.
  const std::vector<std::pair<std::string, std::size_t>>& traced() const { return traced_; }

 private:
  std::vector<std::pair<std::string, std::size_t>> traced_;
  // In attachment order; destroyed, each detaches its block.
  std::vector<std::unique_ptr<observe::Recording>> recordings_;
};

}  // namespace kairo::platforms
