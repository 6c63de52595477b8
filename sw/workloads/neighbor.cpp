#include "sw/workloads/neighbor.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "sw/collectives/algorithms.h"
#include "sw/collectives/executor.h"
#include "sw/collectives/neighbor.h"

namespace kairo::sw {

namespace {

// The most cube-like a x b x c = p with every side >= 3, or none.
std::vector<int> cube_grid(int p) {
  std::vector<int> best;
  for (int a = 3; a * a * a <= p; ++a)
    for (int b = a; a * b * b <= p; ++b)
      if (p % (a * b) == 0 && p / (a * b) >= b) best = {a, b, p / (a * b)};
  return best;
}

class Neighbor final : public Workload {
 public:
  Neighbor(Params& prm, const MachineInfo& m) {
    algo_ = algorithm_param(prm, coll::algorithm_names(coll::Collective::kNeighbor));
    size_ = prm.bytes("size", 1 << 20, 1, std::uint64_t(1) << 30);
    max_descriptor_ = m.platform->nic.max_descriptor_bytes;
    // Every put of a message has its own tag and schedule entry: keep the
    // count a rank posts within what a schedule and the tags hold.
    constexpr std::uint64_t kMaxPuts = 1 << 16;
    if ((size_ - 1) / max_descriptor_ + 1 > kMaxPuts)
      throw std::invalid_argument(fmt::format(
          "--param size={}B: a message over nic.max_descriptor_size ({}B) would take more than {} puts; "
          "expected a size of at most {}B, or a larger nic.max_descriptor_size",
          size_, max_descriptor_, kMaxPuts, kMaxPuts * max_descriptor_));
    nics_ = int(prm.integer("nics", m.tnis, 1, m.tnis));
    const std::string grid = prm.text("grid", "auto");
    if (grid == "auto") {
      // The topology's own grid, placed one hop per neighbor, when it has
      // one (a 3D torus, a 6D Tofu); otherwise the most cube-like in rank order.
      if (m.topology && m.platform->ranks() == m.topology->num_nodes()) {
        std::vector<int> rank_of_node(m.topology->num_nodes());
        for (int r = 0; r < m.nodes; ++r) rank_of_node[m.platform->node_of_rank(std::uint64_t(r))] = r;
        grid_ = coll::topology_grid(*m.topology, rank_of_node);
      }
      if (grid_.dims.empty()) grid_.dims = cube_grid(m.nodes);
      if (grid_.dims.empty())
        throw std::invalid_argument(
            fmt::format("--param grid: {} ranks have no 3-dimensional grid with every side >= 3; give one, "
                        "e.g. grid=4x4x6",
                        m.nodes));
    } else {
      for (std::size_t at = 0; at <= grid.size();) {
        const std::size_t x = std::min(grid.find('x', at), grid.size());
        const std::string part = grid.substr(at, x - at);
        char* end = nullptr;
        const long v = std::strtol(part.c_str(), &end, 10);
        if (part.empty() || *end || v < 3 || v > 1 << 20)
          throw std::invalid_argument("--param grid=" + grid +
                                      ": expected sizes >= 3 joined by x, e.g. 4x4x6");
        grid_.dims.push_back(int(v));
        at = x + 1;
      }
      if (grid_.ranks() != m.nodes)
        throw std::invalid_argument(fmt::format("--param grid={}: expected {} ranks in all, the grid has {}",
                                                grid, m.nodes, grid_.ranks()));
    }
    end_.assign(std::size_t(m.nodes), 0);
  }

  nlohmann::json params() const override {
    return {{"algo", algo_}, {"size", size_}, {"nics", nics_}, {"grid", grid_.dims}};
  }

  std::uint64_t region() const { return std::uint64_t(2 * grid_.dims.size()) * size_; }
  std::uint64_t recv_base() const { return (region() + 4095) / 4096 * 4096; }
  static int pattern_id(int sender, int k) { return sender * 16 + k; }

  Footprint footprint() const override {
    const coll::Memory mem = coll::find_algorithm(coll::Collective::kNeighbor, algo_).memory(call(0));
    return {mem.written_bytes, whole_bytes(collective_rank_bytes(mem.send_bytes, mem.recv_bytes))};
  }

  void setup(HostMemory& m) override {
    for (int r = 0; r < grid_.ranks(); ++r)
      for (int k = 0; k < int(2 * grid_.dims.size()); ++k)
        fill_pattern(m, r, std::uint64_t(k) * size_, size_, pattern_id(r, k));
  }

  coll::Call call(int rank) const {
    coll::Call c{rank, grid_.ranks(), 0, size_, 1, 1};
    c.grid = &grid_;
    c.nics = nics_;
    c.max_descriptor = max_descriptor_;
    return c;
  }
  coll::Schedule schedule(int rank) const {
    return coll::build(coll::Collective::kNeighbor, algo_, call(rank));
  }

  fw::Task program(fw::Rank& r) override {
    const coll::Buffers b = collective_buffers(r, region(), region());
    co_await r.compute(kStart);
    co_await coll::run_schedule(r, schedule(r.rank()), b, &ok_);
    end_[std::size_t(r.rank())] = r.now();
  }

  void results(Results& v) override {
    v.latest(end_);
    v.all(ok_);
  }

  Outcome outcome(HostMemory* m) override {
    Outcome o = collective_outcome(end_, double(region()), ok_);
    o.details = {{"steps", schedule(0).size()},
                 {"neighbors", 2 * grid_.dims.size()},
                 {"placement", grid_.rank_at.empty() ? "rank order" : "topology"}};
    if (m) {
      bool v = true;
      for (int r = 0; r < grid_.ranks() && v; ++r)
        for (int k = 0; k < int(2 * grid_.dims.size()) && v; ++k)
          v = check_pattern(*m, r, recv_base() + std::uint64_t(k) * size_,
                            pattern_id(grid_.neighbor(r, k ^ 1), k), size_);
      set_verified(o, v, "a received message is not the one its neighbor sent");
    }
    return o;
  }

 private:
  std::string algo_;
  std::uint64_t size_ = 0, max_descriptor_ = 0;
  int nics_ = 1;
  coll::Grid grid_;
  std::vector<sim::Time> end_;
  bool ok_ = true;
};

}  // namespace

std::unique_ptr<Workload> make_neighbor(Params& p, const MachineInfo& m) {
  return std::make_unique<Neighbor>(p, m);
}

}  // namespace kairo::sw
