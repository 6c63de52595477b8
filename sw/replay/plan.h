// What the replay works out from a trace before anything runs
// (docs/traces.md): every point-to-point message numbered (per sender in
// program order, and per sender-receiver pair, which is the sequence number
// its protocol messages carry), every collective matched over its
// communicator's members into one instance with the size and algorithm all
// members run, and the buffers each rank needs. Ranks that disagree (a
// collective one member makes and another does not) are a TraceError here,
// not a hang later.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "sw/collectives/algorithms.h"
#include "sw/collectives/schedule.h"
#include "sw/replay/trace.h"

namespace kairo::replay {

struct Message {
  int src = 0, dst = 0;
  std::uint32_t seq = 0;  // among src's messages to dst
  std::uint32_t comm = 0;
  std::int32_t tag = 0;
  std::uint64_t bytes = 0;
};

// One collective call as all members of its communicator run it.
struct Instance {
  CollOp op = CollOp::kBarrier;
  std::uint32_t comm = 0;
  int p = 1;
  int root = 0;  // comm rank
  std::uint64_t size =
      0;             // the algorithm's size: the vector (reductions, bcast) or the block (gather, alltoall)
  std::string algo;  // empty: runs nothing (p = 1, or a handle's destruction)
  std::uint64_t traced_bytes = 0;  // sizeSent summed over the members, as recorded
};

struct Options {
  std::uint64_t eager_limit = 12288;  // largest message sent eagerly (bytes)
  std::uint64_t header_bytes = 32;    // a protocol header: the eager header, a request to send, a finish
  // Per collective (coll_name), an algorithm replacing the default rule.
  std::map<std::string, std::string> algorithms;
};

struct Plan {
  int ranks = 0;
  std::vector<Message> messages;             // sender-major: rank s's k-th send is first_message[s] + k
  std::vector<std::uint64_t> first_message;  // per rank, and the total at [ranks]
  // Per receiver, per sender: the messages' indices in sequence order.
  std::vector<std::unordered_map<int, std::vector<std::uint64_t>>> inbound;
  std::vector<Instance> instances;
  std::vector<std::vector<std::uint32_t>> instance_of;  // per rank, per collective of it: the instance
  // Per rank: the largest message it sends, the largest it receives by
  // rendezvous, and the regions its collectives need.
  std::vector<std::uint64_t> max_send, max_recv, coll_send, coll_recv;
  // Point to point per (sender, receiver): messages and bytes.
  std::map<std::pair<int, int>, std::pair<std::uint64_t, std::uint64_t>> pairs;
};

// Throws std::invalid_argument for an algorithm override that names no
// collective or an algorithm it does not have (before any trace is read).
void check_options(const Options& o);

// Throws TraceError (naming the ranks, the communicator and the call) when
// members of a communicator disagree on its collectives, or
// std::invalid_argument for an unknown algorithm override.
Plan make_plan(const Trace& t, const Options& o);

// The algorithm a collective of `p` members and `size` bytes runs without
// an override: a rule after Open MPI's tuned decisions (docs/traces.md).
std::string default_algorithm(CollOp op, int p, std::uint64_t size);
// The algorithms a collective can be given by `--param algo.NAME=`: those
// of sw/collectives' table that run on any communicator (coll::Algorithm::
// traced), and Open MPI's linear scan ("chain", instance_schedule's own).
const std::vector<std::string>& algorithms(CollOp op);
// The collective of sw/collectives an MPI collective runs as (a created
// communicator's handle is agreed by an allreduce); false for a scan and
// for what takes no time.
bool collective_of(CollOp op, coll::Collective* c);

// Instance `in`'s schedule for its member of comm rank `me`, with world
// ranks for destinations and every tag offset by `tag_base` (the
// algorithm's own tags stay below 2^16).
coll::Schedule instance_schedule(const Instance& in, const std::vector<int>& members, int me,
                                 std::uint32_t tag_base);

}  // namespace kairo::replay
