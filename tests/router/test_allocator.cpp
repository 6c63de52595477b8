// Switch allocators checked the way a router designer would: grants form a
// matching of the requests, arbiters share a contended output exactly evenly,
// and round_robin / islip agree grant-for-grant with textbook models written
// here from the published rules (scan from the pointer, first requester wins).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <new>
#include <random>
#include <tuple>

#include "hw/router/allocator.h"
#include "hw/router/islip_allocator.h"
#include "hw/router/oldest_first_allocator.h"
#include "hw/router/round_robin_allocator.h"
#include "hw/router/separable_input_first_allocator.h"
#include "hw/router/separable_output_first_allocator.h"
#include "hw/router/wavefront_allocator.h"

// Counts heap allocations while armed, to check the allocation path never
// reaches the heap.
static std::size_t g_heap_allocs = 0;
static bool g_count_heap = false;
void* operator new(std::size_t n) {
  if (g_count_heap) ++g_heap_allocs;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
// Out of line so the compiler does not pair an inlined free() with new.
__attribute__((noinline)) void operator delete(void* p) noexcept { std::free(p); }
__attribute__((noinline)) void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace kairo::router {
namespace {

struct Shape {
  int inputs, vcs, outputs;
};
// Includes ports and VCs past 64, where request vectors span several words.
const Shape kShapes[] = {{1, 1, 1}, {2, 1, 2}, {2, 2, 2},   {3, 2, 5},   {5, 4, 3},  {4, 8, 1},
                         {1, 8, 4}, {7, 3, 7}, {16, 8, 16}, {70, 2, 66}, {3, 70, 5}, {129, 1, 130}};

using Requests = std::vector<std::vector<int>>;  // [input][vc] -> output or -1
struct Grant {
  int vc = -1, output = -1;
};
using Grants = std::vector<Grant>;  // [input]

// Input buffers feeding the allocator: a VC's head packet keeps requesting
// until granted; an empty VC receives a new head with probability `load`
// (30% of heads aimed at a hotspot output 0), stamped with its arrival round.
class HeadOfLineTraffic {
 public:
  HeadOfLineTraffic(Shape s, unsigned seed)
      : s_(s),
        rng_(seed),
        req_(s.inputs, std::vector<int>(s.vcs, -1)),
        age_(s.inputs, std::vector<std::uint64_t>(s.vcs)) {}
  void refill(int round) {
    const double load = std::vector<double>{0.15, 0.5, 1.0}[(round / 100) % 3];
    std::uniform_real_distribution<double> u(0, 1);
    std::uniform_int_distribution<int> out(0, s_.outputs - 1);
    for (int i = 0; i < s_.inputs; ++i)
      for (int v = 0; v < s_.vcs; ++v) {
        if (req_[i][v] >= 0 || u(rng_) >= load) continue;
        req_[i][v] = u(rng_) < 0.3 ? 0 : out(rng_);
        age_[i][v] = std::uint64_t(round);
      }
  }
  void drive(Allocator& a) const {
    a.clear();
    for (int i = 0; i < s_.inputs; ++i)
      for (int v = 0; v < s_.vcs; ++v)
        if (req_[i][v] >= 0) a.add_request(i, v, req_[i][v], age_[i][v]);
  }
  void retire(const Grants& g) {
    for (int i = 0; i < s_.inputs; ++i)
      if (g[i].vc >= 0) req_[i][g[i].vc] = -1;
  }
  const Requests& requests() const { return req_; }
  std::uint64_t age(int i, int v) const { return age_[i][v]; }

 private:
  Shape s_;
  std::mt19937 rng_;
  Requests req_;
  std::vector<std::vector<std::uint64_t>> age_;
};

Grants read_grants(const Allocator& a) {
  Grants g(a.inputs());
  for (int i = 0; i < a.inputs(); ++i) g[i] = {a.grant_vc(i), a.grant_output(i)};
  return g;
}

// Each input sends at most one VC, each output carries at most one input, and
// every grant is a request that was made.
::testing::AssertionResult IsMatching(const Requests& req, const Grants& g, int outputs) {
  std::vector<int> owner(outputs, -1);
  for (int i = 0; i < int(g.size()); ++i) {
    if (g[i].vc < 0 && g[i].output < 0) continue;
    if (g[i].vc < 0 || g[i].vc >= int(req[i].size()) || req[i][g[i].vc] != g[i].output)
      return ::testing::AssertionFailure() << "input " << i << " granted VC " << g[i].vc << " to output "
                                           << g[i].output << ", which that VC did not request";
    if (owner[g[i].output] >= 0)
      return ::testing::AssertionFailure() << "output " << g[i].output << " granted to inputs "
                                           << owner[g[i].output] << " and " << i << " in one cycle";
    owner[g[i].output] = i;
  }
  return ::testing::AssertionSuccess();
}

// No unmatched input has a VC requesting an unmatched output.
bool IsMaximal(const Requests& req, const Grants& g, int outputs) {
  std::vector<bool> busy(outputs, false);
  for (const Grant& x : g)
    if (x.output >= 0) busy[x.output] = true;
  for (int i = 0; i < int(g.size()); ++i)
    for (int o : req[i])
      if (g[i].output < 0 && o >= 0 && !busy[o]) return false;
  return true;
}

int Size(const Grants& g) {
  return int(std::count_if(g.begin(), g.end(), [](const Grant& x) { return x.output >= 0; }));
}
bool AnyRequest(const Requests& req) {
  for (const auto& row : req)
    if (std::any_of(row.begin(), row.end(), [](int o) { return o >= 0; })) return true;
  return false;
}

// Textbook separable input-first allocator: a VC arbiter per input, then an
// input arbiter per output, each scanning from its pointer; both pointers move
// one past the winner only on a final grant.
class ReferenceSeparable {
 public:
  explicit ReferenceSeparable(Shape s) : s_(s), vc_ptr_(s.inputs, 0), in_ptr_(s.outputs, 0) {}
  Grants allocate(const Requests& req) {
    std::vector<int> pick(s_.inputs, -1);
    for (int i = 0; i < s_.inputs; ++i)
      for (int k = 0; k < s_.vcs && pick[i] < 0; ++k)
        if (req[i][(vc_ptr_[i] + k) % s_.vcs] >= 0) pick[i] = (vc_ptr_[i] + k) % s_.vcs;
    Grants g(s_.inputs);
    for (int o = 0; o < s_.outputs; ++o)
      for (int k = 0; k < s_.inputs; ++k) {
        const int i = (in_ptr_[o] + k) % s_.inputs;
        if (pick[i] < 0 || req[i][pick[i]] != o) continue;
        g[i] = {pick[i], o};
        vc_ptr_[i] = (pick[i] + 1) % s_.vcs;
        in_ptr_[o] = (i + 1) % s_.inputs;
        break;
      }
    return g;
  }

 private:
  Shape s_;
  std::vector<int> vc_ptr_, in_ptr_;
};

// iSLIP as McKeown states it, on an explicit input x output request matrix.
class ReferenceIslip {
 public:
  ReferenceIslip(Shape s, int iterations)
      : s_(s), iters_(iterations), gp_(s.outputs, 0), ap_(s.inputs, 0), vp_(s.inputs, 0) {}
  Grants allocate(const Requests& req) {
    std::vector<std::vector<bool>> r(s_.inputs, std::vector<bool>(s_.outputs, false));
    for (int i = 0; i < s_.inputs; ++i)
      for (int o : req[i])
        if (o >= 0) r[i][o] = true;
    std::vector<int> in_m(s_.inputs, -1), out_m(s_.outputs, -1);
    for (int it = 0; it < iters_; ++it) {
      std::vector<int> grant(s_.outputs, -1);
      for (int o = 0; o < s_.outputs; ++o)
        for (int k = 0; k < s_.inputs && out_m[o] < 0 && grant[o] < 0; ++k) {
          const int i = (gp_[o] + k) % s_.inputs;
          if (in_m[i] < 0 && r[i][o]) grant[o] = i;
        }
      for (int i = 0; i < s_.inputs; ++i)
        for (int k = 0; k < s_.outputs && in_m[i] < 0; ++k) {
          const int o = (ap_[i] + k) % s_.outputs;
          if (grant[o] != i) continue;
          in_m[i] = o;
          out_m[o] = i;
          if (it == 0) {
            gp_[o] = (i + 1) % s_.inputs;
            ap_[i] = (o + 1) % s_.outputs;
          }
        }
    }
    Grants g(s_.inputs);
    for (int i = 0; i < s_.inputs; ++i)
      for (int k = 0; k < s_.vcs && in_m[i] >= 0 && g[i].vc < 0; ++k) {
        const int v = (vp_[i] + k) % s_.vcs;
        if (req[i][v] != in_m[i]) continue;
        g[i] = {v, in_m[i]};
        vp_[i] = (v + 1) % s_.vcs;
      }
    return g;
  }

 private:
  Shape s_;
  int iters_;
  std::vector<int> gp_, ap_, vp_;
};

// BookSim's separable allocators with round-robin arbiters, on an explicit
// input x output request matrix (an input requests an output when any of its
// VCs does). Input-first: each input's arbiter (over outputs) picks one output
// it requests, then each output's arbiter (over inputs) picks one of the
// inputs that picked it. Output-first: each output's arbiter grants one
// requesting input, then each input's arbiter accepts one granting output.
// Both pointers on a matched pair move one past the winner. A matched input
// sends its first VC at or after its VC pointer that requests the output, and
// the VC pointer moves one past it (BookSim's IQ router sw_rr_offset).
class ReferencePortSeparable {
 public:
  ReferencePortSeparable(Shape s, bool input_first)
      : s_(s), input_first_(input_first), ip_(s.inputs, 0), op_(s.outputs, 0), vp_(s.inputs, 0) {}
  Grants allocate(const Requests& req) {
    std::vector<std::vector<bool>> r(s_.inputs, std::vector<bool>(s_.outputs, false));
    for (int i = 0; i < s_.inputs; ++i)
      for (int o : req[i])
        if (o >= 0) r[i][o] = true;
    // first[k]: the stage-1 winner of arbiter k (an output per input for
    // input-first, an input per output for output-first), or -1.
    const int n1 = input_first_ ? s_.inputs : s_.outputs, n2 = input_first_ ? s_.outputs : s_.inputs;
    auto wants = [&](int a, int b) { return input_first_ ? r[a][b] : r[b][a]; };  // a: stage-1 side
    std::vector<int>& p1 = input_first_ ? ip_ : op_;
    std::vector<int>& p2 = input_first_ ? op_ : ip_;
    std::vector<int> first(n1, -1);
    for (int a = 0; a < n1; ++a)
      for (int k = 0; k < n2 && first[a] < 0; ++k)
        if (wants(a, (p1[a] + k) % n2)) first[a] = (p1[a] + k) % n2;
    std::vector<int> in_m(s_.inputs, -1);
    for (int b = 0; b < n2; ++b)
      for (int k = 0; k < n1; ++k) {
        const int a = (p2[b] + k) % n1;
        if (first[a] != b) continue;
        in_m[input_first_ ? a : b] = input_first_ ? b : a;
        p1[a] = (b + 1) % n2;
        p2[b] = (a + 1) % n1;
        break;
      }
    return choose_vcs(req, in_m, vp_, s_.vcs);
  }
  // The VC sent by each matched input: first at or after its VC pointer.
  static Grants choose_vcs(const Requests& req, const std::vector<int>& in_m, std::vector<int>& vp, int vcs) {
    Grants g(in_m.size());
    for (std::size_t i = 0; i < in_m.size(); ++i)
      for (int k = 0; k < vcs && in_m[i] >= 0 && g[i].vc < 0; ++k) {
        const int v = (vp[i] + k) % vcs;
        if (req[i][v] != in_m[i]) continue;
        g[i] = {v, in_m[i]};
        vp[i] = (v + 1) % vcs;
      }
    return g;
  }

 private:
  Shape s_;
  bool input_first_;
  std::vector<int> ip_, op_, vp_;
};

// Runs `rounds` cycles of head-of-line traffic through `a` (a fifth of them
// on the shapes past 64 ports or VCs, whose reference models are slow),
// calling check(traffic, grants) after each allocation.
template <class Check>
void RunTraffic(Allocator& a, Shape s, unsigned seed, int rounds, Check check) {
  HeadOfLineTraffic t(s, seed);
  if (std::max({s.inputs, s.vcs, s.outputs}) > 64) rounds /= 5;
  for (int round = 0; round < rounds; ++round) {
    t.refill(round);
    t.drive(a);
    a.allocate();
    const Grants g = read_grants(a);
    check(t, g);
    if (::testing::Test::HasFatalFailure()) return;
    t.retire(g);
  }
}

std::string Label(Shape s) {
  return std::to_string(s.inputs) + "x" + std::to_string(s.vcs) + "x" + std::to_string(s.outputs);
}

// k inputs keep every VC's head on one output for k*vcs*m cycles (one more
// input idles); each (input, VC) must be served exactly m times, i.e. each
// input gets exactly 1/k of the output's cycles.
void ExpectFairUnderPersistentContention(const std::string& name) {
  for (int k : {2, 3, 5})
    for (int vcs : {1, 3}) {
      const int inputs = k + 1, target = 1, m = 4;
      auto a = make_allocator(name, inputs, vcs, 3);
      std::vector<std::vector<int>> served(inputs, std::vector<int>(vcs, 0));
      for (int round = 0; round < k * vcs * m; ++round) {
        a->clear();
        for (int i = 1; i <= k; ++i)
          for (int v = 0; v < vcs; ++v) a->add_request(i, v, target, std::uint64_t(round));
        a->allocate();
        const Grants g = read_grants(*a);
        ASSERT_EQ(Size(g), 1) << name << ": contended output idle or doubly granted in cycle " << round;
        for (int i = 0; i < inputs; ++i)
          if (g[i].vc >= 0) ++served[i][g[i].vc];
      }
      for (int i = 1; i <= k; ++i)
        for (int v = 0; v < vcs; ++v)
          EXPECT_EQ(served[i][v], m) << name << ": input " << i << " VC " << v << " of " << k
                                     << " contenders";
    }
}

// The descriptors: each allocator named once with its doc line; the names
// router.allocator accepts are the table's, C++ then RTL, and each C++ kind
// builds through make_allocator (the RTL ones need an elaborating SystemC
// kernel: test_rtl_allocator.cpp).
TEST(Allocator, EveryDescriptorIsNamedOnceAndBuilds) {
  std::vector<std::string> names;
  for (const AllocatorKind& k : allocator_kinds()) {
    EXPECT_EQ(find_allocator_kind(k.name), &k);
    EXPECT_GT(std::string(k.doc).size(), 5u) << k.name;
    if (!k.rtl) EXPECT_NE(make_allocator(k.name, 3, 2, 3), nullptr) << k.name;
    names.emplace_back(k.name);
  }
  EXPECT_EQ(names, allocator_choices());
  EXPECT_EQ(find_allocator_kind("max_size"), nullptr);
  EXPECT_STREQ(find_allocator_kind("islip")->knobs, "router.islip_iterations");
}

TEST(Allocator, FactoryBuildsEveryListedAllocatorAndRejectsUnknownNames) {
  // The shipped allocators are all there (a new one joins the table, not this list).
  const std::vector<std::string> names = allocator_names();
  for (const char* shipped : {"round_robin", "islip", "oldest_first", "separable_input_first",
                              "separable_output_first", "wavefront"})
    EXPECT_NE(std::find(names.begin(), names.end(), shipped), names.end()) << shipped;
  EXPECT_EQ(names.front(), "round_robin");  // the default
  EXPECT_NE(dynamic_cast<RoundRobinAllocator*>(make_allocator("round_robin", 4, 2, 4).get()), nullptr);
  auto islip = make_allocator("islip", 4, 2, 4);
  ASSERT_NE(dynamic_cast<IslipAllocator*>(islip.get()), nullptr);
  EXPECT_EQ(static_cast<IslipAllocator&>(*islip).iterations(), 2);
  auto islip3 = make_allocator("islip", 4, 2, 4, false, 3);
  EXPECT_EQ(static_cast<IslipAllocator&>(*islip3).iterations(), 3);
  EXPECT_THROW(make_allocator("islip", 4, 2, 4, false, 0), std::invalid_argument);
  EXPECT_NE(dynamic_cast<OldestFirstAllocator*>(make_allocator("oldest_first", 4, 2, 4).get()), nullptr);
  EXPECT_NE(
      dynamic_cast<SeparableInputFirstAllocator*>(make_allocator("separable_input_first", 4, 2, 4).get()),
      nullptr);
  EXPECT_NE(
      dynamic_cast<SeparableOutputFirstAllocator*>(make_allocator("separable_output_first", 4, 2, 4).get()),
      nullptr);
  EXPECT_NE(dynamic_cast<WavefrontAllocator*>(make_allocator("wavefront", 4, 2, 4).get()), nullptr);
  EXPECT_EQ(make_allocator("max_size", 4, 2, 4), nullptr);
  EXPECT_EQ(make_allocator("", 4, 2, 4), nullptr);
}

TEST(Allocator, RejectsImpossibleShapesAndOutOfRangeRequests) {
  for (const std::string& name : allocator_names()) {
    EXPECT_THROW(make_allocator(name, 0, 2, 4), std::invalid_argument) << name;
    EXPECT_THROW(make_allocator(name, 4, 0, 4), std::invalid_argument) << name;
    auto a = make_allocator(name, 4, 2, 3);
    EXPECT_THROW(a->add_request(4, 0, 0, 0), std::out_of_range) << name << ": input past the last port";
    EXPECT_THROW(a->add_request(0, 2, 0, 0), std::out_of_range) << name << ": VC past the last VC";
    EXPECT_THROW(a->add_request(0, 0, 3, 0), std::out_of_range) << name << ": output past the last port";
    a->add_request(1, 1, 2, 0);
    EXPECT_THROW(a->add_request(1, 1, 0, 0), std::logic_error) << name << ": one VC requesting twice";
  }
  EXPECT_THROW(IslipAllocator(4, 2, 4, 0), std::invalid_argument);
}

TEST(Allocator, ClearForgetsRequestsAndGrants) {
  for (const std::string& name : allocator_names()) {
    auto a = make_allocator(name, 3, 2, 3);
    a->clear();
    a->add_request(0, 1, 2, 5);
    a->add_request(2, 0, 2, 3);
    a->allocate();
    EXPECT_EQ(Size(read_grants(*a)), 1) << name;
    a->clear();
    EXPECT_EQ(Size(read_grants(*a)), 0) << name << ": grants survived clear()";
    a->allocate();
    EXPECT_EQ(Size(read_grants(*a)), 0) << name << ": requests survived clear()";
    a->add_request(0, 1, 1, 0);  // the same VC may request again in the new round
    a->allocate();
    EXPECT_EQ(a->grant_output(0), 1) << name;
  }
}

TEST(Allocator, RoundRobinGrantsAreAMatching) {
  for (Shape s : kShapes) {
    RoundRobinAllocator a(s.inputs, s.vcs, s.outputs);
    RunTraffic(a, s, 11, 3000, [&](const HeadOfLineTraffic& t, const Grants& g) {
      const Requests& req = t.requests();
      ASSERT_TRUE(IsMatching(req, g, s.outputs)) << Label(s);
      if (AnyRequest(req)) {
        ASSERT_GT(Size(g), 0) << Label(s) << ": requests pending, nothing granted";
      }
      // Not maximal in general, but stage 1 always forwards some request, so
      // an output that an input requests with all its requesting VCs is served.
      for (int i = 0; i < s.inputs; ++i) {
        std::vector<int> outs;
        for (int o : req[i])
          if (o >= 0) outs.push_back(o);
        if (outs.empty() || std::any_of(outs.begin(), outs.end(), [&](int o) { return o != outs[0]; }))
          continue;
        bool served = false;
        for (const Grant& x : g) served = served || x.output == outs[0];
        ASSERT_TRUE(served) << Label(s) << ": output " << outs[0] << " idle though input " << i
                            << " requests only it";
      }
    });
  }
}

TEST(Allocator, RoundRobinMatchesReferenceSeparableAllocator) {
  for (Shape s : kShapes) {
    RoundRobinAllocator a(s.inputs, s.vcs, s.outputs);
    ReferenceSeparable ref(s);
    int round = 0;
    RunTraffic(a, s, 23, 4000, [&](const HeadOfLineTraffic& t, const Grants& g) {
      const Grants want = ref.allocate(t.requests());
      for (int i = 0; i < s.inputs; ++i)
        ASSERT_TRUE(g[i].vc == want[i].vc && g[i].output == want[i].output)
            << Label(s) << " cycle " << round << " input " << i << ": got VC " << g[i].vc << " -> output "
            << g[i].output << ", reference VC " << want[i].vc << " -> output " << want[i].output;
      ++round;
    });
  }
}

TEST(Allocator, RoundRobinIsFairUnderPersistentContention) {
  ExpectFairUnderPersistentContention("round_robin");
}

TEST(Allocator, RoundRobinKeepsInputPriorityWhenOutputArbitrationIsLost) {
  // Input 1's VC 0 wins stage 1 but loses output 0 to input 0; its VC pointer
  // must not move, so next cycle VC 0 (not VC 1) is forwarded again and wins.
  RoundRobinAllocator a(2, 2, 2);
  for (int cycle = 0; cycle < 2; ++cycle) {
    a.clear();
    a.add_request(0, 0, 0, 0);
    a.add_request(1, 0, 0, 0);
    a.add_request(1, 1, 1, 0);
    a.allocate();
    EXPECT_EQ(a.grant_output(cycle), 0) << "cycle " << cycle;
  }
  EXPECT_EQ(a.grant_vc(1), 0) << "input 1's VC arbiter moved although its winner was not granted";
  EXPECT_EQ(a.grant_output(0), -1);
}

TEST(Allocator, RoundRobinCanLeaveAnOutputIdleWhenStageOneWinnersCollide) {
  // Separable allocation is not maximal: input 1 forwards only VC 0 (output 0),
  // loses it to input 0, and output 1 idles though input 1's VC 1 wants it.
  RoundRobinAllocator a(2, 2, 2);
  a.add_request(0, 0, 0, 0);
  a.add_request(1, 0, 0, 0);
  a.add_request(1, 1, 1, 0);
  a.allocate();
  EXPECT_EQ(a.grant_output(0), 0);
  EXPECT_EQ(a.grant_output(1), -1);
}

TEST(Allocator, IslipGrantsAreAMatching) {
  for (Shape s : kShapes) {
    const int full = std::min(s.inputs, s.outputs);
    for (int iterations : {1, 2, full}) {
      IslipAllocator a(s.inputs, s.vcs, s.outputs, iterations);
      RunTraffic(a, s, 31, 2000, [&](const HeadOfLineTraffic& t, const Grants& g) {
        ASSERT_TRUE(IsMatching(t.requests(), g, s.outputs)) << Label(s) << " iterations " << iterations;
        if (AnyRequest(t.requests())) {
          ASSERT_GT(Size(g), 0) << Label(s) << ": requests pending, nothing granted";
        }
        // Each iteration of a non-maximal matching adds a pair, so
        // min(inputs, outputs) iterations always reach a maximal matching.
        if (iterations >= full) {
          ASSERT_TRUE(IsMaximal(t.requests(), g, s.outputs)) << Label(s) << " iterations " << iterations;
        }
      });
    }
  }
}

TEST(Allocator, IslipMatchesReferenceModel) {
  for (Shape s : kShapes)
    for (int iterations : {1, 2, 4}) {
      IslipAllocator a(s.inputs, s.vcs, s.outputs, iterations);
      ReferenceIslip ref(s, iterations);
      RunTraffic(a, s, 47, 3000, [&](const HeadOfLineTraffic& t, const Grants& g) {
        const Grants want = ref.allocate(t.requests());
        for (int i = 0; i < s.inputs; ++i)
          ASSERT_TRUE(g[i].vc == want[i].vc && g[i].output == want[i].output)
              << Label(s) << " iterations " << iterations << " input " << i << ": got VC " << g[i].vc
              << " -> output " << g[i].output << ", reference VC " << want[i].vc << " -> output "
              << want[i].output;
      });
    }
}

TEST(Allocator, IslipFindsMaximalMatchingInTwoIterations) {
  // Both inputs want both outputs (VC v -> output v). With fresh pointers both
  // outputs grant input 0, which accepts output 0; only a second iteration
  // lets output 1 grant input 1.
  for (int iterations : {1, 2}) {
    IslipAllocator a(2, 2, 2, iterations);
    for (int i = 0; i < 2; ++i)
      for (int v = 0; v < 2; ++v) a.add_request(i, v, v, 0);
    a.allocate();
    EXPECT_EQ(a.grant_output(0), 0) << iterations << " iteration(s)";
    EXPECT_EQ(a.grant_output(1), iterations == 2 ? 1 : -1) << iterations << " iteration(s)";
  }
}

TEST(Allocator, IslipMovesPointersOnlyOnFirstIterationAccepts) {
  // Cycle 0: input 0 takes output 0 in iteration 1; input 1 takes output 1 in
  // iteration 2, which must leave output 1's grant pointer at input 0. Cycle 1:
  // inputs 1 and 2 want output 1; from pointer 0 input 1 wins (had the pointer
  // moved past input 1, input 2 would).
  IslipAllocator a(3, 2, 2, 2);
  a.add_request(0, 0, 0, 0);
  a.add_request(0, 1, 1, 0);
  a.add_request(1, 0, 1, 0);
  a.allocate();
  ASSERT_EQ(a.grant_output(1), 1);
  a.clear();
  a.add_request(1, 0, 1, 0);
  a.add_request(2, 0, 1, 0);
  a.allocate();
  EXPECT_EQ(a.grant_output(1), 1) << "a second-iteration accept moved the grant pointer";
  EXPECT_EQ(a.grant_output(2), -1);
}

TEST(Allocator, IslipIsFairUnderPersistentContention) { ExpectFairUnderPersistentContention("islip"); }

TEST(Allocator, IslipDesynchronizesPointersUnderUniformSaturation) {
  // McKeown 1999: with every input requesting every output each cycle, the
  // grant pointers fall out of step within n cycles and single-iteration
  // iSLIP then sends a full permutation every cycle (100% throughput).
  for (int n : {2, 4, 8, 16}) {
    IslipAllocator a(n, n, n, 1);
    for (int cycle = 0; cycle < 3 * n; ++cycle) {
      a.clear();
      for (int i = 0; i < n; ++i)
        for (int v = 0; v < n; ++v) a.add_request(i, v, v, 0);
      a.allocate();
      if (cycle >= n) {
        ASSERT_EQ(Size(read_grants(a)), n) << n << "x" << n << " switch, cycle " << cycle;
      }
    }
  }
}

TEST(Allocator, OldestFirstPrefersOldestRequest) {
  // Age order 5, 10, 20, 30: input 1 VC 0 (age 5) takes output 0 and so
  // blocks its own VC 1 (age 10); output 1 then goes to input 2 (age 20), not
  // to the lower-numbered but younger input 0 (age 30).
  OldestFirstAllocator a(3, 2, 2);
  a.add_request(0, 0, 1, 30);
  a.add_request(1, 1, 1, 10);
  a.add_request(1, 0, 0, 5);
  a.add_request(2, 1, 1, 20);
  a.allocate();
  EXPECT_EQ(a.grant_vc(1), 0);
  EXPECT_EQ(a.grant_output(1), 0);
  EXPECT_EQ(a.grant_output(2), 1) << "output 1 should go to the oldest request still possible (age 20)";
  EXPECT_EQ(a.grant_output(0), -1);
}

TEST(Allocator, OldestFirstBreaksAgeTiesByInputThenVc) {
  // All the same age. Rank order (input 0 VC 1), (input 0 VC 2), (input 1 VC 0):
  // input 0 sends VC 1 to output 0, which blocks both of the others. Ranking by
  // VC first, or by the higher VC first, would serve two inputs instead.
  OldestFirstAllocator a(2, 3, 2);
  a.add_request(1, 0, 0, 7);
  a.add_request(0, 2, 1, 7);
  a.add_request(0, 1, 0, 7);
  a.allocate();
  EXPECT_EQ(a.grant_vc(0), 1) << "equal ages: the lower VC of the lower input goes first";
  EXPECT_EQ(a.grant_output(0), 0);
  EXPECT_EQ(a.grant_output(1), -1) << "equal ages: input 1 ranks after input 0";
}

TEST(Allocator, OldestFirstGrantsAreAMaximalMatching) {
  using Rank = std::tuple<std::uint64_t, int, int>;  // (age, input, vc): smaller is served first
  for (Shape s : kShapes) {
    OldestFirstAllocator a(s.inputs, s.vcs, s.outputs);
    RunTraffic(a, s, 59, 3000, [&](const HeadOfLineTraffic& t, const Grants& g) {
      const Requests& req = t.requests();
      ASSERT_TRUE(IsMatching(req, g, s.outputs)) << Label(s);
      ASSERT_TRUE(IsMaximal(req, g, s.outputs)) << Label(s);
      // The greedy outcome, characterized without replaying it: every request
      // that lost was blocked, at its input or its output, by a granted request
      // of higher rank (which also makes the oldest request always win).
      for (int i = 0; i < s.inputs; ++i)
        for (int v = 0; v < s.vcs; ++v) {
          const int o = req[i][v];
          if (o < 0 || g[i].vc == v) continue;
          const Rank mine{t.age(i, v), i, v};
          bool blocked = g[i].vc >= 0 && Rank{t.age(i, g[i].vc), i, g[i].vc} < mine;
          for (int j = 0; j < s.inputs; ++j)
            blocked = blocked || (g[j].output == o && Rank{t.age(j, g[j].vc), j, g[j].vc} < mine);
          ASSERT_TRUE(blocked) << Label(s) << ": input " << i << " VC " << v << " lost to a younger request";
        }
    });
  }
}

// Routers of one shape share their switch allocator's round arrays
// (shared_rounds): two such allocators taking turns, each with its own
// traffic, grant exactly what two allocators with arrays of their own grant.
TEST(Allocator, SharedRoundArraysGrantWhatPrivateOnesGrant) {
  for (const char* name : {"round_robin", "oldest_first"})
    for (Shape s : kShapes) {
      auto a = make_allocator(name, s.inputs, s.vcs, s.outputs, /*shared_rounds=*/true);
      auto b = make_allocator(name, s.inputs, s.vcs, s.outputs, /*shared_rounds=*/true);
      auto pa = make_allocator(name, s.inputs, s.vcs, s.outputs, /*shared_rounds=*/false);
      auto pb = make_allocator(name, s.inputs, s.vcs, s.outputs, /*shared_rounds=*/false);
      HeadOfLineTraffic ta(s, 71), tb(s, 72);
      const int rounds = std::max({s.inputs, s.vcs, s.outputs}) > 64 ? 200 : 1000;
      for (int round = 0; round < rounds; ++round) {
        for (auto [t, shared, own] :
             {std::tuple{&ta, a.get(), pa.get()}, std::tuple{&tb, b.get(), pb.get()}}) {
          t->refill(round);
          t->drive(*shared);
          shared->allocate();
          const Grants g = read_grants(*shared);
          t->drive(*own);
          own->allocate();
          const Grants want = read_grants(*own);
          for (int i = 0; i < s.inputs; ++i)
            ASSERT_TRUE(g[i].vc == want[i].vc && g[i].output == want[i].output)
                << name << " " << Label(s) << " round " << round << " input " << i;
          t->retire(g);
        }
      }
    }
}

// --- BookSim's port-level allocators ----------------------------------------

TEST(Allocator, SeparableInputFirstAndOutputFirstMatchTheirReferenceModels) {
  for (bool input_first : {true, false})
    for (Shape s : kShapes) {
      const std::string name = input_first ? "separable_input_first" : "separable_output_first";
      auto a = make_allocator(name, s.inputs, s.vcs, s.outputs);
      ReferencePortSeparable ref(s, input_first);
      int round = 0;
      RunTraffic(*a, s, 61, 3000, [&](const HeadOfLineTraffic& t, const Grants& g) {
        const Requests& req = t.requests();
        ASSERT_TRUE(IsMatching(req, g, s.outputs)) << name << " " << Label(s);
        if (AnyRequest(req)) {
          ASSERT_GT(Size(g), 0) << name << " " << Label(s) << ": requests pending, nothing granted";
        }
        const Grants want = ref.allocate(req);
        for (int i = 0; i < s.inputs; ++i)
          ASSERT_TRUE(g[i].vc == want[i].vc && g[i].output == want[i].output)
              << name << " " << Label(s) << " cycle " << round << " input " << i << ": got VC " << g[i].vc
              << " -> output " << g[i].output << ", reference VC " << want[i].vc << " -> output "
              << want[i].output;
        ++round;
      });
    }
}

TEST(Allocator, SeparableOutputFirstIsSingleIterationIslip) {
  // Output arbiters grant, input arbiters accept, pointers move on accepts:
  // one iSLIP iteration is exactly that, grant for grant and VC for VC.
  for (Shape s : kShapes) {
    SeparableOutputFirstAllocator a(s.inputs, s.vcs, s.outputs);
    IslipAllocator islip(s.inputs, s.vcs, s.outputs, 1);
    RunTraffic(a, s, 67, 3000, [&](const HeadOfLineTraffic& t, const Grants& g) {
      t.drive(islip);
      islip.allocate();
      const Grants want = read_grants(islip);
      for (int i = 0; i < s.inputs; ++i)
        ASSERT_TRUE(g[i].vc == want[i].vc && g[i].output == want[i].output)
            << Label(s) << " input " << i << ": VC " << g[i].vc << " -> output " << g[i].output
            << ", 1-iteration islip VC " << want[i].vc << " -> output " << want[i].output;
    });
  }
}

TEST(Allocator, SeparableInputFirstIsRoundRobinWhenEachPortHasOneVc) {
  // With one VC per port, arbitrating over an input's VCs and over the
  // outputs it requests is the same choice (there is one of each).
  for (Shape s : kShapes) {
    if (s.vcs != 1) continue;
    SeparableInputFirstAllocator a(s.inputs, s.vcs, s.outputs);
    RoundRobinAllocator rr(s.inputs, s.vcs, s.outputs);
    RunTraffic(a, s, 71, 3000, [&](const HeadOfLineTraffic& t, const Grants& g) {
      t.drive(rr);
      rr.allocate();
      for (int i = 0; i < s.inputs; ++i)
        ASSERT_EQ(g[i].output, rr.grant_output(i)) << Label(s) << " input " << i;
    });
  }
}

TEST(Allocator, SeparableInputFirstArbitratesOverOutputsWhereRoundRobinArbitratesOverVcs) {
  // Fresh pointers. Input 0: VC 0 -> output 1, VC 1 -> output 0; input 1:
  // VC 0 -> output 1.
  // round_robin: input 0's VC arbiter forwards VC 0 (output 1), input 1's
  //   forwards VC 0 (output 1); output 1's arbiter takes input 0; output 0
  //   idles and input 1 waits. One pair.
  // separable_input_first: input 0's output arbiter forwards output 0 (the
  //   first requested at or after pointer 0), input 1 forwards output 1; both
  //   are granted, input 0 sending VC 1. Two pairs.
  auto drive = [](Allocator& a) {
    a.add_request(0, 0, 1, 0);
    a.add_request(0, 1, 0, 0);
    a.add_request(1, 0, 1, 0);
    a.allocate();
  };
  RoundRobinAllocator rr(2, 2, 2);
  drive(rr);
  EXPECT_EQ(rr.grant_output(0), 1);
  EXPECT_EQ(rr.grant_vc(0), 0);
  EXPECT_EQ(rr.grant_output(1), -1);
  SeparableInputFirstAllocator sif(2, 2, 2);
  drive(sif);
  EXPECT_EQ(sif.grant_output(0), 0);
  EXPECT_EQ(sif.grant_vc(0), 1) << "input 0 sends the VC that requests its matched output";
  EXPECT_EQ(sif.grant_output(1), 1);
}

TEST(Allocator, InputFirstAndOutputFirstLoseDifferentPairs) {
  // Fresh pointers, one VC per requested output (VC v -> output v).
  // Case A: input 0 wants outputs 0 and 1, input 1 only output 1.
  //   Input-first: input 0 picks output 0 (first at pointer 0), input 1 picks
  //   output 1; no collision: {0->0, 1->1}.
  //   Output-first: output 0 grants input 0, output 1 grants input 0 too
  //   (first at pointer 0); input 0 accepts output 0 and output 1 idles: {0->0}.
  // Case B, the mirror: input 0 wants only output 0, input 1 outputs 0 and 1.
  //   Input-first: both inputs pick output 0; output 0 takes input 0: {0->0}.
  //   Output-first: output 0 grants input 0, output 1 grants input 1; both
  //   accept: {0->0, 1->1}.
  struct Case {
    std::vector<std::pair<int, int>> reqs;  // (input, output), VC = output
    std::vector<int> input_first, output_first;
  };
  const Case cases[] = {{{{0, 0}, {0, 1}, {1, 1}}, {0, 1}, {0, -1}},
                        {{{0, 0}, {1, 0}, {1, 1}}, {0, -1}, {0, 1}}};
  for (const Case& c : cases)
    for (bool input_first : {true, false}) {
      auto a = make_allocator(input_first ? "separable_input_first" : "separable_output_first", 2, 2, 2);
      for (auto [i, o] : c.reqs) a->add_request(i, o, o, 0);
      a->allocate();
      const std::vector<int>& want = input_first ? c.input_first : c.output_first;
      for (int i = 0; i < 2; ++i)
        EXPECT_EQ(a->grant_output(i), want[i])
            << (input_first ? "input-first" : "output-first") << " input " << i << " of the case beginning ("
            << c.reqs[0].first << "," << c.reqs[0].second << "), (" << c.reqs[1].first << ","
            << c.reqs[1].second << ")";
    }
}

TEST(Allocator, PortLevelAllocatorsRotateAnInputsVcsOnOneOutput) {
  // Input 0's VCs 1, 2 and 3 all want output 0 (VC 0 is idle); nobody else
  // requests. The VC pointer starts at 0 and moves one past the VC sent:
  // VC 1, 2, 3, then 1 again.
  for (const char* name : {"separable_input_first", "separable_output_first", "wavefront"}) {
    auto a = make_allocator(name, 2, 4, 2);
    for (int want : {1, 2, 3, 1, 2}) {
      a->clear();
      for (int v = 1; v < 4; ++v) a->add_request(0, v, 0, 0);
      a->allocate();
      EXPECT_EQ(a->grant_vc(0), want) << name;
    }
  }
}

TEST(Allocator, SeparableInputFirstIsFairUnderPersistentContention) {
  ExpectFairUnderPersistentContention("separable_input_first");
}

TEST(Allocator, SeparableOutputFirstIsFairUnderPersistentContention) {
  ExpectFairUnderPersistentContention("separable_output_first");
}

// The wavefront's outcome, characterized without replaying it: cell (i, o) is
// reached in wave step (i + o - pri) mod n, n = max(inputs, outputs). The
// grants form a maximal matching in which every request that lost shares its
// row or column with a granted cell of an earlier step. (Cells of one row or
// one column are reached in different steps, so the greedy matching in step
// order is the only one with this property.)
TEST(Allocator, WavefrontGrantsTheGreedyMatchingInWaveOrder) {
  for (Shape s : kShapes) {
    WavefrontAllocator a(s.inputs, s.vcs, s.outputs);
    const int n = std::max(s.inputs, s.outputs);
    int pri = 0;
    std::vector<int> vp(s.inputs, 0);
    RunTraffic(a, s, 73, 3000, [&](const HeadOfLineTraffic& t, const Grants& g) {
      const Requests& req = t.requests();
      ASSERT_TRUE(IsMatching(req, g, s.outputs)) << Label(s);
      ASSERT_TRUE(IsMaximal(req, g, s.outputs)) << Label(s);
      auto step = [&](int i, int o) { return ((i + o - pri) % n + n) % n; };
      std::vector<int> owner(s.outputs, -1);
      std::vector<int> in_m(s.inputs, -1);
      for (int i = 0; i < s.inputs; ++i)
        if (g[i].output >= 0) owner[g[i].output] = i, in_m[i] = g[i].output;
      for (int i = 0; i < s.inputs; ++i)
        for (int o : req[i]) {
          if (o < 0 || g[i].output == o) continue;
          const bool row = g[i].output >= 0 && step(i, g[i].output) < step(i, o);
          const bool col = owner[o] >= 0 && step(owner[o], o) < step(i, o);
          ASSERT_TRUE(row || col) << Label(s) << ": input " << i << " -> output " << o << " (step "
                                  << step(i, o) << ") lost to no earlier cell";
        }
      const Grants want = ReferencePortSeparable::choose_vcs(req, in_m, vp, s.vcs);
      for (int i = 0; i < s.inputs; ++i) ASSERT_EQ(g[i].vc, want[i].vc) << Label(s) << " input " << i;
      if (AnyRequest(req)) pri = (pri + 1) % n;
      ASSERT_EQ(a.priority_diagonal(), pri) << Label(s);
    });
  }
}

TEST(Allocator, WavefrontRotatesItsPriorityDiagonalEachRound) {
  // 3x3, one request per (input, output), VC = output. Input 0 wants outputs
  // 0 and 1, input 1 output 0, input 2 output 1. Cell (i, o) is reached in
  // step (i + o - pri) mod 3.
  //   pri 0: step 0 holds (0,0), (2,1), (1,2): grants 0->0 and 2->1; (1,0)
  //          in step 1 finds output 0 taken. {0->0, 2->1}.
  //   pri 1: step 0 holds (1,0), (0,1), (2,2): grants 1->0 and 0->1; (2,1)
  //          in step 2 finds output 1 taken. {0->1, 1->0}.
  //   pri 2: step 0 holds (2,0), (1,1), (0,2): none requested; step 1 holds
  //          (0,0), (2,1), (1,2): as for pri 0. {0->0, 2->1}.
  // A round without requests leaves the diagonal where it is (BookSim).
  WavefrontAllocator a(3, 3, 3);
  const std::vector<std::vector<int>> want = {{0, -1, 1}, {1, 0, -1}, {0, -1, 1}};
  for (int round = 0; round < 3; ++round) {
    EXPECT_EQ(a.priority_diagonal(), round);
    a.clear();
    a.allocate();  // an empty round first: no wave
    EXPECT_EQ(a.priority_diagonal(), round) << "a round without requests moved the priority diagonal";
    a.clear();
    a.add_request(0, 0, 0, 0);
    a.add_request(0, 1, 1, 0);
    a.add_request(1, 0, 0, 0);
    a.add_request(2, 1, 1, 0);
    a.allocate();
    for (int i = 0; i < 3; ++i)
      EXPECT_EQ(a.grant_output(i), want[round][i]) << "pri " << round << " input " << i;
  }
  EXPECT_EQ(a.priority_diagonal(), 0);
}

TEST(Allocator, WavefrontSharesAnOutputEvenlyOnlyUnderFullContention) {
  // Every input wants output 0 (all VCs): input i wins the round whose wave
  // starts on its row, (pri - 0) mod n == i, so each wins once per n rounds.
  for (int n : {2, 3, 5}) {
    WavefrontAllocator a(n, 2, n);
    std::vector<int> wins(n, 0);
    for (int round = 0; round < 4 * n; ++round) {
      a.clear();
      for (int i = 0; i < n; ++i)
        for (int v = 0; v < 2; ++v) a.add_request(i, v, 0, 0);
      a.allocate();
      for (int i = 0; i < n; ++i) wins[i] += a.grant_output(i) == 0;
      EXPECT_EQ(a.grant_output(round % n), 0) << n << " inputs, round " << round;
    }
    for (int i = 0; i < n; ++i) EXPECT_EQ(wins[i], 4) << n << " inputs, input " << i;
  }
  // Inputs 1 and 2 of three want output 0; row 0 is idle. Waves start on rows
  // 0, 1, 2 in turn, and the one starting on idle row 0 reaches input 1 first:
  // input 1 wins 2 rounds of 3, input 2 one. Neither starves (each wins at
  // least once every n rounds), but the share is not even.
  WavefrontAllocator a(3, 1, 3);
  std::vector<int> wins(3, 0);
  for (int round = 0; round < 30; ++round) {
    a.clear();
    a.add_request(1, 0, 0, 0);
    a.add_request(2, 0, 0, 0);
    a.allocate();
    for (int i = 0; i < 3; ++i) wins[i] += a.grant_output(i) == 0;
  }
  EXPECT_EQ(wins, (std::vector<int>{0, 20, 10}));
}

TEST(Allocator, IslipIterationsGivenToTheFactoryChangeTheMatching) {
  // 3 inputs x 3 outputs, every input wants every output (VC v -> output v),
  // fresh pointers. Iteration 1: all outputs grant input 0 (first at pointer
  // 0), which accepts output 0. Iteration 2: outputs 1 and 2 grant input 1,
  // which accepts output 1. Iteration 3: output 2 grants input 2.
  // So 1, 2 and 3 iterations match 1, 2 and 3 pairs.
  for (int iterations : {1, 2, 3}) {
    auto a = make_allocator("islip", 3, 3, 3, false, iterations);
    for (int i = 0; i < 3; ++i)
      for (int v = 0; v < 3; ++v) a->add_request(i, v, v, 0);
    a->allocate();
    const std::vector<int> want = {0, iterations >= 2 ? 1 : -1, iterations >= 3 ? 2 : -1};
    for (int i = 0; i < 3; ++i)
      EXPECT_EQ(a->grant_output(i), want[i]) << iterations << " iterations, input " << i;
  }
}

TEST(Allocator, NoHeapAllocationOnTheAllocationPath) {
  const Shape s{16, 8, 16};
  std::mt19937 rng(5);
  std::vector<int> outs(std::size_t(s.inputs * s.vcs) * 200);
  for (int& o : outs) o = int(rng() % (s.outputs + 1)) - 1;  // -1 = VC idle
  for (const std::string& name : allocator_names()) {
    auto a = make_allocator(name, s.inputs, s.vcs, s.outputs);
    g_heap_allocs = 0;
    g_count_heap = true;
    for (std::size_t k = 0; k < outs.size(); k += std::size_t(s.inputs * s.vcs)) {
      a->clear();
      for (int i = 0; i < s.inputs; ++i)
        for (int v = 0; v < s.vcs; ++v)
          if (int o = outs[k + std::size_t(i * s.vcs + v)]; o >= 0) a->add_request(i, v, o, k);
      a->allocate();
      for (int i = 0; i < s.inputs; ++i) (void)(a->grant_vc(i) + a->grant_output(i));
    }
    g_count_heap = false;
    EXPECT_EQ(g_heap_allocs, 0u) << name << " allocated on the heap during clear/add_request/allocate";
  }
}

}  // namespace
}  // namespace kairo::router

namespace kairo::router {
namespace {

// The router takes a shortcut for rounds with a single request; it must be
// indistinguishable from a full round, now and in every later round.
TEST(Allocator, SingleRequestShortcutMatchesAFullRound) {
  for (const auto& name : allocator_names()) {
    for (auto [inputs, vcs, outputs] : {std::tuple{5, 4, 5}, std::tuple{14, 4, 14}, std::tuple{3, 2, 7}}) {
      auto shortcut = make_allocator(name, inputs, vcs, outputs);
      auto full = make_allocator(name, inputs, vcs, outputs);
      std::mt19937 rng(42);
      for (int round = 0; round < 5000; ++round) {
        const bool single = rng() % 2 == 0;
        shortcut->clear();
        full->clear();
        if (single) {
          int i = int(rng() % inputs), v = int(rng() % vcs), o = int(rng() % outputs);
          shortcut->allocate_single(i, v, o, round);
          full->add_request(i, v, o, round);
          full->allocate();
        } else {
          for (int i = 0; i < inputs; ++i)
            for (int v = 0; v < vcs; ++v)
              if (rng() % 3 == 0) {
                int o = int(rng() % outputs);
                std::uint64_t age = rng() % 100;
                shortcut->add_request(i, v, o, age);
                full->add_request(i, v, o, age);
              }
          shortcut->allocate();
          full->allocate();
        }
        for (int i = 0; i < inputs; ++i) {
          ASSERT_EQ(shortcut->grant_vc(i), full->grant_vc(i)) << name << " round " << round << " input " << i;
          ASSERT_EQ(shortcut->grant_output(i), full->grant_output(i)) << name << " round " << round;
        }
      }
    }
  }
}

}  // namespace
}  // namespace kairo::router
