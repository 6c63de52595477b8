// User rules (op_rules.h): reading them from YAML and checking them over a
// log. Within a scope group, every record matching `before` must precede
// every record matching `after`; the first record matching `after`, and the
// first matching `before` after it, are the pair reported.
#include "observe/op_rules.h"

#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "observe/op_check_index.h"

namespace kairo::observe {

namespace {

class RulesReader {
 public:
  explicit RulesReader(std::string name) : name_(std::move(name)) {}

  [[noreturn]] void fail(const YAML::Node& at, const std::string& what) const {
    const YAML::Mark m = at.Mark();
    if (m.is_null()) throw std::invalid_argument(fmt::format("{}: {}", name_, what));
    throw std::invalid_argument(fmt::format("{}:{}:{}: {}", name_, m.line + 1, m.column + 1, what));
  }

  std::string scalar(const YAML::Node& n, std::string_view key) const {
    if (!n.IsScalar()) fail(n, fmt::format("{}: expected a word", key));
    return n.Scalar();
  }

  // {event: ..., kind: ..., node_role: ..., status: ...}, at least one of them.
  OpMatch match(const YAML::Node& n, std::string_view key) const {
    if (!n.IsMap() || n.size() == 0)
      fail(n, fmt::format("{}: expected a map of event, kind, node_role, status (at least one)", key));
    OpMatch m;
    for (const auto& kv : n) {
      const std::string k = scalar(kv.first, key), v = scalar(kv.second, k);
      if (k == "event")
        m.event = token_or_fail(event_of(v), kv.second, k, v);
      else if (k == "kind")
        m.kind = token_or_fail(kind_of(v), kv.second, k, v);
      else if (k == "status")
        m.status = token_or_fail(status_of(v), kv.second, k, v);
      else if (k == "node_role" && (v == "initiator" || v == "target"))
        m.role = v == "initiator" ? OpRole::kInitiator : OpRole::kTarget;
      else if (k == "node_role")
        fail(kv.second, fmt::format("node_role: expected initiator or target, got '{}'", v));
      else
        fail(kv.first, fmt::format("{}: unknown key '{}' (expected event, kind, node_role, status)", key, k));
    }
    return m;
  }

  OpRule rule(const YAML::Node& n) const {
    if (!n.IsMap()) fail(n, "expected a rule: a map of name, before, after, scope");
    OpRule r;
    for (const auto& kv : n) {
      const std::string k = scalar(kv.first, "rule");
      if (k == "name")
        r.name = scalar(kv.second, k);
      else if (k == "before")
        r.before = match(kv.second, k);
      else if (k == "after")
        r.after = match(kv.second, k);
      else if (k == "scope")
        r.scope = scope(kv.second);
      else
        fail(kv.first, fmt::format("unknown key '{}' in a rule (expected name, before, after, scope)", k));
    }
    for (const char* k : {"name", "before", "after", "scope"})
      if (!n[k]) fail(n, fmt::format("rule: missing '{}' (a rule has name, before, after, scope)", k));
    return r;
  }

  std::vector<OpRule> rules(const YAML::Node& root) const {
    if (!root.IsMap()) fail(root, "expected a map with the key 'rules'");
    for (const auto& kv : root)
      if (scalar(kv.first, "top level") != "rules")
        fail(kv.first, fmt::format("unknown key '{}' (expected 'rules')", kv.first.Scalar()));
    const YAML::Node list = root["rules"];
    if (!list || !list.IsSequence()) fail(list ? list : root, "rules: expected a list of rules");
    std::vector<OpRule> out;
    for (const auto& n : list) out.push_back(rule(n));
    return out;
  }

 private:
  template <class T>
  T token_or_fail(std::optional<T> v, const YAML::Node& at, std::string_view key,
                  std::string_view got) const {
    if (!v)
      fail(at,
           fmt::format("{}: unknown token '{}' (see docs/rdma.md, the operation log's columns)", key, got));
    return *v;
  }
  OpScope scope(const YAML::Node& n) const {
    const std::string v = scalar(n, "scope");
    if (v == "operation") return OpScope::kOperation;
    if (v == "channel") return OpScope::kChannel;
    if (v == "address") return OpScope::kAddress;
    fail(n, fmt::format("scope: expected operation, channel or address, got '{}'", v));
  }

  std::string name_;
};

}  // namespace

std::vector<OpRule> parse_op_rules(const std::string& text, const std::string& name) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    if (e.mark.is_null()) throw std::invalid_argument(fmt::format("{}: malformed YAML: {}", name, e.msg));
    throw std::invalid_argument(
        fmt::format("{}:{}:{}: malformed YAML: {}", name, e.mark.line + 1, e.mark.column + 1, e.msg));
  }
  return RulesReader(name).rules(root);
}

std::vector<OpRule> read_op_rules_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::invalid_argument(fmt::format("{}: cannot read: {}", path, std::strerror(errno)));
  std::ostringstream s;
  s << f.rdbuf();
  return parse_op_rules(s.str(), path);
}

namespace check {

namespace {

// Scopes operation and channel: each record of an operation falls in one group.
void check_grouped(const OpIndex& ix, const OpRule& rule, Sink& sink) {
  struct State {
    std::size_t first_after = kNo;
    bool broken = false;
  };
  std::unordered_map<Key2, State, Key2Hash> groups;
  for (std::size_t i = 0; i < ix.log.size(); ++i) {
    const OpRecord& r = ix.at(i);
    if (ix.op_of[i] == OpIndex::kNoOp) continue;
    const bool before = rule.before.matches(r), after = rule.after.matches(r);
    if (!before && !after) continue;
    const std::uint64_t second = rule.scope == OpScope::kOperation ? r.op.number : ix.ops[ix.op_of[i]].target;
    State& g = groups[Key2{engine_key(r.op.node, r.op.tni), second}];
    if (before && g.first_after != kNo && !g.broken) {
      g.broken = true;
      sink.add(rule.name, g.first_after, i, [&] {
        const std::string group = rule.scope == OpScope::kOperation
                                      ? fmt::format("operation {}", op_text(r.op))
                                      : fmt::format("channel {}.{} -> node {}", r.op.node, r.op.tni, second);
        return fmt::format("in {}, {} matches 'after' but comes before {}, which matches 'before'", group,
                           describe(ix, g.first_after), describe(ix, i));
      });
    }
    if (after && g.first_after == kNo) g.first_after = i;
  }
}

bool has_range(const OpRecord& r) {
  return r.addr != OpRecord::kNone && r.bytes != OpRecord::kNone && r.bytes > 0;
}
bool overlap(const OpRecord& a, const OpRecord& b) {
  return a.addr < b.addr + b.bytes && b.addr < a.addr + a.bytes;
}

// Scope address: on each node, the union of the ranges of the records
// matching `after` so far; a record matching `before` that overlaps it breaks
// the rule (reported once per node, with the first record it overlaps).
void check_address(const OpIndex& ix, const OpRule& rule, Sink& sink) {
  struct Node {
    std::map<std::uint64_t, std::uint64_t> afters;  // merged [start, end) of the ranges matching `after`
    std::vector<std::size_t> after_records;
    bool broken = false;
  };
  std::unordered_map<std::uint32_t, Node> nodes;
  for (std::size_t i = 0; i < ix.log.size(); ++i) {
    const OpRecord& r = ix.at(i);
    if (!has_range(r)) continue;
    const bool before = rule.before.matches(r), after = rule.after.matches(r);
    if (!before && !after) continue;
    Node& n = nodes[r.node];
    if (before && !n.broken) {
      auto it = n.afters.lower_bound(r.addr + r.bytes);
      if (it != n.afters.begin() && std::prev(it)->second > r.addr) {
        n.broken = true;
        std::size_t first = kNo;
        for (std::size_t a : n.after_records)
          if (overlap(ix.at(a), r)) {
            first = a;
            break;
          }
        sink.add(rule.name, first, i, [&] {
          return fmt::format(
              "on node {}, {} matches 'after' but comes before {}, which matches 'before' and "
              "overlaps its bytes",
              r.node, describe(ix, first), describe(ix, i));
        });
      }
    }
    if (after && !n.broken) {
      std::uint64_t s = r.addr, e = r.addr + r.bytes;
      auto it = n.afters.upper_bound(s);
      if (it != n.afters.begin() && std::prev(it)->second >= s) --it;
      while (it != n.afters.end() && it->first <= e) {
        s = std::min(s, it->first), e = std::max(e, it->second);
        it = n.afters.erase(it);
      }
      n.afters.emplace(s, e);
      n.after_records.push_back(i);
    }
  }
}

}  // namespace

void check_rule(const OpIndex& ix, const OpRule& rule, Sink& sink) {
  if (rule.scope == OpScope::kAddress)
    check_address(ix, rule, sink);
  else
    check_grouped(ix, rule, sink);
}

}  // namespace check

}  // namespace kairo::observe
