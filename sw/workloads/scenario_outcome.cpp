// A scenario's expectations, checked after the run (sw/workloads/scenario.h):
// memory contents (data mode), completion statuses and TNI counters, in file
// order; then every error completion no expectation names.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "hw/nic/tni_observe.h"
#include "platforms/rdma_machine.h"
#include "sw/workloads/scenario.h"

namespace kairo::sw::scenario {
namespace {

std::string statuses(std::uint64_t mask) {
  std::vector<std::string> v;
  for (unsigned k = 0; k < 64; ++k)
    if (mask >> k & 1) v.push_back(status_token(nic::RdmaStatus(k)));
  return fmt::format("{}", fmt::join(v, ", "));
}

bool defines(const std::vector<Step>& steps, const Step* op) {
  for (const Step& st : steps)
    if (&st == op || (st.kind == StepKind::kLoop && defines(st.steps, op))) return true;
  return false;
}

// The operation step with `id` among a program's steps, or null.
const Step* find_op(const Scenario& s, const Program& p, const std::string& id) {
  for (const Step* op : s.ops)
    if (op->op.id == id && defines(p.steps, op)) return op;
  return nullptr;
}

}  // namespace

std::string ScenarioWorkload::check_memory(const Expectation& e, int rank, HostMemory& m) const {
  const int p = program_of_[std::size_t(rank)];
  const Program& prog = s_.programs[std::size_t(p)];
  const int g = prog.region_index(e.region);
  const Contents& want = e.equals;
  const std::uint64_t size = want.kind == Contents::Kind::kU64 ? 8
                             : want.kind == Contents::Kind::kBytes
                                 ? want.bytes.size()
                                 : e.size.value_or(prog.regions[std::size_t(g)].size - e.offset);
  std::vector<unsigned char> got(size);
  m.read(rank, address(p, g) + e.offset, got.data(), got.size());
  if (want.kind == Contents::Kind::kU64) {
    std::uint64_t v = 0;
    for (int k = 7; k >= 0; --k) v = v << 8 | got[std::size_t(k)];
    if (v != want.u64)
      return fmt::format("the 8 bytes at offset {} hold {} (u64), expected {}", e.offset, v, want.u64);
    return "";
  }
  const int whose = want.pattern_of < 0 ? rank : want.pattern_of;
  for (std::uint64_t k = 0; k < size; ++k) {
    const unsigned char w = want.kind == Contents::Kind::kZero    ? 0
                            : want.kind == Contents::Kind::kBytes ? want.bytes[k]
                                                                  : pattern_byte(whose, e.offset + k);
    if (got[k] != w)
      return fmt::format(
          "byte {} of the region is 0x{:02x}, expected 0x{:02x}{}", e.offset + k, got[k], w,
          want.kind == Contents::Kind::kPattern ? fmt::format(" (rank {}'s pattern)", whose) : "");
  }
  return "";
}

std::string ScenarioWorkload::check_completion(const Expectation& e, int rank) const {
  const Program& prog = s_.programs[std::size_t(program_of_[std::size_t(rank)])];
  const Step* op = find_op(s_, prog, e.id);
  const std::size_t slot = std::size_t(rank) * s_.ops.size() + std::size_t(op->op.index);
  const std::uint64_t n = completions_[slot], mask = statuses_[slot];
  if (n == 0) return "it never completed";
  if (e.count && n != *e.count) return fmt::format("it completed {} time(s), expected {}", n, *e.count);
  if (mask != std::uint64_t(1) << unsigned(e.status))
    return fmt::format("it completed with {}, expected {}", statuses(mask), status_token(e.status));
  return "";
}

std::string ScenarioWorkload::check_counter(const Expectation& e, int rank) const {
  const auto& names = nic::tni_counters();
  std::size_t i = 0;
  while (names[i].name != e.counter) ++i;
  const hw::NodeId node = m_.platform->node_of_rank(std::uint64_t(rank));
  std::vector<std::uint64_t> out(names.size());
  std::uint64_t v = 0;
  for (int t = 0; t < m_.tnis; ++t) {
    if (e.tni && t != *e.tni) continue;
    nic::read_counters(machine_->tni(node, t), end_, out.data());
    v = names[i].kind == observe::Kind::kTotal ? v + out[i] : std::max(v, out[i]);
  }
  const bool held = e.compare == Expectation::Compare::kEquals    ? v == e.value
                    : e.compare == Expectation::Compare::kAtLeast ? v >= e.value
                                                                  : v <= e.value;
  static const char* const words[] = {"", "at least ", "at most "};
  if (held) return "";
  return fmt::format("it is {}, expected {}{}", v, words[int(e.compare)], e.value);
}

// An error completion no `completion:` expectation names fails the run: an
// error the scenario did not ask for is a finding, not a detail.
std::string ScenarioWorkload::unexpected_error() const {
  for (int r = 0; r < m_.nodes; ++r) {
    const int p = program_of_[std::size_t(r)];
    if (p < 0) continue;
    for (const Step* op : s_.ops) {
      const std::uint64_t mask = statuses_[std::size_t(r) * s_.ops.size() + std::size_t(op->op.index)];
      if ((mask & ~std::uint64_t(1)) == 0 || !defines(s_.programs[std::size_t(p)].steps, op)) continue;
      bool named = false;
      for (const Expectation& e : s_.expect)
        named = named ||
                (e.kind == Expectation::Kind::kCompletion && e.covers(r, program_of_) && e.id == op->op.id);
      if (!named)
        return fmt::format("{}: rank {}'s {}{} completed with {}, and no completion expectation names it",
                           s_.where(op->at), r, step_name(*op), op->op.id.empty() ? "" : " " + op->op.id,
                           statuses(mask));
    }
  }
  return "";
}

std::string ScenarioWorkload::check(const Expectation& e, HostMemory* m) const {
  for (int r = 0; r < m_.nodes; ++r) {
    if (!e.covers(r, program_of_)) continue;
    std::string why;
    if (e.kind == Expectation::Kind::kMemory && m) why = check_memory(e, r, *m);
    if (e.kind == Expectation::Kind::kCompletion) why = check_completion(e, r);
    if (e.kind == Expectation::Kind::kCounter) why = check_counter(e, r);
    if (!why.empty()) return e.single ? why : fmt::format("on rank {}, {}", r, why);
  }
  return "";
}

Outcome ScenarioWorkload::outcome(HostMemory* memory) {
  Outcome o;
  o.start_ps = kStart;
  o.end_ps = std::max<std::uint64_t>(end_, kStart);
  o.latency_ns = double(o.end_ps - o.start_ps) / 1000.0;
  std::vector<std::string> failed;
  bool memory_held = true;
  for (const Expectation& e : s_.expect) {
    const std::string why = check(e, memory);
    if (why.empty()) continue;
    memory_held = memory_held && e.kind != Expectation::Kind::kMemory;
    failed.push_back(fmt::format("{}: expectation {} failed: {}", s_.where(e.at), e.text, why));
  }
  if (const std::string u = unexpected_error(); !u.empty()) failed.push_back(u);
  o.ok = failed.empty();
  if (!failed.empty())
    o.failure = failed.front() + (failed.size() > 1 ? fmt::format(" (and {} more)", failed.size() - 1) : "");
  if (memory) o.verified = memory_held;
  o.details = {{"scenario", s_.name}, {"expectations", s_.expect.size()}, {"expectations_failed", failed}};
  return o;
}

}  // namespace kairo::sw::scenario
