// An instance's schedule from kairo's collective algorithms (sw/collectives),
// for one member.
#include <stdexcept>

#include "sw/collectives/algorithms.h"
#include "sw/replay/plan.h"

namespace kairo::replay {

coll::Schedule instance_schedule(const Instance& in, const std::vector<int>& members, int me,
                                 std::uint32_t tag_base) {
  coll::Schedule s;
  const int p = in.p;
  coll::Collective c{};
  if (collective_of(in.op, &c)) {
    s = coll::build(c, in.algo, coll::Call{me, p, in.root, in.size, 1, 1});
  } else if (in.op ==
             CollOp::kScan) {  // Open MPI's linear scan: wait for the prefix from me - 1, add, pass it on
    if (me > 0)
      s.push_back(coll::Step({}, {coll::Wait{me - 1, 1}}, {coll::Op{coll::Op::Kind::kSum, 0, 0, in.size}}));
    if (me + 1 < p) s.push_back(coll::Step({coll::Put{me + 1, 0, 0, in.size, 1}}, {}));
  }
  for (coll::Step& st : s) {
    for (coll::Put& put : st.puts) {
      if (put.tag >= 65536) throw std::logic_error("replay: a collective's tag passes 2^16");
      put.to = members[std::size_t(put.to)];
      put.tag += tag_base;
    }
    for (coll::Wait& w : st.waits) {
      w.from = members[std::size_t(w.from)];
      w.tag += tag_base;
    }
  }
  return s;
}

}  // namespace kairo::replay
