// An instance's schedule from kairo's collective algorithms (sw/collectives),
// for one member: apart from plan.cpp so that the plan (and its fuzzer)
// needs no algorithm.
#include <stdexcept>

#include "sw/collectives/allreduce.h"
#include "sw/collectives/alltoall.h"
#include "sw/collectives/barrier.h"
#include "sw/collectives/bcast.h"
#include "sw/collectives/gather.h"
#include "sw/replay/plan.h"

namespace kairo::replay {

coll::Schedule instance_schedule(const Instance& in, const std::vector<int>& members, int me,
                                 std::uint32_t tag_base) {
  coll::Schedule s;
  const int p = in.p;
  const std::string& a = in.algo;
  coll::Reduction red{me, p, in.root, in.size, 1, 1};
  switch (in.op) {
    case CollOp::kBarrier:
      s = coll::barrier(a, me, p, 1);
      break;
    case CollOp::kBcast:
      s = coll::bcast(a, me, p, in.root, in.size, 1, 1);
      break;
    case CollOp::kReduce:
      s = coll::reduction(coll::ReductionKind::kReduce, a, red);
      break;
    case CollOp::kAllreduce:
    case CollOp::kCreateHandle:
      s = coll::reduction(coll::ReductionKind::kAllreduce, a, red);
      break;
    case CollOp::kReduceScatter:
      s = coll::reduction(coll::ReductionKind::kReduceScatter, a, red);
      break;
    case CollOp::kAlltoall:
      s = coll::alltoall(a, me, p, in.size, 1);
      break;
    case CollOp::kGather:
      s = coll::gather_linear(me, p, in.root, in.size, 1);
      break;
    case CollOp::kScatter:
      s = coll::scatter_linear(me, p, in.root, in.size, 1);
      break;
    case CollOp::kAllgather:
      s = coll::allgather_ring(me, p, in.size, 1);
      break;
    case CollOp::kScan:  // Open MPI's linear scan: wait for the prefix from me - 1, add, pass it on
      if (me > 0)
        s.push_back(coll::Step({}, {coll::Wait{me - 1, 1}}, {coll::Op{coll::Op::Kind::kSum, 0, 0, in.size}}));
      if (me + 1 < p) s.push_back(coll::Step({coll::Put{me + 1, 0, 0, in.size, 1}}, {}));
      break;
    default:
      break;
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
