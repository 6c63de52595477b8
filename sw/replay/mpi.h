// The replay's MPI (docs/traces.md): one rank's trace run through the
// firmware API. Point to point goes over the NIC as Open MPI's ob1 does it:
// a message up to the eager limit is put with its header into the
// receiver's bounce buffer and copied out when a receive matches it; a
// larger one sends a request to send, and the receiver, once a receive
// matches it, gets the data from the sender's buffer and puts a finish back
// (which completes the sender's request). Receives match in MPI's order (by
// communicator, source and tag, wildcards included; messages of one sender
// in the order it sent them), progress happens only inside MPI calls, and
// collectives run kairo's algorithms (sw/collectives) on the communicator's
// members. On the hybrid EPS+OCS network a message the optical network
// carries is pushed along its route (EO-OE relays, sw/hybrid/forwarding.h).
#pragma once
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "firmware/rank.h"
#include "sw/collectives/executor.h"
#include "sw/hybrid/forwarding.h"
#include "sw/replay/plan.h"

namespace kairo::replay {

// A protocol message's tag: the top three bits say what it is, the rest
// number it (a sequence number, or a message's index for a routed one).
// Collectives keep the tags below 2^29.
enum class Kind : std::uint32_t { kCollective = 0, kEager = 1, kRts = 2, kFin = 3, kRouted = 4, kRelay = 5 };
inline constexpr std::uint32_t kKindShift = 29;
inline constexpr std::uint32_t kNumberMask = (1u << kKindShift) - 1;
inline std::uint32_t protocol_tag(Kind k, std::uint64_t n) {
  return (std::uint32_t(k) << kKindShift) | std::uint32_t(n & kNumberMask);
}

// Memory ids of the replay's regions (the collectives' are 1 and 2).
inline constexpr int kSendMemid = 10, kRecvMemid = 11, kEagerMemid = 12, kTransitMemid = 13;

// What the ranks share: the trace, its plan, the machine's mapping and the
// figures the ranks record (each rank writes only its own slots).
struct Replay {
  const Trace* trace = nullptr;
  const Plan* plan = nullptr;
  Options options;
  sim::Time start = 0;              // when every rank starts its trace
  double compute_scale = 1.0;       // traced compute time x this
  double copy_bytes_per_s = 1e10;   // an eager message's copy out of the bounce buffer
  std::vector<int> fw_rank;         // trace rank -> the machine's rank it runs as
  std::vector<int> trace_of_node;   // node -> trace rank (-1: none)
  std::vector<std::uint32_t> node;  // trace rank -> node
  // The hybrid network with pathways: the route of every (sender,
  // receiver) pair the optical network carries (the pattern workload's
  // routes, from the trace's byte matrix), taken by each of its messages
  // above the threshold; and how many messages each rank relays.
  bool hybrid = false;
  std::uint64_t ocs_threshold = 0;
  std::unordered_map<std::uint64_t, std::vector<hybrid::Hop>> routes;  // (src << 32 | dst) -> hops
  const std::vector<hybrid::Hop>* route(const Message& m) const {
    if (!hybrid || m.bytes <= ocs_threshold) return nullptr;
    auto it = routes.find((std::uint64_t(m.src) << 32) | std::uint32_t(m.dst));
    return it == routes.end() ? nullptr : &it->second;
  }
  std::vector<std::uint64_t> relays;
  std::uint64_t transit_bytes = 8;
  // Recorded, per trace rank: when it finished, its compute time, and its
  // time inside each call kind (rank x call_names).
  std::vector<std::uint64_t> end_ps, compute_ps, call_ps;
  // Where each rank is: the index of the action it is at (for a rank that
  // never finishes).
  std::vector<std::uint64_t> at_action;
  bool ok = true;
  std::vector<std::uint64_t> errors;  // per trace rank: operations that completed with an error
};

// Rank `me` of the trace, run as `r`.
fw::Task replay_rank(fw::Rank& r, Replay& rp, int me);

// Why rank `me` has not finished: the call it is in and what it waits for.
std::string waiting_for(const Replay& rp, int me);

}  // namespace kairo::replay
