#include "sw/workloads/blocks.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "sw/collectives/executor.h"
#include "sw/collectives/gather.h"
#include "sw/collectives/pieces.h"

namespace kairo::sw {

namespace {

enum class Kind { kScatter, kGather, kAllgather };

class Blocks final : public Workload {
 public:
  Blocks(Kind kind, Params& prm, const MachineInfo& m) : kind_(kind) {
    const std::vector<std::string> algos = kind == Kind::kScatter ? std::vector<std::string>{"linear"}
                                           : kind == Kind::kGather
                                               ? std::vector<std::string>{"linear", "limited"}
                                               : std::vector<std::string>{"ring", "recursive-doubling"};
    algo_ = algorithm_param(prm, algos);
    p_ = m.nodes;
    if (p_ < 2) throw std::invalid_argument("needs at least 2 ranks");
    size_ = prm.bytes("size", 32 * 1024, 1, m.platform->nic.max_descriptor_bytes);
    if (kind != Kind::kAllgather) root_ = int(prm.integer("root", 0, 0, p_ - 1));
    if (algo_ == "limited") streams_ = int(prm.integer("streams", 4, 1, p_ - 1));
    if (algo_ == "recursive-doubling" && !coll::is_pow2(p_))
      throw std::invalid_argument("--param algo=recursive-doubling needs a power-of-two rank count, got " +
                                  std::to_string(p_) + " ranks (algo=ring serves any)");
    region_ = std::uint64_t(p_) * size_;
    recv_base_ = recv_region_address(region_);
    end_.assign(std::size_t(p_), 0);
  }

  nlohmann::json params() const override {
    nlohmann::json j = {{"algo", algo_}, {"size", size_}};
    if (kind_ != Kind::kAllgather) j["root"] = root_;
    if (algo_ == "limited") j["streams"] = streams_;
    return j;
  }

  // Every rank allocates p blocks to send and p blocks (and a token) to
  // receive. Data mode writes: scatter, the root's p blocks and every rank's
  // own block; gather, every rank's block, the root's p blocks and the
  // tokens; allgather, every rank's p received blocks.
  Footprint footprint() const override {
    const double p = p_, size = double(size_), region = p * size;
    const double data = kind_ == Kind::kAllgather ? p * region
                        : kind_ == Kind::kScatter ? 2 * region
                                                  : 2 * region + p * double(coll::kTokenBytes);
    return {data, whole_bytes(collective_rank_bytes(region, region + double(coll::kTokenBytes)))};
  }

  void setup(HostMemory& m) override {
    switch (kind_) {
      case Kind::kScatter:  // the root's block j is rank j's pattern; the root keeps its own
        for (int j = 0; j < p_; ++j) fill_pattern(m, root_, std::uint64_t(j) * size_, size_, j);
        fill_pattern(m, root_, recv_base_, size_, root_);
        return;
      case Kind::kGather:
        for (int r = 0; r < p_; ++r) fill_pattern(m, r, 0, size_);
        fill_pattern(m, root_, recv_base_ + std::uint64_t(root_) * size_, size_, root_);
        return;
      case Kind::kAllgather:
        for (int r = 0; r < p_; ++r) fill_pattern(m, r, recv_base_ + std::uint64_t(r) * size_, size_, r);
        return;
    }
  }

  fw::Task program(fw::Rank& r) override {
    const coll::Buffers b = collective_buffers(r, region_, region_ + coll::kTokenBytes);
    co_await r.compute(kStart);
    coll::Schedule s;
    if (kind_ == Kind::kScatter)
      s = coll::scatter_linear(r.rank(), p_, root_, size_, 1);
    else if (kind_ == Kind::kAllgather && algo_ == "recursive-doubling")
      coll::allgather_doubling(s, coll::Group::range(r.rank(), 0, p_), coll::Parts{region_, p_},
                               coll::Buf::kRecv, 1, "allgather");
    else if (kind_ == Kind::kAllgather)
      s = coll::allgather_ring(r.rank(), p_, size_, 1);
    else if (algo_ == "limited")
      s = coll::gather_limited(r.rank(), p_, root_, size_, streams_, 1);
    else
      s = coll::gather_linear(r.rank(), p_, root_, size_, 1);
    co_await coll::run_schedule(r, s, b, &ok_);
    end_[std::size_t(r.rank())] = r.now();
  }

  void results(Results& v) override {
    v.latest(end_);
    v.all(ok_);
  }

  Outcome outcome(HostMemory* m) override {
    const double bytes = kind_ == Kind::kScatter ? double(size_) : double(region_);
    Outcome o = collective_outcome(end_, bytes, ok_);
    o.details = {{"ranks", p_}};
    if (m) {
      bool v = true;
      for (int r = 0; r < p_ && v; ++r)
        for (int j = 0; j < p_ && v; ++j) {
          if (kind_ == Kind::kScatter && j == 0) v = check_pattern(*m, r, recv_base_, r, size_);
          if (kind_ == Kind::kGather && r == root_)
            v = check_pattern(*m, r, recv_base_ + std::uint64_t(j) * size_, j, size_);
          if (kind_ == Kind::kAllgather)
            v = check_pattern(*m, r, recv_base_ + std::uint64_t(j) * size_, j, size_);
        }
      set_verified(o, v, "a block is not where the collective puts it");
    }
    return o;
  }

 private:
  Kind kind_;
  std::string algo_;
  int p_ = 0, root_ = 0, streams_ = 4;
  std::uint64_t size_ = 0, region_ = 0, recv_base_ = 0;
  std::vector<sim::Time> end_;
  bool ok_ = true;
};

}  // namespace

std::unique_ptr<Workload> make_scatter(Params& p, const MachineInfo& m) {
  return std::make_unique<Blocks>(Kind::kScatter, p, m);
}
std::unique_ptr<Workload> make_gather(Params& p, const MachineInfo& m) {
  return std::make_unique<Blocks>(Kind::kGather, p, m);
}
std::unique_ptr<Workload> make_allgather(Params& p, const MachineInfo& m) {
  return std::make_unique<Blocks>(Kind::kAllgather, p, m);
}

}  // namespace kairo::sw
