// Recursive doubling and halving sub-algorithms (sw/collectives/pieces.h).
#include <cassert>

#include "sw/collectives/pieces.h"

namespace kairo::coll {

void allgather_doubling(Schedule& s, const Group& g, const Parts& parts, Buf buf, std::uint32_t tag,
                        const char* phase) {
  const int v = g.me, n = g.size();
  if (v < 0) return;
  assert(is_pow2(n));
  int k = 0;
  for (int d = 1; d < n; d *= 2, ++k) {
    const int partner = v ^ d, mine = v & ~(d - 1), theirs = partner & ~(d - 1);
    Step st;
    st.phase = phase;
    st.complete_puts = false;  // the parts I hold are final
    if (parts.span(mine, mine + d)) {
      Put p{g.members[std::size_t(partner)], parts.offset(mine), parts.offset(mine),
            parts.span(mine, mine + d), tag + std::uint32_t(k)};
      p.from_recv = buf == Buf::kRecv;
      p.to_send = buf == Buf::kSend;
      st.puts.push_back(p);
    }
    if (parts.span(theirs, theirs + d))
      st.waits.push_back(Wait{g.members[std::size_t(partner)], tag + std::uint32_t(k)});
    if (!st.puts.empty() || !st.waits.empty()) s.push_back(std::move(st));
  }
}

void reduce_scatter_halving(Schedule& s, const Group& g, const Parts& parts, std::uint64_t slot_base,
                            std::uint32_t tag, const char* phase) {
  const int v = g.me, n = g.size();
  if (v < 0) return;
  assert(is_pow2(n));
  int lo = 0, k = 0;
  for (int d = n / 2; d >= 1; d /= 2, ++k) {
    const int partner = v ^ d;
    const int keep = (v & d) ? lo + d : lo, give = (v & d) ? lo : lo + d;
    const std::uint64_t slot = slot_base + std::uint64_t(k) * parts.bytes;
    Step st;
    st.phase = phase;
    if (parts.span(give, give + d))
      st.puts.push_back(Put{g.members[std::size_t(partner)], parts.offset(give), slot + parts.offset(give),
                            parts.span(give, give + d), tag + std::uint32_t(k)});
    if (parts.span(keep, keep + d)) {
      st.waits.push_back(Wait{g.members[std::size_t(partner)], tag + std::uint32_t(k)});
      st.ops.push_back(Op{Op::Kind::kSum, slot + parts.offset(keep), parts.offset(keep),
                          parts.span(keep, keep + d),
                          /*recv_first=*/partner < v});  // the lower index first
    }
    if (!st.puts.empty() || !st.waits.empty()) s.push_back(std::move(st));
    lo = keep;
  }
}

}  // namespace kairo::coll
