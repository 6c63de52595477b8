// A platform with its NICs: on every node a TLM node memory, a memory
// registration table and one RDMA engine (TNI) per network interface, bound
// to the network (mesh/torus routers or a switched fabric) through its
// endpoints. A pure netlist: it declares and binds, the behaviour lives in hw/.
// In a partitioned run it may build only the process's own nodes (OwnedPart).
#pragma once
#include <memory>
#include <vector>

#include "hw/nic/tni.h"
#include "platforms/network.h"

namespace kairo::platforms {

class RdmaMachine {
 public:
  // data: real bytes in node memories; otherwise size-only (identical timing).
  // part: what this process builds (default: everything); a switched fabric
  // is built whole, and so are its nodes.
  RdmaMachine(const Platform& platform, sim::EventQueue& queue, bool data, const OwnedPart& part = {});
  ~RdmaMachine();

  Network& network() { return *net_; }
  std::size_t nodes() const { return net_->num_nodes(); }
  int tnis_per_node() const { return net_->network_interfaces(); }
  // Whether node n was built here (always, but in a partial build); the
  // accessors below are for built nodes only.
  bool has_node(hw::NodeId n) const { return memories_[n] != nullptr; }
  nic::Tni& tni(hw::NodeId n, int i) {
    return *tnis_[std::size_t(n) * std::size_t(tnis_per_node()) + std::size_t(i)];
  }
  nic::NodeMemory& memory(hw::NodeId n) { return *memories_[n]; }
  nic::MemoryRegistry& registry(hw::NodeId n) { return *registries_[n]; }
  nic::NicParams tni_params() const { return nic_; }
  // What a partitioned run's boundary needs (platforms/boundary.h): the pool
  // the engines take packets from and give them back to, and their payloads as bytes.
  hw::PacketPool& packet_pool() { return pool_; }
  hw::PayloadCodec& payload_codec() { return codec_; }
  // See TorusNetlist::keep_until_exit.
  void keep_until_exit();
  // Every engine and registration table records its steps into `log` (null: none).
  void set_op_log(observe::OpLog* log);

 private:
  std::unique_ptr<Network> net_;
  nic::NicParams nic_;  // every engine's parameters (the platform's nic:), shared
  nic::TniContext tni_ctx_;
  nic::WirePool wires_;
  nic::AtomicLocks atomics_;
  nic::WireCodec codec_{wires_};
  hw::PacketPool pool_;
  std::vector<std::unique_ptr<nic::NodeMemory>> memories_;
  std::vector<std::unique_ptr<nic::MemoryRegistry>> registries_;
  std::vector<std::unique_ptr<nic::Tni>> tnis_;
  bool keep_ = false;
};

}  // namespace kairo::platforms
