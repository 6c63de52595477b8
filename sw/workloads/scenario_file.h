// A scenario file (`kairo run PLATFORM --scenario FILE.yaml`, docs/rdma.md
// "Scenarios"): per rank or rank set, the regions it registers and the steps
// it runs (put, get, atomics, waits, polls, delays, loops, barriers,
// deregistrations), and the expectations checked after the run. This is the
// file read into a checked description, with nothing simulated; the
// interpreter is sw/workloads/scenario.h.
//
// Every error is `FILE:LINE:COL: what was expected` (1-based, from
// yaml-cpp's marks), thrown as ScenarioError; a key the format does not
// have is an error.
#pragma once
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "hw/nic/rdma_status.h"
#include "hw/nic/rdma_types.h"
#include "sim/time.h"

namespace kairo::sw::scenario {

struct ScenarioError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// A place in the file, 1-based.
struct Where {
  int line = 0, column = 0;
};

// A region's initial contents (`fill:`), or the bytes a memory expectation
// wants (`equals:`).
struct Contents {
  enum class Kind { kZero, kPattern, kU64, kBytes } kind = Kind::kZero;
  int pattern_of = -1;  // kPattern: whose pattern (sw::pattern_byte); -1: the rank's own
  std::uint64_t u64 = 0;
  std::vector<std::uint8_t> bytes;
  Where at;
};

struct Region {
  std::string name;
  std::uint64_t size = 0;
  Contents fill;
  Where at;
};

// The rank a step addresses: a number, or relative to the rank running the
// step ("+1", "-2"): the rank that many places after or before it among the
// ranks of its entry (`members`, in order), wrapping around.
struct Peer {
  int value = 0;
  bool relative = false;
  Where at;
  int of(int self, const std::vector<int>& members) const;
};

// An operation step is one of the NIC's operation kinds (put, get, the
// atomics), whose verb and keys come from sim/rdma_operations.h's table; the
// other steps follow.
enum class StepKind { kOperation, kWait, kPoll, kDelay, kLoop, kBarrier, kDeregister };
const char* step_name(StepKind k);  // a step other than an operation
struct Step;
std::string_view step_name(const Step& s);  // any step: an operation's verb

// An operation step: put, get, fetch_add, compare_swap, ...
struct Op {
  nic::Op kind = nic::Op::kPut;
  std::string id;  // empty: none
  Where id_at;
  Peer peer;
  std::string remote;  // the region at the peer
  Where remote_at;
  std::uint64_t offset = 0;
  std::string local;  // the kind's local key: put `from`; get and atomics `into`
  Where local_at;
  std::uint64_t local_offset = 0;
  std::optional<std::uint64_t>
      size;  // a sized kind (put, get); unset: the local region from local_offset to its end
  int tni = 0;
  Where tni_at;
  std::uint32_t tag = 0;
  bool notify = true, fence = false, local_completion = false;
  std::uint64_t operand = 0, compare = 0;  // an atomic's operands (its keys in the table)
  int index = -1;                          // the operation steps of the whole file, numbered in file order
};

struct Wait {
  enum class Kind { kCompletion, kCompletions, kNotice, kNotices } kind = Kind::kCompletion;
  std::string id;  // kCompletion
  std::uint64_t count = 1;
  int tni = 0;                       // kCompletions
  std::optional<std::uint32_t> tag;  // kNotice(s); unset: any scenario tag
};

struct Step {
  StepKind kind = StepKind::kOperation;
  Where at;
  Op op;
  Wait wait;
  int tni = 0;  // poll
  sim::Time delay = 0;
  std::uint64_t count = 0;  // loop
  std::vector<Step> steps;  // loop
  std::string region;       // deregister
};

// Ranks as written: numbers and ranges, or `all`.
struct RankSet {
  std::vector<std::pair<int, int>> ranges;  // inclusive
  bool all = false;
  Where at;
  bool contains(int r) const;
};

struct Program {
  RankSet ranks;
  std::vector<Region> regions;
  std::vector<Step> steps;
  Where at;
  int region_index(const std::string& name) const;  // -1 if none
};

struct Expectation {
  enum class Kind { kMemory, kCompletion, kCounter } kind = Kind::kMemory;
  enum class Compare { kEquals, kAtLeast, kAtMost };
  Where at;
  RankSet ranks;       // `rank: N` or `ranks: SET`: checked on each
  bool single = true;  // `rank: N`
  // memory
  std::string region;
  Where region_at;
  std::uint64_t offset = 0;
  std::optional<std::uint64_t> size;  // unset: to the region's end (zero, pattern), 8 (u64), the bytes' count
  Contents equals;
  // completion
  std::string id;
  Where id_at;
  nic::RdmaStatus status = nic::RdmaStatus::kOk;
  std::optional<std::uint64_t> count;  // unset: at least one
  // counter
  std::optional<int> tni;  // unset: the rank's TNIs together
  std::string counter;
  Compare compare = Compare::kEquals;
  std::uint64_t value = 0;
  // Whether it is checked on rank r: `ranks: all` means every rank with an entry.
  bool covers(int r, const std::vector<int>& program_of) const {
    return ranks.contains(r) && (!ranks.all || program_of[std::size_t(r)] >= 0);
  }
  // How a failure names it: "memory {rank: 1, region: dst}", "completion {ranks: 0-3, id: p}".
  std::string text;
};

struct Scenario {
  Scenario() = default;
  Scenario(Scenario&&) = default;  // `ops` points into `programs`: moved, never copied
  Scenario& operator=(Scenario&&) = default;
  Scenario(const Scenario&) = delete;
  std::string file, name;
  std::vector<std::string> sets;  // `set:`, as --set key=value
  std::vector<Program> programs;
  std::vector<Expectation> expect;
  std::vector<std::uint32_t> tags;          // every tag a put carries (what `notice: any` waits for)
  std::vector<const Step*> ops;             // every operation step, by Op::index
  std::string where(const Where& w) const;  // "FILE:LINE:COL"
};

// The file read and checked on its own (types, units, names, ids, keys).
Scenario parse_scenario_file(const std::string& path);
Scenario parse_scenario(const std::string& yaml_text, const std::string& file);

// Checked against the platform it runs on: ranks and TNIs in range, every
// rank in one program at most, each step's regions at its peers, a barrier
// count every participant shares, memory expectations only in data mode.
// Fills program_of (the program index of every rank, -1 for none).
struct Machine {
  int ranks = 0, tnis = 0;
  bool data = true;
};
void check_scenario(const Scenario& s, const Machine& m, std::vector<int>* program_of);
// Each program's ranks, in order, from program_of.
std::vector<std::vector<int>> members_of(const std::vector<int>& program_of, std::size_t programs);

// The status tokens of completions (`ok`, `stale_key`, ...), as the operation log spells them.
const char* status_token(nic::RdmaStatus s);

}  // namespace kairo::sw::scenario
