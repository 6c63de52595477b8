// A scenario's steps as the file gives them (sw/workloads/scenario_file.h):
// each a mapping of one key naming the step, checked field by field.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "sw/workloads/scenario_reader.h"

namespace kairo::sw::scenario {
namespace {

constexpr std::uint64_t kMaxUserTag = 0x7fffffff;  // tags from 2^31 on are the barrier's

// Every step's key, in the order messages list them: the operation kinds'
// verbs (sim/rdma_operations.h), then the other steps.
std::vector<std::string_view> step_keys() {
  std::vector<std::string_view> keys;
  for (const sim::RdmaOpKind& k : sim::kRdmaOps) keys.push_back(k.name);
  for (int k = int(StepKind::kOperation) + 1; k <= int(StepKind::kDeregister); ++k)
    keys.push_back(step_name(StepKind(k)));
  return keys;
}

// "put, get, ..., barrier or deregister".
std::string step_names() {
  const std::vector<std::string_view> keys = step_keys();
  std::string out;
  for (std::size_t k = 0; k < keys.size(); ++k)
    out += std::string(k == 0 ? "" : k + 1 == keys.size() ? " or " : ", ") + std::string(keys[k]);
  return out;
}

// The step a key names, operations first: false if none.
bool step_of(std::string_view key, Step& s) {
  for (const sim::RdmaOpKind& k : sim::kRdmaOps)
    if (key == k.name) {
      s.kind = StepKind::kOperation, s.op.kind = k.op;
      return true;
    }
  for (int k = int(StepKind::kOperation) + 1; k <= int(StepKind::kDeregister); ++k)
    if (key == step_name(StepKind(k))) {
      s.kind = StepKind(k);
      return true;
    }
  return false;
}

class StepReader {
 public:
  StepReader(const Reader& r, std::vector<std::string>& ids, std::vector<std::uint32_t>& tags)
      : r_(r), ids_(ids), tags_(tags) {}

  std::vector<Step> list(const YAML::Node& n) {
    std::vector<Step> out;
    for (const auto& e : n) out.push_back(step(e));
    return out;
  }

 private:
  Step step(const YAML::Node& n) {
    if (!n.IsMap() || n.size() != 1)
      r_.fail(n, fmt::format("a step: expected a mapping of one key ({}), got {}", step_names(),
                             n.IsMap() ? fmt::format("{} keys", n.size()) : Reader::describe(n)));
    const auto kv = *n.begin();
    const std::string key = kv.first.Scalar();
    Step s;
    s.at = r_.at(kv.first);
    if (!step_of(key, s)) r_.fail(s.at, fmt::format("unknown step '{}'; expected {}", key, step_names()));
    const YAML::Node v = kv.second;
    switch (s.kind) {
      case StepKind::kOperation:
        op(s, v);
        break;
      case StepKind::kWait:
        wait(s, v);
        break;
      case StepKind::kDelay:
        s.delay = r_.duration(v, "delay");
        break;
      case StepKind::kLoop: {
        Fields f(r_, v, "loop", s.at);
        const YAML::Node count = f.need("count");
        s.count = r_.unsigned_integer(count, "count", 0xffffffff);
        if (s.count == 0) r_.fail(count, "count: expected at least 1");
        s.steps = list(r_.list(f.need("steps"), "steps"));
        f.done();
        break;
      }
      default:
        simple(s, v);
    }
    return s;
  }

  // poll, barrier, deregister: a few keys, or none (`- barrier:` or `{}`).
  void simple(Step& s, const YAML::Node& v) {
    const YAML::Node map = v.IsNull() ? YAML::Node(YAML::NodeType::Map) : v;
    Fields f(r_, map, step_name(s.kind), s.at);
    if (s.kind == StepKind::kPoll) {
      if (auto t = f.get("tni")) s.tni = int(r_.unsigned_integer(*t, "tni", 0xffff));
    } else if (s.kind == StepKind::kDeregister) {
      s.region = r_.name(f.need("region"), "region");
    }
    f.done();
  }

  Peer peer(const YAML::Node& n, const std::string& key) {
    Peer p;
    p.at = r_.at(n);
    const std::string t = n.IsScalar() ? n.Scalar() : "";
    if (!t.empty() && (t[0] == '+' || t[0] == '-')) {
      p.relative = true;
      const int d = int(r_.unsigned_integer(YAML::Node(t.substr(1)), key, 0x7fffffff));
      p.value = t[0] == '-' ? -d : d;
      return p;
    }
    if (!all_digits(t))
      r_.fail(n, fmt::format("{}: expected a rank, or +N / -N for the rank N after / before this one, got {}",
                             key, Reader::describe(n)));
    p.value = int(r_.unsigned_integer(n, key, 0x7fffffff));
    return p;
  }

  void op(Step& s, const YAML::Node& v) {
    const sim::RdmaOpKind& kind = sim::rdma_op(s.op.kind);
    Fields f(r_, v, std::string(kind.name), s.at);
    Op& o = s.op;
    if (auto id = f.get("id")) {
      o.id_at = r_.at(*id);
      o.id = r_.name(*id, "id");
      if (std::find(ids_.begin(), ids_.end(), o.id) != ids_.end())
        r_.fail(o.id_at, fmt::format("id '{}' is already used by an earlier step of these ranks", o.id));
      ids_.push_back(o.id);
    }
    const std::string peer_key(kind.peer_key), local(kind.local_key);
    o.peer = peer(f.need(peer_key), peer_key);
    const YAML::Node remote = f.need("region");
    o.remote = r_.name(remote, "region");
    o.remote_at = r_.at(remote);
    if (auto off = f.get("offset")) o.offset = r_.bytes(*off, "offset");
    const YAML::Node l = f.need(local);
    o.local = r_.name(l, local);
    o.local_at = r_.at(l);
    if (auto off = f.get(local + "_offset")) o.local_offset = r_.bytes(*off, local + "_offset");
    if (sim::is_sized(o.kind)) {
      if (auto size = f.get("size")) o.size = r_.bytes(*size, "size");
    }
    if (auto t = f.get("tni")) {
      o.tni_at = r_.at(*t);
      o.tni = int(r_.unsigned_integer(*t, "tni", 0xffff));
    } else {
      o.tni_at = f.where();
    }
    if (auto fence = f.get("fence")) o.fence = r_.boolean(*fence, "fence");
    if (sim::is_put(o.kind)) put_fields(f, o);
    for (const sim::RdmaOperandField& field : kind.operands) {
      if (field.key.empty()) continue;
      const std::string key(field.key);
      (field.into == sim::RdmaOperandField::kCompare ? o.compare : o.operand) =
          r_.unsigned_integer(f.need(key), key);
    }
    f.done();
  }

  void put_fields(Fields& f, Op& o) {
    if (auto tag = f.get("tag")) o.tag = std::uint32_t(r_.unsigned_integer(*tag, "tag", kMaxUserTag));
    if (auto n = f.get("notify")) o.notify = r_.boolean(*n, "notify");
    if (auto c = f.get("completion")) {
      const std::string k = c->IsScalar() ? c->Scalar() : "";
      if (k != "remote" && k != "local")
        r_.fail(*c,
                fmt::format("completion: expected remote (when the target acknowledges) or local (after the "
                            "last DMA read), got {}",
                            Reader::describe(*c)));
      o.local_completion = k == "local";
    }
    if (o.notify) tags_.push_back(o.tag);
  }

  void wait(Step& s, const YAML::Node& v) {
    Fields f(r_, v, "wait", s.at);
    const char* kinds[] = {"completion", "completions", "notice", "notices"};
    std::optional<YAML::Node> given[4];
    int which = -1;
    for (int k = 0; k < 4; ++k)
      if ((given[k] = f.get(kinds[k]))) {
        if (which >= 0)
          r_.fail(*given[k], fmt::format("wait: '{}' and '{}' exclude each other", kinds[which], kinds[k]));
        which = k;
      }
    if (which < 0)
      r_.fail(s.at,
              "wait: expected one of completion: ID, completions: N, notice: {tag: T} or any, notices: N");
    Wait& w = s.wait;
    w.kind = Wait::Kind(which);
    const YAML::Node n = *given[which];
    if (w.kind == Wait::Kind::kCompletion) {
      w.id = r_.name(n, "completion");
      if (std::find(ids_.begin(), ids_.end(), w.id) == ids_.end())
        r_.fail(n, fmt::format("completion: no earlier step of these ranks has id '{}'{}", w.id,
                               ids_.empty() ? "" : fmt::format(" (ids so far: {})", fmt::join(ids_, ", "))));
    } else if (w.kind == Wait::Kind::kNotice) {
      if (!(n.IsScalar() && n.Scalar() == "any")) {
        Fields t(r_, n, "notice", s.at);
        w.tag = std::uint32_t(r_.unsigned_integer(t.need("tag"), "tag", kMaxUserTag));
        t.done();
      }
    } else {
      w.count = r_.unsigned_integer(n, kinds[which], 0xffffffff);
      if (w.count == 0) r_.fail(n, fmt::format("{}: expected a count of at least 1", kinds[which]));
      if (w.kind == Wait::Kind::kCompletions) {
        if (auto t = f.get("tni")) w.tni = int(r_.unsigned_integer(*t, "tni", 0xffff));
      } else if (auto t = f.get("tag")) {
        w.tag = std::uint32_t(r_.unsigned_integer(*t, "tag", kMaxUserTag));
      }
    }
    f.done();
  }

  const Reader& r_;
  std::vector<std::string>& ids_;
  std::vector<std::uint32_t>& tags_;
};

}  // namespace

std::vector<Step> read_steps(const Reader& r, const YAML::Node& list, std::vector<std::string>& ids,
                             std::vector<std::uint32_t>& tags) {
  return StepReader(r, ids, tags).list(list);
}

}  // namespace kairo::sw::scenario
