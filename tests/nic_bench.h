// A test bench: a mesh/torus platform with a node memory, a registration
// table and one RDMA engine per network interface on every node, driven by
// the event queue directly; plus the network timing formula the tests use.
#pragma once
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "hw/nic/tni.h"
#include "platforms/platform.h"
#include "platforms/torus_netlist.h"

namespace kairo::test {

using router::NodeId;
using sim::Time;
using namespace kairo::nic;

struct NicBench {
  explicit NicBench(const platforms::Platform& p, TniParams tp = {}, bool data = true)
      : plat(p), queue(p.router.clock_period_ps()), net(p, queue), params(tp) {
    TniContext ctx;
    ctx.queue = &queue;
    ctx.topo = &net.topology();
    ctx.wires = &wires;
    ctx.clock = net.config().clock;
    ctx.flit_bytes = std::uint32_t(p.router.flit_bytes);
    ctx.nodes = std::uint32_t(net.num_nodes());
    ctx.tnis = std::uint32_t(net.network_interfaces());
    ctx.data = data;
    for (NodeId n = 0; n < net.num_nodes(); ++n) {
      NodeMemory::Params mp;
      mp.size_bytes = std::uint64_t(1) << 32;
      mp.mode = data ? MemoryMode::kData : MemoryMode::kSizeOnly;
      memories.push_back(std::make_unique<NodeMemory>(("mem_" + std::to_string(n)).c_str(), mp));
      registries.push_back(std::make_unique<MemoryRegistry>(64));
      for (int i = 0; i < net.network_interfaces(); ++i) {
        tnis.push_back(std::make_unique<Tni>(ctx, tp, n, i, net.endpoint(n, i), *memories.back(), *registries.back(),
                                             pool));
        net.endpoint(n, i).set_client(tnis.back().get());
      }
    }
  }
  Tni& tni(NodeId n, int i = 0) { return *tnis[std::size_t(n) * net.network_interfaces() + i]; }
  void write(NodeId n, std::uint64_t addr, const std::vector<unsigned char>& bytes) {
    tlm::tlm_generic_payload t;
    t.set_command(tlm::TLM_WRITE_COMMAND);
    t.set_address(addr);
    t.set_data_ptr(const_cast<unsigned char*>(bytes.data()));
    t.set_data_length(unsigned(bytes.size()));
    t.set_streaming_width(unsigned(bytes.size()));
    memories[n]->transport_dbg(t);
  }
  std::vector<unsigned char> read(NodeId n, std::uint64_t addr, std::size_t len) {
    std::vector<unsigned char> out(len);
    tlm::tlm_generic_payload t;
    t.set_command(tlm::TLM_READ_COMMAND);
    t.set_address(addr);
    t.set_data_ptr(out.data());
    t.set_data_length(unsigned(len));
    t.set_streaming_width(unsigned(len));
    memories[n]->transport_dbg(t);
    return out;
  }

  platforms::Platform plat;
  sim::EventQueue queue;
  platforms::TorusNetlist net;
  TniParams params;
  WirePool wires;
  hw::PacketPool pool;
  std::vector<std::unique_ptr<NodeMemory>> memories;
  std::vector<std::unique_ptr<MemoryRegistry>> registries;
  std::vector<std::unique_ptr<Tni>> tnis;
};

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
  router::Topology topo(p.dims);
  const router::Coord a = topo.coord_of(src), b = topo.coord_of(dst);
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

inline Time dma_ps(double rate, std::uint64_t bytes) { return Time(std::ceil(double(bytes) * 1e12 / rate)); }

}  // namespace kairo::test
