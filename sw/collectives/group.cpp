#include <algorithm>

#include "sw/collectives/pieces.h"

namespace kairo::coll {

Group Group::range(int rank, int first, int count, int root) {
  Group g;
  const int shift = root < 0 ? 0 : root - first;
  g.members.resize(std::size_t(count));
  for (int i = 0; i < count; ++i) {
    g.members[std::size_t(i)] = first + (i + shift) % count;
    if (g.members[std::size_t(i)] == rank) g.me = i;
  }
  return g;
}

std::uint64_t recv_extent(const Schedule& s) {
  std::uint64_t end = 0;
  for (const Step& st : s) {
    for (const Put& p : st.puts)
      if (p.from_recv) end = std::max(end, p.src_offset + p.bytes);
    for (const Op& op : st.ops) end = std::max(end, op.recv_offset + op.bytes);
  }
  return end;
}

}  // namespace kairo::coll
