// Seed 001's inter-cluster steps with a limit on concurrent streams
// (sw/collectives/pieces.h): counter_copy and counter_reduce.
#include "sw/collectives/pieces.h"

namespace kairo::coll {

namespace {
void push(Schedule& s, Step& st, const char* phase, bool complete) {
  if (st.puts.empty() && st.waits.empty() && st.ops.empty()) return;
  st.phase = phase;
  st.complete_puts = complete;
  s.push_back(std::move(st));
  st = Step{};
}
}  // namespace

void counter_copy(Schedule& s, const Group& a, const Group& b, const Parts& parts, Buf buf, int streams,
                  std::uint32_t tag, const char* phase) {
  const int h = a.size(), n = streams;
  const std::uint32_t to_designated = tag, across = tag + std::uint32_t(h), from_designated = tag + 2 * std::uint32_t(h);
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
    } else {  // cross with my part, then with each forwarded part as it arrives
      if (parts.span(v, v + 1)) st.puts.push_back(put(b.members[std::size_t(v)], v, across));
      for (int j = v + n; j < h; j += n) {
        if (!parts.span(j, j + 1)) continue;
        st.waits.push_back(Wait{a.members[std::size_t(j)], to_designated + std::uint32_t(j)});
        push(s, st, phase, false);
        st.puts.push_back(put(b.members[std::size_t(v)], j, across));
      }
    }
    push(s, st, phase, false);
  }
  if (b.me >= 0) {
    const int v = b.me;
    if (v >= n) {
      if (parts.span(v, v + 1)) st.waits.push_back(Wait{b.members[std::size_t(v % n)], from_designated + std::uint32_t(v)});
    } else {  // receive my part and the parts of my side's members j = v mod n, and hand those on
      if (parts.span(v, v + 1)) st.waits.push_back(Wait{a.members[std::size_t(v)], across + std::uint32_t(v)});
      for (int j = v + n; j < h; j += n) {
        if (!parts.span(j, j + 1)) continue;
        st.waits.push_back(Wait{a.members[std::size_t(v)], across + std::uint32_t(j)});
        push(s, st, phase, false);
        st.puts.push_back(put(b.members[std::size_t(j)], j, from_designated));
      }
    }
    push(s, st, phase, false);
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
    return Op{Op::Kind::kSum, slot + parts.offset(j), parts.offset(j), parts.span(j, j + 1), /*recv_first=*/!in_a};
  };
  Step st;
  if (v >= n) {  // my part goes to my side's designated member, the other side's comes back from it
    if (!parts.span(v, v + 1)) return;
    st.puts.push_back(Put{mine.members[std::size_t(v % n)], parts.offset(v), fwd + parts.offset(v),
                          parts.span(v, v + 1), t(me_side, 0, v)});
    push(s, st, phase, false);
    st.waits.push_back(Wait{mine.members[std::size_t(v % n)], t(other_side, 2, v)});
    st.ops.push_back(sum(back, v));
    push(s, st, phase, false);
    return;
  }
  // Designated: cross with every part of my side as it arrives, then hand
  // on (or sum, for my own part) every part that came across.
  for (int j = v; j < h; j += n) {
    if (!parts.span(j, j + 1)) continue;
    if (j != v) {
      st.waits.push_back(Wait{mine.members[std::size_t(j)], t(me_side, 0, j)});
      push(s, st, phase, false);
    }
    Put across{other.members[std::size_t(v)], j == v ? parts.offset(j) : fwd + parts.offset(j),
               cross + parts.offset(j), parts.span(j, j + 1), t(me_side, 1, j)};
    across.from_recv = j != v;
    st.puts.push_back(across);
  }
  push(s, st, phase, false);
  for (int j = v; j < h; j += n) {
    if (!parts.span(j, j + 1)) continue;
    st.waits.push_back(Wait{other.members[std::size_t(v)], t(other_side, 1, j)});
    push(s, st, phase, false);
    if (j == v) {
      st.ops.push_back(sum(cross, v));
    } else {
      Put on{mine.members[std::size_t(j)], cross + parts.offset(j), back + parts.offset(j), parts.span(j, j + 1),
             t(other_side, 2, j)};
      on.from_recv = true;
      st.puts.push_back(on);
    }
  }
  push(s, st, phase, false);
}

}  // namespace kairo::coll
