#include "sim/window_runner.h"

#include <chrono>
#include <stdexcept>

#include "sim/interrupt.h"

namespace kairo::sim {

namespace {
double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

void Boundaries::take_outgoing(std::vector<std::vector<char>>& out) {
  each_.resize(parts_.size());
  bool any = false;
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    each_[k].resize(out.size());
    for (auto& o : each_[k]) o.clear();
    parts_[k]->take_outgoing(each_[k]);
    for (const auto& o : each_[k]) any |= !o.empty();
  }
  if (!any) return;
  for (std::size_t p = 0; p < out.size(); ++p) {
    bool to_p = false;
    for (const auto& e : each_) to_p |= !e[p].empty();
    if (!to_p) continue;
    ByteWriter w(out[p]);
    for (const auto& e : each_) {
      w.put(std::uint64_t(e[p].size()));
      w.put_bytes(e[p].data(), e[p].size());
    }
  }
}

void Boundaries::deliver(int from, const std::vector<char>& bytes, Time window_end) {
  ByteReader r(bytes);
  for (Boundary* part : parts_) {
    one_.resize(r.get<std::uint64_t>());
    r.get_bytes(one_.data(), one_.size());
    if (!one_.empty()) part->deliver(from, one_, window_end);
  }
  if (!r.done()) throw std::runtime_error("a boundary message longer than its parts");
}

bool Boundaries::links_only() const {
  for (const Boundary* part : parts_)
    if (!part->links_only()) return false;
  return true;
}

WindowStats run_windows(EventQueue& queue, const MpiWorld& world, Boundary& boundary, Time lookahead,
                        const WindowOptions& options) {
  if (lookahead == 0 || lookahead == kNever)
    throw std::logic_error("run_windows: the lookahead must be positive and finite");
  const InterruptibleScope scope;  // a signal rides in the agreements below
  const StillnessWatch* const watch = options.watch;
  const WindowProgress* const progress = options.progress;
  const std::size_t n = std::size_t(world.size());
  std::vector<char> peer(n, 0);
  if (options.peers)
    for (int p : *options.peers) peer.at(std::size_t(p)) = 1;
  WindowStats st;
  const auto started = std::chrono::steady_clock::now();
  auto last_line = started;
  std::vector<std::vector<char>> out(n), in, beyond;
  auto deliver = [&](const std::vector<std::vector<char>>& got, Time window_end) {
    for (std::size_t p = 0; p < got.size(); ++p)
      if (int(p) != world.rank() && !got[p].empty()) boundary.deliver(int(p), got[p], window_end);
  };
  Time window_end = 0;
  int unagreed = 0, streak = 1;  // windows left before the next agreement; the next run's length
  for (;;) {
    auto t0 = std::chrono::steady_clock::now();
    for (auto& o : out) o.clear();
    boundary.take_outgoing(out);
    bool elsewhere = false;  // messages for a process that is not a peer
    if (options.peers) {
      st.bytes_sent += world.exchange_with(*options.peers, out, in);
      for (std::size_t p = 0; p < n; ++p) {
        if (peer[p]) continue;
        if (int(p) != world.rank()) elsewhere |= !out[p].empty();
        in[p].clear();
      }
    } else {
      st.bytes_sent += world.exchange(out, in);
    }
    deliver(in, window_end);
    if (unagreed > 0) {  // the next window follows this one, on every process alike
      if (elsewhere)
        throw std::logic_error(
            "run_windows: a message beyond the peers from a boundary that said links_only");
      --unagreed;
      st.sync_s += seconds_since(t0);
      const Time start = window_end;
      window_end = start > kNever - lookahead ? kNever : start + lookahead;
      window_end = std::min(window_end, queue.next_sync_time_after(start));
      t0 = std::chrono::steady_clock::now();
      queue.run_until(window_end - 1);
      st.run_s += seconds_since(t0);
      ++st.windows;
      continue;
    }
    ++st.agreements;
    // One agreement: the earliest pending event anywhere, whether any process
    // stopped (its flag rides in the same reduction as 0), the latest packet
    // movement anywhere (as kNever minus it), whether process 0 wants a
    // progress line, and whether any process has messages beyond its peers.
    const bool line_due = progress && world.root() &&
                          std::chrono::duration<double>(t0 - last_line).count() >= progress->every_s;
    // A signal (sim/interrupt.h) rides along as 255 - its number: every
    // process stops at the same window when any one received it.
    std::vector<std::uint64_t> v = {queue.next_time(),
                                    queue.stopped() ? 0u : 1u,
                                    watch ? kNever - watch->last_progress() : kNever,
                                    line_due ? 0u : 1u,
                                    elsewhere ? 0u : 1u,
                                    boundary.links_only() ? 1u : 0u,
                                    255u - std::uint64_t(interrupted())};
    world.min(v);
    if (v[4] == 0) {  // those go to every process, and the agreement is made again
      for (std::size_t p = 0; p < n; ++p)
        if (peer[p]) out[p].clear();
      st.bytes_sent += world.exchange(out, beyond);
      ++st.global_exchanges;
      deliver(beyond, window_end);
      const std::uint64_t line = v[3];
      v = {queue.next_time(),
           queue.stopped() ? 0u : 1u,
           watch ? kNever - watch->last_progress() : kNever,
           line,
           1u,
           0u,
           255u - std::uint64_t(interrupted())};
      world.min(v);
    }
    if (v[6] != 255) throw Interrupted{int(255 - v[6])};
    const Time start = v[0], moved = kNever - v[2];
    if (v[3] == 0 && start != kNever) {
      std::vector<std::uint64_t> sums = progress->figures();
      world.sum(sums);
      if (world.root()) {
        last_line = t0;
        progress->print(start, sums, std::chrono::duration<double>(t0 - started).count());
      }
    }
    bool stop = v[1] == 0;
    if (!stop && watch && (start == kNever || (start > moved && start - moved >= watch->timeout)))
      stop = watch->check(start == kNever ? queue.now() : start, start != kNever);
    st.sync_s += seconds_since(t0);
    if (stop) {
      queue.stop();
      break;
    }
    if (start == kNever) break;
    // No idle time ahead: the next windows need no agreement.
    if (options.peers && options.max_unagreed > 0 && v[5] == 1 && start - window_end < lookahead) {
      unagreed = streak;
      streak = std::min(streak * 2, options.max_unagreed);
    } else {
      streak = 1;
    }
    window_end = start > kNever - lookahead ? kNever : start + lookahead;
    // A sync event at the window's start runs in it (before anything else at
    // that time); a later one starts the next window.
    const Time sync = queue.next_sync_time_after(start);
    if (sync < window_end) window_end = sync;
    t0 = std::chrono::steady_clock::now();
    queue.run_until(window_end - 1);
    st.run_s += seconds_since(t0);
    ++st.windows;
  }
  return st;
}

}  // namespace kairo::sim
