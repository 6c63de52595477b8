#include "sw/replay/mpi.h"

#include <fmt/format.h>

#include <cmath>
#include <map>
#include <unordered_map>

#include "sw/hybrid/forwarding.h"

namespace kairo::replay {
namespace {

struct Request {
  bool done = false;
  sim::Time ready = 0;  // when its data is usable (an eager message's copy ends)
};

struct Posted {
  int src = 0, tag = 0;
  std::uint32_t comm = 0;
  std::uint64_t request = 0;
};

struct Arrived {
  std::uint64_t msg = 0;
  bool rts = false;  // a request to send: the data is still at the sender
};

// An operation of ours the NIC has not completed yet.
struct Pending {
  enum What : std::uint8_t { kSendDone, kGetDone, kNothing } what = kNothing;
  int tni = 0;
  std::uint64_t request = 0, msg = 0;
};

class RankMpi {
 public:
  RankMpi(fw::Rank& r, Replay& rp, int me) : r_(r), rp_(rp), plan_(*rp.plan), me_(me) {}

  fw::Task run();

 private:
  fw::Task act(const Action& a);
  fw::Task send(std::uint64_t request);
  fw::Task post_receive(const Action& a, std::uint64_t request);
  fw::Task progress();
  fw::Task wait(std::uint64_t request);
  fw::Task arrive(std::uint64_t msg, bool rts);
  fw::Task deliver(std::uint64_t msg, bool rts);
  fw::Task receive(std::uint64_t msg, bool rts, std::uint64_t request);
  fw::Task on_notice(const nic::Notice& n);
  fw::Task on_complete(const Pending& p, const nic::Completion& c);
  fw::Task collective(const Action& a);
  fw::Task relay_agent();
  fw::Task put(int tni, int to, int memid, std::uint64_t length, std::uint32_t tag, int src_memid, Pending p);

  int tni_to(int peer) const { return rp_.hybrid ? 0 : peer % r_.tnis(); }
  bool matches(const Posted& p, const Message& m) const {
    return (p.src == kAnySource || p.src == m.src) && (p.tag == kAnyTag || p.tag == m.tag) &&
           p.comm == m.comm;
  }
  sim::Time copy_time(std::uint64_t bytes) const {
    return sim::Time(std::ceil(double(bytes) * 1e12 / rp_.copy_bytes_per_s));
  }

  fw::Rank& r_;
  Replay& rp_;
  const Plan& plan_;
  const int me_;
  std::uint64_t sent_ = 0;  // messages sent so far (the next one's index: first_message[me] + sent_)
  std::uint64_t synthetic_ = 0;
  sim::Time call_start_ = 0;  // the MPI call in progress: when it began, and which
  std::uint16_t call_ = 0;
  std::unordered_map<std::uint64_t, Request> requests_;
  std::vector<Posted> posted_;                          // in posting order
  std::vector<Arrived> unexpected_;                     // in arrival order
  std::unordered_map<int, std::uint32_t> expect_;       // per sender: the sequence number next in order
  std::unordered_map<std::uint64_t, bool> early_;       // arrived ahead of an earlier message of its sender
  std::unordered_map<std::uint64_t, Pending> pending_;  // by handle
  std::unordered_map<std::uint64_t, std::uint64_t> fin_wait_;  // (receiver, seq) -> our request
  std::vector<std::pair<Pending, nic::Completion>> done_;      // progress's scratch
  coll::Buffers coll_;
};

fw::Task RankMpi::run() {
  // Regions, registered at time 0 like every workload's: what this rank
  // sends from (its largest message), gets into, takes eager messages
  // into, relays through, and its collectives' two regions.
  const std::uint64_t h = rp_.options.header_bytes;
  auto region = [&](int memid, std::uint64_t bytes) {
    const std::uint64_t at = r_.alloc(bytes, 4096);
    if (!r_.reg_mem(memid, at, bytes))
      throw std::runtime_error(
          fmt::format("replay: rank {} cannot register {} bytes (registration table full?)", me_, bytes));
    return at;
  };
  region(kSendMemid, plan_.max_send[std::size_t(me_)] + h);
  region(kRecvMemid, plan_.max_recv[std::size_t(me_)]);
  region(kEagerMemid, rp_.options.eager_limit + h);
  if (rp_.hybrid) region(kTransitMemid, rp_.transit_bytes + h);
  coll_.send_memid = 2;
  coll_.recv_memid = 1;
  coll_.send_address = region(2, plan_.coll_send[std::size_t(me_)]);
  coll_.recv_address = region(1, plan_.coll_recv[std::size_t(me_)]);
  if (rp_.start > r_.now()) co_await r_.compute(rp_.start - r_.now());

  fw::Task agent;
  if (rp_.hybrid && rp_.relays[std::size_t(me_)] > 0) {
    agent = relay_agent();
    r_.spawn(agent);
  }
  const std::vector<Action>& actions = rp_.trace->actions[std::size_t(me_)];
  for (std::size_t i = 0; i < actions.size(); ++i) {
    rp_.at_action[std::size_t(me_)] = i;
    co_await act(actions[i]);
  }
  // MPI_Finalize: what is still outstanding completes before the rank ends.
  for (;;) {
    auto open =
        std::find_if(requests_.begin(), requests_.end(), [](const auto& q) { return !q.second.done; });
    if (open == requests_.end()) break;
    co_await wait(open->first);
  }
  if (rp_.hybrid && rp_.relays[std::size_t(me_)] > 0) co_await agent;
  rp_.at_action[std::size_t(me_)] = actions.size();
  rp_.end_ps[std::size_t(me_)] = r_.now();
}

fw::Task RankMpi::act(const Action& a) {
  switch (a.act) {
    case Act::kCall: {
      const sim::Time gap = sim::Time(std::llround(double(a.bytes) * 1000.0 * rp_.compute_scale));
      if (gap > 0) {
        rp_.compute_ps[std::size_t(me_)] += gap;
        co_await r_.compute(gap);
      }
      call_start_ = r_.now();
      call_ = a.call;
      break;
    }
    case Act::kEnd:
      rp_.call_ps[std::size_t(me_) * rp_.trace->call_names.size() + call_] += r_.now() - call_start_;
      break;
    case Act::kSend: {
      const std::uint64_t q = a.request ? a.request : (std::uint64_t(1) << 62) | ++synthetic_;
      co_await send(q);
      if (!a.request) co_await wait(q);
      break;
    }
    case Act::kRecv: {
      const std::uint64_t q = a.request ? a.request : (std::uint64_t(1) << 62) | ++synthetic_;
      co_await post_receive(a, q);
      if (!a.request) co_await wait(q);
      break;
    }
    case Act::kComplete:
      co_await wait(a.request);
      break;
    case Act::kCollective:
      co_await collective(a);
      break;
    case Act::kSkip:
      break;
  }
}

fw::Task RankMpi::put(int tni, int to, int memid, std::uint64_t length, std::uint32_t tag, int src_memid,
                      Pending p) {
  const int fw_to = rp_.fw_rank[std::size_t(to)];
  std::uint64_t handle = 0;
  co_await r_.put(tni, fw_to, r_.remote_key(fw_to, memid), 0, r_.remote_key(r_.rank(), src_memid), 0, length,
                  tag, &handle);
  p.tni = tni;
  pending_[handle] = p;
}

fw::Task RankMpi::send(std::uint64_t request) {
  const std::uint64_t msg = plan_.first_message[std::size_t(me_)] + sent_++;
  const Message& m = plan_.messages[msg];
  const std::uint64_t h = rp_.options.header_bytes;
  requests_[request] = Request{};
  if (m.dst == me_) {  // to itself: a copy in memory, no network
    requests_[request].done = true;
    co_await arrive(msg, false);
    co_return;
  }
  if (const std::vector<hybrid::Hop>* hops = rp_.route(m)) {
    const hybrid::Hop& first = hops->front();
    const Kind k = hops->size() == 1 ? Kind::kRouted : Kind::kRelay;
    co_await put(first.optical ? 1 : 0, rp_.trace_of_node[first.to], kTransitMemid, m.bytes + h,
                 protocol_tag(k, msg), kSendMemid, Pending{Pending::kSendDone, 0, request, msg});
  } else if (m.bytes <= rp_.options.eager_limit) {
    co_await put(tni_to(m.dst), m.dst, kEagerMemid, m.bytes + h, protocol_tag(Kind::kEager, m.seq),
                 kSendMemid, Pending{Pending::kSendDone, 0, request, msg});
  } else {
    fin_wait_[(std::uint64_t(m.dst) << 32) | (m.seq & kNumberMask)] = request;
    co_await put(tni_to(m.dst), m.dst, kEagerMemid, h, protocol_tag(Kind::kRts, m.seq), kSendMemid,
                 Pending{Pending::kNothing, 0, 0, msg});
  }
}

fw::Task RankMpi::post_receive(const Action& a, std::uint64_t request) {
  requests_[request] = Request{};
  co_await progress();  // what has landed meanwhile is matched first, in arrival order
  const Posted p{a.peer, a.tag, a.comm, request};
  for (std::size_t i = 0; i < unexpected_.size(); ++i)
    if (matches(p, plan_.messages[unexpected_[i].msg])) {
      const Arrived u = unexpected_[i];
      unexpected_.erase(unexpected_.begin() + std::ptrdiff_t(i));
      co_await receive(u.msg, u.rts, request);
      co_return;
    }
  posted_.push_back(p);
}

fw::Task RankMpi::progress() {
  for (;;) {
    bool moved = false;
    while (auto n = r_.try_poll_range(protocol_tag(Kind::kEager, 0), protocol_tag(Kind::kRelay, 0) - 1)) {
      moved = true;
      co_await on_notice(*n);
    }
    done_.clear();
    for (const auto& [handle, p] : pending_)
      if (auto c = r_.try_complete(p.tni, handle)) done_.emplace_back(p, *c);
    for (const auto& [p, c] : done_) pending_.erase(c.handle);
    moved = moved || !done_.empty();
    // on_complete only posts (it never calls progress), so done_ stays ours meanwhile.
    for (const auto& [p, c] : done_) co_await on_complete(p, c);
    if (!moved) co_return;
  }
}

fw::Task RankMpi::wait(std::uint64_t request) {
  for (;;) {
    co_await progress();
    auto it = requests_.find(request);
    if (it == requests_.end()) co_return;  // a request the trace completes twice, or never started
    if (it->second.done) {
      const sim::Time ready = it->second.ready;
      requests_.erase(it);
      if (ready > r_.now()) co_await r_.compute(ready - r_.now());
      co_return;
    }
    co_await r_.wait_activity();
  }
}

fw::Task RankMpi::on_notice(const nic::Notice& n) {
  const Kind k = Kind(n.tag >> kKindShift);
  const std::uint32_t number = n.tag & kNumberMask;
  const int src = n.src_node < rp_.trace_of_node.size() ? rp_.trace_of_node[n.src_node] : -1;
  if (k == Kind::kRouted) {
    co_await arrive(number, false);
    co_return;
  }
  if (src < 0)
    throw std::runtime_error(fmt::format(
        "replay: rank {}: a notice from node {}, where no rank of the trace runs", me_, n.src_node));
  if (k == Kind::kFin) {
    auto it = fin_wait_.find((std::uint64_t(src) << 32) | number);
    if (it != fin_wait_.end()) {
      requests_[it->second].done = true;
      fin_wait_.erase(it);
    }
    co_return;
  }
  // An eager message or a request to send: its sequence number among src's
  // messages to us, whole again from the next one expected.
  const auto& from = plan_.inbound[std::size_t(me_)].at(src);
  const std::uint32_t next = expect_[src];
  const std::uint32_t seq = next + ((number - (next & kNumberMask)) & kNumberMask);
  if (seq >= from.size())
    throw std::runtime_error(fmt::format("replay: rank {}: message {} from rank {}, which sends it {}", me_,
                                         seq, src, from.size()));
  co_await arrive(from[seq], k == Kind::kRts);
}

fw::Task RankMpi::arrive(std::uint64_t msg, bool rts) {
  const Message& m = plan_.messages[msg];
  std::uint32_t& next = expect_[m.src];
  if (m.seq != next) {  // overtook an earlier message of its sender: held until that one is in
    early_[msg] = rts;
    co_return;
  }
  co_await deliver(msg, rts);
  ++next;
  const auto& from = plan_.inbound[std::size_t(me_)].at(m.src);
  while (next < from.size()) {
    auto it = early_.find(from[next]);
    if (it == early_.end()) break;
    const std::uint64_t held = it->first;
    const bool held_rts = it->second;
    early_.erase(it);
    co_await deliver(held, held_rts);
    ++expect_[m.src];
    next = expect_[m.src];
  }
}

fw::Task RankMpi::deliver(std::uint64_t msg, bool rts) {
  const Message& m = plan_.messages[msg];
  for (std::size_t i = 0; i < posted_.size(); ++i)
    if (matches(posted_[i], m)) {
      const std::uint64_t request = posted_[i].request;
      posted_.erase(posted_.begin() + std::ptrdiff_t(i));
      co_await receive(msg, rts, request);
      co_return;
    }
  unexpected_.push_back(Arrived{msg, rts});
}

fw::Task RankMpi::receive(std::uint64_t msg, bool rts, std::uint64_t request) {
  const Message& m = plan_.messages[msg];
  if (!rts) {  // the data is here, in the bounce buffer: copied out
    Request& q = requests_[request];
    q.done = true;
    q.ready = r_.now() + copy_time(m.bytes);
    co_return;
  }
  const int tni = tni_to(m.src);
  const int fw_src = rp_.fw_rank[std::size_t(m.src)];
  std::uint64_t handle = 0;
  co_await r_.get(tni, fw_src, r_.remote_key(fw_src, kSendMemid), 0, r_.remote_key(r_.rank(), kRecvMemid), 0,
                  m.bytes, &handle);
  pending_[handle] = Pending{Pending::kGetDone, tni, request, msg};
}

fw::Task RankMpi::on_complete(const Pending& p, const nic::Completion& c) {
  if (c.status != nic::RdmaStatus::kOk) {
    rp_.ok = false;
    ++rp_.errors[std::size_t(me_)];
  }
  if (p.what == Pending::kSendDone) requests_[p.request].done = true;
  if (p.what == Pending::kGetDone) {
    requests_[p.request].done = true;
    const Message& m = plan_.messages[p.msg];
    co_await put(tni_to(m.src), m.src, kEagerMemid, rp_.options.header_bytes, protocol_tag(Kind::kFin, m.seq),
                 kSendMemid, Pending{});
  }
}

fw::Task RankMpi::collective(const Action& a) {
  const std::uint32_t id = plan_.instance_of[std::size_t(me_)][a.bytes];
  const Instance& in = plan_.instances[id];
  if (in.algo.empty()) co_return;
  const Comm& comm = rp_.trace->comms[in.comm];
  int mine = 0;
  while (comm.members[std::size_t(mine)] != me_) ++mine;
  // Destinations as the machine's ranks; tags apart per instance (the 2^13
  // latest instances never meet, a rank being in one collective at a time).
  std::vector<int> members(comm.members.size());
  for (std::size_t i = 0; i < members.size(); ++i) members[i] = rp_.fw_rank[std::size_t(comm.members[i])];
  const coll::Schedule s = instance_schedule(in, members, mine, (id % 8192) << 16);
  bool ok = true;
  co_await coll::run_schedule(r_, s, coll_, &ok, nullptr, false);
  if (!ok) {
    rp_.ok = false;
    ++rp_.errors[std::size_t(me_)];
  }
}

// Forwards the messages routed through this node (an EO-OE relay): each as
// soon as it has landed whole, alongside the rank's program (several in
// flight, as the pattern workload's relays).
fw::Task RankMpi::relay_agent() {
  constexpr std::size_t kRelayWindow = 16;
  const std::uint32_t here = rp_.node[std::size_t(me_)];
  std::vector<std::pair<int, std::uint64_t>> forwarded;  // puts not yet known complete, oldest first
  for (std::uint64_t k = 0; k < rp_.relays[std::size_t(me_)]; ++k) {
    nic::Notice n;
    co_await r_.poll_range(protocol_tag(Kind::kRelay, 0), protocol_tag(Kind::kRelay, kNumberMask), &n);
    const std::uint64_t msg = n.tag & kNumberMask;
    const Message& m = plan_.messages[msg];
    const std::vector<hybrid::Hop>& hops = *rp_.route(m);
    std::size_t h = 0;
    while (h + 1 < hops.size() && hops[h].to != here) ++h;
    const hybrid::Hop& next = hops[h + 1];
    const Kind kind = h + 2 == hops.size() ? Kind::kRouted : Kind::kRelay;
    const int tni = next.optical ? 1 : 0;
    const int to = rp_.fw_rank[std::size_t(rp_.trace_of_node[next.to])];
    std::uint64_t handle = 0;
    co_await r_.put(tni, to, r_.remote_key(to, kTransitMemid), 0, r_.remote_key(r_.rank(), kTransitMemid), 0,
                    m.bytes + rp_.options.header_bytes, protocol_tag(kind, msg), &handle);
    forwarded.emplace_back(tni, handle);
    if (forwarded.size() > kRelayWindow) {  // the oldest collected, so the completion queue never fills
      co_await r_.complete(forwarded.front().first, forwarded.front().second);
      forwarded.erase(forwarded.begin());
    }
  }
  for (const auto& [tni, handle] : forwarded) co_await r_.complete(tni, handle);
}

}  // namespace

fw::Task replay_rank(fw::Rank& r, Replay& rp, int me) {
  RankMpi mpi(r, rp, me);
  co_await mpi.run();
}

std::string waiting_for(const Replay& rp, int me) {
  const std::vector<Action>& actions = rp.trace->actions[std::size_t(me)];
  const std::size_t at = rp.at_action[std::size_t(me)];
  if (at >= actions.size()) return "finished";
  std::size_t call = at;
  while (call > 0 && actions[call].act != Act::kCall) --call;
  std::uint64_t number = 0;
  for (std::size_t i = 0; i <= call; ++i) number += actions[i].act == Act::kCall;
  const Action& a = actions[at];
  std::string what;
  auto comm = [&](std::uint32_t c) { return rp.trace->comms[c].name; };
  switch (a.act) {
    case Act::kRecv:
      what = fmt::format(", waiting for a message from {} with tag {} on {}",
                         a.peer == kAnySource ? "any rank" : "rank " + std::to_string(a.peer),
                         a.tag == kAnyTag ? "any" : std::to_string(a.tag), comm(a.comm));
      break;
    case Act::kComplete:
      what = fmt::format(", waiting for request {}", a.request);
      break;
    case Act::kSend:
      what = fmt::format(", sending to rank {}", a.peer);
      break;
    case Act::kCollective:
      what = ", in a collective on " + comm(a.comm);
      break;
    default:
      break;
  }
  return fmt::format("in {} (its MPI call {}){}", rp.trace->call_names[actions[call].call], number, what);
}

}  // namespace kairo::replay
