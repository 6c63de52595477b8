#include "sw/collectives/executor.h"

#include <algorithm>
#include <cmath>

#include "sw/collectives/small_vec.h"

namespace kairo::coll {

namespace {
// Completions outstanding per TNI before the executor collects the oldest: a
// step may post many puts (an all-to-all posts p - 1), and a completion
// queue nobody polls would stall the engine (hw/nic/tni.h).
constexpr std::size_t kWindow = 16;

// A put not yet known complete: the TNI it went out on, its handle, and the
// send-region bytes it reads (none when it reads the receive region).
struct Posted {
  std::uint64_t handle = 0, send_from = 0, send_to = 0;
  int tni = 0;
};

// What the steps of one rank's run share, in run_schedule's coroutine
// frame. Every rank holds that frame while its schedule runs (82,944 at once
// on the K computer), so it is kept small (with GCC 12, 320 rather than 544
// bytes): the puts not yet complete are one list over all TNIs with room for
// one inline (a barrier step posts one put and collects it), not a heap
// block per TNI; and the parts of a step that need state of their own (a
// relay's waits, the ops, a post or a collection that has to wait) are
// coroutines, whose frames live only while they run.
class Run {
 public:
  Run(fw::Rank& r, const Buffers& b, bool* ok)
      : r_(r),
        b_(b),
        ok_(ok),
        send_(r.remote_key(r.rank(), b.send_memid)),
        recv_(r.remote_key(r.rank(), b.recv_memid)) {}

  // A step's puts, in order, but for relays, which wait for their gates.
  fw::Task start(const Step& step);
  // A relay step's waits, in arrival order, each releasing the puts it gates.
  fw::Task relay(const Step& step);
  // The step's ops, each once no put still reads the bytes it rewrites.
  fw::Task ops(const Step& step);
  // Wait for the oldest puts on one TNI until at most `keep` of them are
  // left; on every TNI, one after another, until none is. Plain functions,
  // so that no frame of theirs is held while the puts complete.
  fw::Task collect(int tni, std::size_t keep) { return collect_tnis(tni, tni + 1, keep); }
  fw::Task collect_all() { return collect_tnis(0, r_.tnis(), 0); }

 private:
  fw::Task start_waiting(const Step& step, std::size_t i, fw::Task waiting);
  fw::Task post(const Put& p);
  fw::Task post_after(fw::Task collecting, const Put& p);
  fw::Task posted_after(fw::Task putting, const Put& p, int tni, std::uint64_t h);
  fw::Task put(const Put& p, int tni, std::uint64_t* h);
  void note_posted(const Put& p, int tni, std::uint64_t h);
  fw::Task collect_tnis(int first, int last, std::size_t keep);
  fw::Task collect_waiting(int first, int last, std::size_t keep);
  fw::Task run_op(const Op& op);

  fw::Rank& r_;
  const Buffers& b_;
  bool* ok_;
  const nic::MemKey send_, recv_;
  SmallVec<Posted, 1> posted_;    // oldest first
  std::vector<double> operands_;  // an op's operands, x then y; kept, not allocated and zeroed per op
};

// start, post and collect are plain functions that do their work at once
// when nothing has to wait (the usual case: the engine has room, no put is
// to be collected), returning an empty Task that the caller's co_await finds
// ready; only what must wait gets a coroutine, which goes on from there.
fw::Task Run::start(const Step& step) {
  for (std::size_t i = 0; i < step.puts.size(); ++i) {
    if (step.puts[i].after >= 0) continue;
    fw::Task t = post(step.puts[i]);
    if (!t.await_ready()) return start_waiting(step, i + 1, std::move(t));
  }
  return fw::Task();
}

fw::Task Run::start_waiting(const Step& step, std::size_t i, fw::Task waiting) {
  co_await waiting;
  for (; i < step.puts.size(); ++i)
    if (step.puts[i].after < 0) co_await post(step.puts[i]);
}

fw::Task Run::post(const Put& p) {
  const int tni = p.tni % r_.tnis();
  fw::Task c = collect(tni, kWindow - 1);
  if (!c.await_ready()) return post_after(std::move(c), p);
  std::uint64_t h = 0;
  fw::Task t = put(p, tni, &h);
  if (!t.await_ready()) return posted_after(std::move(t), p, tni, h);
  note_posted(p, tni, h);
  return fw::Task();
}

fw::Task Run::post_after(fw::Task collecting, const Put& p) {
  co_await collecting;
  co_await post(p);  // collected: post finds nothing more to wait for there
}

fw::Task Run::posted_after(fw::Task putting, const Put& p, int tni, std::uint64_t h) {
  co_await putting;
  note_posted(p, tni, h);
}

fw::Task Run::put(const Put& p, int tni, std::uint64_t* h) {
  return r_.put(tni, p.to, r_.remote_key(p.to, p.to_send ? b_.send_memid : b_.recv_memid), p.dst_offset,
                p.from_recv ? recv_ : send_, p.src_offset, p.bytes, p.tag, h);
}

void Run::note_posted(const Put& p, int tni, std::uint64_t h) {
  posted_.push_back(p.from_recv ? Posted{h, 0, 0, tni}
                                : Posted{h, p.src_offset, p.src_offset + p.bytes, tni});
}

fw::Task Run::relay(const Step& step) {
  std::vector<std::uint32_t> tags;  // the waits not yet arrived
  std::vector<int> index;
  for (std::size_t i = 0; i < step.waits.size(); ++i)
    tags.push_back(step.waits[i].tag), index.push_back(int(i));
  while (!tags.empty()) {
    std::size_t k = 0;
    co_await r_.poll_any(tags.data(), tags.size(), &k);
    const int arrived = index[k];
    tags.erase(tags.begin() + std::ptrdiff_t(k));
    index.erase(index.begin() + std::ptrdiff_t(k));
    for (const Put& p : step.puts)
      if (p.after == arrived) co_await post(p);
  }
}

fw::Task Run::ops(const Step& step) {
  for (const Op& op : step.ops) {
    // Collect each TNI's puts up to the newest that still reads bytes this
    // op rewrites.
    for (int t = 0; t < r_.tnis(); ++t) {
      std::size_t on_tni = 0, last = 0;
      for (const Posted& h : posted_) {
        if (h.tni != t) continue;
        ++on_tni;
        if (h.send_from < op.send_offset + op.bytes && op.send_offset < h.send_to) last = on_tni;
      }
      if (last) co_await collect(t, on_tni - last);
    }
    co_await run_op(op);
  }
}

fw::Task Run::collect_tnis(int first, int last, std::size_t keep) {
  for (int t = first; t < last; ++t) {
    const auto on_tni = [t](const Posted& h) { return h.tni == t; };
    if (std::size_t(std::count_if(posted_.begin(), posted_.end(), on_tni)) > keep)
      return collect_waiting(t, last, keep);
  }
  return fw::Task();  // nothing to collect
}

fw::Task Run::collect_waiting(int first, int last, std::size_t keep) {
  for (int t = first; t < last; ++t) {
    // Counted afresh each round (the list is short): no count in the frame,
    // which then fits the 128-byte class while the put completes.
    auto on_tni = [t](const Posted& h) { return h.tni == t; };
    while (std::size_t(std::count_if(posted_.begin(), posted_.end(), on_tni)) > keep) {
      nic::Completion c;
      co_await r_.complete(t, std::find_if(posted_.begin(), posted_.end(), on_tni)->handle, &c);
      if (ok_ && c.status != nic::RdmaStatus::kOk) *ok_ = false;
      posted_.erase(std::find_if(posted_.begin(), posted_.end(), on_tni));
    }
  }
}

fw::Task Run::run_op(const Op& op) {
  const std::uint64_t n = op.bytes;
  const std::size_t nx = (n + 7) / 8, ny = op.kind == Op::Kind::kSum ? n / 8 : 0;
  operands_.resize(nx + ny);
  double* const x = operands_.data();
  double* const y = x + nx;
  co_await r_.read_local(b_.recv_address + op.recv_offset, x, n);
  double work = double(n);
  if (op.kind == Op::Kind::kSum) {
    co_await r_.read_local(b_.send_address + op.send_offset, y, n);
    for (std::size_t i = 0; i < ny; ++i) x[i] = op.recv_first ? x[i] + y[i] : y[i] + x[i];
    work *= 2;
  }
  co_await r_.compute(sim::Time(std::ceil(work * 1e12 / b_.reduce_bytes_per_s)));
  co_await r_.write_local(b_.send_address + op.send_offset, x, n);
}
}  // namespace

void PhaseLog::record(const char* phase, sim::Time t) {
  for (Entry& e : entries_)
    if (e.name == phase) {
      e.end = std::max(e.end, t);
      return;
    }
  entries_.push_back(Entry{phase, t, t});
}

void PhaseLog::merge(const PhaseLog& other) {
  for (const Entry& o : other.entries_) {
    auto it =
        std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.name == o.name; });
    if (it == entries_.end()) {
      entries_.push_back(o);
    } else {
      it->first = std::min(it->first, o.first);
      it->end = std::max(it->end, o.end);
    }
  }
  std::stable_sort(entries_.begin(), entries_.end(),
                   [](const Entry& a, const Entry& b) { return a.first < b.first; });
}

std::uint64_t work_units(const Schedule& s) {
  std::uint64_t n = 0;
  for (const Step& step : s)
    for (const Put& p : step.puts) n += p.bytes;
  return n;
}

fw::Task run_schedule(fw::Rank& r, const Schedule& s, const Buffers& b, bool* ok, PhaseLog* phases,
                      bool plans_work) {
  Run run(r, b, ok);
  if (plans_work) r.plan_work(work_units(s));
  for (const Step& step : s) {
    co_await run.start(step);
    if (std::any_of(step.puts.begin(), step.puts.end(), [](const Put& p) { return p.after >= 0; }))
      co_await run.relay(step);
    else
      for (const Wait& w : step.waits) co_await r.poll(w.tag);
    if (step.complete_puts) co_await run.collect_all();
    if (!step.ops.empty()) co_await run.ops(step);
    if (phases && step.phase[0]) phases->record(step.phase, r.now());
  }
  co_await run.collect_all();
}

}  // namespace kairo::coll
