// A collective algorithm as a schedule: for one rank, a list of steps, each
// a set of puts to post and then a set of arrivals to wait for. Schedules
// are plain data built from (rank, ranks, sizes) alone, so unit tests can
// inspect them without a network (tests/test_collectives.cpp), and one
// executor (run_schedule) runs any of them through the firmware API.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace kairo::coll {

struct Put {
  int to = 0;                    // destination rank
  std::uint64_t src_offset = 0;  // in this rank's send region
  std::uint64_t dst_offset = 0;  // in the destination's receive region
  std::uint64_t bytes = 0;
  std::uint32_t tag = 0;   // raised at the destination
  int tni = 0;             // which of this rank's TNIs posts it (taken modulo their number)
  bool from_recv = false;  // read from this rank's receive region instead (forwarding what arrived)
};

struct Wait {
  int from = 0;  // the rank whose put this is (for checks; arrival is matched by tag)
  std::uint32_t tag = 0;
};

struct Step {
  std::vector<Put> puts;    // posted at once at the start of the step
  std::vector<Wait> waits;  // then the step ends when all of these have arrived
};

using Schedule = std::vector<Step>;

// Consistency of a whole algorithm, every rank's schedule given: every put
// is waited for exactly once by its destination with its tag, every wait
// has its put, and no rank waits twice for one tag. Empty when consistent,
// otherwise what is wrong (the first few problems).
std::vector<std::string> check_schedules(const std::vector<Schedule>& per_rank);

}  // namespace kairo::coll
