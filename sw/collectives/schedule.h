// A collective algorithm as a schedule: for one rank, a list of steps, each
// a set of puts to post and then a set of arrivals to wait for. Schedules
// are plain data built from (rank, ranks, sizes) alone, so unit tests can
// inspect them without a network (tests/firmware/test_fw_collectives.cpp,
// test_fw_reductions.cpp), and one executor (run_schedule) runs any of them
// through the firmware API.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sw/collectives/small_vec.h"

namespace kairo::coll {

// 40 bytes (a barrier's step holds one): the fields are laid out for size,
// the constructor takes them in the order they are written in. `tni` holds
// 30 bits: the algorithms spread puts by a peer's index (a rank), and a
// machine has far fewer ranks than 2^29 (the event queue allows 2^23 router
// ports in all).
struct Put {
  Put() : Put(0, 0, 0, 0) {}
  Put(int to_rank, std::uint64_t src, std::uint64_t dst, std::uint64_t n, std::uint32_t tag_ = 0,
      int tni_ = 0, bool from_recv_ = false, bool to_send_ = false, int after_ = -1)
      : to(to_rank),
        tag(tag_),
        src_offset(src),
        dst_offset(dst),
        bytes(n),
        tni(tni_),
        from_recv(from_recv_),
        to_send(to_send_),
        after(after_) {}

  int to = 0;                    // destination rank
  std::uint32_t tag = 0;         // raised at the destination
  std::uint64_t src_offset = 0;  // in this rank's send region
  std::uint64_t dst_offset = 0;  // in the destination's receive region
  std::uint64_t bytes = 0;
  int tni : 30;        // which of this rank's TNIs posts it (taken modulo their number)
  bool from_recv : 1;  // read from this rank's receive region instead (forwarding what arrived)
  bool to_send : 1;    // land in the destination's send region instead (an in-place allgather)
  // A relay: posted as soon as the step's wait number `after` has arrived
  // (the step then takes its waits in arrival order) instead of at its start.
  int after = -1;
};
static_assert(sizeof(Put) == 40);

struct Wait {
  int from = 0;  // the rank whose put this is (for checks; arrival is matched by tag)
  std::uint32_t tag = 0;
};

// A local operation on this rank's buffers, run after the step's arrivals:
// kSum adds `bytes` of doubles of the receive region into the send region,
// in a fixed operand order so every run gives the same bits; kCopy copies
// them. The rank spends the memory accesses plus the reduction rate's time.
struct Op {
  enum class Kind : std::uint8_t { kSum, kCopy };
  Kind kind = Kind::kSum;
  std::uint64_t recv_offset = 0;  // operand in the receive region
  std::uint64_t send_offset = 0;  // operand and result in the send region
  std::uint64_t bytes = 0;        // a multiple of 8 for kSum
  bool recv_first = false;        // kSum: result = recv + send when true, send + recv otherwise
};

// Most steps hold one put and one wait (every barrier step, most reduction
// steps) and no op, so those lists keep one element inline and the ops none:
// a step is 88 bytes and usually needs no heap block (with std::vector for
// the three it was 88 bytes and two blocks).
struct Step {
  using Puts = SmallVec<Put, 1>;
  using Waits = SmallVec<Wait, 1>;
  using Ops = SmallVec<Op, 0>;

  Step() = default;
  Step(Puts p, Waits w, Ops o = {}, const char* ph = "")
      : puts(std::move(p)), waits(std::move(w)), ops(std::move(o)), phase(ph) {}

  Puts puts;               // posted at once at the start of the step
  Waits waits;             // then the step ends when all of these have arrived
  Ops ops;                 // and these local operations have run
  const char* phase = "";  // the algorithm's phase this step belongs to ("scatter", "counter_copy", ...)
  // false: the step ends without waiting for its puts' completions, which
  // are collected when the TNI's window fills, before an op rewrites the
  // bytes one of them reads, or when the schedule ends. A put over a 10 ms
  // wide-area link would otherwise cost a 20 ms round trip per step.
  bool complete_puts = true;
};

static_assert(sizeof(Step) == 88);

using Schedule = std::vector<Step>;

// Consistency of a whole algorithm, every rank's schedule given: every put
// is waited for exactly once by its destination with its tag, every wait
// has its put, and no rank waits twice for one tag. Empty when consistent,
// otherwise what is wrong (the first few problems).
std::vector<std::string> check_schedules(const std::vector<Schedule>& per_rank);

}  // namespace kairo::coll
