#include "sw/replay/plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace kairo::replay {
namespace {

bool power_of_two(int p) { return p > 0 && (p & (p - 1)) == 0; }

// A per-member size from what Score-P records as N x size, or (N - 1) x
// size when the call was in place (its byte-count convention,
// docs/traces.md): N x size when it divides, else (N - 1) x size.
std::uint64_t per_member(std::uint64_t recorded, int n) {
  const std::uint64_t un = std::uint64_t(n);
  if (recorded % un == 0 || n < 2) return recorded / un;
  return (recorded + un - 2) / (un - 1);
}

std::uint64_t round8(std::uint64_t b) { return (b + 7) / 8 * 8; }

// The size an instance's algorithm runs with, from every member's record
// (the largest member's, so that every member builds the same schedule; a
// v-variant as its uniform counterpart moving the same total).
std::uint64_t instance_size(CollOp op, bool vector, int root, const std::vector<const Collective*>& recs) {
  const int n = int(recs.size());
  std::uint64_t size = 0, sum_sent = 0, sum_recv = 0;
  for (int m = 0; m < n; ++m) {
    const Collective& c = *recs[std::size_t(m)];
    sum_sent += c.sent;
    sum_recv += c.received;
    std::uint64_t s = 0;
    switch (op) {
      case CollOp::kBcast:
        s = m == root ? per_member(c.sent, n) : c.received;
        break;
      case CollOp::kReduce:
        s = m == root ? per_member(c.received, n) : c.sent;
        break;
      case CollOp::kGather:
        s = m == root ? 0 : c.sent;
        break;
      case CollOp::kScatter:
        s = m == root ? 0 : c.received;
        break;
      case CollOp::kAllgather:
        s = per_member(c.received, n);
        break;
      case CollOp::kAlltoall:
      case CollOp::kAllreduce:
        s = per_member(c.sent, n);
        break;
      case CollOp::kReduceScatter:
        s = vector ? c.sent : std::uint64_t(n) * per_member(c.sent, n);
        break;
      case CollOp::kScan:
        s = std::max(c.sent / std::uint64_t(n - m), c.received / std::uint64_t(m + 1));
        break;
      case CollOp::kCreateHandle:
        s = 8;
        break;
      default:
        break;
    }
    size = std::max(size, s);
  }
  if (vector && n > 1) {  // the mean block, so that the total moved is the trace's
    if (op == CollOp::kGather) size = (sum_sent + std::uint64_t(n) - 2) / std::uint64_t(n - 1);
    if (op == CollOp::kScatter) size = (sum_recv + std::uint64_t(n) - 2) / std::uint64_t(n - 1);
    if (op == CollOp::kAlltoall) size = (sum_sent + std::uint64_t(n) * n - 1) / (std::uint64_t(n) * n);
  }
  return size;
}

// Bytes each region of a member needs for an instance: the send and
// receive regions of sw/collectives/executor.h, as the algorithm's own
// table entry states them (ring allreduce keeps p - 1 partial sums), and no
// less than the shape rule below.
std::pair<std::uint64_t, std::uint64_t> shape_regions(const Instance& in);
std::pair<std::uint64_t, std::uint64_t> regions(const Instance& in) {
  auto [send, recv] = shape_regions(in);
  coll::Collective c{};
  if (!in.algo.empty() && collective_of(in.op, &c)) {
    const coll::Memory m = coll::find_algorithm(c, in.algo).memory(coll::Call{0, in.p, in.root, in.size});
    send = std::max(send, std::uint64_t(std::ceil(m.send_bytes)));
    recv = std::max(recv, std::uint64_t(std::ceil(m.recv_bytes)));
  }
  return {send, recv};
}

std::pair<std::uint64_t, std::uint64_t> shape_regions(const Instance& in) {
  const std::uint64_t p = std::uint64_t(in.p), s = std::max<std::uint64_t>(in.size, 8);
  std::uint64_t log = 0;
  while ((std::uint64_t(1) << log) < p) ++log;
  switch (in.op) {
    case CollOp::kAllreduce:
    case CollOp::kReduce:
    case CollOp::kReduceScatter:
    case CollOp::kScan:
    case CollOp::kCreateHandle:
      return {s, s * (log + 2)};
    case CollOp::kBcast:
      return {8, s};
    case CollOp::kBarrier:
      return {8, 8};
    default:
      return {p * s + 8, p * s + 8 * p + 8};  // blocks of p members (gather, alltoall, ...)
  }
}

}  // namespace

bool collective_of(CollOp op, coll::Collective* c) {
  using C = coll::Collective;
  switch (op) {
    case CollOp::kBarrier:
      return *c = C::kBarrier, true;
    case CollOp::kBcast:
      return *c = C::kBcast, true;
    case CollOp::kGather:
      return *c = C::kGather, true;
    case CollOp::kScatter:
      return *c = C::kScatter, true;
    case CollOp::kAllgather:
      return *c = C::kAllgather, true;
    case CollOp::kAlltoall:
      return *c = C::kAlltoall, true;
    case CollOp::kAllreduce:
    case CollOp::kCreateHandle:
      return *c = C::kAllreduce, true;
    case CollOp::kReduce:
      return *c = C::kReduce, true;
    case CollOp::kReduceScatter:
      return *c = C::kReduceScatter, true;
    default:
      return false;
  }
}

const std::vector<std::string>& algorithms(CollOp op) {
  static const std::vector<std::vector<std::string>> lists = [] {
    std::vector<std::vector<std::string>> l(std::size_t(CollOp::kOther) + 1);
    for (std::size_t k = 0; k < l.size(); ++k) {
      coll::Collective c{};
      if (collective_of(CollOp(k), &c))
        for (const coll::Algorithm& a : coll::algorithms())
          if (a.collective == c && a.traced) l[k].emplace_back(a.name);
    }
    l[std::size_t(CollOp::kScan)] = {"chain"};
    return l;
  }();
  return lists[std::size_t(op)];
}

std::string default_algorithm(CollOp op, int p, std::uint64_t size) {
  switch (op) {
    case CollOp::kBarrier:
      return power_of_two(p) ? "recursive-doubling" : "dissemination";
    case CollOp::kBcast:
      return size < 12288 || p < 8 ? "binomial" : "vandegeijn";
    case CollOp::kReduce:
      return size < 65536 ? "binomial" : "rabenseifner";
    case CollOp::kAllreduce:
      return size < 10000 || size / 8 < std::uint64_t(p) ? "recursive-doubling" : "ring";
    case CollOp::kCreateHandle:
      return "recursive-doubling";
    case CollOp::kReduceScatter:
      return power_of_two(p) && size < 524288 ? "halving" : "ring";
    case CollOp::kAlltoall:
      return size < 3000 ? "a2a" : "pairwise";
    case CollOp::kGather:
    case CollOp::kScatter:
      return "linear";
    case CollOp::kAllgather:
      return "ring";
    case CollOp::kScan:
      return "chain";
    default:
      return "";
  }
}

void check_options(const Options& o) {
  for (const auto& [name, algo] : o.algorithms) {
    bool known = false;
    for (int k = 0; k <= int(CollOp::kScan); ++k)
      if (name == coll_name(CollOp(k))) {
        const auto& list = algorithms(CollOp(k));
        if (std::find(list.begin(), list.end(), algo) == list.end())
          throw std::invalid_argument(
              fmt::format("--param algo.{}={}: expected one of: {}", name, algo, fmt::join(list, ", ")));
        known = true;
      }
    if (!known)
      throw std::invalid_argument("--param algo." + name +
                                  ": not a collective (barrier, bcast, reduce, allreduce, reduce_scatter, "
                                  "alltoall, gather, scatter, allgather, scan)");
  }
}

Plan make_plan(const Trace& t, const Options& o) {
  check_options(o);
  Plan pl;
  const int n = t.ranks;
  pl.ranks = n;
  pl.first_message.assign(std::size_t(n) + 1, 0);
  pl.inbound.resize(std::size_t(n));
  pl.max_send.assign(std::size_t(n), 8);
  pl.max_recv.assign(std::size_t(n), 8);
  pl.coll_send.assign(std::size_t(n), 8);
  pl.coll_recv.assign(std::size_t(n), 8);
  pl.instance_of.resize(std::size_t(n));
  std::vector<std::unordered_map<int, std::uint32_t>> next_seq{std::size_t(n)};
  for (int s = 0; s < n; ++s) {
    pl.first_message[std::size_t(s)] = pl.messages.size();
    for (const Action& a : t.actions[std::size_t(s)]) {
      if (a.act != Act::kSend) continue;
      if (a.peer < 0 || a.peer >= n)
        throw TraceError(
            fmt::format("{}: rank {} sends to rank {}, outside the trace's {} ranks", t.path, s, a.peer, n));
      const std::uint32_t seq = next_seq[std::size_t(s)][a.peer]++;
      pl.inbound[std::size_t(a.peer)][s].push_back(pl.messages.size());
      pl.messages.push_back(Message{s, a.peer, seq, a.comm, a.tag, a.bytes});
      pl.max_send[std::size_t(s)] = std::max(pl.max_send[std::size_t(s)], a.bytes);
      if (a.bytes > o.eager_limit)
        pl.max_recv[std::size_t(a.peer)] = std::max(pl.max_recv[std::size_t(a.peer)], a.bytes);
      auto& pair = pl.pairs[{s, a.peer}];
      ++pair.first;
      pair.second += a.bytes;
    }
  }
  pl.first_message[std::size_t(n)] = pl.messages.size();

  // Collectives: member m's k-th collective on a communicator is instance k
  // of it for every member.
  std::vector<std::unordered_map<std::uint32_t, std::vector<std::uint32_t>>> on_comm{std::size_t(n)};
  for (int r = 0; r < n; ++r) {
    const auto& list = t.collectives[std::size_t(r)];
    pl.instance_of[std::size_t(r)].assign(list.size(), 0);
    for (std::uint32_t k = 0; k < list.size(); ++k) on_comm[std::size_t(r)][list[k].comm].push_back(k);
  }
  for (std::uint32_t c = 0; c < t.comms.size(); ++c) {
    const Comm& comm = t.comms[c];
    if (comm.self) {  // each rank alone: nothing moves
      for (int r = 0; r < n; ++r)
        for (std::uint32_t k : on_comm[std::size_t(r)][c]) {
          pl.instance_of[std::size_t(r)][k] = std::uint32_t(pl.instances.size());
          pl.instances.push_back(Instance{t.collectives[std::size_t(r)][k].op, c, 1, 0, 0, "", 0});
        }
      continue;
    }
    if (comm.members.empty()) continue;
    const int p = int(comm.members.size());
    std::size_t count = on_comm[std::size_t(comm.members[0])][c].size();
    for (int m = 1; m < p; ++m) {
      const std::size_t cm = on_comm[std::size_t(comm.members[std::size_t(m)])][c].size();
      if (cm != count)
        throw TraceError(fmt::format(
            "{}: ranks {} and {} make {} and {} collective calls on communicator {}: a trace whose members "
            "disagree cannot be replayed (a truncated trace?)",
            t.path, comm.members[0], comm.members[std::size_t(m)], count, cm, comm.name));
    }
    for (std::size_t k = 0; k < count; ++k) {
      std::vector<const Collective*> recs;
      for (int m = 0; m < p; ++m) {
        const int r = comm.members[std::size_t(m)];
        recs.push_back(&t.collectives[std::size_t(r)][on_comm[std::size_t(r)][c][k]]);
      }
      const Collective& first = *recs[0];
      Instance in;
      in.op = first.op;
      in.comm = c;
      in.p = p;
      in.root = std::max(first.root, 0);
      for (int m = 0; m < p; ++m) {
        const Collective& x = *recs[std::size_t(m)];
        if (x.op != first.op || x.root != first.root)
          throw TraceError(fmt::format(
              "{}: collective call {} on communicator {}: rank {} makes {} (root {}), rank {} {} (root {})",
              t.path, k + 1, comm.name, comm.members[0], coll_name(first.op), first.root,
              comm.members[std::size_t(m)], coll_name(x.op), x.root));
        in.traced_bytes += x.sent;
      }
      if (in.root >= p)
        throw TraceError(fmt::format("{}: a {} on communicator {} names root {} of {} members", t.path,
                                     coll_name(in.op), comm.name, in.root, p));
      in.size = instance_size(in.op, first.vector, in.root, recs);
      const bool reduction = in.op == CollOp::kAllreduce || in.op == CollOp::kReduce ||
                             in.op == CollOp::kReduceScatter || in.op == CollOp::kScan ||
                             in.op == CollOp::kCreateHandle;
      if (reduction) in.size = round8(std::max<std::uint64_t>(in.size, 8));
      if (in.op == CollOp::kReduceScatter) in.size = std::max(in.size, std::uint64_t(p) * 8);
      if (p > 1 && in.op != CollOp::kOther) {
        auto ov = o.algorithms.find(coll_name(in.op));
        in.algo = ov != o.algorithms.end() && in.op != CollOp::kCreateHandle
                      ? ov->second
                      : default_algorithm(in.op, p, in.size);
        if (in.algo == "halving" && !power_of_two(p)) in.algo = "ring";
      }
      const auto [send, recv] = regions(in);
      for (int m = 0; m < p; ++m) {
        const int r = comm.members[std::size_t(m)];
        pl.instance_of[std::size_t(r)][on_comm[std::size_t(r)][c][k]] = std::uint32_t(pl.instances.size());
        pl.coll_send[std::size_t(r)] = std::max(pl.coll_send[std::size_t(r)], send);
        pl.coll_recv[std::size_t(r)] = std::max(pl.coll_recv[std::size_t(r)], recv);
      }
      pl.instances.push_back(std::move(in));
    }
  }
  return pl;
}

}  // namespace kairo::replay
