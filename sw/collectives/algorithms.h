// Every collective algorithm, described once: its collective, name, builder,
// rank-count rule, memory footprint, one-line doc and knobs. Everything
// that names an algorithm reads this table (sw/collectives/algorithms.cpp):
// the workloads' `--param algo=` and its error naming the valid names, their
// summaries in `kairo run --help`, the memory check before a run, the trace
// replay's choices. A new algorithm is its builder's source file and one
// entry in the table.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sw/collectives/schedule.h"

namespace kairo::coll {

struct TorusRanks;
struct Grid;

// The collectives, each a workload of the same name (collective_name).
enum class Collective : std::uint8_t {
  kBarrier,
  kBcast,
  kScatter,
  kGather,
  kAllgather,
  kAllreduce,
  kReduceScatter,
  kReduce,
  kAlltoall,
  kNeighbor,
};
inline constexpr int kCollectives = int(Collective::kNeighbor) + 1;
const char* collective_name(Collective c);  // "barrier", "reduce-scatter", ...

// One rank's call of a collective: what a builder reads. The first six
// members are the reductions' (sw/collectives/allreduce.h: Reduction).
struct Call {
  int rank = 0, p = 1, root = 0;
  std::uint64_t size = 0;  // bytes: the vector, block or message, per the collective
  int streams = 1;         // knob "streams": ranks crossing between the two clusters at once
  std::uint32_t tag_base = 1;
  int barrier_every = 0;                             // knob "barrier_every" (alltoall tofu); 0 = the default
  const TorusRanks* torus = nullptr;                 // the ranks' mesh/torus places (alltoall a2at, tofu)
  const Grid* grid = nullptr;                        // the process grid (neighbor)
  int nics = 1;                                      // NICs a neighbor exchange spreads over
  std::uint64_t max_descriptor = ~std::uint64_t(0);  // the NIC's largest put (neighbor)
};

// What an algorithm's buffers take, from the call's shape alone (the ranks,
// the size, the knobs; nothing is built): the send and receive regions one
// rank registers at most, and the bytes data mode keeps over all ranks (every
// region that is filled before the run or written by a put or a sum).
struct Memory {
  double send_bytes = 0, recv_bytes = 0, written_bytes = 0;
};

// A knob an algorithm takes as `--param NAME=` (besides algo and size), with
// its default and range for p ranks.
struct Knob {
  const char* name;  // "streams", "barrier_every"
  int (*deflt)(int p);
  int lo;
  int (*hi)(int p);
  int Call::*member;  // where the value goes
  const char* doc;    // one line, with its default and range as formulas of p
};

// A figure an algorithm adds to a run's details, from the call alone
// (tofu: how many barriers its groups take).
struct Figure {
  const char* name;
  long long (*value)(const Call& c);
};

struct Algorithm {
  Collective collective;
  const char* name;  // `--param algo=`; the first of a collective is its default
  const char* doc;   // one line
  // Empty when the call is allowed, otherwise why not (the rank count or a
  // knob the algorithm cannot take): the whole message, "--param algo=...".
  std::string (*refuse)(const Call& c);
  Schedule (*build)(const Call& c);
  Memory (*memory)(const Call& c);
  std::vector<Knob> knobs = {};
  bool needs_torus = false;  // one rank on every node of a mesh/torus (Call::torus)
  bool traced = false;       // the trace replay may run it on any communicator (no knob, no placement)
  std::vector<Figure> figures = {};
};

// Its rank-count rule in words, for listings ("any", "even", ...): from the
// entry's own rule, tried on the rank counts 1 .. 64 (knobs at their
// defaults, a size every rule accepts).
std::string rank_rule(const Algorithm& a);

// The table, collectives in enum order, each collective's algorithms in the
// order its workload lists them.
const std::vector<Algorithm>& algorithms();
// A collective's algorithm names, the default first.
const std::vector<std::string>& algorithm_names(Collective c);
// "a, b, c": the names for messages and summaries.
std::string algorithm_list(Collective c);
// The algorithm `name` of collective `c`; throws std::invalid_argument
// "--param algo=NAME: expected one of: a, b, c" for an unknown name.
const Algorithm& find_algorithm(Collective c, const std::string& name);
// Checks the call (Algorithm::refuse, std::invalid_argument) and builds it.
Schedule build(const Algorithm& a, const Call& c);
Schedule build(Collective c, const std::string& name, const Call& call);

}  // namespace kairo::coll
