// Binomial-tree sub-algorithms (sw/collectives/pieces.h).
#include <algorithm>

#include "sw/collectives/pieces.h"

namespace kairo::coll {

namespace {
int ceil_pow2(int n) {
  int p = 1;
  while (p < n) p *= 2;
  return p;
}

Put part_put(const Group& g, int to, std::uint64_t offset, std::uint64_t bytes, std::uint32_t tag, Buf buf) {
  Put p{g.members[std::size_t(to)], offset, offset, bytes, tag};
  p.from_recv = buf == Buf::kRecv;
  p.to_send = buf == Buf::kSend;
  return p;
}

void push(Schedule& s, Step& st, const char* phase, bool complete) {
  if (st.puts.empty() && st.waits.empty() && st.ops.empty()) return;
  st.phase = phase;
  st.complete_puts = complete;
  s.push_back(std::move(st));
}
}  // namespace

void scatter_binomial(Schedule& s, const Group& g, const Parts& parts, Buf buf, std::uint32_t tag,
                      const char* phase) {
  const int v = g.me, n = g.size();
  if (v < 0) return;
  int k = 0;
  for (int d = ceil_pow2(n) / 2; d >= 1; d /= 2, ++k) {
    Step st;
    if (v % (2 * d) == 0 && v + d < n) {  // hand the upper half of my range down
      const int b = v + d, e = std::min(v + 2 * d, n);
      if (parts.span(b, e))
        st.puts.push_back(part_put(g, b, parts.offset(b), parts.span(b, e), tag + k, buf));
    } else if (v % (2 * d) == d && parts.span(v, std::min(v + d, n))) {
      st.waits.push_back(Wait{g.members[std::size_t(v - d)], tag + std::uint32_t(k)});
    }
    push(s, st, phase, /*complete=*/false);  // the parts are never rewritten
  }
}

void gather_binomial(Schedule& s, const Group& g, const Parts& parts, Buf buf, std::uint32_t tag,
                     const char* phase) {
  const int v = g.me, n = g.size();
  if (v < 0) return;
  int k = 0;
  for (int d = 1; d < n; d *= 2, ++k) {
    Step st;
    if (v % (2 * d) == d) {  // my sub-tree's range goes up
      const int e = std::min(v + d, n);
      if (parts.span(v, e))
        st.puts.push_back(part_put(g, v - d, parts.offset(v), parts.span(v, e), tag + k, buf));
    } else if (v % (2 * d) == 0 && v + d < n && parts.span(v + d, std::min(v + 2 * d, n))) {
      st.waits.push_back(Wait{g.members[std::size_t(v + d)], tag + std::uint32_t(k)});
    }
    push(s, st, phase, false);
  }
}

void reduce_binomial(Schedule& s, const Group& g, std::uint64_t bytes, std::uint64_t slot_base,
                     std::uint32_t tag, const char* phase) {
  const int v = g.me, n = g.size();
  if (v < 0 || bytes == 0) return;
  int k = 0;
  for (int d = 1; d < n; d *= 2, ++k) {
    Step st;
    const std::uint64_t slot = slot_base + std::uint64_t(k) * bytes;
    if (v % (2 * d) == d) {
      st.puts.push_back(Put{g.members[std::size_t(v - d)], 0, slot, bytes, tag + std::uint32_t(k)});
    } else if (v % (2 * d) == 0 && v + d < n) {
      st.waits.push_back(Wait{g.members[std::size_t(v + d)], tag + std::uint32_t(k)});
      st.ops.push_back(Op{Op::Kind::kSum, slot, 0, bytes, /*recv_first=*/false});  // the lower index first
    }
    push(s, st, phase, true);
  }
}

}  // namespace kairo::coll
