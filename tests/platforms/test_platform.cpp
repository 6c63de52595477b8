// Platform files: the shipped machines load with the shapes and router
// numbers they document; bad files and bad --set overrides are rejected with
// a message naming the file (and line), the key and what was expected.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "hw/router/allocator.h"
#include "platforms/platform.h"
#include "tests/test_support.h"

namespace kairo::platforms {
namespace {

// The ConfigError message, or a test failure if the platform was accepted.
std::string error_of(const std::string& yaml, const std::vector<std::string>& sets = {}) {
  try {
    parse_platform(yaml, "bad.yaml", sets);
  } catch (const ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "platform was accepted:\n" << yaml;
  return "";
}

std::string load_error(const std::string& name, const std::vector<std::string>& sets) {
  try {
    load_platform(name, sets);
  } catch (const ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << name << " was accepted with the --set overrides";
  return "";
}

void expect_contains(const std::string& msg, const std::vector<std::string>& parts) {
  for (const std::string& p : parts)
    EXPECT_NE(msg.find(p), std::string::npos) << "message: " << msg << "\nshould contain: " << p;
}

std::uint64_t nodes_of(const Platform& p) {
  std::uint64_t n = 1;
  for (const auto& d : p.dims) n *= std::uint64_t(d.size);
  return n;
}

// A valid 2D mesh; tests append router keys. The router block starts on line 8.
const std::string kMesh =
    "name: test-mesh\n"                        // 1
    "description: a 4x4 mesh for tests\n"      // 2
    "topology:\n"                              // 3
    "  dims:\n"                                // 4
    "    - {name: X, size: 4, wrap: false}\n"  // 5
    "    - {name: Y, size: 4, wrap: false}\n"  // 6
    "router:\n";                               // 7
const std::string kTorus =
    "name: test-torus\n"
    "topology:\n"
    "  dims:\n"
    "    - {name: X, size: 8, wrap: true}\n"
    "    - {name: Y, size: 8, wrap: true}\n"
    "router:\n";

struct Shape {
  std::vector<int> sizes;
  std::vector<bool> wraps;
};

// The documented shapes (docs/parameters.md).
const std::map<std::string, Shape>& documented() {
  static const std::map<std::string, Shape> m = {
      {"mesh-8x8", {{8, 8}, {false, false}}},
      {"torus-8x8", {{8, 8}, {true, true}}},
      {"mesh-16x16", {{16, 16}, {false, false}}},
      {"mesh-10x10x10", {{10, 10, 10}, {false, false, false}}},
      {"torus-10x10x10", {{10, 10, 10}, {true, true, true}}},
      {"tofu-small", {{2, 2, 2, 2, 3, 2}, {true, true, true, false, true, false}}},
      {"tofud-rack", {{4, 2, 4, 2, 3, 2}, {false, false, false, false, true, false}}},
      {"tofu-k", {{24, 18, 16, 2, 3, 2}, {true, false, true, false, true, false}}},
  };
  return m;
}

TEST(Platform, ShippedPlatformsAreListedInDocumentedOrder) {
  std::vector<std::string> names;
  for (const auto& p : shipped_platforms()) names.push_back(p.name);
  std::vector<std::string> expected = {"mesh-8x8",       "torus-8x8",  "mesh-16x16", "mesh-10x10x10",
                                       "torus-10x10x10", "tofu-small", "tofud-rack", "tofu-k"};
  ASSERT_GE(names.size(), expected.size());
  EXPECT_EQ(std::vector<std::string>(names.begin(), names.begin() + long(expected.size())), expected);
}

TEST(Platform, ShippedFilesAreNamedAfterTheirPlatformAndEmbeddedVerbatim) {
  for (const auto& p : shipped_platforms()) {
    EXPECT_EQ(p.file, "platforms/" + p.name + ".yaml");
    std::string on_disk = test::read_file(std::string(KAIRO_SOURCE_DIR) + "/" + p.file);
    EXPECT_EQ(p.yaml, on_disk) << p.file << " changed since the build embedded it";
  }
}

TEST(Platform, EveryShippedPlatformLoadsWithItsDocumentedShape) {
  for (const auto& [name, shape] : documented()) {
    SCOPED_TRACE(name);
    Platform p = load_platform(name);
    EXPECT_EQ(p.name, name);
    EXPECT_EQ(p.source, "platforms/" + name + ".yaml");
    EXPECT_FALSE(p.description.empty());
    ASSERT_EQ(p.dims.size(), shape.sizes.size());
    std::uint64_t expected_nodes = 1;
    for (std::size_t d = 0; d < shape.sizes.size(); ++d) {
      EXPECT_EQ(p.dims[d].size, shape.sizes[d]);
      EXPECT_EQ(p.dims[d].wrap, shape.wraps[d]) << p.dims[d].name;
      expected_nodes *= std::uint64_t(shape.sizes[d]);
    }
    EXPECT_EQ(nodes_of(p), expected_nodes);
    EXPECT_EQ(p.router.cable_ps.size(), p.dims.size());
    EXPECT_EQ(p.router.routing_order.size(), p.dims.size());
  }
}

TEST(Platform, TofuKIsTheFullKComputer) {
  Platform p = load_platform("tofu-k");
  EXPECT_EQ(nodes_of(p), 82944u);
  std::string names;
  for (const auto& d : p.dims) names += d.name;
  EXPECT_EQ(names, "XYZABC");
}

TEST(Platform, BookSimComparableRoutersMoveOneFlitPerCycle) {
  for (const char* name : {"mesh-8x8", "torus-8x8", "mesh-16x16", "mesh-10x10x10", "torus-10x10x10"}) {
    SCOPED_TRACE(name);
    const RouterParams r = load_platform(name).router;
    EXPECT_EQ(r.clock_period_ps(), 1000u);  // 1GHz
    EXPECT_EQ(r.flit_bytes, 32);
    EXPECT_EQ(r.flit_ps(), 32u * 1000 * 1000 / 32000);  // 32B at 32GB/s = 1ns
    EXPECT_DOUBLE_EQ(r.link_flits_per_cycle(), 1.0);
    EXPECT_EQ(r.vcs, 4);
    EXPECT_EQ(r.vc_buffer_flits, 8);
    EXPECT_EQ(r.max_packet_flits, 8);
    EXPECT_EQ(r.routing_cycles + r.vc_alloc_cycles + r.sw_alloc_cycles + r.switch_traversal_cycles, 4);
    for (sim::Time c : r.cable_ps) EXPECT_EQ(c, 1000u);
    EXPECT_EQ(r.host_latency_ps, 1000u);
    EXPECT_EQ(r.credit_delay_cycles, 1);
    EXPECT_EQ(r.network_interfaces, 1);
    EXPECT_EQ(r.allocator, "round_robin");
    EXPECT_EQ(r.islip_iterations, 2);
    for (std::size_t d = 0; d < r.routing_order.size(); ++d) EXPECT_EQ(r.routing_order[d], int(d));
  }
}

TEST(Platform, TofuRouterTakesTwoCyclesPerFlit) {
  for (const char* name : {"tofu-small", "tofu-k"}) {
    SCOPED_TRACE(name);
    const RouterParams r = load_platform(name).router;
    EXPECT_EQ(r.clock_period_ps(), 3200u);  // 1e12 / 312.5e6
    EXPECT_EQ(r.flit_ps(), 6400u);          // 32B / 5GB/s = 6.4ns
    EXPECT_EQ(r.flit_ps(), 2 * r.clock_period_ps());
    EXPECT_DOUBLE_EQ(r.link_flits_per_cycle(), 0.5);
    EXPECT_EQ(r.host_flit_ps(), r.flit_ps());  // no host_bandwidth: same as a link
    EXPECT_EQ(r.vcs, 4);
    EXPECT_EQ(r.vc_buffer_flits, 128);  // two packet slots: bubble flow control (docs/calibration.md)
    EXPECT_EQ(r.max_packet_flits, 64);
    EXPECT_TRUE(r.bubble());
    EXPECT_EQ(r.network_interfaces, 4);
    EXPECT_EQ(r.routing_order, (std::vector<int>{0, 1, 2, 3, 5, 4}));  // X Y Z A C B
    EXPECT_EQ(r.cable_ps, (std::vector<sim::Time>{10000, 10000, 10000, 2000, 2000, 2000}));
    EXPECT_EQ(r.host_latency_ps, 0u);
  }
}

TEST(Platform, OmittedRouterKeysTakeTheDocumentedDefaults) {
  Platform p = parse_platform(kMesh, "mini.yaml");
  const RouterParams d;
  EXPECT_EQ(p.router.vcs, d.vcs);
  EXPECT_EQ(p.router.vc_buffer_flits, d.vc_buffer_flits);
  EXPECT_EQ(p.router.flit_bytes, d.flit_bytes);
  EXPECT_EQ(p.router.link_bytes_per_s, d.link_bytes_per_s);
  EXPECT_EQ(p.router.clock_hz, d.clock_hz);
  EXPECT_EQ(p.router.allocator, d.allocator);
  EXPECT_EQ(p.router.watchdog_cycles, d.watchdog_cycles);
  EXPECT_EQ(p.router.cable_ps, (std::vector<sim::Time>{5000, 5000}));  // documented default 5ns
  EXPECT_EQ(p.router.routing_order, (std::vector<int>{0, 1}));
  EXPECT_EQ(p.router.host_flit_ps(), p.router.flit_ps());
  // And the parameter table agrees with RouterParams{}.
  std::map<std::string, std::string> deflt;
  for (const ParamInfo& i : param_table()) deflt[i.key] = i.deflt;
  EXPECT_EQ(deflt["router.vcs"], std::to_string(d.vcs));
  EXPECT_EQ(deflt["router.vc_buffer_flits"], std::to_string(d.vc_buffer_flits));
  EXPECT_EQ(deflt["router.link_bandwidth"], "5GB/s");
  EXPECT_EQ(deflt["router.clock"], "312.5MHz");
  EXPECT_EQ(deflt["router.cable_latency"], "5ns");
}

TEST(Platform, RouterKeysSetTheirParameters) {
  Platform p =
      parse_platform(kMesh +
                         "  vcs: 6\n  vc_buffer_flits: 20\n  max_packet_flits: 10\n  flit_size: 16B\n"
                         "  link_bandwidth: 10GB/s\n  host_bandwidth: 2GB/s\n  clock: 3GHz\n"
                         "  cable_latency: {X: 0.6ns, Y: 2ns}\n  host_latency: 7ns\n"
                         "  routing_order: [Y, X]\n  tie_break: minus\n  allocator: islip\n"
                         "  islip_iterations: 3\n"
                         "  network_interfaces: 2\n  watchdog_cycles: 5000\n  credit_delay_cycles: 0\n",
                     "full.yaml");
  const RouterParams& r = p.router;
  EXPECT_EQ(r.vcs, 6);
  EXPECT_EQ(r.flit_bytes, 16);
  EXPECT_EQ(r.clock_period_ps(), 333u);  // 1e12 / 3e9 = 333.33 -> 333
  EXPECT_EQ(r.flit_ps(), 1600u);         // 16B / 10GB/s
  EXPECT_EQ(r.host_flit_ps(), 8000u);    // 16B / 2GB/s
  EXPECT_DOUBLE_EQ(r.link_flits_per_cycle(), 10e9 / 16 / 3e9);
  EXPECT_EQ(r.cable_ps, (std::vector<sim::Time>{600, 2000}));
  EXPECT_EQ(r.host_latency_ps, 7000u);
  EXPECT_EQ(r.routing_order, (std::vector<int>{1, 0}));
  EXPECT_EQ(r.tie_break, router::TieBreak::kMinus);
  EXPECT_EQ(r.allocator, "islip");
  EXPECT_EQ(r.islip_iterations, 3);
  EXPECT_EQ(r.network_interfaces, 2);
  EXPECT_EQ(r.watchdog_cycles, 5000u);
  EXPECT_EQ(r.credit_delay_cycles, 0);
}

TEST(Platform, LoadsAFileByPath) {
  std::string path = test::write_file(test::temp_dir(), "mine.yaml", kMesh + "  vcs: 3\n");
  Platform p = load_platform(path);
  EXPECT_EQ(p.name, "test-mesh");
  EXPECT_EQ(p.source, path);
  EXPECT_EQ(p.router.vcs, 3);
  // Errors in it name the path.
  std::string bad = test::write_file(test::temp_dir(), "bad.yaml", kMesh + "  vcs: 0\n");
  expect_contains(load_error(bad, {}), {bad + ":8: router.vcs"});
}

TEST(Platform, UnknownPlatformNameSaysWhereToLook) {
  expect_contains(
      load_error("no-such-machine", {}),
      {"unknown platform 'no-such-machine'", "not a shipped platform", "kairo platforms", "no such file"});
}

TEST(Platform, MalformedYamlReportsFileAndLine) {
  std::string msg = error_of("name: x\ntopology:\n  dims: 1\n\tbad: 2\n");
  expect_contains(msg, {"bad.yaml:4:", "malformed YAML", "tab"});
}

TEST(Platform, UnknownKeyIsNamedWithTheValidOnes) {
  expect_contains(error_of(kMesh + "  vcs: 4\n  vc_count: 4\n"),
                  {"bad.yaml:9: router.vc_count: unknown key", "expected one of", "vc_buffer_flits"});
  expect_contains(error_of(kMesh + "  vcs: 4\nnics: {}\n"),
                  {"bad.yaml:9: nics: unknown key", "expected one of", "router, nic"});
  expect_contains(error_of("name: x\ntopology:\n  dims:\n    - {name: X, size: 4, warp: true}\n"),
                  {"bad.yaml:4: topology.dims[0].warp: unknown key", "name, size, wrap"});
}

TEST(Platform, ErrorsNameTheLineOfTheBadValue) {
  // vcs is on line 10 of this file.
  std::string yaml = kMesh + "  clock: 1GHz\n  vc_buffer_flits: 8\n  vcs: 0\n  max_packet_flits: 8\n";
  EXPECT_EQ(error_of(yaml),
            "bad.yaml:10: router.vcs: expected an integer between 1 and 16 (VCs per port), got 0");
  // An empty value is reported on its key's line, not the next one.
  expect_contains(error_of(kMesh + "  vcs:\n  max_packet_flits: 8\n"),
                  {"bad.yaml:8: router.vcs", "got nothing"});
}

TEST(Platform, VcBufferSmallerThanLargestPacketNamesTheFix) {
  std::string msg = error_of(kMesh + "  vc_buffer_flits: 4\n  max_packet_flits: 16\n");
  expect_contains(msg, {"bad.yaml:8: router.vc_buffer_flits", "expected at least", "16",
                        "under virtual cut-through a VC must hold the largest packet",
                        "raise router.vc_buffer_flits to at least 16 or lower router.max_packet_flits"});
}

TEST(Platform, ZeroBandwidthIsRejected) {
  expect_contains(error_of(kMesh + "  link_bandwidth: 0GB/s\n"),
                  {"bad.yaml:8: router.link_bandwidth", "expected a bandwidth > 0"});
  expect_contains(error_of(kMesh + "  host_bandwidth: 0B/s\n"),
                  {"bad.yaml:8: router.host_bandwidth", "expected a bandwidth > 0"});
}

TEST(Platform, RoutingOrderMustBeAPermutationOfTheDimensions) {
  for (const char* order : {"[X, X]", "[X]", "[X, Q]", "[X, Y, X]", "X"}) {
    SCOPED_TRACE(order);
    expect_contains(
        error_of(kMesh + "  routing_order: " + order + "\n"),
        {"bad.yaml:8: router.routing_order", "expected a permutation of the dimension names [X, Y]"});
  }
}

TEST(Platform, RingDimensionNeedsTwoDatelineVcClasses) {
  expect_contains(error_of(kTorus + "  vcs: 1\n"), {"bad.yaml:7: router.vcs", "expected an integer >= 2",
                                                    "dimension X is a ring", "dateline"});
  // A torus dimension of size 2 is no ring: one VC is enough.
  std::string two = "name: t\ntopology:\n  dims:\n    - {name: A, size: 2, wrap: true}\nrouter:\n  vcs: 1\n";
  EXPECT_EQ(parse_platform(two, "two.yaml").router.vcs, 1);
}

TEST(Platform, ImpossibleValuesAreRejectedWithWhatWasExpected) {
  struct Case {
    std::string router_lines, key, expected;
  };
  const std::vector<Case> cases = {
      {"  flit_size: 0B\n", "router.flit_size", "expected a size >= 1B"},
      {"  clock: 0MHz\n", "router.clock", "expected a frequency > 0"},
      {"  clock: 3000GHz\n", "router.clock", "period is at least 1ps"},  // 0.33ps rounds to 0
      {"  clock: fast\n", "router.clock", "expected a frequency such as"},
      {"  link_bandwidth: 5GB\n", "router.link_bandwidth", "expected a bandwidth such as"},
      {"  routing_cycles: -1\n", "router.routing_cycles", "expected an integer >= 0"},
      {"  sw_alloc_cycles: 1.5\n", "router.sw_alloc_cycles", "expected an integer >= 0"},
      {"  network_interfaces: 0\n", "router.network_interfaces", "expected an integer between 1 and 64"},
      {"  watchdog_cycles: 0\n", "router.watchdog_cycles", "expected an integer >= 1"},
      {"  watchdog_cycles: 99999999999999999999999\n", "router.watchdog_cycles", "expected an integer >= 1"},
      // 2^63 - 1 cycles of 1 ns pass 2^64 ps: the timeout would wrap and report a false deadlock.
      {"  clock: 1GHz\n  watchdog_cycles: 9223372036854775807\n", "router.watchdog_cycles",
       "expected at most 1000000000000000 cycles (1e18ps"},
      // Two stages of 2^31 - 1 cycles at 1 Hz: 4.3e21 ps for one hop.
      {"  clock: 1Hz\n  routing_cycles: 2147483647\n  switch_traversal_cycles: 2147483647\n",
       "router.routing_cycles", "expected a pipeline of at most 1e17ps"},
      {"  vcs: 99999999999\n", "router.vcs", "expected an integer between 1 and 16"},
      {"  max_packet_flits: 0\n", "router.max_packet_flits", "expected an integer between 1 and 65535"},
      {"  cable_latency: -1ns\n", "router.cable_latency", "expected a non-negative duration"},
      {"  cable_latency: {X: 1ns}\n", "router.cable_latency", "missing Y"},
      {"  cable_latency: {X: 1ns, Y: 1ns, W: 1ns}\n", "router.cable_latency.W", "unknown dimension"},
      {"  host_latency: 5\n", "router.host_latency", "expected a duration with a unit"},
      {"  tie_break: left\n", "router.tie_break", "expected one of balanced | random | plus | minus"},
      {"  allocator: fifo\n", "router.allocator", "expected one of round_robin | islip | oldest_first"},
      {"  islip_iterations: 0\n", "router.islip_iterations", "expected an integer >= 1"},
      {"  vcs: 2\n  vcs: 3\n", "router.vcs", "duplicate key"},
      {"  vcs:\n", "router.vcs", "got nothing"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.router_lines);
    expect_contains(error_of(kMesh + c.router_lines), {"bad.yaml:", c.key + ": ", c.expected});
  }
}

TEST(Platform, TopologyShapeIsValidated) {
  auto dims = [](const std::string& lines) { return "name: t\ntopology:\n  dims:\n" + lines; };
  expect_contains(error_of(dims("    - {name: X, size: 0}\n")),
                  {"bad.yaml:4: topology.dims.X.size", "expected an integer >= 1"});
  expect_contains(error_of(dims("    - {name: X, size: 2}\n    - {name: x, size: 2}\n")),
                  {"bad.yaml:5: topology.dims[1].name", "not used by another dimension"});
  expect_contains(error_of(dims("    - {size: 2}\n")), {"topology.dims[0].name", "required key missing"});
  expect_contains(error_of(dims("    - {name: X1, size: 2}\n")),
                  {"topology.dims[0].name", "made of letters"});
  expect_contains(error_of(dims("    - {name: X, size: 2, wrap: maybe}\n")),
                  {"topology.dims.X.wrap", "expected true or false"});
  std::string seven;
  for (const char* n : {"A", "B", "C", "D", "E", "F", "G"})
    seven += std::string("    - {name: ") + n + ", size: 2}\n";
  expect_contains(error_of(dims(seven)), {"bad.yaml:4: topology.dims", "1 to 6 dimensions", "got 7"});
  expect_contains(error_of("name: t\ntopology:\n  dims: []\n"),
                  {"bad.yaml:3: topology.dims", "got 0 dimensions"});
  expect_contains(error_of("name: t\n"), {"bad.yaml: topology: required key missing"});
  expect_contains(error_of("topology:\n  dims:\n    - {name: X, size: 2}\n"),
                  {"bad.yaml: name: required key missing"});
  expect_contains(error_of(""), {"bad.yaml: expected a platform", "empty document"});
  expect_contains(error_of(dims("    - {name: X, size: 65536}\n    - {name: Y, size: 65536}\n")),
                  {"topology.dims.Y.size", "at most 4294967295 nodes"});
}

TEST(Platform, SetOverridesAreAppliedBeforeValidation) {
  Platform p =
      load_platform("mesh-8x8", {"router.vcs=2", "topology.dims.X.size=4", "router.cable_latency.X=3ns"});
  EXPECT_EQ(p.router.vcs, 2);
  EXPECT_EQ(p.dims[0].size, 4);
  EXPECT_EQ(p.dims[1].size, 8);
  EXPECT_EQ(nodes_of(p), 4u * 8);
  EXPECT_EQ(p.router.cable_ps, (std::vector<sim::Time>{3000, 1000}));  // Y keeps the file's 1ns
  // Later --set wins; lists and maps are YAML; dimension names are case-insensitive.
  Platform q =
      load_platform("tofu-small", {"router.vcs=6", "router.vcs=8", "router.routing_order=[C, B, A, Z, Y, X]",
                                   "router.cable_latency.b=7ns", "topology.dims.Y.wrap=false", "name=my-tofu",
                                   "description=x: y"});
  EXPECT_EQ(q.router.vcs, 8);
  EXPECT_EQ(q.router.routing_order, (std::vector<int>{5, 4, 3, 2, 1, 0}));
  EXPECT_EQ(q.router.cable_ps, (std::vector<sim::Time>{10000, 10000, 10000, 2000, 7000, 2000}));
  EXPECT_FALSE(q.dims[1].wrap);
  EXPECT_EQ(q.name, "my-tofu");
  EXPECT_EQ(q.description, "x: y");
  // A file without cable_latency: the other dimensions keep the default.
  Platform m = parse_platform(kMesh, "mini.yaml", {"router.cable_latency.Y=1ns"});
  EXPECT_EQ(m.router.cable_ps, (std::vector<sim::Time>{5000, 1000}));
}

TEST(Platform, SetToAnUnknownKeyListsTheValidPatterns) {
  expect_contains(load_error("mesh-8x8", {"router.vc_count=2"}),
                  {"platforms/mesh-8x8.yaml", "--set router.vc_count=2", "unknown key 'router.vc_count'",
                   "expected one of", "router.<key>", "vc_buffer_flits", "router.cable_latency.<DIM>",
                   "topology.dims.<DIM>.size"});
  expect_contains(load_error("mesh-8x8", {"topology.dims.W.size=4"}),
                  {"platforms/mesh-8x8.yaml", "--set topology.dims.W.size=4", "unknown dimension 'W'",
                   "expected one of: X, Y"});
  expect_contains(load_error("mesh-8x8", {"router.vcs"}),
                  {"platforms/mesh-8x8.yaml", "--set router.vcs", "expected key=value"});
}

TEST(Platform, SetValueIsValidatedLikeAFileValue) {
  EXPECT_EQ(load_error("mesh-8x8", {"router.vcs=0"}),
            "platforms/mesh-8x8.yaml: --set router.vcs=0: router.vcs: expected an integer between 1 and 16 "
            "(VCs per "
            "port), got 0");
  expect_contains(load_error("torus-8x8", {"router.vcs=1"}),
                  {"platforms/torus-8x8.yaml", "--set router.vcs=1: router.vcs", "expected an integer >= 2"});
  expect_contains(load_error("mesh-8x8", {"router.max_packet_flits=16"}),
                  {"platforms/mesh-8x8.yaml", "--set router.max_packet_flits=16", "router.vc_buffer_flits",
                   "raise router.vc_buffer_flits to at least 16"});
  expect_contains(load_error("mesh-8x8", {"router.cable_latency.X=3 parsecs"}),
                  {"platforms/mesh-8x8.yaml", "--set router.cable_latency.X=3 parsecs",
                   "router.cable_latency.X", "expected a duration"});
  expect_contains(load_error("mesh-8x8", {"topology.dims.Y.size=zero"}),
                  {"platforms/mesh-8x8.yaml", "--set topology.dims.Y.size=zero", "topology.dims.Y.size",
                   "expected an integer >= 1"});
  expect_contains(load_error("mesh-8x8", {"router.routing_order=[X"}),
                  {"platforms/mesh-8x8.yaml", "--set router.routing_order=[X", "malformed"});
  expect_contains(
      load_error("mesh-8x8", {"router.link_bandwidth=0GB/s"}),
      {"platforms/mesh-8x8.yaml", "--set router.link_bandwidth=0GB/s", "expected a bandwidth > 0"});
}

TEST(Platform, SetOnOneDimensionKeepsFileLinesForTheOthers) {
  // cable_latency on line 8 is broken; overriding X leaves Y with the file's value.
  expect_contains(error_of(kMesh + "  cable_latency: 5parsecs\n", {"router.cable_latency.X=3ns"}),
                  {"bad.yaml:8: router.cable_latency.Y", "unknown unit 'parsecs'"});
}

TEST(Platform, AcceptsExactlyTheRouterAllocatorNames) {
  std::vector<std::string> names = router::allocator_names();
  for (const std::string& rtl : router::rtl_allocator_names()) names.push_back(rtl);
  for (const std::string& name : names)
    EXPECT_EQ(load_platform("mesh-8x8", {"router.allocator=" + name}).router.allocator, name);
  std::string msg = load_error("mesh-8x8", {"router.allocator=fifo"});
  std::string listed;
  for (const std::string& name : names) listed += (listed.empty() ? "" : " | ") + name;
  expect_contains(msg, {"expected one of " + listed + ", got fifo"});
}

TEST(Platform, TofudRackIsOneRackOfTofuD) {
  Platform p = load_platform("tofud-rack");
  const std::vector<int> sizes = {4, 2, 4, 2, 3, 2};  // X Y Z A B C
  std::uint64_t nodes = 1;
  for (int s : sizes) nodes *= std::uint64_t(s);
  EXPECT_EQ(nodes, 384u);
  EXPECT_EQ(nodes_of(p), nodes);
  std::string names;
  for (const auto& d : p.dims) names += d.name;
  EXPECT_EQ(names, "XYZABC");
  const RouterParams& r = p.router;
  EXPECT_EQ(r.network_interfaces, 6);  // TNIs per node
  EXPECT_DOUBLE_EQ(r.clock_hz, 425e6);
  EXPECT_EQ(r.clock_period_ps(), 2353u);  // 1e12 / 425e6 = 2352.9
  EXPECT_DOUBLE_EQ(r.link_bytes_per_s, 6.8e9);
  EXPECT_EQ(r.flit_ps(), 4706u);  // 32B / 6.8GB/s = 4705.9ps
  EXPECT_EQ(r.flit_ps(), 2 * r.clock_period_ps());
  EXPECT_DOUBLE_EQ(r.link_flits_per_cycle(), 0.5);
  EXPECT_EQ(r.vcs, 4);
  EXPECT_EQ(r.vc_buffer_flits, 128);  // two packet slots: bubble flow control (docs/calibration.md)
  EXPECT_EQ(r.max_packet_flits, 64);
  EXPECT_TRUE(r.bubble());
  EXPECT_EQ(r.routing_order, (std::vector<int>{0, 1, 2, 3, 5, 4}));  // X Y Z A C B
  EXPECT_EQ(r.cable_ps, (std::vector<sim::Time>{10000, 10000, 10000, 2000, 2000, 2000}));
  EXPECT_EQ(r.host_latency_ps, 0u);
  EXPECT_TRUE(p.has_nic);
  EXPECT_EQ(p.nic.mtu_bytes, 1920u);
  // 1920 of every 2048 bytes: 93.75%, TofuD's published link efficiency of about 93%.
  EXPECT_EQ(p.nic.header_bytes, 128u);
  EXPECT_EQ(p.nic.max_packet_flits(r.flit_bytes), 64u);  // (128 + 1920) / 32
  EXPECT_EQ(p.nic.node_latency_ps, 400000u);  // assumed for TofuD's direct descriptors (docs/performance.md)
  EXPECT_DOUBLE_EQ(p.nic.dma_bytes_per_s * r.network_interfaces, 38.1e9) << "TofuD's injection rate per node";
  EXPECT_NO_THROW(check_nic_fits_router(p));
}

TEST(Platform, NicDefaultsWhenAbsent) {
  Platform p = parse_platform(kMesh, "mini.yaml");
  EXPECT_FALSE(p.has_nic);
  const NicParams& n = p.nic;
  EXPECT_EQ(n.node_latency_ps, 700000u);
  EXPECT_DOUBLE_EQ(n.dma_bytes_per_s, 2.8e9);
  EXPECT_EQ(n.mtu_bytes, std::min<std::uint32_t>(
                             1920u, std::uint32_t(p.router.max_packet_flits * p.router.flit_bytes) - 32u))
      << "the default 1920B, cut to the router's largest packet";
  EXPECT_EQ(n.header_bytes, 32u);
  EXPECT_EQ(n.max_descriptor_bytes, (std::uint64_t(16) << 20) - 1);
  EXPECT_EQ(n.command_queue_depth, 64u);
  EXPECT_EQ(n.completion_queue_depth, 256u);
  EXPECT_EQ(n.notice_queue_depth, 256u);
  EXPECT_EQ(n.registrations, 4096u);
  EXPECT_EQ(n.memory_bytes, std::uint64_t(32) << 30);
  EXPECT_EQ(n.memory_latency_ps, 0u);
  EXPECT_EQ(n.memory_bytes_per_s, 0.0);
  // An empty nic: section is the defaults too.
  Platform q = parse_platform(kMesh + "nic:\n", "mini.yaml");
  EXPECT_TRUE(q.has_nic);
  EXPECT_EQ(q.nic.mtu_bytes, 1920u);
  EXPECT_EQ(parse_platform(kMesh + "nic: {}\n", "mini.yaml").nic.registrations, 4096u);
  // The parameter table agrees with NicParams{}.
  std::map<std::string, std::string> deflt;
  for (const ParamInfo& i : param_table()) deflt[i.key] = i.deflt;
  EXPECT_EQ(deflt["nic.node_latency"], "700ns");
  EXPECT_EQ(deflt["nic.dma_bandwidth"], "2.8GB/s");
  EXPECT_EQ(deflt["nic.mtu"], "1920B");
  EXPECT_EQ(deflt["nic.header_size"], "32B");
  EXPECT_EQ(deflt["nic.max_descriptor_size"], "16777215B");
  EXPECT_EQ(deflt["nic.command_queue_depth"], "64");
  EXPECT_EQ(deflt["nic.completion_queue_depth"], "256");
  EXPECT_EQ(deflt["nic.notice_queue_depth"], "256");
  EXPECT_EQ(deflt["nic.registrations"], "4096");
  EXPECT_EQ(deflt["nic.memory_size"], "32GiB");
  EXPECT_EQ(deflt["nic.memory_latency"], "0ns");
  EXPECT_EQ(deflt["nic.memory_bandwidth"], "unlimited");
  // The shipped platforms without a nic: section take the defaults, the MTU
  // cut to the router's largest packet.
  for (const auto& sp : shipped_platforms()) {
    SCOPED_TRACE(sp.name);
    Platform s = load_platform(sp.name);
    if (s.has_nic) continue;
    const std::uint32_t room = std::uint32_t(s.router.max_packet_flits * s.router.flit_bytes) - 32u;
    EXPECT_EQ(s.nic.mtu_bytes, std::min(1920u, room));
    EXPECT_EQ(s.nic.dma_bytes_per_s, 2.8e9);
  }
}

TEST(Platform, NicKeysSetTheirFields) {
  Platform p =
      parse_platform(kMesh +
                         "  max_packet_flits: 16\n  vc_buffer_flits: 16\n  flit_size: 16B\n"
                         "nic:\n  node_latency: 0.6us\n  dma_bandwidth: 10GB/s\n  mtu: 240B\n"
                         "  header_size: 16B\n  max_descriptor_size: 1MiB\n  command_queue_depth: 8\n"
                         "  completion_queue_depth: 9\n  notice_queue_depth: 10\n  registrations: 11\n"
                         "  memory_size: 1GiB\n  memory_latency: 80ns\n  memory_bandwidth: 20GB/s\n",
                     "nic.yaml");
  const NicParams& n = p.nic;
  EXPECT_TRUE(p.has_nic);
  EXPECT_EQ(n.node_latency_ps, 600000u);
  EXPECT_DOUBLE_EQ(n.dma_bytes_per_s, 10e9);
  EXPECT_EQ(n.mtu_bytes, 240u);
  EXPECT_EQ(n.header_bytes, 16u);
  EXPECT_EQ(n.max_packet_flits(p.router.flit_bytes), 16u);  // (16 + 240) / 16: exactly the router's largest
  EXPECT_EQ(n.max_descriptor_bytes, 1u << 20);
  EXPECT_EQ(n.command_queue_depth, 8u);
  EXPECT_EQ(n.completion_queue_depth, 9u);
  EXPECT_EQ(n.notice_queue_depth, 10u);
  EXPECT_EQ(n.registrations, 11u);
  EXPECT_EQ(n.memory_bytes, std::uint64_t(1) << 30);
  EXPECT_EQ(n.memory_latency_ps, 80000u);
  EXPECT_DOUBLE_EQ(n.memory_bytes_per_s, 20e9);
}

TEST(Platform, SetOverridesNicKeys) {
  Platform p =
      load_platform("tofud-rack", {"nic.mtu=1024B", "nic.dma_bandwidth=5GB/s", "nic.registrations=16"});
  EXPECT_EQ(p.nic.mtu_bytes, 1024u);
  EXPECT_EQ(p.nic.header_bytes, 128u);  // the file's value stays
  EXPECT_DOUBLE_EQ(p.nic.dma_bytes_per_s, 5e9);
  EXPECT_EQ(p.nic.registrations, 16u);
  // A platform without a nic: section gets one.
  Platform m = load_platform("mesh-8x8", {"nic.mtu=224B"});
  EXPECT_TRUE(m.has_nic);
  EXPECT_EQ(m.nic.mtu_bytes, 224u);
  EXPECT_NO_THROW(check_nic_fits_router(m));
  // Errors name the --set.
  EXPECT_EQ(load_error("mesh-8x8", {"nic.command_queue_depth=0"}),
            "platforms/mesh-8x8.yaml: --set nic.command_queue_depth=0: nic.command_queue_depth: expected an "
            "integer >= 1 (command queue entries per TNI), got 0");
  expect_contains(load_error("mesh-8x8", {"nic.mtu=256B"}),
                  {"platforms/mesh-8x8.yaml: --set nic.mtu=256B: nic.mtu: expected at most 224B",
                   "router.max_packet_flits (8 flits of 32B)", "got 256B (32B header + 256B = 9 flits)",
                   "lower nic.mtu to at most 224B or raise router.max_packet_flits to at least 9"});
  // A router change that no longer fits the NIC is reported at that --set, for nic.mtu.
  expect_contains(
      load_error("tofud-rack", {"router.max_packet_flits=32"}),
      {"platforms/tofud-rack.yaml: --set router.max_packet_flits=32: nic.mtu: expected at most 896B",
       "raise router.max_packet_flits to at least 64"});
  expect_contains(load_error("mesh-8x8", {"nic.mtus=1KiB"}),
                  {"--set nic.mtus=1KiB", "unknown key 'nic.mtus'", "nic.<key>", "max_descriptor_size"});
}

TEST(Platform, NicErrorsNameFileLineKeyAndExpected) {
  // kMesh's router: section is empty (line 7): 32B flits, packets up to 64 flits. nic: is line 8.
  struct Case {
    std::string nic_lines, where, expected;
  };
  const std::vector<Case> cases = {
      {"  mtus: 1920B\n",
       "bad.yaml:9: nic.mtus: ", "unknown key; expected one of: node_latency, dma_bandwidth"},
      {"  dma_bandwidth: 0GB/s\n", "bad.yaml:9: nic.dma_bandwidth: ", "expected a bandwidth > 0"},
      {"  dma_bandwidth: fast\n", "bad.yaml:9: nic.dma_bandwidth: ", "expected a bandwidth such as"},
      {"  memory_bandwidth: 0B/s\n", "bad.yaml:9: nic.memory_bandwidth: ", "expected a bandwidth > 0"},
      {"  command_queue_depth: 0\n", "bad.yaml:9: nic.command_queue_depth: ", "expected an integer >= 1"},
      {"  completion_queue_depth: 0\n",
       "bad.yaml:9: nic.completion_queue_depth: ", "expected an integer >= 1"},
      {"  notice_queue_depth: -3\n", "bad.yaml:9: nic.notice_queue_depth: ", "expected an integer >= 1"},
      {"  registrations: 0\n", "bad.yaml:9: nic.registrations: ", "expected an integer >= 1"},
      {"  mtu: 0B\n", "bad.yaml:9: nic.mtu: ", "expected a size between 1B and 4294967295B"},
      {"  header_size: 0B\n", "bad.yaml:9: nic.header_size: ", "expected a size between 1B and 4294967295B"},
      {"  max_descriptor_size: 0B\n", "bad.yaml:9: nic.max_descriptor_size: ", "expected a size >= 1B"},
      {"  memory_size: 0GiB\n", "bad.yaml:9: nic.memory_size: ", "expected a size >= 1B"},
      {"  node_latency: -1ns\n", "bad.yaml:9: nic.node_latency: ", "expected a non-negative duration"},
      {"  memory_latency: 5\n", "bad.yaml:9: nic.memory_latency: ", "expected a duration with a unit"},
      {"  mtu: 1920B\n  mtu: 1KiB\n", "bad.yaml:10: nic.mtu: ", "duplicate key"},
      {"  mtu: 4KiB\n", "bad.yaml:9: nic.mtu: ",
       "expected at most 2016B so that a packet (nic.header_size + nic.mtu) fits router.max_packet_flits (64 "
       "flits of 32B), got 4096B (32B header + 4096B = 129 flits): lower nic.mtu to at most 2016B or raise "
       "router.max_packet_flits to at least 129"},
      {"  header_size: 4KiB\n", "bad.yaml:9: nic.mtu: ",
       "expected a size such that a packet (nic.header_size + nic.mtu) fits router.max_packet_flits (64 "
       "flits of "
       "32B), got 1920B (4096B header + 1920B = 188 flits): the header alone fills the packet; raise "
       "router.max_packet_flits to at least 188 or lower nic.header_size"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.nic_lines);
    expect_contains(error_of(kMesh + "nic:\n" + c.nic_lines), {c.where + c.expected});
  }
  expect_contains(error_of(kMesh + "nic: 5\n"),
                  {"bad.yaml:8: nic: expected a mapping of NIC parameters, got 5"});
}

TEST(Platform, WithoutANicSectionTheDefaultMtuIsCutToFitTheRouter) {
  // The BookSim-comparable routers carry 8-flit packets of 32B: a NIC on them
  // gets the default NIC with an MTU of 8 x 32B - the 32B header.
  Platform m = load_platform("mesh-8x8");
  EXPECT_FALSE(m.has_nic);
  EXPECT_EQ(m.nic.mtu_bytes, 8u * 32u - m.nic.header_bytes);
  EXPECT_NO_THROW(check_nic_fits_router(m));
  // An explicit nic: section keeps its MTU and is checked.
  expect_contains(error_of("name: t\ntopology:\n  dims:\n    - {name: X, size: 4}\nrouter:\n"
                           "  max_packet_flits: 8\n  vc_buffer_flits: 8\nnic: {}\n"),
                  {"bad.yaml:6: nic.mtu: expected at most 224B",
                   "lower nic.mtu to at most 224B or raise router.max_packet_flits to at least 61"});
}

TEST(Platform, DocsTableListsEveryParameterWithItsDefault) {
  std::string doc = test::read_file(std::string(KAIRO_SOURCE_DIR) + "/docs/parameters.md");
  ASSERT_FALSE(doc.empty()) << "docs/parameters.md is missing";
  for (const ParamInfo& p : param_table()) {
    std::string row = "| `" + p.key + "` | " + p.unit + " | " + p.deflt + " |";
    EXPECT_NE(doc.find(row), std::string::npos) << "docs/parameters.md lacks the row starting " << row;
  }
}

}  // namespace
}  // namespace kairo::platforms
