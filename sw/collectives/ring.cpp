// Ring sub-algorithms (sw/collectives/pieces.h).
#include "sw/collectives/pieces.h"

namespace kairo::coll {

namespace {
int mod(int a, int n) { return ((a % n) + n) % n; }
}  // namespace

void allgather_ring(Schedule& s, const Group& g, const Parts& parts, Buf buf, int shift, std::uint32_t tag,
                    const char* phase) {
  const int v = g.me, n = g.size();
  if (v < 0) return;
  const int next = g.members[std::size_t(mod(v + 1, n))], prev = g.members[std::size_t(mod(v - 1, n))];
  for (int k = 0; k + 1 < n; ++k) {
    const int out = mod(v + shift - k, n), in = mod(v - 1 + shift - k, n);
    Step st;
    st.phase = phase;
    st.complete_puts = false;  // a forwarded part is final
    if (parts.span(out, out + 1)) {
      Put p{next, parts.offset(out), parts.offset(out), parts.span(out, out + 1), tag + std::uint32_t(k)};
      p.from_recv = buf == Buf::kRecv;
      p.to_send = buf == Buf::kSend;
      st.puts.push_back(p);
    }
    if (parts.span(in, in + 1)) st.waits.push_back(Wait{prev, tag + std::uint32_t(k)});
    if (!st.puts.empty() || !st.waits.empty()) s.push_back(std::move(st));
  }
}

void reduce_scatter_ring(Schedule& s, const Group& g, const Parts& parts, std::uint64_t slot_base,
                         std::uint32_t tag, const char* phase) {
  const int v = g.me, n = g.size();
  if (v < 0) return;
  const int next = g.members[std::size_t(mod(v + 1, n))], prev = g.members[std::size_t(mod(v - 1, n))];
  for (int k = 0; k + 1 < n; ++k) {
    // Part b starts at member b + 1 and is summed along the ring into member b.
    const int out = mod(v - k - 1, n), in = mod(v - k - 2, n);
    const std::uint64_t slot = slot_base + std::uint64_t(k) * parts.bytes;
    Step st;
    st.phase = phase;
    if (parts.span(out, out + 1))
      st.puts.push_back(Put{next, parts.offset(out), slot + parts.offset(out), parts.span(out, out + 1),
                            tag + std::uint32_t(k)});
    if (parts.span(in, in + 1)) {
      st.waits.push_back(Wait{prev, tag + std::uint32_t(k)});
      st.ops.push_back(Op{Op::Kind::kSum, slot + parts.offset(in), parts.offset(in), parts.span(in, in + 1),
                          /*recv_first=*/true});  // the chain's partial sum, then mine
    }
    if (!st.puts.empty() || !st.waits.empty()) s.push_back(std::move(st));
  }
}

}  // namespace kairo::coll
