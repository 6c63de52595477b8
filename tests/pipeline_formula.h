// The router pipeline formula the tests compute their expectations from
// (hw/router/router.h, docs/traffic.md), written out hop by hop from the
// platform's parameters, independently of the simulator's code.
#pragma once
#include <algorithm>

#include "hw/common/topology.h"
#include "platforms/platform.h"

namespace kairo::test {

using hw::NodeId;
using sim::Time;

inline Time ceil_to(Time t, Time period) { return (t + period - 1) / period * period; }

// Tail arrival (exact) at dst's network interface of a packet of `flits`
// whose head starts onto src's injection channel at s: the pipeline formula
// of hw/router/router.h, hop by hop.
inline Time network(const platforms::Platform& p, Time s, int flits, NodeId src, NodeId dst) {
  const auto& r = p.router;
  const Time period = r.clock_period_ps();
  const Time pipe = period * Time(r.routing_cycles + r.vc_alloc_cycles + r.sw_alloc_cycles);
  const Time st = period * Time(r.switch_traversal_cycles);
  const Time f = r.flit_ps(), hf = r.host_flit_ps(), hl = r.host_latency_ps;
  hw::Topology topo(p.dims);
  const hw::Coord a = topo.coord_of(src), b = topo.coord_of(dst);
  Time head = ceil_to(s + hf + hl, period), tail = s + Time(flits) * hf + hl;
  for (int d = 0; d < topo.num_dims(); ++d)
    for (int k = 0; k < topo.dim_hops(d, a[d], b[d]); ++k) {
      const Time start = head + pipe + st;
      const Time tail_leaves = std::max(start + Time(flits) * f, tail + f);
      head = ceil_to(start + f + r.cable_ps[d], period);
      tail = tail_leaves + r.cable_ps[d];
    }
  const Time start = head + pipe + st;
  return std::max(start + Time(flits) * hf, tail + hf) + hl;
}

// Flits of a packet carrying `payload` bytes behind the platform's NIC
// header (a header-only packet, payload 0, still takes its header's flits).
inline int packet_flits(const platforms::Platform& p, std::uint64_t payload) {
  const std::uint64_t bytes = p.nic.header_bytes + payload, flit = std::uint64_t(p.router.flit_bytes);
  return int(std::max<std::uint64_t>(1, (bytes + flit - 1) / flit));
}

}  // namespace kairo::test
