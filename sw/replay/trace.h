// An MPI application's communication as the replay needs it (docs/traces.md):
// per rank, the MPI calls it made in program order, each with the compute
// time before it and the actions inside it (sends, posted receives,
// completions, collectives), plus the communicators those name. Plain data,
// read from an OTF2 archive by read_otf2 (otf2_reader.cpp) and checked by
// plan() (plan.h) before anything is built, so unit tests can make traces by
// hand.
#pragma once
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace kairo::replay {

// A trace that cannot be replayed (missing, truncated or corrupt archive, a
// record naming something undefined, ranks that disagree): what and where.
struct TraceError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline constexpr int kAnySource = -1;
inline constexpr int kAnyTag = -1;

// What a rank does, in its program order.
enum class Act : std::uint8_t {
  kCall,        // an MPI call begins: `call` names it, `bytes` is the compute before it (ns, as traced)
  kEnd,         // that call ends
  kSend,        // to `peer` (world rank) on `comm` with `tag`, `bytes`; `request` 0: blocking
  kRecv,        // post a receive from `peer` (or kAnySource) with `tag` (or kAnyTag) on `comm`;
                // `request` 0: blocking (wait for it at once)
  kComplete,    // wait until `request` has completed
  kCollective,  // the rank's `bytes`-th collective (Trace::collectives)
  kSkip,        // nothing: a receive the trace cancelled or never completed
};

struct Action {
  Act act = Act::kCall;
  std::uint16_t call = 0;  // kCall: index into Trace::call_names
  std::int32_t peer = 0;
  std::int32_t tag = 0;
  std::uint32_t comm = 0;  // index into Trace::comms
  std::uint64_t bytes = 0;
  std::uint64_t request = 0;  // the trace's request id, or a synthetic one (bit 63) for a sendrecv
};

// OTF2's collective operations that the replay runs (OTF2_CollectiveOp).
enum class CollOp : std::uint8_t {
  kBarrier,
  kBcast,
  kGather,
  kScatter,
  kAllgather,
  kAlltoall,
  kAllreduce,
  kReduce,
  kReduceScatter,
  kScan,
  kCreateHandle,  // a communicator created (MPI_Comm_split, _dup, _create)
  kOther,         // recorded, takes no time (handle destruction, window allocation, ...)
};
const char* coll_name(CollOp op);

struct Collective {
  CollOp op = CollOp::kBarrier;
  bool vector = false;  // a v-variant (gatherv, alltoallv, ...)
  std::uint32_t comm = 0;
  std::int32_t root = -1;                // comm rank, -1 when none
  std::uint64_t sent = 0, received = 0;  // bytes, as OTF2 records them (Score-P's convention)
};

struct Comm {
  std::string name;
  std::vector<int> members;  // world ranks in communicator-rank order
  bool self = false;         // MPI_COMM_SELF: each rank alone (members empty)
};

struct Trace {
  std::string path;
  int ranks = 0;
  std::vector<std::string> call_names;
  std::vector<Comm> comms;
  std::vector<std::vector<Action>> actions;          // per world rank
  std::vector<std::vector<Collective>> collectives;  // per world rank, in order
  // What the trace itself measured, per rank: from the end of its first MPI
  // call (MPI_Init) to the start of its last (MPI_Finalize), ns.
  std::vector<std::uint64_t> recorded_ns;
  std::string clock = "wall";  // the tracer's clock (KAIRO::CLOCK): wall or cpu
  std::uint64_t wall_ns = 0;   // KAIRO::WALL_NS: the traced run's wall time, 0 if not recorded
  // MPI calls the replay does not know (one-sided, I/O, ...), with how many
  // times they were made over all ranks; replayed as their compute gap only.
  std::map<std::string, std::uint64_t> unknown_calls;
  // Receive requests the trace never completed nor cancelled (left out).
  std::uint64_t dropped_receives = 0;
};

// Reads an OTF2 archive (the anchor file, DIR/traces.otf2). Throws
// TraceError naming the file and what is wrong.
Trace read_otf2(const std::string& anchor);

}  // namespace kairo::replay
