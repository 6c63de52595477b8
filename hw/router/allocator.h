// Switch allocation for an input-queued virtual-channel router, behind a narrow
// strategy interface so the router never depends on which one is in use.
//
// One allocation round: each input port has up to `vcs` requesting VCs, each
// VC (the head packet of its queue) requesting exactly one output port. The
// allocator returns a matching: each input port gets at most one grant (one of
// its VCs to its requested output) and each output port is granted to at most
// one input port. A round starts with clear(), then add_request() for every
// requesting VC, then allocate(); results are read with grant_vc()/grant_output().
// No SystemC, no knowledge of the router: unit-tested on its own.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace kairo::sim {
class EventQueue;
class Trace;
}  // namespace kairo::sim

namespace kairo::router {

class Allocator {
 public:
  Allocator(int inputs, int vcs, int outputs) : inputs_(inputs), vcs_(vcs), outputs_(outputs) {}
  virtual ~Allocator() = default;

  int inputs() const { return inputs_; }
  int vcs() const { return vcs_; }
  int outputs() const { return outputs_; }
  // Whether requests' ages matter (an age-based policy): others are given 0,
  // so the router need not fetch them.
  bool uses_age() const { return uses_age_; }

  // Forget the previous round's requests and grants (arbiter state is kept).
  virtual void clear() = 0;
  // VC `vc` of input `input` requests `output`. `age` orders requests for
  // age-based policies: smaller is older (e.g. the packet's creation time).
  // At most one request per (input, vc) per round.
  virtual void add_request(int input, int vc, int output, std::uint64_t age) = 0;
  // Compute the matching and update arbiter state (priority pointers advance
  // only for requests that were granted).
  virtual void allocate() = 0;
  // A round with exactly one request. Must leave the same grants and arbiter
  // state as clear(); add_request(...); allocate(); the router uses it for
  // the common uncontended round. Allocators may override it with a shortcut.
  virtual void allocate_single(int input, int vc, int output, std::uint64_t age) {
    clear();
    add_request(input, vc, output, age);
    allocate();
  }
  // The VC of `input` that won, or -1.
  virtual int grant_vc(int input) const = 0;
  // The output granted to `input`, or -1.
  virtual int grant_output(int input) const = 0;
  // An allocator with wires of its own (the Verilated RTL) records them into
  // the waveform `t` under `scope`, at the times `q` gives, and returns true;
  // a null `t` stops it. The C++ allocators have none to record.
  virtual bool trace(sim::Trace* /*t*/, const std::string& /*scope*/, const sim::EventQueue* /*q*/) {
    return false;
  }

 protected:
  bool uses_age_ = false;
  // Shared by the allocators' argument checks; out of line and cold so that
  // building a message costs the request path nothing.
  static std::string shape_text(int inputs, int vcs, int outputs);
  [[noreturn]] void reject_request(const char* name, int input, int vc, int output, bool repeated) const;

 private:
  int inputs_, vcs_, outputs_;
};

// What a router's configuration gives an allocator beside its shape. Each
// kind reads the knobs its descriptor names and ignores the others.
inline constexpr int kDefaultIslipIterations = 2;
struct AllocatorKnobs {
  // The allocator may share its per-round working arrays with others of its
  // kind and shape (a router's; see RoundRobinAllocator, OldestFirstAllocator).
  bool shared_rounds = false;
  // iSLIP's request-grant-accept iterations per round (router.islip_iterations, >= 1).
  int islip_iterations = kDefaultIslipIterations;
};

// One switch allocator, described once. Everything that names allocators
// reads this table (hw/router/allocator.cpp): make_allocator, the values
// router.allocator and router.vc_allocator accept and their documentation
// (router_params.cpp, and from there docs/parameters.md and --list-params).
// A new allocator is its own source files and one entry there.
struct AllocatorKind {
  const char* name;   // router.allocator's value
  const char* doc;    // one line: how it matches
  const char* knobs;  // the router keys it reads beside its shape ("router.islip_iterations"), or ""
  // A Verilated SystemC module: made during elaboration, run once the
  // simulation has started (tests/router/test_rtl_allocator.cpp); a switch
  // allocator only, never router.vc_allocator. The others are plain C++,
  // usable anywhere, also without a SystemC kernel.
  bool rtl;
  std::unique_ptr<Allocator> (*make)(int inputs, int vcs, int outputs, const AllocatorKnobs& knobs);
};
// Every allocator, the C++ ones first, then the RTL ones.
const std::vector<AllocatorKind>& allocator_kinds();
// The kind called `name`, or nullptr.
const AllocatorKind* find_allocator_kind(const std::string& name);

// The allocator called `name` of that shape, or nullptr for an unknown name
// (router.allocator's declaration has refused it before any router is built).
std::unique_ptr<Allocator> make_allocator(const std::string& name, int inputs, int vcs, int outputs,
                                          bool shared_rounds = false,
                                          int islip_iterations = kDefaultIslipIterations);
// The names in allocator_kinds(): the C++ ones, the RTL ones, and all of them
// (the values router.allocator accepts).
const std::vector<std::string>& allocator_names();
const std::vector<std::string>& rtl_allocator_names();
const std::vector<std::string>& allocator_choices();

}  // namespace kairo::router
