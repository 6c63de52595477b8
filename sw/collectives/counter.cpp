// Matsuda et al.'s inter-cluster steps with a limit on concurrent streams
// (sw/collectives/pieces.h): counter_copy and counter_reduce. A designated
// member relays: it sends each part across as soon as it has arrived, in
// the order they arrive (the parts forwarded to it come in at once and
// share its link, so a fixed order would leave its outgoing link idle).
#include "sw/collectives/pieces.h"

namespace kairo::coll {

namespace {
void push(Schedule& s, Step& st, const char* phase) {
  if (st.puts.empty() && st.waits.empty() && st.ops.empty()) return;
  st.phase = phase;
  st.complete_puts = false;  // ops wait for the puts that read what they rewrite (executor.h)
  s.push_back(std::move(st));
  st = Step{};
}

Put gated(Put p, std::size_t after) {
  p.after = int(after);
  return p;
}
}  // namespace

void counter_copy(Schedule& s, const Group& a, const Group& b, const Parts& parts, Buf buf, int streams,
                  std::uint32_t tag, const char* phase) {
  const int h = a.size(), n = streams;
  const std::uint32_t to_designated = tag, across = tag + std::uint32_t(h),
                      from_designated = tag + 2 * std::uint32_t(h);
  auto put = [&](int to, int j, std::uint32_t t) {
    Put p{to, parts.offset(j), parts.offset(j), parts.span(j, j + 1), t + std::uint32_t(j)};
    p.from_recv = buf == Buf::kRecv;
    p.to_send = buf == Buf::kSend;
    return p;
  };
  Step st;
  if (a.me >= 0) {
    const int v = a.me;
    if (v >= n) {  // hand my part to my side's designated member
      if (parts.span(v, v + 1)) st.puts.push_back(put(a.members[std::size_t(v % n)], v, to_designated));
    } else {  // cross with my part, and with each forwarded part as it arrives
      if (parts.span(v, v + 1)) st.puts.push_back(put(b.members[std::size_t(v)], v, across));
      for (int j = v + n; j < h; j += n) {
        if (!parts.span(j, j + 1)) continue;
        st.puts.push_back(gated(put(b.members[std::size_t(v)], j, across), st.waits.size()));
        st.waits.push_back(Wait{a.members[std::size_t(j)], to_designated + std::uint32_t(j)});
      }
    }
    push(s, st, phase);
  }
  if (b.me >= 0) {
    const int v = b.me;
    if (v >= n) {
      if (parts.span(v, v + 1))
        st.waits.push_back(Wait{b.members[std::size_t(v % n)], from_designated + std::uint32_t(v)});
    } else {  // receive my part and those of my side's members v + n, v + 2n, ..., and hand those on
      if (parts.span(v, v + 1))
        st.waits.push_back(Wait{a.members[std::size_t(v)], across + std::uint32_t(v)});
      for (int j = v + n; j < h; j += n) {
        if (!parts.span(j, j + 1)) continue;
        st.puts.push_back(gated(put(b.members[std::size_t(j)], j, from_designated), st.waits.size()));
        st.waits.push_back(Wait{a.members[std::size_t(v)], across + std::uint32_t(j)});
      }
    }
    push(s, st, phase);
  }
}

void counter_reduce(Schedule& s, const Group& a, const Group& b, const Parts& parts, int streams,
                    std::uint64_t slot_base, std::uint32_t tag, const char* phase) {
  const int h = a.size(), n = streams;
  const bool in_a = a.me >= 0;
  const Group& mine = in_a ? a : b;
  const Group& other = in_a ? b : a;
  const int v = mine.me;
  if (v < 0) return;
  // Tags by the side the data comes from (0: A, 1: B) and the hop.
  auto t = [&](int side, int hop, int j) { return tag + std::uint32_t((side * 3 + hop) * h + j); };
  const int me_side = in_a ? 0 : 1, other_side = 1 - me_side;
  const std::uint64_t fwd = slot_base, cross = slot_base + parts.bytes, back = slot_base + 2 * parts.bytes;
  auto sum = [&](std::uint64_t slot, int j) {  // A's partial first on both sides: the same bits
    return Op{Op::Kind::kSum, slot + parts.offset(j), parts.offset(j), parts.span(j, j + 1),
              /*recv_first=*/!in_a};
  };
  Step st;
  if (v >= n) {  // my part goes to my side's designated member, the other side's comes back from it
    if (!parts.span(v, v + 1)) return;
    st.puts.push_back(Put{mine.members[std::size_t(v % n)], parts.offset(v), fwd + parts.offset(v),
                          parts.span(v, v + 1), t(me_side, 0, v)});
    push(s, st, phase);
    st.waits.push_back(Wait{mine.members[std::size_t(v % n)], t(other_side, 2, v)});
    st.ops.push_back(sum(back, v));
    push(s, st, phase);
    return;
  }
  // Designated, one relay step: cross with every part of my side as it
  // arrives, hand on every part that comes across as it arrives, and sum my
  // own part with its counterpart.
  for (int j = v; j < h; j += n) {
    if (!parts.span(j, j + 1)) continue;
    Put across{other.members[std::size_t(v)], j == v ? parts.offset(j) : fwd + parts.offset(j),
               cross + parts.offset(j), parts.span(j, j + 1), t(me_side, 1, j)};
    across.from_recv = j != v;
    if (j == v) {
      st.puts.push_back(across);
    } else {
      st.puts.push_back(gated(across, st.waits.size()));
      st.waits.push_back(Wait{mine.members[std::size_t(j)], t(me_side, 0, j)});
    }
    if (j == v) {
      st.ops.push_back(sum(cross, v));
    } else {
      Put on{mine.members[std::size_t(j)], cross + parts.offset(j), back + parts.offset(j),
             parts.span(j, j + 1), t(other_side, 2, j)};
      on.from_recv = true;
      st.puts.push_back(gated(on, st.waits.size()));
    }
    st.waits.push_back(Wait{other.members[std::size_t(v)], t(other_side, 1, j)});
  }
  push(s, st, phase);
}

}  // namespace kairo::coll
