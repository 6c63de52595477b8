#include "sw/workloads/allreduce.h"

#include <algorithm>

#include "sw/collectives/allreduce.h"
#include "sw/collectives/pieces.h"

namespace kairo::sw {

namespace {

using coll::ReductionKind;

double initial(int rank, std::uint64_t i) { return double((std::uint64_t(rank) * 7 + i * 3) % 1000); }

class Reduction final : public Workload {
 public:
  Reduction(ReductionKind kind, Params& prm, const MachineInfo& m) : kind_(kind) {
    algo_ = algorithm_param(prm, coll::reduction_algorithms(kind));
    c_.p = m.nodes;
    c_.size = prm.bytes("size", 64 * 1024, 8, m.platform->nic.max_descriptor_bytes);
    if (kind == ReductionKind::kReduce) c_.root = int(prm.integer("root", 0, 0, std::max(0, c_.p - 1)));
    if (algo_ == "rabenseifner-ext") c_.streams = int(prm.integer("streams", std::min(8, std::max(1, c_.p / 2)), 1, 1 << 20));
    rate_ = double(prm.integer("reduce_rate_mbps", 10000, 1, 1000000000)) * 1e6;
    coll::reduction(kind, algo_, c_);  // rejects what the algorithm does not allow, before the run
    end_.assign(std::size_t(c_.p), 0);
  }

  nlohmann::json params() const override {
    nlohmann::json j = {{"algo", algo_}, {"size", c_.size}, {"reduce_rate_mbps", rate_ / 1e6}};
    if (kind_ == ReductionKind::kReduce) j["root"] = c_.root;
    if (algo_ == "rabenseifner-ext") j["streams"] = c_.streams;
    return j;
  }

  void setup(HostMemory& m) override {
    std::vector<double> v(c_.size / 8);
    for (int r = 0; r < c_.p; ++r) {
      for (std::uint64_t i = 0; i < v.size(); ++i) v[i] = initial(r, i);
      m.write(r, 0, reinterpret_cast<const unsigned char*>(v.data()), c_.size);
    }
  }

  fw::Task program(fw::Rank& r) override {
    coll::Reduction c = c_;
    c.rank = r.rank();
    const coll::Schedule s = coll::reduction(kind_, algo_, c);
    const coll::Buffers b = collective_buffers(r, c_.size, coll::recv_extent(s), rate_);
    co_await r.compute(kStart);
    co_await coll::run_schedule(r, s, b, &ok_, &phases_);
    end_[std::size_t(r.rank())] = r.now();
  }

  Outcome outcome(HostMemory* m) override {
    Outcome o = collective_outcome(end_, double(c_.size), ok_);
    coll::Reduction c0 = c_;
    c0.rank = kind_ == ReductionKind::kReduce ? c_.root : 0;
    o.details = {{"ranks", c_.p},
                 {"steps", coll::reduction(kind_, algo_, c0).size()},
                 {"phases", phase_times(phases_)}};
    if (m) {
      const std::uint64_t n = c_.size / 8;
      std::vector<double> want(n, 0.0), got(n);
      for (int r = 0; r < c_.p; ++r)
        for (std::uint64_t i = 0; i < n; ++i) want[i] += initial(r, i);
      bool v = true;
      const coll::Parts parts{c_.size, c_.p, 8};
      for (int r = 0; r < c_.p && v; ++r) {
        std::uint64_t from = 0, to = n;  // the doubles rank r must hold summed
        if (kind_ == ReductionKind::kReduceScatter) from = parts.offset(r) / 8, to = parts.offset(r + 1) / 8;
        if (kind_ == ReductionKind::kReduce && r != c_.root) continue;
        if (to == from) continue;
        m->read(r, from * 8, reinterpret_cast<unsigned char*>(got.data()), (to - from) * 8);
        v = std::equal(got.begin(), got.begin() + std::ptrdiff_t(to - from), want.begin() + std::ptrdiff_t(from));
      }
      set_verified(o, v, "a rank does not hold the exact sum of every rank's vector where the collective leaves it");
    }
    return o;
  }

 private:
  ReductionKind kind_;
  std::string algo_;
  coll::Reduction c_;
  double rate_ = 1e10;
  std::vector<sim::Time> end_;
  coll::PhaseLog phases_;
  bool ok_ = true;
};

}  // namespace

std::unique_ptr<Workload> make_allreduce(Params& p, const MachineInfo& m) {
  return std::make_unique<Reduction>(ReductionKind::kAllreduce, p, m);
}
std::unique_ptr<Workload> make_reduce_scatter(Params& p, const MachineInfo& m) {
  return std::make_unique<Reduction>(ReductionKind::kReduceScatter, p, m);
}
std::unique_ptr<Workload> make_reduce(Params& p, const MachineInfo& m) {
  return std::make_unique<Reduction>(ReductionKind::kReduce, p, m);
}

}  // namespace kairo::sw
