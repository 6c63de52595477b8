// The Verilated RTL switch allocator (hw/router/rtl/sep_alloc_rr.sv) against
// the C++ round-robin separable allocator it mirrors: the same random
// request sequences, cycle by cycle, must give the same grants, on several
// port and VC counts, including rounds of one request (the router's
// allocate_single shortcut in C++) and rounds with no request at all.
//
// SystemC builds its module tree once per process: every RTL allocator is
// made first, then the elaboration is completed (sc_start(0)), then all are
// driven.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <systemc>
#include <vector>

#include "hw/router/round_robin_allocator.h"
#include "hw/router/rtl/rtl_allocator.h"
#include "tests/test_support.h"

namespace kairo::router {
namespace {

struct Shape {
  int inputs, vcs, outputs;
};
const std::vector<Shape> kShapes = {{5, 4, 5}, {7, 2, 7}, {16, 8, 16}, {11, 4, 11}, {3, 1, 3}, {14, 6, 14}};

// Each RTL allocator is built inside a module of its own, as inside a router,
// so its SystemC objects (alloc, alloc_clk, ...) get distinct hierarchical
// names and the kernel has nothing to rename (no W505 warning).
struct RtlHolder : sc_core::sc_module {
  RtlHolder(sc_core::sc_module_name name, const Shape& s) : sc_core::sc_module(name) {
    rtl = std::make_unique<RtlSeparableAllocator>(s.inputs, s.vcs, s.outputs);
  }
  std::unique_ptr<RtlSeparableAllocator> rtl;
};

struct Pair {
  std::unique_ptr<RoundRobinAllocator> cpp;
  std::unique_ptr<RtlHolder> holder;
  RtlSeparableAllocator* rtl = nullptr;
};

class RtlAllocator : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    pairs_ = new std::vector<Pair>;
    for (const Shape& s : kShapes) {
      Pair p;
      p.cpp = std::make_unique<RoundRobinAllocator>(s.inputs, s.vcs, s.outputs);
      p.holder = std::make_unique<RtlHolder>(sc_core::sc_gen_unique_name("rtl"), s);
      p.rtl = p.holder->rtl.get();
      pairs_->push_back(std::move(p));
    }
    sc_core::sc_start(sc_core::SC_ZERO_TIME);  // end of elaboration: the RTL's ports are bound
  }
  static std::vector<Pair>* pairs_;
};
std::vector<Pair>* RtlAllocator::pairs_ = nullptr;

// Random rounds: each VC requests with probability `load`, a uniformly
// random output; one round in eight has exactly one request (the C++ side
// takes its allocate_single shortcut), one in sixteen none.
TEST_F(RtlAllocator, GrantsMatchTheCppAllocatorEveryCycleOnRandomRequests) {
  std::mt19937_64 rng(2026);
  for (std::size_t k = 0; k < kShapes.size(); ++k) {
    const Shape s = kShapes[k];
    Pair& p = (*pairs_)[k];
    const double load = 0.15 + 0.7 * double(k) / double(kShapes.size());
    std::bernoulli_distribution req(load);
    std::uniform_int_distribution<int> out(0, s.outputs - 1), in(0, s.inputs - 1), vc(0, s.vcs - 1);
    std::uint64_t grants = 0, contended = 0;
    for (int cycle = 0; cycle < 20000; ++cycle) {
      const int kind = int(rng() % 16);
      p.rtl->clear();
      if (kind == 0) {  // one request
        const int i = in(rng), v = vc(rng), o = out(rng);
        p.cpp->allocate_single(i, v, o, 0);
        p.rtl->add_request(i, v, o, 0);
      } else {
        p.cpp->clear();
        int n = 0;
        if (kind != 1)
          for (int i = 0; i < s.inputs; ++i)
            for (int v = 0; v < s.vcs; ++v)
              if (req(rng)) {
                const int o = out(rng);
                p.cpp->add_request(i, v, o, 0);
                p.rtl->add_request(i, v, o, 0);
                ++n;
              }
        p.cpp->allocate();
        contended += n > 1;
      }
      p.rtl->allocate();
      for (int i = 0; i < s.inputs; ++i) {
        ASSERT_EQ(p.rtl->grant_vc(i), p.cpp->grant_vc(i))
            << s.inputs << "x" << s.vcs << " cycle " << cycle << " input " << i;
        ASSERT_EQ(p.rtl->grant_output(i), p.cpp->grant_output(i))
            << s.inputs << "x" << s.vcs << " cycle " << cycle << " input " << i;
        grants += p.cpp->grant_vc(i) >= 0;
      }
    }
    EXPECT_EQ(p.rtl->rtl_cycles(), 20000u) << "one RTL clock per allocation";
    EXPECT_GT(contended, 10000u) << "most rounds had competing requests";
    EXPECT_GT(grants, 20000u);
  }
}

// Starvation freedom, as the pointers make it: with every VC of every input
// requesting output 0, the RTL grants the inputs in turn and each input's
// VCs in turn, exactly as the C++ arbiters do.
TEST_F(RtlAllocator, FullLoadOnOneOutputRotatesOverInputsAndVcs) {
  Pair& p = (*pairs_)[0];
  const Shape s = kShapes[0];
  for (int round = 0; round < s.inputs * s.vcs * 2; ++round) {
    p.cpp->clear();
    p.rtl->clear();
    for (int i = 0; i < s.inputs; ++i)
      for (int v = 0; v < s.vcs; ++v) {
        p.cpp->add_request(i, v, 0, 0);
        p.rtl->add_request(i, v, 0, 0);
      }
    p.cpp->allocate();
    p.rtl->allocate();
    int winner = -1;
    for (int i = 0; i < s.inputs; ++i)
      if (p.rtl->grant_vc(i) >= 0) winner = i;
    ASSERT_GE(winner, 0);
    EXPECT_EQ(p.rtl->grant_vc(winner), p.cpp->grant_vc(winner));
    EXPECT_EQ(p.cpp->grant_output(winner), 0);
  }
}

// Must-show 2: whole runs with the RTL allocator give exactly the C++
// allocator's results: every figure of the JSON but the run's own cost.
nlohmann::json run_json(std::vector<std::string> args, const std::string& allocator) {
  const std::string json = test::temp_dir() + "/run.json";
  args.insert(args.end(), {"--set", "router.allocator=" + allocator, "--json", json, "--quiet"});
  auto r = test::run_kairo(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json j =
      r.exit_code == 0 ? nlohmann::json::parse(test::read_file(json)) : nlohmann::json::object();
  for (const char* cost : {"wall_s", "elaborate_s", "peak_rss_mib", "events_per_s", "flit_hops_per_s",
                           "sim_cycles_per_s", "packet_hops_per_s", "runtime_bytes_per_rank"})
    j.erase(cost);
  j.erase("resolved");  // the configuration, which names the allocator
  return j;
}

// The same run with either allocator; returns the C++ one's JSON.
nlohmann::json expect_identical(const std::vector<std::string>& args) {
  auto cpp = run_json(args, "round_robin"), rtl = run_json(args, "rtl_separable_rr");
  EXPECT_EQ(rtl, cpp) << args[1];
  return cpp;
}

TEST(RtlAllocatorRuns, UniformTrafficOnThe8x8TorusIsIdenticalToTheCppAllocator) {
  auto j = expect_identical({"traffic", "torus-8x8", "--pattern", "uniform", "--rate", "0.35",
                             "--packet-flits", "4", "--seed", "3"});
  EXPECT_GT(j["measured_packets"].get<double>(), 10000);
}

TEST(RtlAllocatorRuns, AlltoallOnTofuSmallIsIdenticalToTheCppAllocator) {
  auto j = expect_identical({"run", "tofu-small", "--workload", "alltoall", "--param", "algo=a2a", "--param",
                             "size=4KiB", "--mode", "size-only"});
  EXPECT_GT(j["completion_ns"].get<double>(), 0);
}

// A VCD of the model's signals and the RTL's: (time, value) changes per
// hierarchical name, read with a small parser of the format's value lines.
std::map<std::string, std::vector<std::pair<std::uint64_t, std::uint64_t>>> read_vcd(
    const std::string& path) {
  std::istringstream in(test::read_file(path));
  std::map<std::string, std::string> name_of;  // id -> name
  std::vector<std::string> scope;
  std::map<std::string, std::vector<std::pair<std::uint64_t, std::uint64_t>>> out;
  std::uint64_t t = 0;
  for (std::string tok; in >> tok;) {
    if (tok == "$scope") {
      std::string kind, name;
      in >> kind >> name;
      scope.push_back(name);
    } else if (tok == "$upscope") {
      scope.pop_back();
    } else if (tok == "$var") {
      std::string kind, width, id, name;
      in >> kind >> width >> id >> name;
      std::string full;
      for (const auto& s : scope) full += s + ".";
      name_of[id] = full + name;
    } else if (tok[0] == '#') {
      t = std::stoull(tok.substr(1));
    } else if (tok[0] == 'b') {
      std::string id;
      in >> id;
      out[name_of[id]].push_back({t, std::stoull(tok.substr(1), nullptr, 2)});
    } else if ((tok[0] == '0' || tok[0] == '1') && name_of.count(tok.substr(1))) {
      out[name_of[tok.substr(1)]].push_back({t, std::uint64_t(tok[0] - '0')});
    }
  }
  return out;
}

std::uint64_t value_at(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& changes, std::uint64_t t) {
  std::uint64_t v = 0;
  for (const auto& [at, x] : changes)
    if (at <= t) v = x;
  return v;
}

// Must-show 4: one router's waveform holds the RTL arbiter's wires next to
// the model's ports, and they agree: every grant the RTL gives (input i to
// output o at a clock pulse) is followed, within one packet time plus the
// switch traversal, by a new packet on output o's link.
TEST(RtlAllocatorRuns, WaveformShowsTheRtlGrantsNextToThePortsTheyDrive) {
  const std::string vcd = test::temp_dir() + "/rtl.vcd";
  auto r = test::run_kairo({"traffic", "torus-8x8", "--pattern", "uniform", "--rate", "0.3", "--packet-flits",
                            "4", "--seed", "1", "--set", "router.allocator=rtl_separable_rr", "--vcd", vcd,
                            "--trace-nodes", "9", "--trace-to", "3us", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto w = read_vcd(vcd);
  const std::string rtr = "rtr_x1y1.";
  ASSERT_TRUE(w.count(rtr + "alloc.clk")) << "the RTL's wires under the router";
  const auto& clk = w[rtr + "alloc.clk"];
  const char* ports[] = {"xp", "xm", "yp", "ym", "ni0"};  // output index order of a 2D router
  int grants = 0;
  for (const auto& [t, v] : clk) {
    if (v != 1) continue;
    const std::uint64_t valid = value_at(w[rtr + "alloc.grant_valid"], t),
                        out = value_at(w[rtr + "alloc.grant_out"], t);
    for (int i = 0; i < 5; ++i) {
      if (!((valid >> i) & 1)) continue;
      const int o = int((out >> (4 * i)) & 15);
      ASSERT_LT(o, 5);
      const auto& pkt = w[rtr + ports[o] + ".pkt"];
      bool started = false;
      for (const auto& [at, id] : pkt)
        started |= at >= t && at <= t + 6000 && id != 0;  // 1 + 4 flits of 1 ns
      EXPECT_TRUE(started) << "grant of input " << i << " to " << ports[o] << " at " << t << " ps";
      ++grants;
    }
  }
  EXPECT_GT(grants, 50);
  // waves/rtl_allocator.gtkw opens this very trace (waves/README.md gives
  // the command): every signal it names is in it.
  const std::string readme = test::read_file(std::string(KAIRO_SOURCE_DIR) + "/waves/README.md");
  EXPECT_NE(
      readme.find(
          "--pattern uniform --rate 0.3 --packet-flits 4 --seed 1 --set router.allocator=rtl_separable_rr "
          "--vcd waves/rtl.vcd --trace-nodes 9 --trace-to 3us"),
      std::string::npos);
  std::stringstream gtkw(test::read_file(std::string(KAIRO_SOURCE_DIR) + "/waves/rtl_allocator.gtkw"));
  int named = 0;
  for (std::string line; std::getline(gtkw, line);) {
    if (line.empty() || std::string("@[*-").find(line[0]) != std::string::npos) continue;
    const std::string name = line.substr(0, line.find('['));
    EXPECT_TRUE(w.count(name)) << "rtl_allocator.gtkw names " << name << ", which the trace lacks";
    ++named;
  }
  EXPECT_GE(named, 10);
}

// The generic allocator tests (tests/router/test_allocator.cpp) run without a
// SystemC kernel, so the RTL's own suite repeats the one the cycle-by-cycle
// comparison does not cover directly: clear() forgets requests and grants.
TEST_F(RtlAllocator, ClearForgetsRequestsAndGrants) {
  RtlSeparableAllocator& a = *(*pairs_)[4].rtl;  // 3 x 1 x 3
  a.clear();
  a.add_request(0, 0, 2, 0);
  a.add_request(2, 0, 2, 0);
  a.allocate();
  EXPECT_EQ(int(a.grant_output(0) >= 0) + int(a.grant_output(2) >= 0), 1);
  a.clear();
  EXPECT_EQ(a.grant_vc(0), -1);
  EXPECT_EQ(a.grant_vc(2), -1);
  a.allocate();
  for (int i = 0; i < 3; ++i) EXPECT_EQ(a.grant_output(i), -1) << "requests survived clear()";
  a.add_request(1, 0, 1, 0);
  a.allocate();
  EXPECT_EQ(a.grant_output(1), 1);
}

TEST(RtlAllocatorShape, RoutersLargerThanTheRtlAreRefusedWithTheLimit) {
  try {
    RtlSeparableAllocator a(17, 4, 17);
    FAIL() << "accepted 17 ports";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("1 to 16 ports"), std::string::npos) << e.what();
  }
  EXPECT_THROW(RtlSeparableAllocator(4, 9, 4), std::invalid_argument);
}

}  // namespace
}  // namespace kairo::router
