#include "sw/workloads/pingpong.h"

namespace kairo::sw {

namespace {
constexpr std::uint64_t kAnswerBase = 1 << 20;
constexpr sim::Time kSettle = 1000000;  // 1 us for every rank to register
}  // namespace

fw::Task pingpong(fw::Rank& r, PingpongParams p, PingpongResult* out) {
  const nic::MemKey send = r.reg_mem(1, 0, p.size ? p.size : 1);
  const nic::MemKey answer = r.reg_mem(2, kAnswerBase, p.size ? p.size : 1);
  co_await r.compute(kSettle);
  if (r.rank() != p.src && r.rank() != p.dst) co_return;
  std::uint64_t h = 0;
  nic::Completion c;
  if (r.rank() == p.src) {
    out->start_ps = r.now();
    if (p.get) {
      co_await r.get(p.tni, p.dst, r.remote_key(p.dst, 1), 0, answer, 0, p.size, &h);
      co_await r.complete(p.tni, h, &c);
      out->ok = out->ok && c.status == nic::RdmaStatus::kOk;
    } else {
      co_await r.put(p.tni, p.dst, r.remote_key(p.dst, 1), 0, send, 0, p.size, /*tag=*/1, &h);
      co_await r.poll(2);
      co_await r.complete(p.tni, h, &c);
      out->ok = out->ok && c.status == nic::RdmaStatus::kOk;
    }
    out->end_ps = p.get ? c.time_ps : r.now();
  } else if (!p.get) {  // B answers the put
    co_await r.poll(1);
    co_await r.put(p.tni, p.src, r.remote_key(p.src, 2), 0, send, 0, p.size, /*tag=*/2, &h);
    co_await r.complete(p.tni, h, &c);
    out->ok = out->ok && c.status == nic::RdmaStatus::kOk;
  }
}

}  // namespace kairo::sw
