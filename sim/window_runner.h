// Conservative synchronisation of a partitioned run (docs/parallel.md):
// every process runs its own partition's events in
// windows no longer than the lookahead, then the processes exchange what
// crossed between them and agree on the next window.
//
//   window = [t, min(t + lookahead, next sync event after t))   t = the earliest event anywhere
//
// Nothing sent in a window can take effect in it: every message over a cut
// link acts at least `lookahead` after it was sent (the partitioner's
// minimum over cut links of cable plus the hop's fixed part). Idle time is
// skipped: a window starts at the earliest pending event anywhere. A sync
// event (priority kPrioSync: a phase boundary, a counter sample) always
// starts a window, so every message sent before it has been delivered when it
// runs.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "sim/event_queue.h"
#include "sim/mpi_world.h"

namespace kairo::sim {

// This process's side of the cut: what it sent other processes during a
// window, and what to do with what they sent.
class Boundary {
 public:
  virtual ~Boundary() = default;
  // The window's messages, per destination process; the boundary starts the
  // next window empty.
  virtual void take_outgoing(std::vector<std::vector<char>>& out) = 0;
  // Process `from`'s messages of the window that ended at `window_end`, in
  // the order it made them. No event they cause may be before window_end.
  virtual void deliver(int from, const std::vector<char>& bytes, Time window_end) = 0;
  // From now on, messages go only to processes this one shares links with
  // (run_windows' peers): then windows may run without a global agreement.
  virtual bool links_only() const { return true; }
};

// Several boundaries as one (the router links' and the runtime's): each
// one's messages to a process, framed by their length, in the parts' order.
class Boundaries final : public Boundary {
 public:
  explicit Boundaries(std::vector<Boundary*> parts) : parts_(std::move(parts)) {}
  void take_outgoing(std::vector<std::vector<char>>& out) override;
  void deliver(int from, const std::vector<char>& bytes, Time window_end) override;
  bool links_only() const override;

 private:
  std::vector<Boundary*> parts_;
  std::vector<std::vector<std::vector<char>>> each_;  // per part, per process
  std::vector<char> one_;
};

// The deadlock watchdog of a partitioned run: one process cannot tell a
// stuck network from a partition waiting on another's, so the watchdog's
// question is asked of every process at once, between windows, whenever no
// packet has moved anywhere for `timeout` (or nothing is left to run).
struct StillnessWatch {
  Time timeout = kNever;
  std::function<Time()> last_progress;  // this process's latest packet movement
  // Every process calls it together; true stops the run (a deadlock found
  // and reported). `anything_left`: some process still has events.
  std::function<bool(Time now, bool anything_left)> check;
};

// Progress lines of a partitioned run (kairo's progress on stderr, from
// process 0 only): process 0 says, in the window's agreement, when a line is
// due (every `every_s` of wall time); then every process gives its figures,
// they are summed, and process 0 prints a line from the sums.
struct WindowProgress {
  double every_s = 2.0;
  std::function<std::vector<std::uint64_t>()> figures;  // this process's, to sum
  std::function<void(Time now, const std::vector<std::uint64_t>& sums, double wall_s)> print;
};

struct WindowStats {
  std::uint64_t windows = 0;
  std::uint64_t bytes_sent = 0;        // by this process, to the others
  std::uint64_t global_exchanges = 0;  // windows whose messages also went beyond the peers
  std::uint64_t agreements = 0;        // windows that began with a global agreement
  double run_s = 0;                    // running this process's events
  double sync_s = 0;                   // exchanging and agreeing (waiting for the others included)
};

// Runs the queue to the end of the simulation, window by window, with every
// other process: each window, the boundary's messages are exchanged (with
// the peers, or with every process) and delivered, then one reduction agrees
// on the next window's start (the earliest event anywhere), whether any
// process stopped, the latest packet movement, and whether a progress line
// or an exchange beyond the peers is due. Every process must schedule the same sync events (kPrioSync:
// phase boundaries, counter samples); a window never runs past one. Ends
// when no process has an event left, or when any process's queue was
// stopped (the watchdog); then every queue is stopped.
struct WindowOptions {
  const StillnessWatch* watch = nullptr;
  const WindowProgress* progress = nullptr;  // null: no progress lines
  // The processes this one shares cut links with (the same relation on
  // every process: p is among q's peers iff q is among p's). A window's
  // messages go to them point to point; a message for another process (the
  // registrations' one broadcast) makes that window also exchange with every
  // process. Null: every window exchanges with every process.
  const std::vector<int>* peers = nullptr;
  // With peers: when an agreement finds no idle time ahead (the next event
  // anywhere is within a lookahead of the window's end) and every boundary
  // is links_only(), the next windows follow each other without agreeing
  // (each a lookahead long, cut at sync events, which every process has
  // alike): 1, 2, 4 ... up to this many between agreements, back to 1 when
  // an agreement finds idle time. 0: agree every window.
  int max_unagreed = 32;
};

WindowStats run_windows(EventQueue& queue, const MpiWorld& world, Boundary& boundary, Time lookahead,
                        const WindowOptions& options = {});

}  // namespace kairo::sim
