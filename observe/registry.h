// What blocks say about themselves to the outputs that observe them and to
// the processes of a partitioned run: their counters (name, unit, one-line
// meaning, how to read them), their state (how to hand a block's counters to
// another process's copy of it), their waveform signals (name, width, the
// probe slot they are recorded through) and how a traced block attaches its
// probe. The counter log (platforms/counter_log.h), the JSON summary's
// counters, the waveform tracer (platforms/tracing.h) and a split run's
// counter transfer (app/run_parallel.cpp) iterate what is registered here
// and name no block themselves.
//
// Counters are registered per set of like blocks (every router port of a
// network, every RDMA engine of a machine), never per block: a set holds
// its block count and two functions, one reading block i's values into a
// caller's array (no allocation), one naming block i when an output needs
// the name (at K-computer scale, stored names would cost a gigabyte).
// Waveform signals are registered per kind of block too (TraceSet), with
// the signal classes a selection chooses from (SignalClass).
// Registering happens once, at elaboration; nothing here runs per event.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "sim/byte_codec.h"
#include "sim/time.h"
#include "sim/trace.h"

namespace kairo::observe {

// kTotal: a running total (outputs show an interval's difference or a sum
// over blocks); kHigh: a high-water mark (the most over blocks); kLevel: a
// value now (shown as it is).
enum class Kind : std::uint8_t { kTotal, kHigh, kLevel };

// Which outputs show a counter.
enum Shown : std::uint8_t {
  kInLog = 1,      // the counter log (--counters): one column
  kInTable = 2,    // the per-block table (--tni-counters)
  kInSummary = 4,  // the JSON summary: summed (kTotal) or the most (kHigh, as NAME_max); ps totals in ns
};

struct Counter {
  std::string name;     // "packets_sent", "zero_credit_ps_vc2"
  const char* unit;     // "packets", "bytes", "ps", "commands", "entries"
  const char* meaning;  // one line
  Kind kind = Kind::kTotal;
  std::uint8_t shown = kInLog;
  std::string log_name;  // the counter log's column when it is not `name`
  const std::string& column() const { return log_name.empty() ? name : log_name; }
};

// Where a block sits, in the counter log's label columns: its unit (router,
// switch, node), port, coordinates, the peer unit and port its link leads
// to, the dimension and direction of that link, and an index (an RDMA
// engine's number on its node).
struct Place {
  std::string unit, port, coord, peer, peer_port, dim, dir;
  int index = 0;
};

// Where a block lives, for a run split over processes: on a router (its
// index in the network: a router port) or on a node (a host: its RDMA
// engines, its optical port). The partition gives each its process.
struct Home {
  enum Where : std::uint8_t { kRouter, kNode } where;
  std::uint64_t index;
};

// A block's state as it moves between processes: after a split run, every
// block's counters into process 0's copy of it, which the outputs read.
// Only blocks that did something are sent (an untouched block reads the
// same in every copy). Sets without state (save empty) are not moved.
struct State {
  std::function<Home(std::size_t i)> home;
  std::function<bool(std::size_t i)> touched;
  // Block i's counters and what reading them needs (credits, open
  // intervals), written and read back in the same order.
  std::function<void(std::size_t i, sim::ByteWriter& w)> save;
  std::function<void(std::size_t i, sim::ByteReader& r)> load;
};

// A set of like blocks and the counters each keeps.
struct CounterSet {
  std::string table;  // the counter-log table its rows go to: "link" or "tni"
  std::string scope;  // the blocks' kind in hierarchical names: "rtr", "ocs", "tni"
  std::vector<Counter> counters;
  std::size_t blocks = 0;
  // Block i's values at `now`, in `counters` order, into out[0..counters.size()).
  // `now` closes intervals still open (a circuit wait): 0 closes none.
  std::function<void(std::size_t i, sim::Time now, std::uint64_t* out)> read;
  std::function<Place(std::size_t i)> place;
  // Block i's hierarchical name: scope, coordinates (or switch), port or
  // index: "rtr x0y1.xp", "rtr edge0.up1", "tni x0y0.1", "ocs x3y0.p3".
  std::string name(std::size_t i) const;
  State state;
};

// A waveform signal class (--trace-signals): its name, and whether a
// selection that names no class records it (a class off by default keeps the
// default waveform's bytes when it is added).
struct SignalClass {
  const char* name;
  bool by_default = true;
};

// What a waveform records, as the blocks ask it when they attach: parsed by
// the tracer from its options (platforms/tracing.h), read by TraceSet::attach.
struct TraceFilter {
  std::vector<char> nodes;        // per node id: selected (--trace-nodes, --trace-box)
  std::set<std::string> units;    // switch names (--trace-switches); empty: all
  std::set<std::string> dims;     // port dimensions in lower case (--trace-dims); empty: all
  std::set<std::string> classes;  // the signal classes to record (--trace-signals)
  std::string indices;            // blocks' indices within a node as given (--trace-tnis); empty: all
  bool node(std::uint64_t id) const { return nodes[std::size_t(id)] != 0; }
  bool unit(const std::string& name) const { return units.empty() || units.count(name) > 0; }
  // `dim` as a block names it ("X", "ni", "up"), in any case.
  bool dim(const std::string& dim) const;
  bool selected(const char* signal_class) const { return classes.count(signal_class) > 0; }
};

// A traced block's recording: it owns what the block records through (its
// probe) for as long as the waveform is written, and detaches the block when
// destroyed.
class Recording {
 public:
  virtual ~Recording() = default;
  // Whether the JSON summary counts the block as traced (TraceSet::counted_as).
  virtual bool counted() const { return true; }
};

// A kind of block a waveform can record, in the order its blocks' signals
// are declared.
struct TraceSet {
  std::size_t blocks = 0;
  // The JSON summary's count of the blocks traced ("routers"); null: not counted.
  const char* counted_as = nullptr;
  // Checks the parts of the selection only this kind reads, before any of
  // its blocks attaches (throws std::invalid_argument naming the option).
  // May be empty.
  std::function<void(const TraceFilter& f)> prepare;
  // Block i's selected signals added to `trace` under its name and its probe
  // pointed at them; null when the selection leaves it nothing.
  std::function<std::unique_ptr<Recording>(std::size_t i, const TraceFilter& f, sim::Trace& trace)> attach;
};

class Registry {
 public:
  void add(CounterSet s) { sets_.push_back(std::move(s)); }
  void add(TraceSet t) { traced_.push_back(std::move(t)); }
  void add(SignalClass c) { classes_.push_back(c); }
  const std::vector<CounterSet>& sets() const { return sets_; }
  const std::vector<TraceSet>& traced() const { return traced_; }
  // In the order --trace-signals lists them.
  const std::vector<SignalClass>& signal_classes() const { return classes_; }
  // The sets whose rows go to `table`, in registration order.
  std::vector<const CounterSet*> table(const std::string& name) const;
  // The counter-log tables in the order they were first registered.
  std::vector<std::string> tables() const;

 private:
  std::vector<CounterSet> sets_;
  std::vector<TraceSet> traced_;
  std::vector<SignalClass> classes_;
};

// A set's counters shown in the summary (kInSummary), over its blocks:
// kTotal summed, kHigh the most (as NAME_max), ps totals in ns
// ("circuit_wait_ps" -> "circuit_wait_ns").
nlohmann::json summary(const CounterSet& s);
// The same in two steps: the set's totals (kTotal summed, kHigh the most,
// over its blocks), and the summary of totals of `counters` (which may have
// been added up elsewhere: a split run's processes).
std::vector<std::uint64_t> totals(const CounterSet& s);
// One block's `values` into `total`, as totals() adds them.
void add_to_totals(const std::vector<Counter>& counters, const std::uint64_t* values,
                   std::vector<std::uint64_t>& total);
nlohmann::json summary(const std::vector<Counter>& counters, const std::vector<std::uint64_t>& totals);

// A waveform signal a block offers: its name under the block's scope, its
// width, whether its changes are increments (sim::Trace::add), the signal
// class that selects it (--trace-signals) and the slot of the block's probe
// it is recorded through; an enumerated signal also names its values
// (`states`, shown by name in a GTKWave save file: platforms/gtkw.h).
// A slot holding one signal per port (Slot = std::vector<sim::Trace::Signal>)
// is filled at the port's index by add_signals_at.
template <class Probe, class Slot = sim::Trace::Signal>
struct Signal {
  const char* name;
  int width;
  bool delta;
  const char* signal_class;
  Slot Probe::*slot;
  sim::Trace::States states = {};
};

// Adds `signals` whose class is selected under `scope` ("nic_x0y0.tni1.")
// and points the probe's slots at them; true if any was added.
template <class Probe, class Selected, std::size_t N>
bool add_signals(sim::Trace& trace, const std::string& scope, const Signal<Probe> (&signals)[N], Probe& probe,
                 const Selected& selected) {
  bool any = false;
  for (const Signal<Probe>& s : signals)
    if (selected(s.signal_class)) {
      probe.*(s.slot) = trace.add(scope + s.name, s.width, s.delta);
      if (s.states.table) trace.set_states(probe.*(s.slot), s.states);
      any = true;
    }
  return any;
}
template <class Probe, class Slot, class Selected, std::size_t N>
bool add_signals_at(sim::Trace& trace, const std::string& scope, const Signal<Probe, Slot> (&signals)[N],
                    Probe& probe, std::size_t index, const Selected& selected) {
  bool any = false;
  for (const Signal<Probe, Slot>& s : signals)
    if (selected(s.signal_class)) {
      (probe.*(s.slot))[index] = trace.add(scope + s.name, s.width, s.delta);
      if (s.states.table) trace.set_states((probe.*(s.slot))[index], s.states);
      any = true;
    }
  return any;
}

}  // namespace kairo::observe
