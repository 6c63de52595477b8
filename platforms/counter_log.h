// Per-interval counter logs (`kairo run --counters FILE --interval 10us`):
// every interval, per router port (a link's two directions: what this end
// sent and what it received), packets, flits and bytes each way, busy time
// of the output link, stall time of packets waiting for it, and per VC the
// time the downstream VC had no credits (Tofu's VC-full); per RDMA engine,
// commands, DMA bytes read and written, packets, and the command queue's
// depth at the interval's end. Times are in picoseconds (cycles = ps / the
// clock period in the header). Rows whose counters are all zero are left
// out: a missing row means an idle link.
//
// Two formats, chosen by the file name: `.csv` (one row per link or engine
// and interval, carrying its coordinates, peer, dimension and direction so a
// reader needs no netlist) and `.kcl` (kairo counter log: a JSON header with
// the link and engine tables, then per interval only the active rows as
// varints: at K-computer scale a few bytes per active counter). docs/counters.md
// has both schemas.
//
// The writer names no counter: its tables and columns are the counter sets
// the blocks registered (platforms/observe_blocks.h); the reader is in
// counter_log_reader.cpp.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hw/common/watchdog.h"
#include "observe/registry.h"
#include "platforms/network.h"
#include "platforms/rdma_machine.h"
#include "sim/event_queue.h"
#include "sim/mpi_world.h"

namespace kairo::platforms {

inline constexpr char kCounterLogMagic[8] = {'K', 'A', 'I', 'R', 'O', 'C', 'L', '1'};

class CounterLog : public sim::EventTarget {
 public:
  // Throws std::invalid_argument naming --counters or --interval on bad input.
  // In a partitioned run (`world` parallel) every process samples its own
  // blocks and process 0 alone writes the file, rows in block order, exactly
  // as one process would.
  CounterLog(Network& net, RdmaMachine* machine, sim::EventQueue& q, sim::Time interval_ps,
             const std::string& path, const sim::MpiWorld* world = nullptr);
  // Over any registry: one table per registered table name, in registration
  // order (the header's `vcs` counts the zero-credit columns, one per VC).
  // `watchdog` (may be null): an armed one does not keep the log sampling.
  CounterLog(observe::Registry blocks, sim::EventQueue& q, sim::Time interval_ps, sim::Time clock_period_ps,
             const std::string& path, const hw::Watchdog* watchdog, const sim::MpiWorld* world = nullptr);
  ~CounterLog() override;
  void start();  // schedule the first interval's end
  // The blocks' counters are about to restart from zero at `now` (a traffic
  // run's warm-up end resets the routers' counters), and have just done so:
  // the log carries every total across the reset (its interval still shows
  // what happened before the reset and after it), instead of reading a
  // total that fell as a huge difference.
  void before_reset(sim::Time now) { rebase(now, false); }
  void after_reset(sim::Time now) { rebase(now, true); }
  void finish();  // the run ended: log the last (partial) interval, close the file
  void on_event(std::uint32_t, std::uint32_t, void*) override;
  std::uint64_t intervals() const { return intervals_; }
  std::uint64_t rows() const { return rows_; }

 private:
  struct Writer;
  // A table of the log: the sets whose rows it holds, one after the other,
  // and per set where its log columns are among its counters.
  struct Table {
    std::string name;
    std::vector<const observe::CounterSet*> sets;
    std::vector<std::vector<std::uint16_t>> columns;  // [set][column]: counter index
    std::vector<std::uint64_t> keep;  // [column]: ~0 for a total (prev keeps it), 0 for a level
    std::vector<std::string> names;   // [column]
    std::size_t rows = 0;             // blocks over its sets
    std::vector<std::uint64_t> prev;  // [row][column]: totals at the last sample
  };
  // One table's rows that moved in an interval: (row, the columns' figures).
  struct Moved {
    std::vector<std::uint32_t> rows;
    std::vector<std::uint64_t> figures;  // rows.size() x the table's columns
  };
  void header(sim::Time clock_period_ps);
  template <class Fn>
  void each_row(Table& t, sim::Time now, Fn fn);
  void collect(Table& t, sim::Time now, Moved& out);
  void emit(const Table& t, const Moved& m, sim::Time now);
  // Partitioned runs: every process's moved rows, merged in row order on process 0.
  void gather(std::vector<Moved>& moved);
  std::string entry(const Table& t, std::size_t row, bool first) const;
  observe::Place place(const Table& t, std::size_t row) const;
  void sample(sim::Time now);
  void rebase(sim::Time now, bool after);
  observe::Registry blocks_;
  std::vector<Table> tables_;
  sim::EventQueue& q_;
  const hw::Watchdog* watchdog_;
  sim::Time interval_, last_ = 0;
  std::vector<std::uint64_t> values_;  // one block's counters, reused every read
  std::string rows_buf_;               // kcl: a table's rows of this interval, reused
  std::unique_ptr<Writer> out_;
  const sim::MpiWorld* world_ = nullptr;  // partitioned runs; null or one process: alone
  std::uint64_t intervals_ = 0, rows_ = 0;
  bool done_ = false, pending_ = false;
};

// Reading a log back (both formats): what `kairo view` and the tests use.
// The reader names no table: it reads whatever tables the log holds, each
// with its column names and its rows' labels, so a block kind that
// registers a new table is read back with no edit here.
//
// One row of a table as the log labels it (observe::Place): a link end is
// its router, port, coordinates, peer, peer's port, dimension and
// direction; an engine its node, `port` tni<k> and coordinates, the rest
// empty.
struct CounterRow {
  std::string unit, port, coord, peer, peer_port, dim, dir;
};
struct CounterTable {
  std::string name;                 // "link", "tni", "alloc", ...
  std::vector<std::string> fields;  // its columns
  std::vector<CounterRow> rows;     // what an interval's row index names
  // The column named `field`, or -1.
  int field(const std::string& field) const;
};
struct CounterLogData {
  sim::Time interval_ps = 0, clock_period_ps = 0;
  int vcs = 1;
  std::vector<CounterTable> tables;  // in the log's order
  // The table named `name`, or null if the log has none (a run without
  // engines has no "tni" rows; "alloc" only when routers count allocation).
  const CounterTable* table(const std::string& name) const;
  // Its position in `tables` (the index of an interval's rows), or -1.
  int table_index(const std::string& name) const;
  using Rows = std::vector<std::pair<std::uint32_t, std::vector<std::uint64_t>>>;  // (row, fields)
  struct Interval {
    sim::Time start = 0, end = 0;
    std::vector<Rows> rows;  // [table]: the rows active in the interval
    // Table `t`'s active rows (none if t < 0).
    const Rows& of(int t) const {
      static const Rows none;
      return t < 0 || std::size_t(t) >= rows.size() ? none : rows[std::size_t(t)];
    }
  };
  std::vector<Interval> intervals;
  // By table name: its rows' labels, and an interval's active rows (none
  // if the log has no such table).
  const std::vector<CounterRow>& rows(const std::string& table) const;
  const Rows& in(const Interval& iv, const std::string& table) const { return iv.of(table_index(table)); }
};
// Throws std::runtime_error naming the file and what is wrong.
CounterLogData read_counter_log(const std::string& path);

}  // namespace kairo::platforms
