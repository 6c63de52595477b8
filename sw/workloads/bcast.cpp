#include "sw/workloads/bcast.h"

#include <algorithm>

#include "sw/collectives/bcast.h"
#include "sw/collectives/executor.h"

namespace kairo::sw {

namespace {

class Bcast final : public Workload {
 public:
  Bcast(Params& prm, const MachineInfo& m) {
    algo_ = algorithm_param(prm, coll::bcast_algorithms());
    p_ = m.nodes;
    if (p_ < 2) throw std::invalid_argument("bcast: needs at least 2 ranks");
    size_ = prm.bytes("size", 1 << 20, 1, m.platform->nic.max_descriptor_bytes);
    root_ = int(prm.integer("root", 0, 0, p_ - 1));
    if (algo_ == "vandegeijn-ext")
      streams_ = int(prm.integer("streams", std::min(8, std::max(1, p_ / 2)), 1, 1 << 20));
    schedule(root_);  // rejects what the algorithm does not allow, before the run
    end_.assign(std::size_t(p_), 0);
  }

  nlohmann::json params() const override {
    nlohmann::json j = {{"algo", algo_}, {"size", size_}, {"root", root_}};
    if (algo_ == "vandegeijn-ext") j["streams"] = streams_;
    return j;
  }

  coll::Schedule schedule(int rank) const { return coll::bcast(algo_, rank, p_, root_, size_, streams_, 1); }

  // Every rank's receive region holds the data in the end; the send region is unused.
  Footprint footprint() const override {
    return {double(size_) * p_, whole_bytes(collective_rank_bytes(8, double(size_)))};
  }

  // Every rank's buffer is its receive region; the root's holds the data.
  void setup(HostMemory& m) override { fill_pattern(m, root_, recv_region_address(8), size_); }

  fw::Task program(fw::Rank& r) override {
    const coll::Buffers b = collective_buffers(r, 8, size_);  // the send region is unused
    co_await r.compute(kStart);
    co_await coll::run_schedule(r, schedule(r.rank()), b, &ok_, &phases_);
    end_[std::size_t(r.rank())] = r.now();
  }

  void results(Results& v) override {
    v.latest(end_);
    v.phases(phases_);
    v.all(ok_);
  }

  Outcome outcome(HostMemory* m) override {
    Outcome o = collective_outcome(end_, double(size_), ok_);
    o.details = {{"ranks", p_}, {"root_steps", schedule(root_).size()}, {"phases", phase_times(phases_)}};
    if (m) {
      bool v = true;
      for (int r = 0; r < p_ && v; ++r) v = check_pattern(*m, r, recv_region_address(8), root_, size_);
      set_verified(o, v, "a rank's buffer does not hold the root's bytes");
    }
    return o;
  }

 private:
  std::string algo_;
  std::uint64_t size_ = 0;
  int p_ = 0, root_ = 0, streams_ = 1;
  std::vector<sim::Time> end_;
  coll::PhaseLog phases_;
  bool ok_ = true;
};

}  // namespace

std::unique_ptr<Workload> make_bcast(Params& p, const MachineInfo& m) {
  return std::make_unique<Bcast>(p, m);
}

}  // namespace kairo::sw
