#include "sw/collectives/executor.h"

namespace kairo::coll {

namespace {
// Completions outstanding per TNI before the executor collects the oldest: a
// step may post many puts (an all-to-all posts p - 1), and a completion
// queue nobody polls would stall the engine (hw/nic/tni.h).
constexpr std::size_t kWindow = 16;

// Wait for the oldest handles of one TNI until at most `keep` are left.
fw::Task collect(fw::Rank& r, int tni, std::vector<std::uint64_t>& hs, std::size_t keep, bool* ok) {
  std::size_t done = 0;
  for (; hs.size() - done > keep; ++done) {
    nic::Completion c;
    co_await r.complete(tni, hs[done], &c);
    if (ok && c.status != nic::RdmaStatus::kOk) *ok = false;
  }
  hs.erase(hs.begin(), hs.begin() + std::ptrdiff_t(done));
}
}  // namespace

fw::Task run_schedule(fw::Rank& r, const Schedule& s, nic::MemKey send, int recv_memid,
                      std::vector<sim::Time>* step_end, bool* ok) {
  std::vector<std::vector<std::uint64_t>> posted(std::size_t(r.tnis()));  // handles per TNI, oldest first
  const nic::MemKey recv = r.remote_key(r.rank(), recv_memid);            // this rank's own receive region
  for (const Step& step : s) {
    for (const Put& p : step.puts) {
      const int tni = p.tni % r.tnis();
      co_await collect(r, tni, posted[std::size_t(tni)], kWindow - 1, ok);
      std::uint64_t h = 0;
      co_await r.put(tni, p.to, r.remote_key(p.to, recv_memid), p.dst_offset, p.from_recv ? recv : send,
                     p.src_offset, p.bytes, p.tag, &h);
      posted[std::size_t(tni)].push_back(h);
    }
    for (const Wait& w : step.waits) co_await r.poll(w.tag);
    for (int t = 0; t < r.tnis(); ++t) co_await collect(r, t, posted[std::size_t(t)], 0, ok);
    if (step_end) step_end->push_back(r.now());
  }
}

}  // namespace kairo::coll
