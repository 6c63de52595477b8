// A scenario file run as a workload (sw/workloads/scenario.h): its
// registrations, its data-mode contents and every rank's steps.
#include "sw/workloads/scenario.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <stdexcept>

namespace kairo::sw {
namespace {

constexpr std::uint64_t kAlign = 256;              // Rank::alloc's default: every region starts on it
constexpr int kBarrierMemid = 0x40000000;          // the barrier's 8 B region, above every region's memid
constexpr std::uint32_t kBarrierTag = 0x80000000;  // the barrier's tags; a scenario's are below 2^31

std::unique_ptr<Workload> make(Params& prm, const MachineInfo& m) {
  const std::string file = prm.text("file", "");
  return std::make_unique<scenario::ScenarioWorkload>(scenario::parse_scenario_file(file), m);
}

}  // namespace

const WorkloadInfo& scenario_workload() {
  static const WorkloadInfo info = {"scenario", "the steps and expectations of a scenario file (file)", make};
  return info;
}

std::vector<std::string> scenario_sets(const std::string& path) {
  return scenario::parse_scenario_file(path).sets;
}

namespace scenario {

struct ScenarioWorkload::Run {
  fw::Rank& r;
  const Program& prog;
  std::vector<nic::MemKey> keys;         // per region
  std::map<std::string, Posted> last;    // the latest operation of each id
  std::map<std::uint64_t, Posted> open;  // posted, completion not yet taken (by handle)
  int participant = 0;                   // this rank's place in participants_
  std::uint64_t barriers = 0;
  nic::MemKey barrier_key = 0;
};

ScenarioWorkload::ScenarioWorkload(Scenario s, const MachineInfo& m) : s_(std::move(s)), m_(m) {
  check_scenario(s_, Machine{m.nodes, m.tnis, m.data}, &program_of_);
  for (const Program& p : s_.programs) {
    std::uint64_t at = 0;
    std::vector<std::uint64_t> addr;
    for (const Region& g : p.regions) {
      at = (at + kAlign - 1) / kAlign * kAlign;
      addr.push_back(at);
      at += g.size;
      if (std::find(region_names_.begin(), region_names_.end(), g.name) == region_names_.end())
        region_names_.push_back(g.name);
    }
    addr.push_back((at + kAlign - 1) / kAlign * kAlign);  // the barrier's
    layout_.push_back(std::move(addr));
  }
  members_ = members_of(program_of_, s_.programs.size());
  for (int r = 0; r < m.nodes; ++r)
    if (program_of_[std::size_t(r)] >= 0) participants_.push_back(r);
  std::function<bool(const std::vector<Step>&)> has_barrier = [&](const std::vector<Step>& list) {
    return std::any_of(list.begin(), list.end(), [&](const Step& st) {
      return st.kind == StepKind::kBarrier || (st.kind == StepKind::kLoop && has_barrier(st.steps));
    });
  };
  barriers_ = !s_.programs.empty() && has_barrier(s_.programs.front().steps);  // all pass as many (checked)
  statuses_.assign(std::size_t(m.nodes) * s_.ops.size(), 0);
  completions_.assign(statuses_.size(), 0);
}

int ScenarioWorkload::memid(const std::string& region) const {
  return int(std::find(region_names_.begin(), region_names_.end(), region) - region_names_.begin()) + 1;
}

// What the regions take: data mode keeps every region of every rank with an
// entry (filled, or written by the steps); a rank allocates its regions and
// the barrier's 8 B.
Footprint ScenarioWorkload::footprint() const {
  Footprint f;
  for (int r = 0; r < m_.nodes; ++r) {
    const int p = program_of_[std::size_t(r)];
    if (p < 0) continue;
    for (const Region& g : s_.programs[std::size_t(p)].regions) f.data_bytes += double(g.size);
    f.rank_bytes = std::max(f.rank_bytes, layout_[std::size_t(p)].back() + 8);
  }
  return f;
}

void ScenarioWorkload::setup(HostMemory& m) {
  for (int r = 0; r < m_.nodes; ++r) {
    const int p = program_of_[std::size_t(r)];
    if (p < 0) continue;
    const Program& prog = s_.programs[std::size_t(p)];
    for (std::size_t i = 0; i < prog.regions.size(); ++i) {
      const Contents& c = prog.regions[i].fill;
      const std::uint64_t at = address(p, int(i));
      if (c.kind == Contents::Kind::kPattern)
        fill_pattern(m, r, at, prog.regions[i].size, c.pattern_of < 0 ? r : c.pattern_of);
      std::vector<unsigned char> bytes(c.bytes.begin(), c.bytes.end());
      if (c.kind == Contents::Kind::kU64)
        for (int k = 0; k < 8; ++k) bytes.push_back(static_cast<unsigned char>(c.u64 >> (8 * k)));
      bytes.resize(std::min<std::uint64_t>(bytes.size(), prog.regions[i].size));
      if (!bytes.empty()) m.write(r, at, bytes.data(), bytes.size());
    }
  }
}

fw::Task ScenarioWorkload::program(fw::Rank& r) {
  const int p = program_of_[std::size_t(r.rank())];
  if (p < 0) co_return;  // no entry: idle
  const Program& prog = s_.programs[std::size_t(p)];
  Run run{r, prog, {}, {}, {}, 0, 0, 0};
  for (std::size_t i = 0; i < prog.regions.size(); ++i) {
    const Region& g = prog.regions[i];
    const std::uint64_t at = r.alloc(g.size, kAlign);
    if (at != address(p, int(i)))
      throw std::logic_error("scenario: a region's address differs from its layout");
    run.keys.push_back(r.reg_mem(memid(g.name), at, g.size));
    if (!run.keys.back())
      throw std::runtime_error(
          fmt::format("{}: rank {}: region '{}' ({} B) was not registered: the registration "
                      "table is full or the region passes the end of the node memory",
                      s_.where(g.at), r.rank(), g.name, g.size));
  }
  if (barriers_) {
    run.barrier_key = r.reg_mem(kBarrierMemid, r.alloc(8, kAlign), 8);
    run.participant =
        int(std::lower_bound(participants_.begin(), participants_.end(), r.rank()) - participants_.begin());
  }
  co_await r.compute(kStart);
  co_await steps(run, prog.steps);
  const std::map<std::uint64_t, Posted> left = run.open;  // every operation's completion, in posting order
  for (const auto& [handle, posted] : left) {
    nic::Completion c;
    co_await r.complete(posted.tni, handle, &c);
    took(run, c);
  }
  end_ = std::max(end_, r.now());
}

fw::Task ScenarioWorkload::steps(Run& run, const std::vector<Step>& list) {
  for (const Step& st : list) {
    switch (st.kind) {
      case StepKind::kWait:
        co_await wait(run, st);
        break;
      case StepKind::kPoll:
        while (auto c = run.r.try_poll_cq(st.tni)) took(run, *c);
        break;
      case StepKind::kDelay:
        co_await run.r.compute(st.delay);
        break;
      case StepKind::kLoop:
        for (std::uint64_t k = 0; k < st.count; ++k) co_await steps(run, st.steps);
        break;
      case StepKind::kBarrier:
        co_await barrier(run);
        break;
      case StepKind::kDeregister: {
        const nic::RdmaStatus status =
            run.r.dereg_mem(run.keys[std::size_t(run.prog.region_index(st.region))]);
        if (status != nic::RdmaStatus::kOk)
          throw std::runtime_error(fmt::format("{}: rank {}: deregister '{}' failed: {}", s_.where(st.at),
                                               run.r.rank(), st.region, status_token(status)));
        break;
      }
      case StepKind::kOperation:
        co_await post(run, st);
    }
  }
}

fw::Task ScenarioWorkload::post(Run& run, const Step& st) {
  const Op& o = st.op;
  fw::Rank& r = run.r;
  const int peer = o.peer.of(r.rank(), members_[std::size_t(program_of_[std::size_t(r.rank())])]);
  const int local = run.prog.region_index(o.local);
  nic::Command c;
  c.op = o.kind;
  c.remote_key = r.remote_key(peer, memid(o.remote));
  c.remote_offset = o.offset;
  c.local_key = run.keys[std::size_t(local)];
  c.local_offset = o.local_offset;
  c.length = nic::is_atomic(o.kind)
                 ? nic::kAtomicBytes
                 : o.size.value_or(run.prog.regions[std::size_t(local)].size - o.local_offset);
  c.tag = o.tag;
  c.notify = nic::is_put(o.kind) && o.notify;
  c.fence = o.fence;
  c.completion = o.local_completion ? nic::CompletionKind::kLocal : nic::CompletionKind::kRemote;
  c.operand = o.operand;
  c.compare = o.compare;
  std::uint64_t handle = 0;
  co_await r.post(o.tni, peer, c, &handle);
  const Posted posted{o.tni, handle, o.index};
  run.open[handle] = posted;
  if (!o.id.empty()) run.last[o.id] = posted;
}

fw::Task ScenarioWorkload::wait(Run& run, const Step& st) {
  const Wait& w = st.wait;
  fw::Rank& r = run.r;
  nic::Completion c;
  if (w.kind == Wait::Kind::kCompletion) {
    const Posted posted = run.last.at(w.id);  // posted before (the file's order, loops run at least once)
    if (!run.open.count(posted.handle)) co_return;  // already taken by a poll or another wait
    co_await r.complete(posted.tni, posted.handle, &c);
    took(run, c);
    co_return;
  }
  for (std::uint64_t k = 0; k < w.count; ++k) {
    if (w.kind == Wait::Kind::kCompletions) {
      co_await r.poll_cq(w.tni, &c);
      took(run, c);
    } else if (w.tag) {
      co_await r.poll(*w.tag);
    } else {
      if (s_.tags.empty())
        throw std::runtime_error(
            fmt::format("{}: rank {} waits for a notice, but no put of the scenario raises one",
                        s_.where(st.at), r.rank()));
      std::size_t which = 0;
      co_await r.poll_any(s_.tags.data(), s_.tags.size(), &which);
    }
  }
}

void ScenarioWorkload::took(Run& run, const nic::Completion& c) {
  const auto it = run.open.find(c.handle);
  if (it == run.open.end()) return;  // not a scenario step's (none is: the barrier takes its own)
  const std::size_t slot = std::size_t(run.r.rank()) * s_.ops.size() + std::size_t(it->second.op);
  statuses_[slot] |= std::uint64_t(1) << unsigned(c.status);
  ++completions_[slot];
  run.open.erase(it);
}

// Dissemination among the ranks with an entry: in round k every participant
// puts to the one 2^k places after it and waits for the put of the one 2^k
// places before it; after ceil(log2 n) rounds each has heard, directly or
// not, from every other (Hensgen, Finkel and Manber 1988).
fw::Task ScenarioWorkload::barrier(Run& run) {
  fw::Rank& r = run.r;
  const std::size_t n = participants_.size();
  const std::uint64_t b = run.barriers++;
  std::uint32_t k = 0;
  for (std::size_t d = 1; d < n; d <<= 1, ++k) {
    const int to = participants_[(std::size_t(run.participant) + d) % n];
    const std::uint32_t tag = kBarrierTag | std::uint32_t(((b << 6) | k) & 0x7fffffff);
    std::uint64_t h = 0;
    co_await r.put(0, to, r.remote_key(to, kBarrierMemid), 0, run.barrier_key, 0, 8, tag, &h);
    co_await r.poll(tag);
    co_await r.complete(0, h);
  }
}

void ScenarioWorkload::results(Results& v) {
  v.latest(statuses_);
  v.latest(completions_);
  v.latest(end_);
}

}  // namespace scenario
}  // namespace kairo::sw
