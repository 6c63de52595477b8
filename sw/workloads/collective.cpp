// One program for the collective workloads (sw/workloads/collective.h): the
// algorithm, its rank-count rule, knobs and buffers come from its entry in
// sw/collectives/algorithms.cpp; what differs per collective is only where
// its data starts and must end up (a Spec below).
#include "sw/workloads/collective.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "sw/collectives/executor.h"
#include "sw/collectives/neighbor.h"
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
  bool root;            // takes --param root
  bool reduction;       // doubles summed: reduce_rate_mbps, receive regions from the schedule's slots
  const char* too_few;  // refused below 2 ranks with this message (null: the algorithm's rule says)
  bool send_bandwidth;  // bandwidth over the send region (gather, allgather, neighbor), else over size
  // details' schedule length ("steps", "root_steps") of the root's schedule, or null
  const char* steps_detail;
  bool phases;  // details.phases
  void (*setup)(const CollectiveRun& w, HostMemory& m);
  bool (*verify)(const CollectiveRun& w, HostMemory& m);
  const char* failure;  // when verify fails
  // The neighbor exchange's process grid: its own parameters (named in
  // `extra_param_names` for the summary, size up to 1 GiB), read after the
  // algorithm's knobs, and what they add to params() and to the details
  // (which then leave out "ranks").
  const char* extra_param_names = nullptr;
  void (*prepare)(CollectiveRun& w, Params& prm, const MachineInfo& m) = nullptr;
  void (*extra_params)(const CollectiveRun& w, nlohmann::json& params) = nullptr;
  void (*extra_details)(const CollectiveRun& w, nlohmann::json& details) = nullptr;
};

class CollectiveRun final : public Workload {
 public:
  CollectiveRun(const Spec& spec, Params& prm, const MachineInfo& m) : spec_(spec) {
    const auto& names = coll::algorithm_names(spec.collective);
    algo_ = &coll::find_algorithm(spec.collective, prm.text("algo", names.front()));
    c_.p = m.nodes;
    if (spec.too_few && c_.p < 2) throw std::invalid_argument(spec.too_few);
    c_.size = prm.bytes("size", spec.size_default, spec.size_min,
                        spec.prepare ? std::uint64_t(1) << 30 : m.platform->nic.max_descriptor_bytes);
    if (spec.root) c_.root = int(prm.integer("root", 0, 0, std::max(0, c_.p - 1)));
    for (const coll::Knob& k : algo_->knobs)
      c_.*k.member = int(prm.integer(k.name, k.deflt(c_.p), k.lo, k.hi(c_.p)));
    if (spec.reduction) rate_ = double(prm.integer("reduce_rate_mbps", 10000, 1, 1000000000)) * 1e6;
    if (spec.prepare) spec.prepare(*this, prm, m);
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
  const coll::Grid& grid() const { return grid_; }
  int nics() const { return c_.nics; }
  // The neighbor exchange's grid and NICs (Spec::prepare).
  void set_grid(coll::Grid g, int nics, std::uint64_t max_descriptor) {
    grid_ = std::move(g);
    c_.grid = &grid_;
    c_.nics = nics;
    c_.max_descriptor = max_descriptor;
  }

  nlohmann::json params() const override {
    nlohmann::json j = {{"algo", algo_->name}, {"size", c_.size}};
    if (spec_.root) j["root"] = c_.root;
    for (const coll::Knob& k : algo_->knobs) j[k.name] = c_.*k.member;
    if (spec_.reduction) j["reduce_rate_mbps"] = rate_ / 1e6;
    if (spec_.extra_params) spec_.extra_params(*this, j);
    return j;
  }

  Footprint footprint() const override { return collective_footprint(*algo_, c_); }

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
    Outcome o = collective_outcome(end_, spec_.send_bandwidth ? memory_.send_bytes : double(c_.size), ok_);
    if (!spec_.extra_details) o.details = {{"ranks", c_.p}};
    if (spec_.steps_detail) o.details[spec_.steps_detail] = root_steps_;
    if (spec_.phases) o.details["phases"] = phase_times(phases_);
    if (spec_.extra_details) spec_.extra_details(*this, o.details);
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
  coll::Grid grid_;
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

// neighbor: message k of rank r (pattern r x 16 + k) at k x size in its
// send region; the message from direction k lands at k x size in the
// receive region.
int pattern_id(int sender, int k) { return sender * 16 + k; }
int messages(const CollectiveRun& w) { return int(2 * w.grid().dims.size()); }
void neighbor_setup(const CollectiveRun& w, HostMemory& m) {
  for (int r = 0; r < w.ranks(); ++r)
    for (int k = 0; k < messages(w); ++k) fill_pattern(m, r, block_at(w, k), w.size(), pattern_id(r, k));
}
bool neighbor_verify(const CollectiveRun& w, HostMemory& m) {
  bool v = true;
  for (int r = 0; r < w.ranks() && v; ++r)
    for (int k = 0; k < messages(w) && v; ++k)
      v = check_pattern(m, r, w.recv_base() + block_at(w, k), pattern_id(w.grid().neighbor(r, k ^ 1), k),
                        w.size());
  return v;
}

// The most cube-like a x b x c = p with every side >= 3, or none.
std::vector<int> cube_grid(int p) {
  std::vector<int> best;
  for (int a = 3; a * a * a <= p; ++a)
    for (int b = a; a * b * b <= p; ++b)
      if (p % (a * b) == 0 && p / (a * b) >= b) best = {a, b, p / (a * b)};
  return best;
}

// --param nics (default: the node's TNIs) and grid: "auto" is the
// topology's own grid, placed one hop per neighbor, when it has one (a 3D
// torus, a 6D Tofu), otherwise the most cube-like in rank order; or sizes
// joined by x.
void neighbor_prepare(CollectiveRun& w, Params& prm, const MachineInfo& m) {
  const std::uint64_t max_descriptor = m.platform->nic.max_descriptor_bytes;
  // Every put of a message has its own tag and schedule entry: keep the
  // count a rank posts within what a schedule and the tags hold.
  constexpr std::uint64_t kMaxPuts = 1 << 16;
  if ((w.size() - 1) / max_descriptor + 1 > kMaxPuts)
    throw std::invalid_argument(fmt::format(
        "--param size={}B: a message over nic.max_descriptor_size ({}B) would take more than {} puts; "
        "expected a size of at most {}B, or a larger nic.max_descriptor_size",
        w.size(), max_descriptor, kMaxPuts, kMaxPuts * max_descriptor));
  const int nics = int(prm.integer("nics", m.tnis, 1, m.tnis));
  const std::string text = prm.text("grid", "auto");
  coll::Grid grid;
  if (text == "auto") {
    if (m.topology && m.platform->ranks() == m.topology->num_nodes()) {
      std::vector<int> rank_of_node(m.topology->num_nodes());
      for (int r = 0; r < m.nodes; ++r) rank_of_node[m.platform->node_of_rank(std::uint64_t(r))] = r;
      grid = coll::topology_grid(*m.topology, rank_of_node);
    }
    if (grid.dims.empty()) grid.dims = cube_grid(m.nodes);
    if (grid.dims.empty())
      throw std::invalid_argument(
          fmt::format("--param grid: {} ranks have no 3-dimensional grid with every side >= 3; give one, "
                      "e.g. grid=4x4x6",
                      m.nodes));
  } else {
    for (std::size_t at = 0; at <= text.size();) {
      const std::size_t x = std::min(text.find('x', at), text.size());
      const std::string part = text.substr(at, x - at);
      char* end = nullptr;
      const long v = std::strtol(part.c_str(), &end, 10);
      if (part.empty() || *end || v < 3 || v > 1 << 20)
        throw std::invalid_argument("--param grid=" + text + ": expected sizes >= 3 joined by x, e.g. 4x4x6");
      grid.dims.push_back(int(v));
      at = x + 1;
    }
    if (grid.ranks() != m.nodes)
      throw std::invalid_argument(fmt::format("--param grid={}: expected {} ranks in all, the grid has {}",
                                              text, m.nodes, grid.ranks()));
  }
  w.set_grid(std::move(grid), nics, max_descriptor);
}
void neighbor_params(const CollectiveRun& w, nlohmann::json& j) {
  j["nics"] = w.nics();
  j["grid"] = w.grid().dims;
}
void neighbor_details(const CollectiveRun& w, nlohmann::json& d) {
  d["neighbors"] = 2 * w.grid().dims.size();
  d["placement"] = w.grid().rank_at.empty() ? "rank order" : "topology";
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
    {Collective::kNeighbor, "exchange with the 2r neighbors of a periodic process grid over n NICs", 1 << 20,
     1, false, false, nullptr, true, "steps", false, neighbor_setup, neighbor_verify,
     "a received message is not the one its neighbor sent", "grid, nics", neighbor_prepare, neighbor_params,
     neighbor_details},
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
    case Collective::kNeighbor:
      return make<Collective::kNeighbor>;
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
  if (s.extra_param_names) params.emplace_back(s.extra_param_names);
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
