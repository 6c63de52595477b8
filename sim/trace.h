// Waveform recording: value changes of selected signals, written as VCD (a
// text format every waveform viewer reads) or FST (GTKWave's compressed
// format, through the writer Debian's verilator package ships).
//
// The model is event-driven and computes many times ahead of the event that
// decides them (a packet's tail leaves a link at a time known when its head
// departs), so changes arrive out of time order. The recorder keeps them as
// they come and orders them when it writes: at one time, the change recorded
// last wins. A delta signal records increments (a buffer's occupancy goes up
// when a packet arrives and down when it leaves) and is integrated in time
// order at write time.
//
// Signal names are hierarchical, dots separating scopes
// ("rtr_x1y0z0a0b1c0.xp.vc2_occupancy"), so GTKWave's tree reads like the
// machine. Nothing is recorded unless a signal was added: a component holds
// a null probe when it is not traced and pays one branch.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/time.h"

namespace kairo::sim {

class Trace {
 public:
  using Signal = std::uint32_t;

  // A signal of `width` bits (1: a wire). `delta`: changes are increments.
  Signal add(const std::string& path, int width, bool delta = false);
  // A value of an enumerated signal and its name ("1 read"), for readers
  // that show states by name (platforms/gtkw.h). Tables are static
  // declarations beside the block that records the signal; the trace keeps a
  // pointer. A signal whose values are too many to list (a packet's label)
  // names them by a function instead, for the values the run shows.
  struct State {
    std::uint64_t value;
    const char* name;
  };
  struct States {
    const char* table = nullptr;  // the table's name: "dma", "route", "packet"
    const State* states = nullptr;
    std::size_t count = 0;
    std::string (*name_of)(std::uint64_t) = nullptr;  // values not in `states`; null: none
  };
  void set_states(Signal s, States st) { signals_[s].states = st; }
  const States& states(Signal s) const { return signals_[s].states; }
  int width(Signal s) const { return signals_[s].width; }
  // Record from `from` to `to` only (both inclusive); values before `from`
  // set the signals' values at `from`.
  void set_window(Time from, Time to) {
    from_ = from;
    to_ = to;
  }
  Time window_from() const { return from_; }
  Time window_to() const { return to_; }

  void set(Signal s, Time t, std::uint64_t v) {
    if (t <= to_) changes_.push_back(Change{t, s, v});
  }
  void add_delta(Signal s, Time t, std::int64_t d) {
    if (t <= to_) changes_.push_back(Change{t, s, std::uint64_t(d)});
  }

  // Partitioned runs (docs/parallel.md): each process records the signals
  // of the blocks it runs. Process 0 takes every other process's changes
  // from `first` on (first: the count when the run began) and appends them;
  // a signal's changes all come from one process, in their recorded order.
  struct Change {
    Time t;
    Signal s;
    std::uint64_t v;
  };
  const std::vector<Change>& changes() const { return changes_; }
  void append(const Change& c) { changes_.push_back(c); }

  std::size_t num_signals() const { return signals_.size(); }
  std::size_t num_changes() const { return changes_.size(); }
  const std::string& name(Signal s) const { return signals_[s].path; }

  // The value changes as written: for each time from `from` (the initial
  // values) on, in signal order, each signal's final value at that time when
  // it differs from before. Both writers emit exactly this.
  struct Emitted {
    Time t;
    Signal s;
    std::uint64_t v;
  };
  std::vector<Emitted> emitted() const;

  // Throw std::runtime_error naming the file when it cannot be written.
  void write_vcd(const std::string& path) const;
  void write_fst(const std::string& path) const;
  // Before a run with --fst: throws std::invalid_argument unless the
  // temporary directory write_fst needs ($TMPDIR, else /tmp) takes a file.
  static void check_fst_temp(const std::string& path);

 private:
  struct Info {
    std::string path;
    int width;
    bool delta;
    States states;
  };
  std::vector<Info> signals_;
  std::vector<Change> changes_;
  Time from_ = 0, to_ = kNever;
};

}  // namespace kairo::sim
