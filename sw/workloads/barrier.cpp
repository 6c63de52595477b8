#include "sw/workloads/barrier.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "sw/collectives/algorithms.h"
#include "sw/collectives/barrier.h"
#include "sw/collectives/executor.h"

namespace kairo::sw {

namespace {

class Barrier final : public Workload {
 public:
  Barrier(Params& prm, const MachineInfo& m) {
    algo_ = algorithm_param(prm, coll::algorithm_names(coll::Collective::kBarrier));
    iterations_ = int(prm.integer("iterations", 1, 1, 1 << 20));
    skew_ = sim::Time(prm.integer("skew_ns", 0, 0, 1000000000)) * 1000;
    p_ = m.nodes;
    if (p_ < 2) throw std::invalid_argument("barrier: needs at least 2 ranks");
    // Per iteration, not per rank and iteration: iterations x ranks times
    // would be terabytes for a million barriers on tofu-k.
    last_in_.assign(std::size_t(iterations_), 0);
    last_out_.assign(std::size_t(iterations_), 0);
    first_out_.assign(std::size_t(iterations_), std::numeric_limits<sim::Time>::max());
  }

  nlohmann::json params() const override {
    return {{"algo", algo_}, {"iterations", iterations_}, {"skew_ns", double(skew_) / 1000.0}};
  }

  Footprint footprint() const override {
    coll::Call c;
    c.p = p_;
    return collective_footprint(coll::find_algorithm(coll::Collective::kBarrier, algo_), c);
  }

  fw::Task program(fw::Rank& r) override {
    const coll::Buffers b = collective_buffers(r, coll::kBarrierBytes, coll::kBarrierBytes);
    co_await r.compute(staggered_start(r.rank(), p_, skew_));
    for (int it = 0; it < iterations_; ++it) {
      const coll::Schedule s = coll::barrier(algo_, r.rank(), p_, std::uint32_t(it) * 1000000u + 1u);
      const std::size_t i = std::size_t(it);
      if (it == 0) r.plan_work(std::uint64_t(iterations_) * coll::work_units(s));  // each the same size
      last_in_[i] = std::max(last_in_[i], r.now());
      co_await coll::run_schedule(r, s, b, &ok_, nullptr, false);
      first_out_[i] = std::min(first_out_[i], r.now());
      last_out_[i] = std::max(last_out_[i], r.now());
    }
  }

  void results(Results& v) override {
    v.latest(last_in_);
    v.earliest(first_out_);
    v.latest(last_out_);
    v.all(ok_);
  }

  Outcome outcome(HostMemory* m) override {
    Outcome o;
    double sum_ns = 0;
    bool held = true;
    for (int it = 0; it < iterations_; ++it) {
      const sim::Time last_in = last_in_[std::size_t(it)];
      const sim::Time first_out = first_out_[std::size_t(it)];
      const sim::Time last_out = last_out_[std::size_t(it)];
      held = held && first_out >= last_in;
      sum_ns += double(last_out - last_in) / 1000.0;
      if (it == 0) o.start_ps = last_in;
      o.end_ps = last_out;
    }
    o.latency_ns = sum_ns / iterations_;
    o.bandwidth_gbps = 0;
    o.ok = ok_;
    if (!ok_) o.failure = "a put completed with an error";
    const coll::Schedule s0 = coll::barrier(algo_, 0, p_, 1);
    o.details = {{"ranks", p_}, {"steps_rank0", s0.size()}, {"barrier_held", held}};
    if (m) {
      o.verified = held;
      if (!held) o.failure = "a rank left the barrier before every rank had entered it";
    }
    return o;
  }

 private:
  std::string algo_;
  int iterations_ = 1, p_ = 0;
  sim::Time skew_ = 0;
  std::vector<sim::Time> last_in_, first_out_, last_out_;  // per iteration, over the ranks
  bool ok_ = true;
};

}  // namespace

std::unique_ptr<Workload> make_barrier(Params& p, const MachineInfo& m) {
  return std::make_unique<Barrier>(p, m);
}

}  // namespace kairo::sw
