#include "sw/workloads/alltoall.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstring>

#include "analysis/bounds.h"
#include "sw/collectives/alltoall.h"
#include "sw/collectives/barrier.h"
#include "sw/collectives/executor.h"

namespace kairo::sw {

namespace {

// Byte i of the block rank `src` sends to rank `dst`.
unsigned char block_byte(int src, int dst, std::uint64_t i) {
  return static_cast<unsigned char>(i * 13 + std::uint64_t(src) * 29 + std::uint64_t(dst) * 71 + (i >> 9));
}

// The ranks' mesh/torus coordinates for a2at and tofu, which need one rank
// on every node of a mesh/torus.
coll::TorusRanks torus_ranks(const MachineInfo& m, const std::string& algo) {
  const std::string need = "--param algo=" + algo + " needs one rank on every node of a mesh/torus";
  const platforms::Platform& plat = *m.platform;
  if (!m.topology)
    throw std::invalid_argument(
        fmt::format("{}; {} is a switched fabric (use algo=a2a or algo=pairwise there)", need, plat.name));
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

class Alltoall final : public Workload {
 public:
  Alltoall(Params& prm, const MachineInfo& m) : m_(m) {
    algo_ = algorithm_param(prm, coll::algorithm_names(coll::Collective::kAlltoall));
    size_ = prm.bytes("size", 32 * 1024, 1, m.platform->nic.max_descriptor_bytes);
    p_ = m.nodes;
    skew_ = sim::Time(prm.integer("skew_ns", 0, 0, 1000000000)) * 1000;
    if (p_ < 2) throw std::invalid_argument("alltoall: needs at least 2 ranks");
    if (coll::find_algorithm(coll::Collective::kAlltoall, algo_).needs_torus) {
      torus_ = torus_ranks(m, algo_);
      opt_.torus = &torus_;
    }
    // The algorithm's knobs (tofu: barrier_every) at their declared defaults and ranges.
    coll::Call knobs;
    for (const coll::Knob& k : coll::find_algorithm(coll::Collective::kAlltoall, algo_).knobs)
      knobs.*k.member = int(prm.integer(k.name, k.deflt(p_), k.lo, k.hi(p_)));
    opt_.barrier_every = knobs.barrier_every;
    if (algo_ == "a2at") {
      // Mirrored phases by default where a ring has two directions to use and
      // the translations go in plain numbering (one or two dimensions with
      // links: coll::phase_offset); with three or more the mixed order already
      // moves both ways, and mirroring measured slower (docs/collectives.md).
      bool ring = false;
      int spread = 0;
      for (const auto& d : m.platform->dims) {
        ring = ring || (d.wrap && d.size >= 3);
        spread += d.size > 1;
      }
      order_ = prm.text("order", ring && spread < 3 ? "mirror" : "plain");
      if (order_ != "mirror" && order_ != "plain")
        throw std::invalid_argument("--param order=" + order_ +
                                    ": expected mirror (each translation followed by its opposite) or plain");
      if (order_ == "mirror") torus_.phase_order = coll::mirrored_phase_order(torus_.sizes);
    }
    region_ = std::uint64_t(p_) * size_ + (algo_ == "tofu" ? coll::kBarrierBytes : 0);
    recv_base_ = recv_region_address(region_);
    end_.assign(std::size_t(p_), 0);
    const coll::Schedule s0 = schedule(0);
    steps_ = s0.size();
    for (const coll::Schedule& run : phase_runs(s0)) run_names_.push_back(run.front().phase);
    logs_.resize(run_names_.size());
  }

  nlohmann::json params() const override {
    nlohmann::json j = {{"algo", algo_}, {"size", size_}};
    if (algo_ == "tofu") j["barrier_every"] = opt_.barrier_every;
    if (algo_ == "a2at") j["order"] = order_;
    if (skew_) j["skew_ns"] = double(skew_) / 1000.0;
    return j;
  }

  Footprint footprint() const override {
    coll::Call c;
    c.p = p_;
    c.size = size_;
    return collective_footprint(coll::find_algorithm(coll::Collective::kAlltoall, algo_), c);
  }

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
    co_await r.compute(staggered_start(r.rank(), p_, skew_));
    std::vector<coll::Schedule> runs = phase_runs(schedule(r.rank()));
    std::uint64_t work = 0;
    for (const coll::Schedule& s : runs) work += coll::work_units(s);
    r.plan_work(work);
    for (std::size_t j = 0; j < runs.size(); ++j) {
      co_await coll::run_schedule(r, runs[j], b, &ok_, j < logs_.size() ? &logs_[j] : nullptr, false);
      coll::Schedule().swap(runs[j]);  // its puts are done: free them
    }
    end_[std::size_t(r.rank())] = r.now();
  }

  void results(Results& v) override {
    v.latest(end_);
    v.phases(logs_);
    v.all(ok_);
  }

  Outcome outcome(HostMemory* m) override {
    Outcome o = collective_outcome(end_, double(p_ - 1) * double(size_), ok_);
    o.details = {{"ranks", p_},
                 {"fastest_rank_ns", double(*std::min_element(end_.begin(), end_.end()) - kStart) / 1000.0},
                 {"steps", steps_},
                 {"phases", phases()}};
    if (algo_ == "tofu") {
      o.details["barrier_every"] = opt_.barrier_every;
      o.details["barriers"] = coll::tofu_barriers(p_, opt_.barrier_every);
    }
    // The bounds hold for an all-to-all among every node, one rank each.
    if (std::uint64_t(p_) == m_.platform->nodes() && m_.platform->rank_nodes.empty()) {
      const analysis::AlltoallBounds b = analysis::alltoall_bounds(*m_.platform, size_);
      nlohmann::json j = {{"injection_ns", b.injection_ns}, {"binding", b.binding}};
      if (b.network_ns > 0) {  // Yazaki et al. 2015's formula (1): a mesh/torus
        j["network_ns"] = b.network_ns;
        j["routing_ns"] = b.routing_ns;
        o.details["lower_bound_ns"] = b.network_ns;
        o.details["ratio_to_network_bound"] = o.latency_ns / b.network_ns;
      }
      if (!b.note.empty()) j["note"] = b.note;
      o.details["bounds"] = std::move(j);
      o.details["ratio_to_bound"] = o.latency_ns / b.largest_ns();
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
  coll::Schedule schedule(int rank) const { return coll::alltoall(algo_, rank, p_, size_, 1, opt_); }

  // Each stretch of one phase: when its last rank left it, and how long
  // after the previous stretch's end; "round" counts a phase that recurs
  // (tofu: exchange 1, barrier 1, exchange 2, ...).
  nlohmann::json phases() const {
    nlohmann::json j = nlohmann::json::array();
    sim::Time prev = kStart;
    std::vector<int> seen(run_names_.size(), 0);
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

  MachineInfo m_;
  std::string algo_, order_;
  coll::TorusRanks torus_;
  coll::AlltoallOptions opt_;
  std::uint64_t size_ = 0, region_ = 0, recv_base_ = 0;
  std::size_t steps_ = 0;
  int p_ = 0;
  sim::Time skew_ = 0;  // --param skew_ns, in ps
  std::vector<sim::Time> end_;
  std::vector<const char*> run_names_;  // each phase stretch's name, in schedule order
  std::vector<coll::PhaseLog> logs_;    // and when its ranks left it
  bool ok_ = true;
};

}  // namespace

std::unique_ptr<Workload> make_alltoall(Params& p, const MachineInfo& m) {
  return std::make_unique<Alltoall>(p, m);
}

}  // namespace kairo::sw
