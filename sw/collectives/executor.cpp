#include "sw/collectives/executor.h"

namespace kairo::coll {

fw::Task run_schedule(fw::Rank& r, const Schedule& s, nic::MemKey send, int recv_memid,
                      std::vector<sim::Time>* step_end, bool* ok) {
  std::vector<std::pair<int, std::uint64_t>> posted;  // (tni, handle)
  for (const Step& step : s) {
    posted.clear();
    for (const Put& p : step.puts) {
      const int tni = p.tni % r.tnis();
      std::uint64_t h = 0;
      co_await r.put(tni, p.to, r.remote_key(p.to, recv_memid), p.dst_offset, send, p.src_offset, p.bytes,
                     p.tag, &h);
      posted.emplace_back(tni, h);
    }
    for (const Wait& w : step.waits) co_await r.poll(w.tag);
    for (const auto& [tni, h] : posted) {
      nic::Completion c;
      co_await r.complete(tni, h, &c);
      if (ok && c.status != nic::RdmaStatus::kOk) *ok = false;
    }
    if (step_end) step_end->push_back(r.now());
  }
}

}  // namespace kairo::coll
