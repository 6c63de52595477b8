// A scenario's `expect:` section as the file gives it, and the scenario
// checked against the platform it runs on (sw/workloads/scenario_file.h).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "hw/nic/tni_observe.h"
#include "sw/workloads/scenario_reader.h"

namespace kairo::sw::scenario {
namespace {

std::vector<std::string> counter_names() {
  std::vector<std::string> v;
  for (const auto& c : nic::tni_counters()) v.push_back(c.name);
  return v;
}

void read_memory(const Reader& r, Fields& f, Expectation& e, const std::string& who) {
  const YAML::Node region = f.need("region");
  e.region = r.name(region, "region");
  e.region_at = r.at(region);
  if (auto off = f.get("offset")) e.offset = r.bytes(*off, "offset");
  if (auto size = f.get("size")) e.size = r.bytes(*size, "size");
  e.equals = read_contents(r, f.need("equals"), "equals", f.where());
  e.text = fmt::format("memory {{{}, region: {}}}", who, e.region);
}

void read_completion(const Reader& r, Fields& f, Expectation& e, const std::string& who) {
  const YAML::Node id = f.need("id");
  e.id = r.name(id, "id");
  e.id_at = r.at(id);
  if (auto st = f.get("status")) {
    const std::string t = st->IsScalar() ? st->Scalar() : "";
    std::vector<std::string> tokens;
    bool found = false;
    for (int k = 0; k <= int(nic::RdmaStatus::kCircuitDown); ++k) {
      tokens.push_back(status_token(nic::RdmaStatus(k)));
      if (t == tokens.back()) e.status = nic::RdmaStatus(k), found = true;
    }
    if (!found)
      r.fail(*st, fmt::format("status: expected one of {}, got {}", fmt::join(tokens, ", "),
                              Reader::describe(*st)));
  }
  if (auto n = f.get("count")) e.count = r.unsigned_integer(*n, "count");
  e.text = fmt::format("completion {{{}, id: {}}}", who, e.id);
}

void read_counter(const Reader& r, Fields& f, Expectation& e, const std::string& who) {
  if (auto t = f.get("tni")) e.tni = int(r.unsigned_integer(*t, "tni", 0xffff));
  const YAML::Node name = f.need("name");
  e.counter = r.name(name, "name");
  const auto names = counter_names();
  if (std::find(names.begin(), names.end(), e.counter) == names.end())
    r.fail(name, fmt::format("name: expected a TNI counter ({}), got {}", fmt::join(names, ", "),
                             Reader::describe(name)));
  const char* cmp[] = {"equals", "at_least", "at_most"};
  int which = -1;
  for (int k = 0; k < 3; ++k)
    if (auto v = f.get(cmp[k])) {
      if (which >= 0)
        r.fail(*v, fmt::format("counter: '{}' and '{}' exclude each other", cmp[which], cmp[k]));
      which = k;
      e.value = r.unsigned_integer(*v, cmp[k]);
    }
  if (which < 0) r.fail(f.where(), "counter: expected one of equals: N, at_least: N, at_most: N");
  e.compare = Expectation::Compare(which);
  e.text = e.tni ? fmt::format("counter {{{}, tni: {}, name: {}}}", who, *e.tni, e.counter)
                 : fmt::format("counter {{{}, name: {}}}", who, e.counter);
}

// `rank: N` or `ranks: SET`, as the expectation's text shows it.
std::string read_ranks(const Reader& r, Fields& f, Expectation& e) {
  auto one = f.get("rank");
  auto many = f.get("ranks");
  if (bool(one) == bool(many)) r.fail(f.where(), "an expectation: expected one of 'rank: N' or 'ranks: SET'");
  const YAML::Node n = one ? *one : *many;
  e.single = bool(one);
  e.ranks = read_rank_set(r, n, e.single, f.where());
  std::vector<std::string> items;
  for (const auto& x : n) items.push_back(x.Scalar());
  return fmt::format("{}: {}", one ? "rank" : "ranks",
                     n.IsSequence() ? fmt::format("[{}]", fmt::join(items, ", ")) : n.Scalar());
}

}  // namespace

std::vector<Expectation> read_expectations(const Reader& r, const YAML::Node& list) {
  std::vector<Expectation> out;
  for (const auto& n : list) {
    if (!n.IsMap() || n.size() != 1)
      r.fail(n, fmt::format(
                    "an expectation: expected a mapping of one key (memory, completion or counter), got {}",
                    Reader::describe(n)));
    const auto kv = *n.begin();
    const std::string key = kv.first.Scalar();
    Expectation e;
    e.at = r.at(kv.first);
    static const std::vector<std::string> kinds = {"memory", "completion", "counter"};
    const auto it = std::find(kinds.begin(), kinds.end(), key);
    if (it == kinds.end())
      r.fail(e.at, fmt::format("unknown expectation '{}'; expected memory, completion or counter", key));
    e.kind = Expectation::Kind(it - kinds.begin());
    Fields f(r, kv.second, key, e.at);
    const std::string who = read_ranks(r, f, e);
    if (e.kind == Expectation::Kind::kMemory) read_memory(r, f, e, who);
    if (e.kind == Expectation::Kind::kCompletion) read_completion(r, f, e, who);
    if (e.kind == Expectation::Kind::kCounter) read_counter(r, f, e, who);
    f.done();
    out.push_back(std::move(e));
  }
  return out;
}

namespace {

class Checker {
 public:
  Checker(const Scenario& s, const Machine& m, std::vector<int>& of) : s_(s), m_(m), of_(of), r_(s.file) {}

  void run() {
    of_.assign(std::size_t(m_.ranks), -1);
    for (std::size_t p = 0; p < s_.programs.size(); ++p) place(int(p));
    members_ = members_of(of_, s_.programs.size());
    std::uint64_t barriers = 0;
    int with = -1;
    for (std::size_t p = 0; p < s_.programs.size(); ++p) {
      const Program& prog = s_.programs[p];
      for (const Step& st : prog.steps) step(prog, st);
      const std::uint64_t b = count_barriers(prog.steps);
      if (p > 0 && b != barriers)
        r_.fail(prog.at,
                fmt::format("every rank passes the same number of barriers: these ranks pass {}, the "
                            "ranks at line {} pass {}",
                            b, s_.programs[std::size_t(with)].at.line, barriers));
      barriers = b, with = int(p);
    }
    for (const Expectation& e : s_.expect) expectation(e);
  }

 private:
  void place(int p) {
    const RankSet& set = s_.programs[std::size_t(p)].ranks;
    for (const auto& [a, b] : set.ranges)
      if (b >= m_.ranks)
        r_.fail(set.at,
                fmt::format("rank {} is out of range: this platform has ranks 0 to {}", b, m_.ranks - 1));
    for (int r = 0; r < m_.ranks; ++r) {
      if (!set.contains(r)) continue;
      int& slot = of_[std::size_t(r)];
      if (slot >= 0)
        r_.fail(set.at, fmt::format("rank {} already has a rank entry (line {})", r,
                                    s_.programs[std::size_t(slot)].at.line));
      slot = p;
    }
  }

  const Program* program_of(int rank) const {
    const int p = rank >= 0 && rank < m_.ranks ? of_[std::size_t(rank)] : -1;
    return p < 0 ? nullptr : &s_.programs[std::size_t(p)];
  }

  void tni(int t, Where at) const {
    if (t >= m_.tnis)
      r_.fail(at, fmt::format("tni: this platform has TNIs 0 to {} per node, got {}", m_.tnis - 1, t));
  }

  void local(const Program& prog, const std::string& name, Where at) const {
    if (prog.region_index(name) < 0)
      r_.fail(at, fmt::format("these ranks have no region '{}' (declared under their regions:)", name));
  }

  void step(const Program& prog, const Step& st) {
    if (st.kind == StepKind::kLoop)
      for (const Step& inner : st.steps) step(prog, inner);
    if (st.kind == StepKind::kPoll) tni(st.tni, st.at);
    if (st.kind == StepKind::kWait && st.wait.kind == Wait::Kind::kCompletions) tni(st.wait.tni, st.at);
    if (st.kind == StepKind::kDeregister) local(prog, st.region, st.at);
    if (st.kind != StepKind::kOperation) return;
    const Op& o = st.op;
    tni(o.tni, o.tni_at);
    local(prog, o.local, o.local_at);
    const Region& l = prog.regions[std::size_t(prog.region_index(o.local))];
    if (!o.size && o.local_offset > l.size)
      r_.fail(o.local_at, fmt::format("{}_offset {} is past the end of region '{}' ({} B)",
                                      sim::rdma_op(o.kind).local_key, o.local_offset, l.name, l.size));
    if (!o.peer.relative && o.peer.value >= m_.ranks)
      r_.fail(o.peer.at, fmt::format("rank {} is out of range: this platform has ranks 0 to {}", o.peer.value,
                                     m_.ranks - 1));
    for (int r = 0; r < m_.ranks; ++r) {
      if (!prog.ranks.contains(r)) continue;
      const int peer = o.peer.of(r, members_[std::size_t(of_[std::size_t(r)])]);
      const Program* there = program_of(peer);
      if (!there || there->region_index(o.remote) < 0)
        r_.fail(o.remote_at,
                fmt::format("rank {} (the peer of rank {}) has no region '{}'", peer, r, o.remote));
    }
  }

  static std::uint64_t count_barriers(const std::vector<Step>& steps) {
    std::uint64_t n = 0;
    for (const Step& st : steps)
      n += st.kind == StepKind::kBarrier ? 1
           : st.kind == StepKind::kLoop  ? st.count * count_barriers(st.steps)
                                         : 0;
    return n;
  }

  static bool defines(const std::vector<Step>& steps, const std::string& id) {
    for (const Step& st : steps)
      if ((st.kind == StepKind::kOperation && st.op.id == id) ||
          (st.kind == StepKind::kLoop && defines(st.steps, id)))
        return true;
    return false;
  }

  void expectation(const Expectation& e) const {
    for (const auto& [a, b] : e.ranks.ranges)
      if (b >= m_.ranks)
        r_.fail(e.ranks.at,
                fmt::format("rank {} is out of range: this platform has ranks 0 to {}", b, m_.ranks - 1));
    if (e.kind == Expectation::Kind::kCounter && e.tni) tni(*e.tni, e.at);
    if (e.kind == Expectation::Kind::kMemory && !m_.data)
      r_.fail(e.at, fmt::format("{}: a memory expectation needs --mode data (size-only runs keep no bytes)",
                                e.text));
    for (int r = 0; r < m_.ranks; ++r)
      if (e.covers(r, of_)) expectation(e, r);
  }

  void expectation(const Expectation& e, int rank) const {
    const Program* prog = program_of(rank);
    if (!prog) r_.fail(e.ranks.at, fmt::format("rank {} has no rank entry under ranks:", rank));
    if (e.kind == Expectation::Kind::kCompletion && !defines(prog->steps, e.id))
      r_.fail(e.id_at, fmt::format("no step of rank {} has id '{}'", rank, e.id));
    if (e.kind != Expectation::Kind::kMemory) return;
    const int g = prog->region_index(e.region);
    if (g < 0) r_.fail(e.region_at, fmt::format("rank {} has no region '{}'", rank, e.region));
    const std::uint64_t size = prog->regions[std::size_t(g)].size;
    const bool fixed = e.equals.kind == Contents::Kind::kU64 || e.equals.kind == Contents::Kind::kBytes;
    if (fixed && e.size)
      r_.fail(e.at,
              fmt::format("{}: size: not with equals: {{u64: ...}} or {{bytes: [...]}} (they give their own)",
                          e.text));
    const std::uint64_t want = e.size                                    ? *e.size
                               : e.equals.kind == Contents::Kind::kU64   ? 8
                               : e.equals.kind == Contents::Kind::kBytes ? e.equals.bytes.size()
                                                                         : size - std::min(size, e.offset);
    if (e.offset > size || want > size - e.offset)
      r_.fail(e.at, fmt::format("{}: offset {} + {} B runs past rank {}'s region of {} B", e.text, e.offset,
                                want, rank, size));
  }

  const Scenario& s_;
  const Machine& m_;
  std::vector<int>& of_;
  std::vector<std::vector<int>> members_;  // per program
  Reader r_;
};

}  // namespace

std::vector<std::vector<int>> members_of(const std::vector<int>& program_of, std::size_t programs) {
  std::vector<std::vector<int>> m(programs);
  for (std::size_t r = 0; r < program_of.size(); ++r)
    if (program_of[r] >= 0) m[std::size_t(program_of[r])].push_back(int(r));
  return m;
}

void check_scenario(const Scenario& s, const Machine& m, std::vector<int>* program_of) {
  Checker(s, m, *program_of).run();
}

}  // namespace kairo::sw::scenario
