// The all-to-all's part of the collective program (collective_run.h):
// where its blocks start and land, a2at's phase order, and the figures it
// adds: the fastest rank, the algorithm's knobs, and the lower bounds of
// analysis/bounds.h where they hold.
#include "sw/workloads/alltoall.h"

#include <algorithm>
#include <cstring>

#include "analysis/bounds.h"
#include "sw/collectives/alltoall.h"

namespace kairo::sw {

namespace {

// Byte i of the block rank `src` sends to rank `dst`.
unsigned char block_byte(int src, int dst, std::uint64_t i) {
  return static_cast<unsigned char>(i * 13 + std::uint64_t(src) * 29 + std::uint64_t(dst) * 71 + (i >> 9));
}

// Send region at 0, receive region at the next 4 KiB; the own block copied in place.
void alltoall_setup(const CollectiveRun& w, HostMemory& m) {
  const std::uint64_t size = w.size();
  std::vector<unsigned char> b(size);
  for (int r = 0; r < w.ranks(); ++r)
    for (int d = 0; d < w.ranks(); ++d) {
      for (std::uint64_t i = 0; i < size; ++i) b[i] = block_byte(r, d, i);
      m.write(r, std::uint64_t(d) * size, b.data(), b.size());
      if (d == r) m.write(r, w.recv_base() + std::uint64_t(r) * size, b.data(), b.size());
    }
}

// Every rank's receive region holds, at j x size, the block rank j addressed to it.
bool alltoall_verify(const CollectiveRun& w, HostMemory& m) {
  const std::uint64_t size = w.size();
  std::vector<unsigned char> got(size);
  bool v = true;
  for (int r = 0; r < w.ranks() && v; ++r)
    for (int j = 0; j < w.ranks() && v; ++j) {
      m.read(r, w.recv_base() + std::uint64_t(j) * size, got.data(), got.size());
      for (std::uint64_t i = 0; i < size && v; ++i) v = got[i] == block_byte(j, r, i);
    }
  return v;
}

bool takes_order(const CollectiveRun& w) { return std::strcmp(w.algorithm().name, "a2at") == 0; }

// a2at's --param order: mirrored phases by default where a ring has two
// directions to use and the translations go in plain numbering (one or two
// dimensions with links: coll::phase_offset); with three or more the mixed
// order already moves both ways, and mirroring measured slower
// (docs/collectives.md).
void alltoall_prepare(CollectiveRun& w, Params& prm, const MachineInfo& m) {
  if (!takes_order(w)) return;
  bool ring = false;
  int spread = 0;
  for (const auto& d : m.platform->dims) {
    ring = ring || (d.wrap && d.size >= 3);
    spread += d.size > 1;
  }
  const std::string order = prm.text("order", ring && spread < 3 ? "mirror" : "plain");
  if (order != "mirror" && order != "plain")
    throw std::invalid_argument("--param order=" + order +
                                ": expected mirror (each translation followed by its opposite) or plain");
  if (order == "mirror") w.torus().phase_order = coll::mirrored_phase_order(w.torus().sizes);
}

void alltoall_params(const CollectiveRun& w, nlohmann::json& j) {
  if (takes_order(w)) j["order"] = w.torus().phase_order.empty() ? "plain" : "mirror";
  if (w.skew()) j["skew_ns"] = double(w.skew()) / 1000.0;
}

void alltoall_details(const CollectiveRun& w, Outcome& o) {
  const auto& end = w.ends();
  o.details["fastest_rank_ns"] = double(*std::min_element(end.begin(), end.end()) - kStart) / 1000.0;
  for (const coll::Knob& k : w.algorithm().knobs) o.details[k.name] = w.call().*k.member;
  // The bounds hold for an all-to-all among every node, one rank each.
  const platforms::Platform& p = *w.machine().platform;
  if (std::uint64_t(w.ranks()) != p.nodes() || !p.rank_nodes.empty()) return;
  const analysis::AlltoallBounds b = analysis::alltoall_bounds(p, w.size());
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

// (p - 1) x size per rank: the own block is not sent.
double all_but_own(const coll::Call& c) { return double(c.p - 1) * double(c.size); }

}  // namespace

const Spec kAlltoallSpec{.collective = coll::Collective::kAlltoall,
                         .summary = "all-to-all of size bytes per pair",
                         .size_default = 32 * 1024,
                         .too_few = "alltoall: needs at least 2 ranks",
                         .bytes = all_but_own,
                         .steps_detail = "steps",
                         .timing = Timing::kPhaseRuns,
                         .skew = true,
                         .data = {alltoall_setup, alltoall_verify,
                                  "a receive block does not hold what its sender addressed to it"},
                         .own = {"order", alltoall_prepare, alltoall_params, alltoall_details}};

}  // namespace kairo::sw
