#include "sw/workloads/allreduce.h"

#include <algorithm>

#include "sw/collectives/allreduce.h"
#include "sw/collectives/pieces.h"

namespace kairo::sw {

namespace {

using coll::ReductionKind;

double initial(int rank, std::uint64_t i) { return double((std::uint64_t(rank) * 7 + i * 3) % 1000); }

int log2_ceil(int n) {
  int k = 0;
  while ((1LL << k) < n) ++k;
  return k;
}

// A reduction's receive regions, from its algorithm's slots (sw/collectives),
// without building p schedules: `largest`, the most any rank registers (the
// largest coll::recv_extent of a rank's schedule), and `written`, the bytes
// the puts land in them over all ranks. Sizes in units of the vector.
struct RecvSlots {
  double largest, written;
};
RecvSlots recv_slots(const std::string& algo, int p, int streams) {
  const int l = coll::log2_floor(p), pow2 = 1 << l, extra = p - pow2;
  const int h = p / 2, lh = coll::log2_floor(std::max(h, 1));
  // recursive doubling: round k's vector in slot k + 1; the ranks above 2^l
  // hand theirs to slot 0 of their partner.
  if (algo == "recursive-doubling") return {l + 1.0, double(pow2) * l + extra};
  // reduce_scatter_ring: step k's part in slot k, k < p - 1; each rank gets
  // every part but one.
  if (algo == "ring") return {p - 1.0, p - 1.0};
  // reduce_scatter_halving: round k's half in slot k; halves of halves.
  if (algo == "halving") return {double(l), p - 1.0};
  // The pre-step's vector in slot 0, then halving on 2^l ranks from slot 1;
  // the gather and allgather land in the send region.
  if (algo == "rabenseifner") return {l + 1.0, p - 1.0};
  // Halving in each half (log2 h slots), then counter_reduce's forward,
  // across and back slots (back only for ranks that do not cross).
  if (algo == "rabenseifner-ext") return {lh + (streams < h ? 3.0 : 2.0), (p - 2.0) + 6.0};
  // Halving in each half, then the two first members' exchange in slot log2 h.
  if (algo == "twotier") return {lh + 1.0, (p - 2.0) + 2.0};
  // binomial reduce: round k's vector in slot k at the parent; the root has
  // ceil(log2 p) rounds, and every other rank sends once.
  return {double(log2_ceil(p)), p - 1.0};
}

class Reduction final : public Workload {
 public:
  Reduction(ReductionKind kind, Params& prm, const MachineInfo& m) : kind_(kind) {
    algo_ = algorithm_param(prm, coll::reduction_algorithms(kind));
    c_.p = m.nodes;
    c_.size = prm.bytes("size", 64 * 1024, 8, m.platform->nic.max_descriptor_bytes);
    if (kind == ReductionKind::kReduce) c_.root = int(prm.integer("root", 0, 0, std::max(0, c_.p - 1)));
    if (algo_ == "rabenseifner-ext")
      c_.streams = int(prm.integer("streams", std::min(8, std::max(1, c_.p / 2)), 1, 1 << 20));
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

  // Every rank's vector (filled in data mode, summed in place) and its
  // receive region, as large as its schedule's slots.
  Footprint footprint() const override {
    const RecvSlots r = recv_slots(algo_, c_.p, c_.streams);
    const double size = double(c_.size);
    return {size * c_.p + r.written * size, whole_bytes(collective_rank_bytes(size, r.largest * size))};
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

  void results(Results& v) override {
    v.latest(end_);
    v.phases(phases_);
    v.all(ok_);
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
        v = std::equal(got.begin(), got.begin() + std::ptrdiff_t(to - from),
                       want.begin() + std::ptrdiff_t(from));
      }
      set_verified(
          o, v, "a rank does not hold the exact sum of every rank's vector where the collective leaves it");
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
