// Declared parameters: each model block states its configuration keys once,
// beside its parameter struct: the key ("router.vcs"), the member it fills,
// its kind and unit, its default (taken from the struct's own initializer),
// its bounds and a one-line doc. The platform reader, `--set`, `kairo
// --list-params` and docs/parameters.md all work from these declarations.
//
// Read once when a platform is loaded; nothing here is on a simulation path.
#pragma once
#include <climits>
#include <cstdint>
#include <functional>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

#include "sim/time.h"

namespace kairo::sim {

// What a value is, which fixes how it is written and checked.
enum class ParamKind {
  kCount,      // an integer: VCs, queue entries
  kFlits,      // an integer number of flits
  kCycles,     // an integer number of clock cycles
  kBytes,      // a size: "32B", "32GiB"
  kRate,       // a bandwidth: "5GB/s", "32Gbps"
  kDuration,   // a time: "5ns", "10ms"
  kFrequency,  // a clock: "312.5MHz"
  kReal,       // a plain number: a factor such as 0.25
  kName,       // one of a list of names
  kBool,       // true or false
  kShape,      // a structured value read by hand (lists, maps, per-dimension values)
};

// The value read from a file, handed to a declaration's setter.
struct ParamValue {
  long long count = 0;      // kCount, kFlits, kCycles
  std::uint64_t bytes = 0;  // kBytes
  double number = 0;        // kRate, kFrequency, kReal
  sim::Time time = 0;       // kDuration
  int choice = -1;          // kName: index into choices
  bool flag = false;        // kBool
};

struct ParamDecl {
  std::string key;  // "router.vcs"
  ParamKind kind = ParamKind::kCount;
  std::string unit;   // the table's unit column: count, flits, cycles, B, GB/s, ns, MHz, name, bool, list...
  std::string deflt;  // the default as text
  std::string doc;    // one line for the table
  // For messages: what the value is ("VCs per port"); for sizes, durations
  // and frequencies the example in "expected a size such as 32B".
  std::string what, example;
  long long min = 0, max = INT_MAX;                     // counts
  std::uint64_t min_bytes = 0, max_bytes = UINT64_MAX;  // sizes; min 0 = not checked
  double min_real = 0, max_real = 0;                    // kReal: (min_real, max_real]; max 0 = unbounded
  bool min_inclusive = false;                           // kReal: [min_real, max_real]
  std::vector<std::string> choices;                     // names
  // The forms of the platform the key applies to, when not every form: a
  // router key of meshes and tori only ("mesh/torus"), or of meshes, tori
  // and dragonflies; one form of a structured value (a fat tree's
  // "two-level" or "k-ary"). Empty: every form.
  std::vector<std::string> only;
  std::function<void(void*, const ParamValue&)> set;  // null for kShape (read by hand)
  std::function<ParamValue(const void*)> get;  // the value `set` wrote (or the default); null for kShape
  const std::type_info* owner = nullptr;       // the struct `set` fills

  std::string leaf() const { return key.substr(key.rfind('.') + 1); }
  std::string section() const { return key.substr(0, key.find('.')); }
  bool generic() const { return bool(set); }
};

// A check across keys failed. A block's cross-checks sit beside its
// declarations and return the first failure: the key the message names, the
// message, and the keys the values came from. The reader places the message
// at the one of `from` a --set changed, else the first the file gives, else
// at `fallback`; with `from` empty, at `fallback`, or at `key` itself. An
// empty `key` names the key the message is placed at.
struct ParamProblem {
  std::string key;
  std::string message;
  std::vector<std::string> from = {};
  std::string fallback = {};
};

// The table-column unit of a kind.
const char* unit_of(ParamKind k);
// "a or b" for two names, "one of a | b | c" for more.
std::string choice_text(const std::vector<std::string>& choices);

// The declarations of one block (one struct S, one config section).
template <typename S>
class ParamBlock {
 public:
  // section: the keys' prefix ("router", "links.wan"); "" for top-level keys.
  explicit ParamBlock(std::string section) : section_(std::move(section)) {}

  // Integers: kCount, kFlits or kCycles, within [min, max].
  template <typename T>
  ParamDecl& integer(const char* name, T S::*m, ParamKind kind, long long min, long long max,
                     const char* what, const char* doc) {
    ParamDecl& d = add(name, kind, std::to_string(defaults_.*m), doc);
    d.what = what, d.min = min, d.max = max;
    bind(d, m, &ParamValue::count);
    return d;
  }
  template <typename T>
  ParamDecl& bytes(const char* name, T S::*m, std::uint64_t min, std::uint64_t max, const char* example,
                   const char* what, const char* doc);
  ParamDecl& rate(const char* name, double S::*m, const char* what, const char* doc);
  ParamDecl& duration(const char* name, sim::Time S::*m, const char* example, const char* doc);
  ParamDecl& frequency(const char* name, double S::*m, const char* what, const char* doc);
  // A number above `min` (and at most `max` when max > min).
  ParamDecl& real(const char* name, double S::*m, double min, double max, const char* what, const char* doc);
  // A name chosen from `choices`, each mapped to the member's value.
  template <typename T>
  ParamDecl& name(const char* key, T S::*m, std::vector<std::pair<std::string, T>> choices, const char* what,
                  const char* doc) {
    std::string shown;
    std::vector<std::string> names;
    for (const auto& [n, v] : choices) {
      names.push_back(n);
      if (shown.empty() && v == defaults_.*m) shown = n;
    }
    ParamDecl& d = add(key, ParamKind::kName, shown, doc);
    d.what = what, d.choices = names;
    d.set = [m, choices](void* s, const ParamValue& v) {
      static_cast<S*>(s)->*m = choices[std::size_t(v.choice)].second;
    };
    d.get = [m, choices](const void* s) {
      ParamValue v;
      for (std::size_t i = 0; i < choices.size() && v.choice < 0; ++i)
        if (choices[i].second == static_cast<const S*>(s)->*m) v.choice = int(i);
      return v;
    };
    return d;
  }
  // true or false.
  ParamDecl& flag(const char* name, bool S::*m, const char* what, const char* doc) {
    ParamDecl& d = add(name, ParamKind::kBool, defaults_.*m ? "true" : "false", doc);
    d.what = what;
    bind(d, m, &ParamValue::flag);
    return d;
  }
  // A value of its own shape, read by hand; declared for the key lists and the table.
  ParamDecl& shape(const char* name, const char* unit, std::string deflt, const char* doc) {
    ParamDecl& d = add(name, ParamKind::kShape, std::move(deflt), doc);
    d.unit = unit;
    return d;
  }

  const std::vector<ParamDecl>& decls() const { return decls_; }
  const S& defaults() const { return defaults_; }

 private:
  // The declaration's setter and getter: member m of S, as field f of a value.
  template <typename T, typename V>
  static void bind(ParamDecl& d, T S::*m, V ParamValue::*f) {
    d.set = [m, f](void* s, const ParamValue& v) { static_cast<S*>(s)->*m = T(v.*f); };
    d.get = [m, f](const void* s) {
      ParamValue v;
      v.*f = V(static_cast<const S*>(s)->*m);
      return v;
    };
  }
  // A kRate, kFrequency or kReal value in member m, its default shown as `shown`.
  ParamDecl& number(const char* name, double S::*m, ParamKind kind, std::string shown, const char* what,
                    const char* doc) {
    ParamDecl& d = add(name, kind, std::move(shown), doc);
    d.what = what;
    bind(d, m, &ParamValue::number);
    return d;
  }
  ParamDecl& add(const char* name, ParamKind kind, std::string deflt, const char* doc) {
    ParamDecl d;
    d.key = section_.empty() ? std::string(name) : section_ + "." + name;  // "" for top-level keys
    d.owner = &typeid(S);
    d.kind = kind;
    d.unit = unit_of(kind);
    d.deflt = std::move(deflt);
    d.doc = doc;
    decls_.push_back(std::move(d));
    return decls_.back();
  }
  std::string section_;
  S defaults_{};
  std::vector<ParamDecl> decls_;
};

// Text forms of defaults (sim/units.h), so that the block templates below
// need not include the unit parsers.
std::string shown_bytes(std::uint64_t b);
std::string shown_rate(double bytes_per_s);
std::string shown_duration(sim::Time ps);
std::string shown_frequency(double hz);
std::string shown_real(double x);

template <typename S>
template <typename T>
ParamDecl& ParamBlock<S>::bytes(const char* name, T S::*m, std::uint64_t min, std::uint64_t max,
                                const char* example, const char* what, const char* doc) {
  ParamDecl& d = add(name, ParamKind::kBytes, shown_bytes(std::uint64_t(defaults_.*m)), doc);
  d.what = what, d.example = example, d.min_bytes = min, d.max_bytes = max;
  bind(d, m, &ParamValue::bytes);
  return d;
}

template <typename S>
ParamDecl& ParamBlock<S>::rate(const char* name, double S::*m, const char* what, const char* doc) {
  return number(name, m, ParamKind::kRate, shown_rate(defaults_.*m), what, doc);
}

template <typename S>
ParamDecl& ParamBlock<S>::duration(const char* name, sim::Time S::*m, const char* example, const char* doc) {
  ParamDecl& d = add(name, ParamKind::kDuration, shown_duration(defaults_.*m), doc);
  d.example = example;
  bind(d, m, &ParamValue::time);
  return d;
}

template <typename S>
ParamDecl& ParamBlock<S>::frequency(const char* name, double S::*m, const char* what, const char* doc) {
  return number(name, m, ParamKind::kFrequency, shown_frequency(defaults_.*m), what, doc);
}

template <typename S>
ParamDecl& ParamBlock<S>::real(const char* name, double S::*m, double min, double max, const char* what,
                               const char* doc) {
  ParamDecl& d = number(name, m, ParamKind::kReal, shown_real(defaults_.*m), what, doc);
  d.min_real = min, d.max_real = max;
  return d;
}

}  // namespace kairo::sim
