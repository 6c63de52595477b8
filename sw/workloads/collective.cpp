// One program for the collective workloads (sw/workloads/collective.h): the
// algorithm, its rank-count rule, knobs, buffers and figures come from its
// entry in sw/collectives/algorithms.cpp; what differs per collective is
// where its data starts and must end up and how its ranks are timed (a Spec,
// collective_run.h).
#include "sw/workloads/collective.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <utility>

#include "sw/collectives/executor.h"
#include "sw/collectives/pieces.h"
#include "sw/workloads/alltoall.h"
#include "sw/workloads/barrier.h"
#include "sw/workloads/collective_run.h"
#include "sw/workloads/neighbor.h"

namespace kairo::sw {

namespace {

using coll::Collective;

// "algo=a or algo=b": the collective's algorithms that run anywhere.
std::string placed_anywhere(Collective c) {
  std::vector<std::string> names;
  for (const coll::Algorithm& a : coll::algorithms())
    if (a.collective == c && !a.needs_torus) names.push_back(std::string("algo=") + a.name);
  std::string s;
  for (std::size_t i = 0; i < names.size(); ++i)
    s += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return s;
}

// The ranks' mesh/torus coordinates, for an algorithm that needs one rank on
// every node of a mesh/torus.
coll::TorusRanks torus_ranks(const MachineInfo& m, const coll::Algorithm& a) {
  const std::string need =
      std::string("--param algo=") + a.name + " needs one rank on every node of a mesh/torus";
  const platforms::Platform& plat = *m.platform;
  if (!m.topology)
    throw std::invalid_argument(fmt::format("{}; {} is a switched fabric (use {} there)", need, plat.name,
                                            placed_anywhere(a.collective)));
  const hw::Topology& topo = *m.topology;
  if (std::uint64_t(m.nodes) != topo.num_nodes())
    throw std::invalid_argument(
        fmt::format("{}; this run has {} ranks on {} nodes (ranks.map)", need, m.nodes, topo.num_nodes()));
  coll::TorusRanks t;
  for (int d = 0; d < topo.num_dims(); ++d) t.sizes.push_back(topo.dim(d).size);
  t.routing_order = plat.router.routing_order;
  t.rank_of_node.assign(topo.num_nodes(), -1);
  for (int r = 0; r < m.nodes; ++r) {
    const hw::NodeId n = plat.node_of_rank(std::uint64_t(r));
    t.node_of_rank.push_back(n);
    if (n < topo.num_nodes() && t.rank_of_node[n] < 0) t.rank_of_node[n] = r;
  }
  if (auto why = coll::check_torus_ranks(t); !why.empty()) throw std::invalid_argument(need + "; " + why);
  return t;
}

// A schedule cut where its steps' phase changes, so that each stretch
// (tofu's "exchange" groups and "barrier"s) gets its own time.
std::vector<coll::Schedule> phase_runs(coll::Schedule s) {
  std::vector<coll::Schedule> runs;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i == 0 || std::strcmp(s[i].phase, s[i - 1].phase) != 0) runs.emplace_back();
    runs.back().push_back(std::move(s[i]));
  }
  return runs;
}

}  // namespace

CollectiveRun::CollectiveRun(const Spec& spec, Params& prm, const MachineInfo& m) : spec_(spec), m_(m) {
  const auto& names = coll::algorithm_names(spec.collective);
  algo_ = &coll::find_algorithm(spec.collective, prm.text("algo", names.front()));
  c_.p = m.nodes;
  if (spec.too_few && c_.p < 2) throw std::invalid_argument(spec.too_few);
  if (spec.size_default)
    c_.size = prm.bytes("size", spec.size_default, spec.size_min,
                        spec.size_max ? spec.size_max : m.platform->nic.max_descriptor_bytes);
  if (spec.root) c_.root = int(prm.integer("root", 0, 0, std::max(0, c_.p - 1)));
  if (spec.timing == Timing::kIterations) iterations_ = int(prm.integer("iterations", 1, 1, 1 << 20));
  if (spec.skew) skew_ = sim::Time(prm.integer("skew_ns", 0, 0, 1000000000)) * 1000;
  for (const coll::Knob& k : algo_->knobs)
    c_.*k.member = int(prm.integer(k.name, k.deflt(c_.p), k.lo, k.hi(c_.p)));
  if (spec.reduction) rate_ = double(prm.integer("reduce_rate_mbps", 10000, 1, 1000000000)) * 1e6;
  if (algo_->needs_torus) {
    torus_ = torus_ranks(m, *algo_);
    c_.torus = &torus_;
  }
  if (spec.own.read) spec.own.read(*this, prm, m);
  // Rejects what the algorithm does not allow, before the run.
  const coll::Schedule s0 = schedule(c_.root);
  root_steps_ = s0.size();
  memory_ = algo_->memory(c_);
  recv_base_ = recv_region_address(std::uint64_t(memory_.send_bytes));
  end_.assign(std::size_t(c_.p), 0);
  if (spec.timing == Timing::kIterations) {
    last_in_.assign(std::size_t(iterations_), 0);
    last_out_.assign(std::size_t(iterations_), 0);
    first_out_.assign(std::size_t(iterations_), std::numeric_limits<sim::Time>::max());
  }
  if (spec.timing == Timing::kPhaseRuns) {
    for (const coll::Schedule& run : phase_runs(s0)) run_names_.push_back(run.front().phase);
    logs_.resize(run_names_.size());
  }
}

void CollectiveRun::set_grid(coll::Grid g, int nics, std::uint64_t max_descriptor) {
  grid_ = std::move(g);
  c_.grid = &grid_;
  c_.nics = nics;
  c_.max_descriptor = max_descriptor;
}

nlohmann::json CollectiveRun::params() const {
  nlohmann::json j = {{"algo", algo_->name}};
  if (spec_.size_default) j["size"] = c_.size;
  if (spec_.root) j["root"] = c_.root;
  if (spec_.timing == Timing::kIterations) j["iterations"] = iterations_;
  for (const coll::Knob& k : algo_->knobs) j[k.name] = c_.*k.member;
  if (spec_.reduction) j["reduce_rate_mbps"] = rate_ / 1e6;
  if (spec_.own.echo) spec_.own.echo(*this, j);
  return j;
}

coll::Schedule CollectiveRun::schedule(int rank, std::uint32_t tag_base) const {
  coll::Call c = c_;
  c.rank = rank;
  c.tag_base = tag_base;
  return coll::build(*algo_, c);
}

fw::Task CollectiveRun::program(fw::Rank& r) {
  if (spec_.timing == Timing::kOnce) return run_once(r);
  if (spec_.timing == Timing::kIterations) return run_iterations(r);
  return run_phases(r);
}

fw::Task CollectiveRun::run_once(fw::Rank& r) {
  const int me = r.rank();
  const coll::Schedule s = schedule(me);
  const std::uint64_t recv = spec_.reduction ? coll::recv_extent(s) : std::uint64_t(memory_.recv_bytes);
  const coll::Buffers b = collective_buffers(r, std::uint64_t(memory_.send_bytes), recv, rate_);
  co_await r.compute(staggered_start(me, c_.p, skew_));
  co_await coll::run_schedule(r, s, b, &ok_, spec_.phases ? &phases_ : nullptr);
  end_[std::size_t(me)] = r.now();
}

fw::Task CollectiveRun::run_iterations(fw::Rank& r) {
  const int me = r.rank();
  const coll::Buffers b =
      collective_buffers(r, std::uint64_t(memory_.send_bytes), std::uint64_t(memory_.recv_bytes), rate_);
  co_await r.compute(staggered_start(me, c_.p, skew_));
  for (int it = 0; it < iterations_; ++it) {
    const coll::Schedule s = schedule(me, std::uint32_t(it) * 1000000u + 1u);
    const std::size_t i = std::size_t(it);
    if (it == 0) r.plan_work(std::uint64_t(iterations_) * coll::work_units(s));  // each the same size
    last_in_[i] = std::max(last_in_[i], r.now());
    co_await coll::run_schedule(r, s, b, &ok_, nullptr, false);
    first_out_[i] = std::min(first_out_[i], r.now());
    last_out_[i] = std::max(last_out_[i], r.now());
  }
}

fw::Task CollectiveRun::run_phases(fw::Rank& r) {
  const int me = r.rank();
  const coll::Buffers b =
      collective_buffers(r, std::uint64_t(memory_.send_bytes), std::uint64_t(memory_.recv_bytes), rate_);
  co_await r.compute(staggered_start(me, c_.p, skew_));
  std::vector<coll::Schedule> runs = phase_runs(schedule(me));
  std::uint64_t work = 0;
  for (const coll::Schedule& s : runs) work += coll::work_units(s);
  r.plan_work(work);
  for (std::size_t j = 0; j < runs.size(); ++j) {
    co_await coll::run_schedule(r, runs[j], b, &ok_, j < logs_.size() ? &logs_[j] : nullptr, false);
    coll::Schedule().swap(runs[j]);  // its puts are done: free them
  }
  end_[std::size_t(me)] = r.now();
}

void CollectiveRun::results(Results& v) {
  if (spec_.timing == Timing::kIterations) {
    v.latest(last_in_);
    v.earliest(first_out_);
    v.latest(last_out_);
  } else {
    v.latest(end_);
  }
  if (spec_.timing == Timing::kOnce && spec_.phases) v.phases(phases_);
  if (spec_.timing == Timing::kPhaseRuns) v.phases(logs_);
  v.all(ok_);
}

bool CollectiveRun::held() const {
  for (std::size_t i = 0; i < last_in_.size(); ++i)
    if (first_out_[i] < last_in_[i]) return false;
  return true;
}

Outcome CollectiveRun::iterations_outcome() const {
  double sum_ns = 0;
  for (std::size_t i = 0; i < last_in_.size(); ++i) sum_ns += double(last_out_[i] - last_in_[i]) / 1000.0;
  return measured_outcome(last_in_.front(), last_out_.back(), sum_ns / iterations_, 0, ok_,
                          "a put completed with an error");
}

// Each stretch of one phase: when its last rank left it, and how long after
// the previous stretch's end; "round" counts a phase that recurs (tofu:
// exchange 1, barrier 1, exchange 2, ...).
nlohmann::json CollectiveRun::run_phase_times() const {
  nlohmann::json j = nlohmann::json::array();
  sim::Time prev = kStart;
  for (std::size_t i = 0; i < logs_.size(); ++i) {
    if (logs_[i].entries().empty()) continue;
    const sim::Time end = logs_[i].entries().front().end;
    int round = 1, total = 0;
    for (std::size_t k = 0; k < run_names_.size(); ++k)
      if (std::strcmp(run_names_[k], run_names_[i]) == 0) {
        ++total;
        if (k < i) ++round;
      }
    nlohmann::json e = {{"phase", run_names_[i]},
                        {"end_ns", double(end - kStart) / 1000.0},
                        {"ns", double(end - std::min(prev, end)) / 1000.0}};
    if (total > 1) e["round"] = round;
    j.push_back(std::move(e));
    prev = std::max(prev, end);
  }
  return j;
}

Outcome CollectiveRun::outcome(HostMemory* m) {
  Outcome o = spec_.timing == Timing::kIterations
                  ? iterations_outcome()
                  : collective_outcome(end_, spec_.bytes ? spec_.bytes(c_) : double(c_.size), ok_);
  if (spec_.ranks_detail) o.details = {{"ranks", c_.p}};
  if (spec_.steps_detail) o.details[spec_.steps_detail] = root_steps_;
  if (spec_.timing == Timing::kOnce && spec_.phases) o.details["phases"] = phase_times(phases_);
  if (spec_.timing == Timing::kPhaseRuns) o.details["phases"] = run_phase_times();
  for (const coll::Figure& f : algo_->figures) o.details[f.name] = f.value(c_);
  if (spec_.own.details) spec_.own.details(*this, o);
  if (m) set_verified(o, spec_.data.verify(*this, *m), spec_.data.failure);
  return o;
}

namespace {

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

// The bytes that reach each rank: p blocks (gather, allgather).
double all_blocks(const coll::Call& c) { return double(c.p) * double(c.size); }

constexpr const char* kBlocksMisplaced = "a block is not where the collective puts it";
constexpr const char* kNotTheSum =
    "a rank does not hold the exact sum of every rank's vector where the collective leaves it";

using Setup = void (*)(const CollectiveRun&, HostMemory&);
using Verify = bool (*)(const CollectiveRun&, HostMemory&);

// Blocks of `size` bytes, one per rank, moved whole.
Spec block_spec(Collective c, const char* summary, bool root, double (*bytes)(const coll::Call&), Setup setup,
                Verify verify) {
  return {.collective = c,
          .summary = summary,
          .size_default = 32 * 1024,
          .root = root,
          .too_few = "needs at least 2 ranks",
          .bytes = bytes,
          .data = {setup, verify, kBlocksMisplaced}};
}

// The reductions: every rank's doubles summed in place, their steps and
// phases reported.
Spec reduction_spec(Collective c, const char* summary, bool root, Verify verify) {
  Spec s{.collective = c, .summary = summary, .size_default = 64 * 1024, .size_min = 8, .root = root};
  s.reduction = s.phases = true;
  s.steps_detail = "steps";
  s.data = {reduction_setup, verify, kNotTheSum};
  return s;
}

// The collectives in enum order (Collective), the barrier's, the
// all-to-all's and the neighbor exchange's from their own files.
const std::vector<Spec>& specs() {
  static const std::vector<Spec> table = {
      kBarrierSpec,
      {.collective = Collective::kBcast,
       .summary = "broadcast of size bytes from root",
       .size_default = 1 << 20,
       .root = true,
       .too_few = "bcast: needs at least 2 ranks",
       .steps_detail = "root_steps",
       .phases = true,
       .data = {bcast_setup, bcast_verify, "a rank's buffer does not hold the root's bytes"}},
      block_spec(Collective::kScatter, "root sends block j to rank j", true, nullptr, scatter_setup,
                 scatter_verify),
      block_spec(Collective::kGather, "every rank's block to the root", true, all_blocks, gather_setup,
                 gather_verify),
      block_spec(Collective::kAllgather, "every rank gets every block", false, all_blocks, allgather_setup,
                 allgather_verify),
      reduction_spec(Collective::kAllreduce, "element-wise sum of every rank's doubles", false,
                     reduction_verify<Collective::kAllreduce>),
      reduction_spec(Collective::kReduceScatter, "rank r gets part r of the sum of every rank's doubles",
                     false, reduction_verify<Collective::kReduceScatter>),
      reduction_spec(Collective::kReduce, "the sum of every rank's doubles at the root", true,
                     reduction_verify<Collective::kReduce>),
      kAlltoallSpec,
      kNeighborSpec,
  };
  return table;
}

const Spec& spec_of(Collective c) {
  const Spec& s = specs()[std::size_t(c)];
  if (s.collective != c)
    throw std::logic_error(std::string("specs() out of order at ") + coll::collective_name(c));
  return s;
}

template <Collective C>
std::unique_ptr<Workload> make(Params& p, const MachineInfo& m) {
  return std::make_unique<CollectiveRun>(spec_of(C), p, m);
}

// make<C> for every collective, indexed by C.
using Make = std::unique_ptr<Workload> (*)(Params&, const MachineInfo&);
template <std::size_t... I>
constexpr std::array<Make, sizeof...(I)> makers(std::index_sequence<I...>) {
  return {make<Collective(I)>...};
}
constexpr auto kMakers = makers(std::make_index_sequence<coll::kCollectives>());

// "what: a, b, c (algo, size, root, knobs...)" from the table.
std::string summary(const Spec& s) {
  std::vector<std::string> params = {"algo"};
  if (s.size_default) params.emplace_back("size");
  if (s.root) params.emplace_back("root");
  for (const coll::Algorithm& a : coll::algorithms())
    if (a.collective == s.collective)
      for (const coll::Knob& k : a.knobs)
        if (std::find(params.begin(), params.end(), k.name) == params.end()) params.emplace_back(k.name);
  if (s.reduction) params.emplace_back("reduce_rate_mbps");
  if (s.timing == Timing::kIterations) params.emplace_back("iterations");
  if (s.own.names) params.emplace_back(s.own.names);
  if (s.skew) params.emplace_back("skew_ns");
  std::string list;
  for (const std::string& p : params) list += (list.empty() ? "" : ", ") + p;
  return std::string(s.summary) + ": " + coll::algorithm_list(s.collective) + " (" + list + ")";
}

}  // namespace

WorkloadInfo collective_workload(Collective c) {
  // The summaries live as long as the program (WorkloadInfo holds a pointer).
  static const std::vector<std::string> summaries = [] {
    std::vector<std::string> v;
    for (const Spec& s : specs()) v.push_back(summary(s));
    return v;
  }();
  return {coll::collective_name(c), summaries[std::size_t(c)].c_str(), kMakers[std::size_t(c)]};
}

}  // namespace kairo::sw
