// A test bench: the platform with its NICs (platforms::RdmaMachine) driven by
// the event queue directly, with memory access for checks; plus the network
// timing formula the tests use.
#pragma once
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "hw/nic/tni.h"
#include "platforms/platform.h"
#include "platforms/rdma_machine.h"
#include "platforms/torus_netlist.h"
#include "tests/pipeline_formula.h"

namespace kairo::test {

using hw::NodeId;
using sim::Time;
using namespace kairo::nic;

struct NicBench {
  explicit NicBench(const platforms::Platform& p, bool data = true)
      : plat(p), queue(p.router.clock_period_ps()), machine(p, queue, data), net(machine.network()) {
    for (NodeId n = 0; n < machine.nodes(); ++n) {
      registries.push_back(&machine.registry(n));
      for (int i = 0; i < machine.tnis_per_node(); ++i) tnis.push_back(&machine.tni(n, i));
    }
  }
  Tni& tni(NodeId n, int i = 0) { return machine.tni(n, i); }
  void write(NodeId n, std::uint64_t addr, const std::vector<unsigned char>& bytes) {
    tlm::tlm_generic_payload t;
    set_payload(t, tlm::TLM_WRITE_COMMAND, addr, const_cast<unsigned char*>(bytes.data()), bytes.size());
    machine.memory(n).transport_dbg(t);
  }
  std::vector<unsigned char> read(NodeId n, std::uint64_t addr, std::size_t len) {
    std::vector<unsigned char> out(len);
    tlm::tlm_generic_payload t;
    set_payload(t, tlm::TLM_READ_COMMAND, addr, out.data(), len);
    machine.memory(n).transport_dbg(t);
    return out;
  }

  platforms::Platform plat;
  sim::EventQueue queue;
  platforms::RdmaMachine machine;
  platforms::Network& net;
  std::vector<MemoryRegistry*> registries;
  std::vector<Tni*> tnis;
};

inline Time dma_ps(double rate, std::uint64_t bytes) { return Time(std::ceil(double(bytes) * 1e12 / rate)); }

}  // namespace kairo::test
