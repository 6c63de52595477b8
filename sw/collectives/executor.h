// Runs one rank's schedule through the firmware API: each step posts its
// puts (on the TNIs they name), waits for the step's arrivals by tag, then
// for its own puts' completions, so the next step may reuse the buffers and
// the completion queue never fills, and last runs the step's local ops.
#pragma once
#include <string>
#include <vector>

#include "firmware/rank.h"
#include "sw/collectives/schedule.h"

namespace kairo::coll {

// Where a rank's two regions are: registered under the same memids on every
// rank (a put's destination key is looked up with them), at these local
// addresses (for the ops).
struct Buffers {
  int send_memid = 0, recv_memid = 0;
  std::uint64_t send_address = 0, recv_address = 0;
  double reduce_bytes_per_s = 1e10;  // an op's arithmetic: a sum takes 2 x bytes / rate, a copy bytes / rate
};

// When each phase of an algorithm ended: the latest time any rank finished
// a step of it. Shared by all ranks of a run; phases in order of first end.
class PhaseLog {
 public:
  void record(const char* phase, sim::Time t);
  struct Entry {
    std::string name;
    sim::Time first = 0;  // the earliest time a rank finished a step of it: the order
    sim::Time end = 0;
  };
  // Another part of the same run's log (a run split over processes): ends
  // are the later, first times the earlier, phases in order of first end
  // (ties in the order of this log, then of `other`).
  void merge(const PhaseLog& other);
  void add(std::string name, sim::Time first, sim::Time end) {
    entries_.push_back(Entry{std::move(name), first, end});
  }
  const std::vector<Entry>& entries() const { return entries_; }

 private:
  std::vector<Entry> entries_;
};

// Runs `s`. `plans_work`: first announce the schedule's work (work_units)
// to the run's progress lines (fw::Rank::plan_work); a program running
// several schedules passes false and announces their sum itself, once.
fw::Task run_schedule(fw::Rank& r, const Schedule& s, const Buffers& b, bool* ok = nullptr,
                      PhaseLog* phases = nullptr, bool plans_work = true);
// A schedule's work for the progress lines: the bytes of its puts, which the
// rank's engines' DMA reads as they send them (the lines compare the
// engines' dma_bytes_read against the sum).
std::uint64_t work_units(const Schedule& s);

}  // namespace kairo::coll
