// The counter log's writer (platforms/counter_log.h): its tables and columns
// are the counter sets the blocks registered; it names none of them.
#include "platforms/counter_log.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "platforms/observe_blocks.h"
#include "sim/output_file.h"

namespace kairo::platforms {

namespace {

void put_varint(std::string& b, std::uint64_t v) {
  while (v >= 0x80) {
    b.push_back(char(v | 0x80));
    v >>= 7;
  }
  b.push_back(char(v));
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool is_delta(observe::Kind k) { return k == observe::Kind::kTotal; }  // totals: the interval's difference

}  // namespace

// Buffers one interval's rows and appends them to the file. A write that
// fails during the run (a full disk) does not stop the run: the log stops
// there, its file is removed, and finish() reports the failure.
struct CounterLog::Writer {
  std::unique_ptr<sim::OutputFile> f;
  bool csv = true;
  std::string path, buf, error;
  void flush() {
    if (f && !buf.empty()) {
      try {
        f->write(buf);
      } catch (const sim::OutputError& e) {
        error = e.what();
        f.reset();
      }
    }
    buf.clear();
  }
};

CounterLog::CounterLog(Network& net, RdmaMachine* machine, sim::EventQueue& q, sim::Time interval_ps,
                       const std::string& path, const sim::MpiWorld* world)
    : CounterLog(observe_blocks(net, machine), q, interval_ps,
                 net.num_routers() ? net.router_at(0).clock_period_ps() : 1, path, &net.watchdog(), world) {}

CounterLog::CounterLog(observe::Registry blocks, sim::EventQueue& q, sim::Time interval_ps,
                       sim::Time clock_period_ps, const std::string& path, const hw::Watchdog* watchdog,
                       const sim::MpiWorld* world)
    : blocks_(std::move(blocks)),
      q_(q),
      watchdog_(watchdog),
      interval_(interval_ps),
      out_(std::make_unique<Writer>()),
      world_(world && world->parallel() ? world : nullptr) {
  if (interval_ps == 0) throw std::invalid_argument("--interval: expected a duration above zero, e.g. 10us");
  out_->path = path;
  if (ends_with(path, ".kcl"))
    out_->csv = false;
  else if (!ends_with(path, ".csv"))
    throw std::invalid_argument("--counters " + path + ": expected a file name ending in .csv or .kcl");
  // One table per registered table name; the sets of a table must log the
  // same columns (the optical ports share the routers' link columns).
  std::size_t widest = 0;
  for (const std::string& name : blocks_.tables()) {
    Table t;
    t.name = name;
    t.sets = blocks_.table(name);
    for (const observe::CounterSet* s : t.sets) {
      std::vector<std::uint16_t> cols;
      std::vector<std::string> names;
      for (std::size_t k = 0; k < s->counters.size(); ++k)
        if (s->counters[k].shown & observe::kInLog) {
          cols.push_back(std::uint16_t(k));
          names.push_back(s->counters[k].column());
          if (t.columns.empty()) t.keep.push_back(is_delta(s->counters[k].kind) ? ~std::uint64_t(0) : 0);
        }
      if (t.columns.empty())
        t.names = names;
      else if (names != t.names)
        throw std::logic_error("counter log: the " + s->scope +
                               " blocks' columns differ from the rest of table " + name);
      t.columns.push_back(std::move(cols));
      t.rows += s->blocks;
      widest = std::max(widest, s->counters.size());
    }
    t.prev.assign(t.rows * t.names.size(), 0);
    tables_.push_back(std::move(t));
  }
  values_.assign(widest, 0);
  if (world_ && !world_->root()) return;  // process 0 writes the file
  try {
    out_->f = std::make_unique<sim::OutputFile>("--counters", path);
  } catch (const sim::OutputError& e) {
    throw std::invalid_argument(e.what());
  }
  header(clock_period_ps);
  out_->flush();
}

CounterLog::~CounterLog() = default;

void CounterLog::header(sim::Time period) {
  int vcs = 0;  // the widest port's VCs: one zero-credit time column each
  for (const Table& t : tables_) {
    int n = 0;
    for (const std::string& c : t.names) n += c.rfind("zero_credit_ps_vc", 0) == 0;
    vcs = std::max(vcs, n);
  }
  vcs = std::max(vcs, 1);
  std::string& b = out_->buf;
  if (out_->csv) {
    b += fmt::format(
        "# kairo counter log v1: interval_ps={} clock_period_ps={} vcs={}; times in ps; "
        "rows with every counter zero are left out\n",
        interval_, period, vcs);
    b += "kind,interval_start_ps,interval_end_ps,unit,port,coord,peer,peer_port,dim,dir";
    for (const Table& t : tables_)
      for (const std::string& n : t.names) b += "," + n;
    b += "\n";
    return;
  }
  // The header is written piece by piece: at K-computer scale one JSON
  // document of every link would cost gigabytes while it is built. The
  // tables are formatted twice: once to learn the header's length (it comes
  // first), then into the file.
  std::string text = fmt::format(
      "{{\"format\":\"kairo counter "
      "log\",\"version\":1,\"interval_ps\":{},\"clock_period_ps\":{},\"vcs\":{},",
      interval_, period, vcs);
  for (const Table& t : tables_) text += "\"" + t.name + "_fields\":" + nlohmann::json(t.names).dump() + ",";
  std::vector<std::string> opening;  // before each table's entries
  for (std::size_t k = 0; k < tables_.size(); ++k)
    opening.push_back((k ? "],\"" : "\"") + tables_[k].name + "s\":[");
  const std::string tail = tables_.empty() ? "}" : "]}";
  std::uint64_t length = text.size() + tail.size();
  for (std::size_t k = 0; k < tables_.size(); ++k) {
    length += opening[k].size();
    for (std::size_t row = 0; row < tables_[k].rows; ++row) length += entry(tables_[k], row, row == 0).size();
  }
  b.append(kCounterLogMagic, 8);
  put_varint(b, length);
  b += text;
  for (std::size_t k = 0; k < tables_.size(); ++k) {
    b += opening[k];
    for (std::size_t row = 0; row < tables_[k].rows; ++row) {
      b += entry(tables_[k], row, row == 0);
      if (b.size() > (1u << 20)) out_->flush();
    }
  }
  b += tail;
}

// Row `row` of a table as the binary header lists it: a row named as an
// engine is (port <table><index>, no peer, dimension or direction) as
// [unit, coord, index], which the reader expands back; any other as its
// seven names.
std::string CounterLog::entry(const Table& t, std::size_t row, bool first) const {
  auto str = [](const std::string& x) { return nlohmann::json(x).dump(); };  // quoted and escaped
  const observe::Place p = place(t, row);
  if (p.peer.empty() && p.peer_port.empty() && p.dim.empty() && p.dir.empty() &&
      p.port == t.name + std::to_string(p.index))
    return fmt::format("{}[{},{},{}]", first ? "" : ",", str(p.unit), str(p.coord), p.index);
  return fmt::format("{}[{},{},{},{},{},{},{}]", first ? "" : ",", str(p.unit), str(p.port), str(p.coord),
                     str(p.peer), str(p.peer_port), str(p.dim), str(p.dir));
}

observe::Place CounterLog::place(const Table& t, std::size_t row) const {
  for (const observe::CounterSet* s : t.sets) {
    if (row < s->blocks) return s->place(row);
    row -= s->blocks;
  }
  return {};
}

// A sample of time S is a sync event at S + 1 ps: it sees every event at S
// (and, in a partitioned run, every message sent at S), and reads the
// counters as of S.
void CounterLog::start() {
  pending_ = true;
  q_.at(interval_ + 1, sim::kPrioSync, this, 0);
}

void CounterLog::on_event(std::uint32_t, std::uint32_t, void*) {
  const sim::Time now = q_.now() - 1;
  pending_ = false;
  sample(now);
  // Keep sampling while anything else is still to happen, on any process
  // (the watchdog watching an idle network does not count). Once nothing
  // is, nothing can change any more: the log is complete.
  std::uint64_t others = q_.size() - (watchdog_ && watchdog_->armed() ? 1 : 0);
  if (world_) others = world_->sum(others);
  if (others > 0) {
    pending_ = true;
    q_.at(now + interval_ + 1, sim::kPrioSync, this, 0);
  }
}

void CounterLog::finish() {
  if (done_) return;
  done_ = true;
  // A run stopped early (a deadlock) leaves a partial interval to log.
  const sim::Time now = world_ ? world_->max(q_.now()) : q_.now();
  if (pending_ && now > last_) sample(now);
  if (!out_->csv) out_->buf.push_back('E');
  out_->flush();
  if (!out_->error.empty()) throw sim::OutputError(out_->error);
  if (out_->f) out_->f->close();  // throws (and removes the file) if the last flush fails
}

// Every block's counters at `now`; a row per block whose totals moved or
// whose levels are not zero, with the totals' differences since the last.
void CounterLog::sample(sim::Time now) {
  std::vector<Moved> moved(tables_.size());
  for (std::size_t k = 0; k < tables_.size(); ++k) collect(tables_[k], now, moved[k]);
  if (world_) gather(moved);
  if (!world_ || world_->root()) {
    std::string& b = out_->buf;
    if (!out_->csv) {
      b.push_back('I');
      put_varint(b, last_);
      put_varint(b, now);
    }
    for (std::size_t k = 0; k < tables_.size(); ++k) emit(tables_[k], moved[k], now);
  }
  ++intervals_;
  last_ = now;
  if (out_->buf.size() > (1u << 20)) out_->flush();
}

// Reads every block of table t at `now` (into values_) and calls
// fn(row, prev, col): its row, its last reading, and where its log columns
// are among its counters.
template <class Fn>
void CounterLog::each_row(Table& t, sim::Time now, Fn fn) {
  const std::size_t nc = t.names.size();
  std::size_t row = 0;
  for (std::size_t si = 0; si < t.sets.size(); ++si) {
    const observe::CounterSet& s = *t.sets[si];
    const std::uint16_t* col = t.columns[si].data();
    for (std::size_t i = 0; i < s.blocks; ++i, ++row) {
      s.read(i, now, values_.data());
      fn(row, &t.prev[row * nc], col);
    }
  }
}

void CounterLog::collect(Table& t, sim::Time now, Moved& out) {
  const std::size_t nc = t.names.size();
  each_row(t, now, [&](std::size_t row, std::uint64_t* prev, const std::uint16_t* col) {
    // A level's prev stays 0, so the row's figure is value - prev for every column.
    bool any = false;
    for (std::size_t c = 0; c < nc; ++c) any |= values_[col[c]] != prev[c];
    if (!any) return;
    out.rows.push_back(std::uint32_t(row));
    for (std::size_t c = 0; c < nc; ++c) out.figures.push_back(values_[col[c]] - prev[c]);
    for (std::size_t c = 0; c < nc; ++c) prev[c] = values_[col[c]] & t.keep[c];
  });
}

// prev holds each total at the last sample; the next figure is value -
// prev. Across a reset, prev moves by (value after - value before), modulo
// 2^64: value - prev then adds what came after the reset to what came
// before it, exactly, even where a reading goes through zero (a busy time
// with a packet still on the link).
void CounterLog::rebase(sim::Time now, bool after) {
  for (Table& t : tables_) {
    const std::size_t nc = t.names.size();
    each_row(t, now, [&](std::size_t, std::uint64_t* prev, const std::uint16_t* col) {
      for (std::size_t c = 0; c < nc; ++c) {
        const std::uint64_t v = values_[col[c]] & t.keep[c];  // levels keep no prev
        prev[c] = after ? prev[c] + v : prev[c] - v;
      }
    });
  }
}

void CounterLog::emit(const Table& t, const Moved& m, sim::Time now) {
  std::string& b = out_->buf;
  const std::size_t nc = t.names.size();
  std::uint32_t last_index = 0;
  rows_buf_.clear();
  for (std::size_t k = 0; k < m.rows.size(); ++k) {
    const std::uint64_t* fig = &m.figures[k * nc];
    if (out_->csv) {
      const observe::Place p = place(t, m.rows[k]);
      b += fmt::format("{},{},{},{},{},{},{},{},{},{}", t.name, last_, now, p.unit, p.port, p.coord, p.peer,
                       p.peer_port, p.dim, p.dir);
      for (const Table& u : tables_) {
        if (&u != &t) {
          b.append(u.names.size(), ',');
          continue;
        }
        for (std::size_t c = 0; c < nc; ++c) b += fmt::format(",{}", fig[c]);
      }
      b += "\n";
    } else {
      put_varint(rows_buf_, m.rows[k] - last_index);
      last_index = m.rows[k];
      for (std::size_t c = 0; c < nc; ++c) put_varint(rows_buf_, fig[c]);
    }
  }
  if (!out_->csv) {
    put_varint(b, m.rows.size());
    b += rows_buf_;
  }
  rows_ += m.rows.size();
}

// A block has one owner and the others never touch it (its counters stay
// zero there), so every row comes from one process: merging the processes'
// lists by row gives one process's list.
void CounterLog::gather(std::vector<Moved>& moved) {
  std::vector<char> mine;
  sim::ByteWriter w(mine);
  for (const Moved& m : moved) {
    w.put(std::uint64_t(m.rows.size()));
    w.put_bytes(m.rows.data(), m.rows.size() * sizeof(std::uint32_t));
    w.put_bytes(m.figures.data(), m.figures.size() * sizeof(std::uint64_t));
  }
  const auto all = world_->gather(mine);
  if (!world_->root()) return;
  std::vector<std::vector<Moved>> per(all.size(), std::vector<Moved>(tables_.size()));
  for (std::size_t p = 0; p < all.size(); ++p) {
    sim::ByteReader r(all[p]);
    for (std::size_t k = 0; k < tables_.size(); ++k) {
      const auto n = r.get<std::uint64_t>();
      Moved& m = per[p][k];
      m.rows.resize(n);
      m.figures.resize(n * tables_[k].names.size());
      r.get_bytes(m.rows.data(), n * sizeof(std::uint32_t));
      r.get_bytes(m.figures.data(), m.figures.size() * sizeof(std::uint64_t));
    }
  }
  for (std::size_t k = 0; k < tables_.size(); ++k) {
    const std::size_t nc = tables_[k].names.size();
    Moved merged;
    std::vector<std::size_t> at(all.size(), 0);
    for (;;) {
      std::size_t best = all.size();
      for (std::size_t p = 0; p < all.size(); ++p)
        if (at[p] < per[p][k].rows.size() &&
            (best == all.size() || per[p][k].rows[at[p]] < per[best][k].rows[at[best]]))
          best = p;
      if (best == all.size()) break;
      const Moved& m = per[best][k];
      merged.rows.push_back(m.rows[at[best]]);
      merged.figures.insert(merged.figures.end(), m.figures.begin() + std::ptrdiff_t(at[best] * nc),
                            m.figures.begin() + std::ptrdiff_t((at[best] + 1) * nc));
      ++at[best];
    }
    moved[k] = std::move(merged);
  }
}

}  // namespace kairo::platforms
