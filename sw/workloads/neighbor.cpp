// The neighbor exchange's part of the collective program
// (collective_run.h): its process grid (`--param grid`, `nics`), where its
// messages start and land, and what it adds to the details.
#include "sw/workloads/neighbor.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

namespace kairo::sw {

namespace {

// neighbor: message k of rank r (pattern r x 16 + k) at k x size in its
// send region; the message from direction k lands at k x size in the
// receive region.
int pattern_id(int sender, int k) { return sender * 16 + k; }
std::uint64_t message_at(const CollectiveRun& w, int k) { return std::uint64_t(k) * w.size(); }
int messages(const CollectiveRun& w) { return int(2 * w.grid().dims.size()); }
void neighbor_setup(const CollectiveRun& w, HostMemory& m) {
  for (int r = 0; r < w.ranks(); ++r)
    for (int k = 0; k < messages(w); ++k) fill_pattern(m, r, message_at(w, k), w.size(), pattern_id(r, k));
}
bool neighbor_verify(const CollectiveRun& w, HostMemory& m) {
  bool v = true;
  for (int r = 0; r < w.ranks() && v; ++r)
    for (int k = 0; k < messages(w) && v; ++k)
      v = check_pattern(m, r, w.recv_base() + message_at(w, k), pattern_id(w.grid().neighbor(r, k ^ 1), k),
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
void neighbor_details(const CollectiveRun& w, Outcome& o) {
  o.details["neighbors"] = 2 * w.grid().dims.size();
  o.details["placement"] = w.grid().rank_at.empty() ? "rank order" : "topology";
}

// 2r messages of `size` bytes reach each rank.
double neighbor_bytes(const coll::Call& c) { return double(2 * c.grid->dims.size()) * double(c.size); }

}  // namespace

const Spec kNeighborSpec{
    .collective = coll::Collective::kNeighbor,
    .summary = "exchange with the 2r neighbors of a periodic process grid over n NICs",
    .size_default = 1 << 20,
    .size_max = std::uint64_t(1) << 30,
    .bytes = neighbor_bytes,
    .steps_detail = "steps",
    .ranks_detail = false,
    .data = {neighbor_setup, neighbor_verify, "a received message is not the one its neighbor sent"},
    .own = {"grid, nics", neighbor_prepare, neighbor_params, neighbor_details}};

}  // namespace kairo::sw
