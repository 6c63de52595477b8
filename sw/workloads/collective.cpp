// One program for the collective workloads (sw/workloads/collective.h): the
// algorithm, its rank-count rule, knobs and buffers come from its entry in
// sw/collectives/algorithms.cpp; what differs per collective is only where
// its data starts and must end up (a Spec below).
#include "sw/workloads/collective.h"

#include <algorithm>
#include <stdexcept>

#include "sw/collectives/executor.h"
#include "sw/collectives/pieces.h"

namespace kairo::sw {

namespace {

using coll::Collective;

class CollectiveRun;

// What a collective's workload adds to its algorithms.
struct Spec {
  Collective collective;
  const char* summary;  // what it does, for workloads()
  std::uint64_t size_default, size_min;
  bool root;              // takes --param root
  bool reduction;         // doubles summed: reduce_rate_mbps, receive regions from the schedule's slots
  const char* too_few;    // refused below 2 ranks with this message (null: the algorithm's rule says)
  bool blocks_bandwidth;  // bandwidth over p x size (gather, allgather), else size
  const char*
      steps_detail;  // details' schedule length ("steps", "root_steps") of the root's schedule, or null
  bool phases;       // details.phases
  void (*setup)(const CollectiveRun& w, HostMemory& m);
  bool (*verify)(const CollectiveRun& w, HostMemory& m);
  const char* failure;  // when verify fails
};

class CollectiveRun final : public Workload {
 public:
  CollectiveRun(const Spec& spec, Params& prm, const MachineInfo& m) : spec_(spec) {
    const auto& names = coll::algorithm_names(spec.collective);
    algo_ = &coll::find_algorithm(spec.collective, prm.text("algo", names.front()));
    c_.p = m.nodes;
    if (spec.too_few && c_.p < 2) throw std::invalid_argument(spec.too_few);
    c_.size = prm.bytes("size", spec.size_default, spec.size_min, m.platform->nic.max_descriptor_bytes);
    if (spec.root) c_.root = int(prm.integer("root", 0, 0, std::max(0, c_.p - 1)));
    for (const coll::Knob& k : algo_->knobs)
      c_.*k.member = int(prm.integer(k.name, k.deflt(c_.p), k.lo, k.hi(c_.p)));
    if (spec.reduction) rate_ = double(prm.integer("reduce_rate_mbps", 10000, 1, 1000000000)) * 1e6;
    root_steps_ = schedule(c_.root).size();  // rejects what the algorithm does not allow, before the run
    memory_ = algo_->memory(c_);
    recv_base_ = recv_region_address(std::uint64_t(memory_.send_bytes));
    end_.assign(std::size_t(c_.p), 0);
  }

  // Where the data is, for the Specs' setup and verify.
  int ranks() const { return c_.p; }
  int root() const { return c_.root; }
  std::uint64_t size() const { return c_.size; }
  std::uint64_t recv_base() const { return recv_base_; }

  nlohmann::json params() const override {
    nlohmann::json j = {{"algo", algo_->name}, {"size", c_.size}};
    if (spec_.root) j["root"] = c_.root;
    for (const coll::Knob& k : algo_->knobs) j[k.name] = c_.*k.member;
    if (spec_.reduction) j["reduce_rate_mbps"] = rate_ / 1e6;
    return j;
  }

  Footprint footprint() const override {
    return {memory_.written_bytes,
            whole_bytes(collective_rank_bytes(memory_.send_bytes, memory_.recv_bytes))};
  }

  void setup(HostMemory& m) override { spec_.setup(*this, m); }

  fw::Task program(fw::Rank& r) override {
    const coll::Schedule s = schedule(r.rank());
    const std::uint64_t recv = spec_.reduction ? coll::recv_extent(s) : std::uint64_t(memory_.recv_bytes);
    const coll::Buffers b = collective_buffers(r, std::uint64_t(memory_.send_bytes), recv, rate_);
    co_await r.compute(kStart);
    co_await coll::run_schedule(r, s, b, &ok_, spec_.phases ? &phases_ : nullptr);
    end_[std::size_t(r.rank())] = r.now();
  }

  void results(Results& v) override {
    v.latest(end_);
    if (spec_.phases) v.phases(phases_);
    v.all(ok_);
  }

  Outcome outcome(HostMemory* m) override {
    const double bytes = spec_.blocks_bandwidth ? double(c_.p) * double(c_.size) : double(c_.size);
    Outcome o = collective_outcome(end_, bytes, ok_);
    o.details = {{"ranks", c_.p}};
    if (spec_.steps_detail) o.details[spec_.steps_detail] = root_steps_;
    if (spec_.phases) o.details["phases"] = phase_times(phases_);
    if (m) set_verified(o, spec_.verify(*this, *m), spec_.failure);
    return o;
  }

 private:
  coll::Schedule schedule(int rank) const {
    coll::Call c = c_;
    c.rank = rank;
    return coll::build(*algo_, c);
  }

  const Spec& spec_;
  const coll::Algorithm* algo_ = nullptr;
  coll::Call c_;
  coll::Memory memory_;
  std::uint64_t recv_base_ = 0;
  std::size_t root_steps_ = 0;
  double rate_ = 1e10;
  std::vector<sim::Time> end_;
  coll::PhaseLog phases_;
  bool ok_ = true;
};

// --- Where each collective's data starts and ends ---

std::uint64_t block_at(const CollectiveRun& w, int j) { return std::uint64_t(j) * w.size(); }

// bcast: every rank's buffer is its receive region; the root's holds the data.
void bcast_setup(const CollectiveRun& w, HostMemory& m) {
  fill_pattern(m, w.root(), w.recv_base(), w.size());
}
bool bcast_verify(const CollectiveRun& w, HostMemory& m) {
  bool v = true;
  for (int r = 0; r < w.ranks() && v; ++r) v = check_pattern(m, r, w.recv_base(), w.root(), w.size());
  return v;
}

// scatter: the root's block j is rank j's pattern; the root keeps its own.
void scatter_setup(const CollectiveRun& w, HostMemory& m) {
  for (int j = 0; j < w.ranks(); ++j) fill_pattern(m, w.root(), block_at(w, j), w.size(), j);
  fill_pattern(m, w.root(), w.recv_base(), w.size(), w.root());
}
bool scatter_verify(const CollectiveRun& w, HostMemory& m) {
  bool v = true;
  for (int r = 0; r < w.ranks() && v; ++r) v = check_pattern(m, r, w.recv_base(), r, w.size());
  return v;
}

// gather: every rank's block at 0; the root's own already in place.
void gather_setup(const CollectiveRun& w, HostMemory& m) {
  for (int r = 0; r < w.ranks(); ++r) fill_pattern(m, r, 0, w.size());
  fill_pattern(m, w.root(), w.recv_base() + block_at(w, w.root()), w.size(), w.root());
}
bool gather_verify(const CollectiveRun& w, HostMemory& m) {
  bool v = true;
  for (int j = 0; j < w.ranks() && v; ++j)
    v = check_pattern(m, w.root(), w.recv_base() + block_at(w, j), j, w.size());
  return v;
}

// allgather: every rank's own block in place in its receive region.
void allgather_setup(const CollectiveRun& w, HostMemory& m) {
  for (int r = 0; r < w.ranks(); ++r) fill_pattern(m, r, w.recv_base() + block_at(w, r), w.size(), r);
}
bool allgather_verify(const CollectiveRun& w, HostMemory& m) {
  bool v = true;
  for (int r = 0; r < w.ranks() && v; ++r)
    for (int j = 0; j < w.ranks() && v; ++j)
      v = check_pattern(m, r, w.recv_base() + block_at(w, j), j, w.size());
  return v;
}

// The reductions: every rank's vector of small integers at 0, summed in place.
double initial(int rank, std::uint64_t i) { return double((std::uint64_t(rank) * 7 + i * 3) % 1000); }
void reduction_setup(const CollectiveRun& w, HostMemory& m) {
  std::vector<double> v(w.size() / 8);
  for (int r = 0; r < w.ranks(); ++r) {
    for (std::uint64_t i = 0; i < v.size(); ++i) v[i] = initial(r, i);
    m.write(r, 0, reinterpret_cast<const unsigned char*>(v.data()), w.size());
  }
}
// The doubles [from, to) of rank r's vector hold the exact sum of every rank's.
template <Collective C>
bool reduction_verify(const CollectiveRun& w, HostMemory& m) {
  const std::uint64_t n = w.size() / 8;
  std::vector<double> want(n, 0.0), got(n);
  for (int r = 0; r < w.ranks(); ++r)
    for (std::uint64_t i = 0; i < n; ++i) want[i] += initial(r, i);
  bool v = true;
  const coll::Parts parts{w.size(), w.ranks(), 8};
  for (int r = 0; r < w.ranks() && v; ++r) {
    std::uint64_t from = 0, to = n;  // the doubles rank r must hold summed
    if (C == Collective::kReduceScatter) from = parts.offset(r) / 8, to = parts.offset(r + 1) / 8;
    if (C == Collective::kReduce && r != w.root()) continue;
    if (to == from) continue;
    m.read(r, from * 8, reinterpret_cast<unsigned char*>(got.data()), (to - from) * 8);
    v = std::equal(got.begin(), got.begin() + std::ptrdiff_t(to - from), want.begin() + std::ptrdiff_t(from));
  }
  return v;
}

constexpr const char* kBlocksMisplaced = "a block is not where the collective puts it";
constexpr const char* kNotTheSum =
    "a rank does not hold the exact sum of every rank's vector where the collective leaves it";

const Spec kSpecs[] = {
    {Collective::kBcast, "broadcast of size bytes from root", 1 << 20, 1, true, false,
     "bcast: needs at least 2 ranks", false, "root_steps", true, bcast_setup, bcast_verify,
     "a rank's buffer does not hold the root's bytes"},
    {Collective::kScatter, "root sends block j to rank j", 32 * 1024, 1, true, false,
     "needs at least 2 ranks", false, nullptr, false, scatter_setup, scatter_verify, kBlocksMisplaced},
    {Collective::kGather, "every rank's block to the root", 32 * 1024, 1, true, false,
     "needs at least 2 ranks", true, nullptr, false, gather_setup, gather_verify, kBlocksMisplaced},
    {Collective::kAllgather, "every rank gets every block", 32 * 1024, 1, false, false,
     "needs at least 2 ranks", true, nullptr, false, allgather_setup, allgather_verify, kBlocksMisplaced},
    {Collective::kAllreduce, "element-wise sum of every rank's doubles", 64 * 1024, 8, false, true, nullptr,
     false, "steps", true, reduction_setup, reduction_verify<Collective::kAllreduce>, kNotTheSum},
    {Collective::kReduceScatter, "rank r gets part r of the sum of every rank's doubles", 64 * 1024, 8, false,
     true, nullptr, false, "steps", true, reduction_setup, reduction_verify<Collective::kReduceScatter>,
     kNotTheSum},
    {Collective::kReduce, "the sum of every rank's doubles at the root", 64 * 1024, 8, true, true, nullptr,
     false, "steps", true, reduction_setup, reduction_verify<Collective::kReduce>, kNotTheSum},
};

const Spec& spec_of(Collective c) {
  for (const Spec& s : kSpecs)
    if (s.collective == c) return s;
  throw std::logic_error(std::string("no collective workload for ") + coll::collective_name(c));
}

template <Collective C>
std::unique_ptr<Workload> make(Params& p, const MachineInfo& m) {
  return std::make_unique<CollectiveRun>(spec_of(C), p, m);
}

using Make = std::unique_ptr<Workload> (*)(Params&, const MachineInfo&);
Make maker(Collective c) {
  switch (c) {
    case Collective::kBcast:
      return make<Collective::kBcast>;
    case Collective::kScatter:
      return make<Collective::kScatter>;
    case Collective::kGather:
      return make<Collective::kGather>;
    case Collective::kAllgather:
      return make<Collective::kAllgather>;
    case Collective::kAllreduce:
      return make<Collective::kAllreduce>;
    case Collective::kReduceScatter:
      return make<Collective::kReduceScatter>;
    case Collective::kReduce:
      return make<Collective::kReduce>;
    default:
      throw std::logic_error(std::string("no collective workload for ") + coll::collective_name(c));
  }
}

// "what: a, b, c (algo, size, root, knobs...)" from the table.
std::string summary(const Spec& s) {
  std::vector<std::string> params = {"algo", "size"};
  if (s.root) params.emplace_back("root");
  for (const coll::Algorithm& a : coll::algorithms())
    if (a.collective == s.collective)
      for (const coll::Knob& k : a.knobs)
        if (std::find(params.begin(), params.end(), k.name) == params.end()) params.emplace_back(k.name);
  if (s.reduction) params.emplace_back("reduce_rate_mbps");
  std::string list;
  for (const std::string& p : params) list += (list.empty() ? "" : ", ") + p;
  return std::string(s.summary) + ": " + coll::algorithm_list(s.collective) + " (" + list + ")";
}

}  // namespace

WorkloadInfo collective_workload(Collective c) {
  // The summaries live as long as the program (WorkloadInfo holds a pointer).
  static const std::vector<std::string> summaries = [] {
    std::vector<std::string> v;
    for (const Spec& s : kSpecs) v.push_back(summary(s));
    return v;
  }();
  const Spec& s = spec_of(c);
  return {coll::collective_name(c), summaries[std::size_t(&s - kSpecs)].c_str(), maker(c)};
}

}  // namespace kairo::sw
