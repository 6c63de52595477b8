// A small test bench around a mesh/torus netlist: inject chosen packets at
// chosen times and record when each tail arrives. Drives the event queue
// directly (no sc_start), so one test process can build many networks.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "hw/common/endpoint.h"
#include "platforms/platform.h"
#include "platforms/torus_netlist.h"

namespace kairo::test {

struct Delivery {
  std::uint64_t id;
  hw::NodeId src, dst;
  sim::Time created_ps, injected_ps, delivered_ps;  // delivered = tail arrival, on the clock
  int hops;
};

class NetBench : public hw::EndpointClient, public sim::EventTarget {
 public:
  explicit NetBench(const platforms::Platform& p) : queue_(p.router.clock_period_ps()), net_(p, queue_) {
    for (hw::NodeId n = 0; n < net_.num_nodes(); ++n)
      for (int ni = 0; ni < net_.network_interfaces(); ++ni) net_.endpoint(n, ni).set_client(this);
  }

  // Queue a packet at `src` (network interface `ni`) to be created at time t.
  void send(hw::NodeId src, hw::NodeId dst, int flits, sim::Time t, int ni = 0) {
    auto* p = pool_.get();
    p->id = next_id_++;
    p->src = src;
    p->dst = dst;
    p->flits = std::uint16_t(flits);
    p->bytes = std::uint32_t(flits * net_.config().flit_bytes);
    p->created_ps = t;
    p->src_ni = std::uint16_t(ni);
    p->dst_ni = std::uint16_t(ni);
    queue_.at(t, sim::kPrioState, this, 0, 0, p);
  }

  void run() { queue_.run_direct(); }

  // EventTarget: a packet's creation time has come; it joins its source queue.
  void on_event(std::uint32_t, std::uint32_t, void* ptr) override {
    auto* p = static_cast<hw::Packet*>(ptr);
    pending_[{p->src, p->src_ni}].push(p);
    try_send(p->src, p->src_ni);
  }
  void on_packet(int, hw::Packet* p) override {
    deliveries_.push_back(Delivery{p->id, p->src, p->dst, p->created_ps, p->injected_ps,
                                   net_.config().clock.ceil(p->tail_ps), p->hops});
    pool_.put(p);
  }
  void on_send_ready(int) override {
    for (auto& [key, q] : pending_) try_send(key.first, key.second);
  }

  const std::vector<Delivery>& deliveries() const { return deliveries_; }
  sim::EventQueue& queue() { return queue_; }
  platforms::TorusNetlist& net() { return net_; }

 private:
  void try_send(hw::NodeId n, int ni) {
    auto& q = pending_[{n, ni}];
    hw::Endpoint& e = net_.endpoint(n, ni);
    while (!q.empty() && e.can_send(q.head->flits)) e.send(q.pop());
  }

  sim::EventQueue queue_;
  platforms::TorusNetlist net_;
  hw::PacketPool pool_;
  std::map<std::pair<hw::NodeId, int>, hw::PacketFifo> pending_;
  std::vector<Delivery> deliveries_;
  std::uint64_t next_id_ = 0;
};

}  // namespace kairo::test
