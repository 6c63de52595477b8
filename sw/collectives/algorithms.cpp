// The table of collective algorithms (sw/collectives/algorithms.h): each
// entry names its builder (in the collective's own source file), the rank
// counts it allows, what its buffers take, its doc line and its knobs.
#include "sw/collectives/algorithms.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <stdexcept>

#include "sw/collectives/allreduce.h"
#include "sw/collectives/alltoall.h"
#include "sw/collectives/barrier.h"
#include "sw/collectives/bcast.h"
#include "sw/collectives/gather.h"
#include "sw/collectives/neighbor.h"
#include "sw/collectives/pieces.h"

namespace kairo::coll {

namespace {

std::string needs(const Call& c, const char* algo, const char* what) {
  return fmt::format("--param algo={} needs {}, got {} ranks", algo, what, c.p);
}

// --- Rank-count rules ---

std::string any(const Call&) { return {}; }

// The reductions: doubles, at least two ranks.
std::string reduction_rule(const Call& c, const char* algo) {
  if (c.p < 2) return needs(c, algo, "at least 2 ranks");
  if (c.size % 8) return "--param size: expected a multiple of 8 bytes (doubles)";
  return {};
}

std::string streams_rule(const Call& c) {
  if (c.streams < 1 || c.streams > c.p / 2)
    return fmt::format("--param streams: expected 1..{} (ranks per cluster), got {}", c.p / 2, c.streams);
  return {};
}

// Matsuda et al.'s two-cluster reductions: two halves of 2^k ranks.
std::string two_cluster_reduction_rule(const Call& c, const char* algo) {
  if (auto why = reduction_rule(c, algo); !why.empty()) return why;
  if (c.p % 2 || !is_pow2(c.p / 2))
    return needs(c, algo, "two clusters of a power of two ranks each (2 x 2^k)");
  return streams_rule(c);
}

// The two-cluster broadcasts: an even rank count.
std::string two_cluster_bcast_rule(const Call& c, const char* algo) {
  if (c.p % 2)
    return fmt::format("--param algo={} splits the ranks into two clusters: needs an even rank count, got {}",
                       algo, c.p);
  return {};
}

// --- Memory: what a rank registers and what data mode keeps ---

// A reduction's receive regions, from its algorithm's slots, without
// building p schedules: `largest`, the most any rank registers (the largest
// recv_extent of a rank's schedule), and `written`, the bytes the puts land
// in them over all ranks, in units of the vector. Every rank's vector is
// filled in data mode and summed in place.
Memory reduction_memory(const Call& c, double largest, double written) {
  const double size = double(c.size);
  return {size, largest * size, size * c.p + written * size};
}
int log2_ceil(int n) {
  int k = 0;
  while ((1LL << k) < n) ++k;
  return k;
}
int half(int p) { return p / 2; }
int half_log2(const Call& c) { return log2_floor(std::max(half(c.p), 1)); }

// Every rank's receive region holds the message in the end; the send region is unused.
Memory bcast_memory(const Call& c) { return {8, double(c.size), double(c.size) * c.p}; }

// Every rank allocates p blocks to send and p blocks (and a token) to
// receive. Data mode writes: scatter, the root's p blocks and every rank's
// own block; gather, every rank's block, the root's p blocks and the
// tokens; allgather, every rank's p received blocks.
double blocks(const Call& c) { return double(c.p) * double(c.size); }
Memory block_memory(const Call& c, double written) {
  return {blocks(c), blocks(c) + double(kTokenBytes), written};
}

// Every rank: p blocks (and tofu's barrier signal) to send and to receive, all written.
Memory alltoall_memory(const Call& c, double extra) {
  const double region = blocks(c) + extra;
  return {region, region, 2 * region * c.p};
}

// Every rank's signal lands in its receive region (the send region is read, never written).
Memory barrier_memory(const Call& c) {
  return {double(kBarrierBytes), double(kBarrierBytes), double(kBarrierBytes) * c.p};
}

// Every rank sends 2r messages from its send region and receives 2r into its receive region.
Memory neighbor_memory(const Call& c) {
  const double region = double(2 * c.grid->dims.size()) * double(c.size);
  return {region, region, 2 * region * c.grid->ranks()};
}

// --- Knobs ---

int streams_default(int p) { return std::min(8, std::max(1, p / 2)); }
int streams_max(int) { return 1 << 20; }
const Knob kClusterStreams{"streams",
                           streams_default,
                           1,
                           streams_max,
                           &Call::streams,
                           "ranks crossing between the two clusters at once: 1 .. p/2, default min(8, p/2)"};
int gather_streams_default(int) { return 4; }
int all_but_one(int p) { return p - 1; }
const Knob kGatherStreams{"streams",   gather_streams_default, 1,
                          all_but_one, &Call::streams,         "senders at a time: 1 .. p - 1, default 4"};
const Knob kBarrierEvery{"barrier_every",
                         tofu_default_barrier_every,
                         1,
                         all_but_one,
                         &Call::barrier_every,
                         "phases between barriers: 1 .. p - 1, default ceil((p - 1) / 3)"};
long long tofu_barrier_count(const Call& c) { return tofu_barriers(c.p, c.barrier_every); }

// The mesh/torus all-to-alls: the map of ranks to places must be there and whole.
const TorusRanks& torus_of(const Call& c, const char* algo) {
  if (!c.torus)
    throw std::invalid_argument(std::string("alltoall ") + algo +
                                ": needs the ranks' mesh/torus coordinates");
  if (int(c.torus->node_of_rank.size()) != c.p)
    throw std::invalid_argument(std::string("alltoall ") + algo +
                                ": the torus holds another number of ranks");
  return *c.torus;
}

using C = Collective;

}  // namespace

const char* collective_name(Collective c) {
  static const char* const names[] = {"barrier",   "bcast",          "scatter", "gather",   "allgather",
                                      "allreduce", "reduce-scatter", "reduce",  "alltoall", "neighbor"};
  return names[int(c)];
}

const std::vector<Algorithm>& algorithms() {
  static const std::vector<Algorithm> table = {
      // Barriers over puts (barrier.h).
      {C::kBarrier,
       "recursive-doubling",
       "pairwise exchanges with rank xor 2^i among the first 2^n ranks",
       any,
       [](const Call& c) { return barrier_recursive_doubling(c.rank, c.p, c.tag_base); },
       barrier_memory,
       {},
       false,
       true},
      {C::kBarrier,
       "ring",
       "p - 1 steps round the ring",
       any,
       [](const Call& c) { return barrier_ring(c.rank, c.p, c.tag_base); },
       barrier_memory,
       {},
       false,
       true},
      {C::kBarrier,
       "dissemination",
       "ceil(log2 p) steps to rank + 2^i",
       any,
       [](const Call& c) { return barrier_dissemination(c.rank, c.p, c.tag_base); },
       barrier_memory,
       {},
       false,
       true},
      // Broadcasts (bcast.h).
      {C::kBcast,
       "binomial",
       "the whole message down a binomial tree",
       any,
       [](const Call& c) { return bcast_binomial(c.rank, c.p, c.root, c.size, c.tag_base); },
       bcast_memory,
       {},
       false,
       true},
      {C::kBcast,
       "vandegeijn",
       "van de Geijn: binomial scatter, then allgather",
       any,
       [](const Call& c) { return bcast_vandegeijn(c.rank, c.p, c.root, c.size, c.tag_base); },
       bcast_memory,
       {},
       false,
       true},
      {C::kBcast,
       "vandegeijn-ext",
       "Matsuda et al.'s extended van de Geijn over two clusters (even p)",
       [](const Call& c) {
         auto why = two_cluster_bcast_rule(c, "vandegeijn-ext");
         return why.empty() ? streams_rule(c) : why;
       },
       [](const Call& c) { return bcast_vandegeijn_ext(c.rank, c.p, c.root, c.size, c.streams, c.tag_base); },
       bcast_memory,
       {kClusterStreams}},
      {C::kBcast,
       "farfirst",
       "the other cluster's root first, then van de Geijn in each (even p)",
       [](const Call& c) { return two_cluster_bcast_rule(c, "farfirst"); },
       [](const Call& c) { return bcast_farfirst(c.rank, c.p, c.root, c.size, c.tag_base); },
       bcast_memory,
       {}},
      // Blocks (gather.h).
      {C::kScatter,
       "linear",
       "the root puts block j to rank j, all at once",
       any,
       [](const Call& c) { return scatter_linear(c.rank, c.p, c.root, c.size, c.tag_base); },
       [](const Call& c) { return block_memory(c, 2 * blocks(c)); },
       {},
       false,
       true},
      {C::kGather,
       "linear",
       "every rank puts its block to the root at once",
       any,
       [](const Call& c) { return gather_linear(c.rank, c.p, c.root, c.size, c.tag_base); },
       [](const Call& c) { return block_memory(c, 2 * blocks(c) + c.p * double(kTokenBytes)); },
       {},
       false,
       true},
      {C::kGather,
       "limited",
       "at most --param streams senders at a time",
       any,
       [](const Call& c) { return gather_limited(c.rank, c.p, c.root, c.size, c.streams, c.tag_base); },
       [](const Call& c) { return block_memory(c, 2 * blocks(c) + c.p * double(kTokenBytes)); },
       {kGatherStreams}},
      {C::kAllgather,
       "ring",
       "p - 1 steps forwarding round the ring",
       any,
       [](const Call& c) { return allgather_ring(c.rank, c.p, c.size, c.tag_base); },
       [](const Call& c) { return block_memory(c, c.p * blocks(c)); },
       {},
       false,
       true},
      {C::kAllgather, "recursive-doubling", "log2 p swaps of doubling ranges (p a power of two)",
       [](const Call& c) {
         return is_pow2(c.p)
                    ? std::string()
                    : needs(c, "recursive-doubling", "a power-of-two rank count") + " (algo=ring serves any)";
       },
       [](const Call& c) {
         Schedule s;
         allgather_doubling(s, Group::range(c.rank, 0, c.p), Parts{std::uint64_t(c.p) * c.size, c.p},
                            Buf::kRecv, c.tag_base, "allgather");
         return s;
       },
       [](const Call& c) { return block_memory(c, c.p * blocks(c)); }},
      // Reductions (allreduce.h); memory from each algorithm's receive slots.
      {C::kAllreduce,
       "recursive-doubling",
       "ceil(log2 p) exchanges of the whole vector",
       [](const Call& c) { return reduction_rule(c, "recursive-doubling"); },
       allreduce_recursive_doubling,
       [](const Call& c) {
         // round k's vector in slot k + 1; the ranks above 2^l hand theirs to slot 0 of their partner
         const int l = log2_floor(c.p), pow2 = 1 << l;
         return reduction_memory(c, l + 1.0, double(pow2) * l + (c.p - pow2));
       },
       {},
       false,
       true},
      {C::kAllreduce,
       "ring",
       "reduce-scatter then allgather round the ring",
       [](const Call& c) { return reduction_rule(c, "ring"); },
       allreduce_ring,
       [](const Call& c) { return reduction_memory(c, c.p - 1.0, c.p - 1.0); },
       {},
       false,
       true},
      {C::kAllreduce,
       "rabenseifner",
       "recursive halving then doubling",
       [](const Call& c) { return reduction_rule(c, "rabenseifner"); },
       allreduce_rabenseifner,
       // the pre-step's vector in slot 0, then halving on 2^l ranks from slot 1
       [](const Call& c) { return reduction_memory(c, log2_floor(c.p) + 1.0, c.p - 1.0); },
       {},
       false,
       true},
      {C::kAllreduce,
       "rabenseifner-ext",
       "Matsuda et al. §3.5 over two clusters of 2^k ranks",
       [](const Call& c) { return two_cluster_reduction_rule(c, "rabenseifner-ext"); },
       allreduce_rabenseifner_ext,
       // halving in each half, then counter_reduce's forward, across and back slots
       [](const Call& c) {
         return reduction_memory(c, half_log2(c) + (c.streams < half(c.p) ? 3.0 : 2.0), (c.p - 2.0) + 6.0);
       },
       {kClusterStreams}},
      {C::kAllreduce, "twotier", "Matsuda et al. §3.6 over two clusters of 2^k ranks",
       [](const Call& c) { return two_cluster_reduction_rule(c, "twotier"); }, allreduce_twotier,
       // halving in each half, then the two first members' exchange in slot log2 h
       [](const Call& c) { return reduction_memory(c, half_log2(c) + 1.0, (c.p - 2.0) + 2.0); }},
      {C::kReduceScatter,
       "ring",
       "p - 1 steps round the ring",
       [](const Call& c) { return reduction_rule(c, "ring"); },
       reduce_scatter_ring,
       [](const Call& c) { return reduction_memory(c, c.p - 1.0, c.p - 1.0); },
       {},
       false,
       true},
      {C::kReduceScatter,
       "halving",
       "recursive halving (p a power of two)",
       [](const Call& c) {
         auto why = reduction_rule(c, "halving");
         return why.empty() && !is_pow2(c.p) ? needs(c, "halving", "a power-of-two rank count") : why;
       },
       reduce_scatter_halving,
       [](const Call& c) { return reduction_memory(c, double(log2_floor(c.p)), c.p - 1.0); },
       {},
       false,
       true},
      {C::kReduce,
       "binomial",
       "the vector up a binomial tree",
       [](const Call& c) { return reduction_rule(c, "binomial"); },
       reduce_binomial,
       // round k's vector in slot k at the parent; the root has ceil(log2 p) rounds
       [](const Call& c) { return reduction_memory(c, double(log2_ceil(c.p)), c.p - 1.0); },
       {},
       false,
       true},
      {C::kReduce,
       "rabenseifner",
       "recursive halving then a binomial gather",
       [](const Call& c) { return reduction_rule(c, "rabenseifner"); },
       reduce_rabenseifner,
       [](const Call& c) { return reduction_memory(c, log2_floor(c.p) + 1.0, c.p - 1.0); },
       {},
       false,
       true},
      // All-to-all (alltoall.h).
      {C::kAlltoall,
       "a2a",
       "simple spread",
       any,
       [](const Call& c) { return alltoall_a2a(c.rank, c.p, c.size, c.tag_base); },
       [](const Call& c) { return alltoall_memory(c, 0); },
       {},
       false,
       true},
      {C::kAlltoall,
       "a2at",
       "topology-aware",
       any,
       [](const Call& c) { return alltoall_a2at(c.rank, torus_of(c, "a2at"), c.size, c.tag_base); },
       [](const Call& c) { return alltoall_memory(c, 0); },
       {},
       true},
      {C::kAlltoall,
       "tofu",
       "phased, with barriers",
       any,
       [](const Call& c) {
         return alltoall_tofu(c.rank, torus_of(c, "tofu"), c.size, c.tag_base,
                              c.barrier_every > 0 ? c.barrier_every : tofu_default_barrier_every(c.p));
       },
       [](const Call& c) { return alltoall_memory(c, double(kBarrierBytes)); },
       {kBarrierEvery},
       true,
       false,
       {{"barriers", tofu_barrier_count}}},
      {C::kAlltoall,
       "pairwise",
       "p - 1 pairwise exchanges",
       any,
       [](const Call& c) { return alltoall_pairwise(c.rank, c.p, c.size, c.tag_base); },
       [](const Call& c) { return alltoall_memory(c, 0); },
       {},
       false,
       true},
      // Neighbor exchange (neighbor.h).
      {C::kNeighbor, "native", "whole messages, one per NIC per step", any,
       [](const Call& c) {
         return neighbor_native(*c.grid, c.rank, c.nics, c.size, c.tag_base, c.max_descriptor);
       },
       neighbor_memory},
      {C::kNeighbor, "fragment", "messages cut so every NIC is busy in every step", any,
       [](const Call& c) {
         return neighbor_fragment(*c.grid, c.rank, c.nics, c.size, c.tag_base, c.max_descriptor);
       },
       neighbor_memory},
  };
  return table;
}

std::string rank_rule(const Algorithm& a) {
  // The rules the table's entries state, most general first; a rule none of
  // them names is listed by its rank counts.
  struct Named {
    const char* text;
    bool (*allows)(int p);
  };
  static const Named kNamed[] = {
      {"any", [](int) { return true; }},
      {"p >= 2", [](int p) { return p >= 2; }},
      {"p even", [](int p) { return p % 2 == 0; }},
      {"p a power of two", [](int p) { return is_pow2(p); }},
      {"p = 2^k, k >= 1", [](int p) { return p >= 2 && is_pow2(p); }},
  };
  constexpr int kTried = 64;
  std::vector<bool> allowed(kTried + 1, false);
  for (int p = 1; p <= kTried; ++p) {
    Call c{0, p, 0, 8, 1, 1};
    for (const Knob& k : a.knobs) c.*k.member = std::max(k.lo, std::min(k.deflt(p), k.hi(p)));
    allowed[std::size_t(p)] = a.refuse(c).empty();
  }
  for (const Named& n : kNamed) {
    bool same = true;
    for (int p = 1; p <= kTried && same; ++p) same = allowed[std::size_t(p)] == n.allows(p);
    if (same) return n.text;
  }
  std::vector<int> ps;
  for (int p = 1; p <= kTried; ++p)
    if (allowed[std::size_t(p)]) ps.push_back(p);
  return fmt::format("p in {{{}}} (of 1 .. {})", fmt::join(ps, ", "), kTried);
}

const std::vector<std::string>& algorithm_names(Collective c) {
  static const std::vector<std::vector<std::string>> names = [] {
    std::vector<std::vector<std::string>> n(static_cast<std::size_t>(kCollectives));
    for (const Algorithm& a : algorithms()) n[std::size_t(a.collective)].emplace_back(a.name);
    return n;
  }();
  return names[std::size_t(c)];
}

std::string algorithm_list(Collective c) { return fmt::format("{}", fmt::join(algorithm_names(c), ", ")); }

const Algorithm& find_algorithm(Collective c, const std::string& name) {
  for (const Algorithm& a : algorithms())
    if (a.collective == c && name == a.name) return a;
  throw std::invalid_argument(fmt::format("--param algo={}: expected one of: {}", name, algorithm_list(c)));
}

Schedule build(const Algorithm& a, const Call& c) {
  if (auto why = a.refuse(c); !why.empty()) throw std::invalid_argument(why);
  return a.build(c);
}

Schedule build(Collective c, const std::string& name, const Call& call) {
  return build(find_algorithm(c, name), call);
}

}  // namespace kairo::coll
