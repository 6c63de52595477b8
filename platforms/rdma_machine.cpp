#include "platforms/rdma_machine.h"

#include <string>

namespace kairo::platforms {

namespace {
const Platform& checked(const Platform& p) {
  check_nic_fits_router(p);  // the largest NIC packet must fit the router (ConfigError otherwise)
  return p;
}
}  // namespace

RdmaMachine::RdmaMachine(const Platform& p, sim::EventQueue& queue, bool data, const OwnedPart& part)
    : net_(build_network(checked(p), queue, part)) {
  const nic::NicParams& np = nic_ = p.nic;

  nic::TniContext& ctx = tni_ctx_;
  ctx.queue = &queue;
  ctx.wires = &wires_;
  ctx.clock = net_->clock();
  ctx.flit_bytes = std::uint32_t(p.router.flit_bytes);
  ctx.nodes = std::uint32_t(net_->num_nodes());
  ctx.tnis = std::uint32_t(net_->network_interfaces());
  ctx.data = data;
  ctx.atomics = &atomics_;

  nic::NodeMemory::Params mp;
  mp.size_bytes = np.memory_bytes;
  mp.mode = data ? nic::MemoryMode::kData : nic::MemoryMode::kSizeOnly;
  mp.access_latency = sc_core::sc_time::from_value(np.memory_latency_ps);
  mp.bandwidth_bytes_per_s = np.memory_bytes_per_s;
  const std::size_t per = std::size_t(net_->network_interfaces());
  memories_.reserve(net_->num_nodes());
  registries_.reserve(net_->num_nodes());
  tnis_.reserve(net_->num_nodes() * per);
  for (hw::NodeId n = 0; n < net_->num_nodes(); ++n) {
    if (!net_->has_host(n)) {  // another process's node (a partial build)
      memories_.emplace_back();
      registries_.emplace_back();
      tnis_.resize(tnis_.size() + per);
      continue;
    }
    memories_.push_back(std::make_unique<nic::NodeMemory>(mp));
    registries_.push_back(std::make_unique<nic::MemoryRegistry>(np.registrations, np.memory_bytes));
    for (int i = 0; i < net_->network_interfaces(); ++i) {
      tnis_.push_back(std::make_unique<nic::Tni>(ctx, nic_, n, i, net_->endpoint(n, i), *memories_.back(),
                                                 *registries_.back(), pool_));
      net_->endpoint(n, i).set_client(tnis_.back().get(), /*consume_later=*/true);
      if (hw::CircuitGate* g = net_->gate(n, i)) tnis_.back()->set_gate(g);
    }
  }
}

void RdmaMachine::set_op_log(observe::OpLog* log) {
  tni_ctx_.log = log;
  for (hw::NodeId n = 0; n < registries_.size(); ++n)
    if (registries_[n]) registries_[n]->set_log(log, n);
}

void RdmaMachine::keep_until_exit() {
  keep_ = true;
  net_->keep_until_exit();
}

RdmaMachine::~RdmaMachine() {
  if (keep_)
    for (auto& m : memories_) (void)m.release();  // see TorusNetlist::keep_until_exit
}

}  // namespace kairo::platforms
