#include "sw/workloads/alltoall.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "sw/collectives/alltoall.h"
#include "sw/collectives/bounds.h"
#include "sw/collectives/executor.h"

namespace kairo::sw {

namespace {


// Byte i of the block rank `src` sends to rank `dst`.
unsigned char block_byte(int src, int dst, std::uint64_t i) {
  return static_cast<unsigned char>(i * 13 + std::uint64_t(src) * 29 + std::uint64_t(dst) * 71 + (i >> 9));
}

class Alltoall final : public Workload {
 public:
  Alltoall(Params& prm, const MachineInfo& m) : m_(m) {
    algo_ = algorithm_param(prm, coll::alltoall_algorithms());
    size_ = prm.bytes("size", 32 * 1024, 1, m.platform->nic.max_descriptor_bytes);
    p_ = m.nodes;
    if (p_ < 2) throw std::invalid_argument("alltoall: needs at least 2 ranks");
    region_ = std::uint64_t(p_) * size_;
    recv_base_ = recv_region_address(region_);
    end_.assign(std::size_t(p_), 0);
  }

  nlohmann::json params() const override { return {{"algo", algo_}, {"size", size_}}; }

  // Send region at 0, receive region at the next 4 KiB; the own block copied in place.
  void setup(HostMemory& m) override {
    std::vector<unsigned char> b(size_);
    for (int r = 0; r < p_; ++r)
      for (int d = 0; d < p_; ++d) {
        for (std::uint64_t i = 0; i < size_; ++i) b[i] = block_byte(r, d, i);
        m.write(r, std::uint64_t(d) * size_, b.data(), b.size());
        if (d == r) m.write(r, recv_base_ + std::uint64_t(r) * size_, b.data(), b.size());
      }
  }

  fw::Task program(fw::Rank& r) override {
    const coll::Buffers b = collective_buffers(r, region_, region_);
    co_await r.compute(kStart);
    const coll::Schedule s = coll::alltoall(algo_, r.rank(), p_, size_, 1);
    co_await coll::run_schedule(r, s, b, &ok_);
    end_[std::size_t(r.rank())] = r.now();
  }

  Outcome outcome(HostMemory* m) override {
    Outcome o = collective_outcome(end_, double(p_ - 1) * double(size_), ok_);
    o.details = {{"ranks", p_},
                 {"fastest_rank_ns", double(*std::min_element(end_.begin(), end_.end()) - kStart) / 1000.0},
                 {"steps", coll::alltoall(algo_, 0, p_, size_, 1).size()}};
    // Seed 000's formula (1) holds for an all-to-all among every node of a mesh/torus.
    if (auto lb = coll::alltoall_lower_bound_ns(*m_.platform, size_);
        lb && std::uint64_t(p_) == m_.platform->nodes() && m_.platform->rank_nodes.empty()) {
      o.details["lower_bound_ns"] = *lb;
      o.details["ratio_to_bound"] = o.latency_ns / *lb;
    }
    if (m) {
      std::vector<unsigned char> got(size_);
      bool v = true;
      for (int r = 0; r < p_ && v; ++r)
        for (int j = 0; j < p_ && v; ++j) {
          m->read(r, recv_base_ + std::uint64_t(j) * size_, got.data(), got.size());
          for (std::uint64_t i = 0; i < size_ && v; ++i) v = got[i] == block_byte(j, r, i);
        }
      set_verified(o, v, "a receive block does not hold what its sender addressed to it");
    }
    return o;
  }

 private:
  MachineInfo m_;
  std::string algo_;
  std::uint64_t size_ = 0, region_ = 0, recv_base_ = 0;
  int p_ = 0;
  std::vector<sim::Time> end_;
  bool ok_ = true;
};

}  // namespace

std::unique_ptr<Workload> make_alltoall(Params& p, const MachineInfo& m) {
  return std::make_unique<Alltoall>(p, m);
}

}  // namespace kairo::sw
