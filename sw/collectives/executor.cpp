#include "sw/collectives/executor.h"

#include <cmath>
#include <cstring>

namespace kairo::coll {

namespace {
// Completions outstanding per TNI before the executor collects the oldest: a
// step may post many puts (an all-to-all posts p - 1), and a completion
// queue nobody polls would stall the engine (hw/nic/tni.h).
constexpr std::size_t kWindow = 16;

// A put not yet known complete, and the send-region bytes it reads (none
// when it reads the receive region).
struct Posted {
  std::uint64_t handle = 0, send_from = 0, send_to = 0;
};

// Wait for the oldest handles of one TNI until at most `keep` are left.
fw::Task collect(fw::Rank& r, int tni, std::vector<Posted>& hs, std::size_t keep, bool* ok) {
  std::size_t done = 0;
  for (; hs.size() - done > keep; ++done) {
    nic::Completion c;
    co_await r.complete(tni, hs[done].handle, &c);
    if (ok && c.status != nic::RdmaStatus::kOk) *ok = false;
  }
  hs.erase(hs.begin(), hs.begin() + std::ptrdiff_t(done));
}

fw::Task post(fw::Rank& r, const Put& p, const Buffers& b, nic::MemKey send, nic::MemKey recv,
              std::vector<std::vector<Posted>>& posted, bool* ok) {
  const int tni = p.tni % r.tnis();
  co_await collect(r, tni, posted[std::size_t(tni)], kWindow - 1, ok);
  std::uint64_t h = 0;
  co_await r.put(tni, p.to, r.remote_key(p.to, p.to_send ? b.send_memid : b.recv_memid), p.dst_offset,
                 p.from_recv ? recv : send, p.src_offset, p.bytes, p.tag, &h);
  posted[std::size_t(tni)].push_back(p.from_recv ? Posted{h, 0, 0} : Posted{h, p.src_offset, p.src_offset + p.bytes});
}

fw::Task run_op(fw::Rank& r, const Op& op, const Buffers& b, std::vector<double>& x, std::vector<double>& y) {
  const std::uint64_t n = op.bytes;
  x.resize((n + 7) / 8);
  co_await r.read_local(b.recv_address + op.recv_offset, x.data(), n);
  double work = double(n);
  if (op.kind == Op::Kind::kSum) {
    y.resize(n / 8);
    co_await r.read_local(b.send_address + op.send_offset, y.data(), n);
    for (std::size_t i = 0; i < y.size(); ++i) x[i] = op.recv_first ? x[i] + y[i] : y[i] + x[i];
    work *= 2;
  }
  co_await r.compute(sim::Time(std::ceil(work * 1e12 / b.reduce_bytes_per_s)));
  co_await r.write_local(b.send_address + op.send_offset, x.data(), n);
}
}  // namespace

void PhaseLog::record(const char* phase, sim::Time t) {
  for (Entry& e : entries_)
    if (e.name == phase) {
      e.end = std::max(e.end, t);
      return;
    }
  entries_.push_back(Entry{phase, t});
}

fw::Task run_schedule(fw::Rank& r, const Schedule& s, const Buffers& b, bool* ok, PhaseLog* phases) {
  std::vector<std::vector<Posted>> posted(std::size_t(r.tnis()));  // per TNI, oldest first
  const nic::MemKey send = r.remote_key(r.rank(), b.send_memid), recv = r.remote_key(r.rank(), b.recv_memid);
  std::vector<double> x, y;  // the ops' operands
  std::vector<std::uint32_t> tags;  // a relay step's waits not yet arrived
  std::vector<int> index;
  for (const Step& step : s) {
    bool relay = false;
    for (const Put& p : step.puts) {
      if (p.after >= 0) {
        relay = true;
        continue;
      }
      co_await post(r, p, b, send, recv, posted, ok);
    }
    if (!relay) {
      for (const Wait& w : step.waits) co_await r.poll(w.tag);
    } else {  // waits in arrival order, each releasing the puts it gates
      tags.clear();
      index.clear();
      for (std::size_t i = 0; i < step.waits.size(); ++i) tags.push_back(step.waits[i].tag), index.push_back(int(i));
      while (!tags.empty()) {
        std::size_t k = 0;
        co_await r.poll_any(tags.data(), tags.size(), &k);
        const int arrived = index[k];
        tags.erase(tags.begin() + std::ptrdiff_t(k));
        index.erase(index.begin() + std::ptrdiff_t(k));
        for (const Put& p : step.puts)
          if (p.after == arrived) co_await post(r, p, b, send, recv, posted, ok);
      }
    }
    if (step.complete_puts)
      for (int t = 0; t < r.tnis(); ++t) co_await collect(r, t, posted[std::size_t(t)], 0, ok);
    for (const Op& op : step.ops) {
      // An op may not rewrite bytes that a put of this rank is still reading.
      for (int t = 0; t < r.tnis(); ++t) {
        auto& hs = posted[std::size_t(t)];
        std::size_t last = 0;
        for (std::size_t i = 0; i < hs.size(); ++i)
          if (hs[i].send_from < op.send_offset + op.bytes && op.send_offset < hs[i].send_to) last = i + 1;
        if (last) co_await collect(r, t, hs, hs.size() - last, ok);
      }
      co_await run_op(r, op, b, x, y);
    }
    if (phases && step.phase[0]) phases->record(step.phase, r.now());
  }
  for (int t = 0; t < r.tnis(); ++t) co_await collect(r, t, posted[std::size_t(t)], 0, ok);
}

}  // namespace kairo::coll
