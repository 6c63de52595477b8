// kairo's error contract (docs/reliability.md), class by class, through the
// binary as a user meets it: exit 0 (done), 1 (the simulated hardware failed)
// or 2 (bad input, with a message naming the file, key, option or path), never
// a crash, a hang, a silent wrong answer or an output silently not written;
// and no partial output file left behind. The simulated hardware's own error
// completions are tested beside the NIC (test_tni.cpp), the workloads' host
// memory rule beside the workloads (test_workloads.cpp).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "sim/output_file.h"
#include "tests/test_support.h"

namespace kairo {
namespace {

using test::run_kairo;
namespace fs = std::filesystem;

bool exists(const std::string& p) {
  struct stat st {};
  return ::lstat(p.c_str(), &st) == 0;
}

// Exit 2 and every piece of `mention` in the message.
void expect_refused(const test::CommandResult& r, const std::vector<std::string>& mention) {
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("kairo: error: "), std::string::npos) << r.err;
  for (const auto& m : mention)
    EXPECT_NE(r.err.find(m), std::string::npos) << "missing '" << m << "' in: " << r.err;
}

// A path whose writes fail with "No space left on device", like a full disk.
std::string full_disk(const std::string& dir, const std::string& name) {
  const std::string p = dir + "/" + name;
  fs::create_symlink("/dev/full", p);
  return p;
}

// ---- 1. Memory errors: the tracer and counter log go before the machine
// (the sanitizer suite, tools/sanitize.sh, runs this under AddressSanitizer).
TEST(Errors, TracedRunEndsCleanlyAndWritesItsWaveform) {
  const auto dir = test::temp_dir();
  auto r = run_kairo({"run", "tofu-small", "--workload", "pingpong", "--trace-nodes", "0,1", "--vcd",
                      dir + "/put.vcd", "--counters", dir + "/c.kcl", "--quiet", "--json", dir + "/r.json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(test::read_file(dir + "/put.vcd").find("$enddefinitions"), std::string::npos);
  EXPECT_TRUE(exists(dir + "/c.kcl"));
}

// --partition matters only under mpirun, but a bad one is refused in one process too.
TEST(Errors, ABadPartitionMethodIsRefusedWithoutMpirun) {
  auto r = run_kairo({"traffic", "mesh-8x8", "--partition", "bogus", "--quiet"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--partition: expected auto, blocks or metis"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

// ---- 2. Output paths: checked before the run, every write checked.
TEST(Errors, AnOutputPathThatCannotBeWrittenIsRefusedBeforeTheRun) {
  const auto dir = test::temp_dir();
  const std::string file = test::write_file(dir, "a-file", "x");
  fs::create_directory(dir + "/a-dir.csv");
  for (const auto& [option, cmd] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"--json", {"run", "tofu-small", "--workload", "pingpong"}},
           {"--tni-counters", {"run", "tofu-small", "--workload", "pingpong"}},
           {"--vcd", {"run", "tofu-small", "--workload", "pingpong", "--trace-nodes", "0"}},
           {"--fst", {"traffic", "mesh-8x8", "--rate", "0.1", "--trace-nodes", "0"}},
           {"--counters", {"traffic", "mesh-8x8", "--rate", "0.1"}},
           {"--json", {"traffic", "mesh-8x8", "--rate", "0.1"}},
           {"--csv", {"traffic", "mesh-8x8", "--sweep", "0.1"}}}) {
    SCOPED_TRACE(option + " " + cmd[0]);
    for (const std::string& path : {file + "/x.csv", dir + "/no-such-dir/x.csv", dir + "/a-dir.csv"}) {
      auto args = cmd;
      args.insert(args.end(), {option, path, "--quiet"});
      auto r = run_kairo(args);
      expect_refused(r, {option, path});
      EXPECT_EQ(r.out, "") << "nothing ran";
    }
  }
  EXPECT_FALSE(exists(dir + "/no-such-dir")) << "kairo creates no directory";
}

TEST(Errors, ASummaryThatCannotBeWrittenGoesToStdoutWithExit2) {
  const auto dir = test::temp_dir();
  const std::string full = full_disk(dir, "full.json");
  auto r = run_kairo(
      {"traffic", "mesh-8x8", "--rate", "0.1", "--measure-cycles", "500", "--quiet", "--json", full});
  expect_refused(r, {"--json", full, "No space left on device", "stdout"});
  const auto j = nlohmann::json::parse(r.out);  // the result is not lost
  EXPECT_GT(j["packets_delivered"].get<std::uint64_t>(), 0u);

  r = run_kairo({"traffic", "mesh-8x8", "--sweep", "0.05,0.1", "--measure-cycles", "500", "--quiet", "--csv",
                 full_disk(dir, "full.csv")});
  expect_refused(r, {"--csv", "No space left on device"});
  EXPECT_EQ(r.out.rfind("rate,offered", 0), 0u) << "the table went to stdout: " << r.out;
}

TEST(Errors, AFileThatFailsDuringOrAfterTheRunIsReportedAndTheRestIsWritten) {
  const auto dir = test::temp_dir();
  for (const auto& [option, name] :
       std::vector<std::pair<std::string, std::string>>{{"--tni-counters", "t.csv"},
                                                        {"--fst", "w.fst"},
                                                        {"--vcd", "w.vcd"},
                                                        {"--counters", "c.kcl"},
                                                        {"--counters", "c.csv"}}) {
    SCOPED_TRACE(option);
    const std::string json = dir + "/" + name + ".json";
    std::vector<std::string> args = {"run",    "tofu-small", "--workload",        "alltoall",
                                     "--mode", "size-only",  "--quiet",           "--json",
                                     json,     option,       full_disk(dir, name)};
    if (option == "--fst" || option == "--vcd") args.insert(args.end(), {"--trace-nodes", "0,1"});
    if (option == "--counters") args.insert(args.end(), {"--interval", "100ns"});  // fails mid-run
    auto r = run_kairo(args);
    expect_refused(r, {option, name, "No space left on device"});
    const auto j = nlohmann::json::parse(test::read_file(json));  // the run's result is written
    EXPECT_EQ(j["status_ok"], true);
  }
}

// The writer itself, a write that fails part-way: tests/cli/test_outputs.cpp.

// ---- 4. Numbers that would wrap.
TEST(Errors, NegativeAndOverflowingCountsAreRefused) {
  expect_refused(run_kairo({"traffic", "mesh-8x8", "--rate", "0.1", "--measure-cycles", "-5"}),
                 {"--measure-cycles", "-5"});
  expect_refused(run_kairo({"traffic", "mesh-8x8", "--batch", "-1"}), {"--batch"});
  expect_refused(run_kairo({"run", "tofu-small", "--workload", "random-ring", "--seed", "-1"}), {"--seed"});
  // 2^63 cycles of 1 ns each pass 2^64 ps.
  expect_refused(
      run_kairo({"traffic", "mesh-8x8", "--rate", "0.1", "--warmup-cycles", "9223372036854775808"}),
      {"--warmup-cycles", "simulated time"});
  // 2^40 packets per node would pre-allocate petabytes.
  expect_refused(run_kairo({"traffic", "mesh-8x8", "--batch", "1099511627776"}), {"--batch", "GiB"});
}

TEST(Errors, NicRatesAndDurationsOutsideTheTimeTypeAreRefused) {
  // 16 MiB at 1e-6 B/s is 1.7e25 ps: more than 2^64.
  expect_refused(run_kairo({"check", "tofu-small", "--set", "nic.dma_bandwidth=0.000001B/s"}),
                 {"nic.dma_bandwidth", "1e17ps"});
  expect_refused(run_kairo({"check", "tofu-small", "--set", "nic.memory_bandwidth=0.000001B/s"}),
                 {"nic.memory_bandwidth"});
  expect_refused(run_kairo({"check", "tofu-small", "--set", "nic.node_latency=1000000s"}),
                 {"nic.node_latency"});
  // The largest legal values still run: 168 B/s moves 16 MiB within 1e17 ps.
  EXPECT_EQ(run_kairo({"check", "tofu-small", "--set", "nic.dma_bandwidth=200B/s"}).exit_code, 0);
}

// ---- 5. Sizes without bounds: the memory estimate comes before anything is built.
TEST(Errors, APlatformThisHostCannotHoldIsRefusedAtOnce) {
  const auto dir = test::temp_dir();
  // 31,623^2 = 1.0e9 nodes: about 5 KiB each is terabytes.
  std::string yaml = test::read_file(std::string(KAIRO_SOURCE_DIR) + "/platforms/mesh-8x8.yaml");
  for (std::size_t at; (at = yaml.find("size: 8,")) != std::string::npos;) yaml.replace(at, 7, "size: 31623");
  const std::string big = test::write_file(dir, "big.yaml", yaml);
  for (const auto& cmd : std::vector<std::vector<std::string>>{
           {"check", big}, {"traffic", big, "--rate", "0.1"}, {"run", big, "--workload", "barrier"}}) {
    auto r = run_kairo(cmd);
    expect_refused(r, {"1000014129 nodes", "would need about", "GiB of host memory"});
  }
  // The limit is this host's memory (KAIRO_HOST_MEMORY stands in for it).
  ::setenv("KAIRO_HOST_MEMORY", "4MiB", 1);
  auto r = run_kairo({"traffic", "mesh-8x8", "--rate", "0.1"});
  ::unsetenv("KAIRO_HOST_MEMORY");
  expect_refused(r, {"mesh-8x8", "this host has 4.0 MiB"});
}

TEST(Errors, AHugePlatformFileIsNotRead) {
  const auto dir = test::temp_dir();
  const std::string path = dir + "/huge.yaml";
  { std::ofstream(path) << "name: x\n"; }
  fs::resize_file(path, std::uintmax_t(20) << 30);  // sparse: 20 GiB of nothing
  auto r = run_kairo({"check", path});
  expect_refused(r, {path, "at most 16 MiB"});
}

TEST(Errors, AGridLargerThanThePlatformIsRefused) {
  expect_refused(run_kairo({"run", "eps-tree-128", "--workload", "pattern", "--param", "grid=65536x65536"}),
                 {"--param grid=65536x65536", "128"});
}

// ---- 6. Crashes on legal input.
TEST(Errors, APlatformFileThatIsNotUtf8IsRefusedWithItsPosition) {
  const auto dir = test::temp_dir();
  std::string yaml = test::read_file(std::string(KAIRO_SOURCE_DIR) + "/platforms/mesh-8x8.yaml");
  yaml.replace(0, yaml.find('\n'), "name: caf\xE9");
  const std::string f = test::write_file(dir, "latin1.yaml", yaml);
  expect_refused(run_kairo({"traffic", f, "--rate", "0.1"}), {f + ":1:10:", "UTF-8", "0xE9"});
  // The same name in UTF-8 runs and comes back unchanged.
  yaml.replace(0, yaml.find('\n'), "name: caf\xC3\xA9");
  const std::string g = test::write_file(dir, "utf8.yaml", yaml);
  auto r = run_kairo({"traffic", g, "--rate", "0.1", "--measure-cycles", "200", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["platform"], "caf\xC3\xA9");
}

TEST(Errors, BatchModeHasNoRateToSweep) {
  expect_refused(run_kairo({"traffic", "torus-8x8", "--batch", "10", "--sweep", "0.1"}),
                 {"--sweep", "--batch"});
}

// ---- 8. Selections that select nothing.
TEST(Errors, AnUnknownSwitchToTraceIsNamed) {
  const auto dir = test::temp_dir();
  auto r = run_kairo({"run", "ib-qdr-16", "--workload", "pingpong", "--trace-switches", "edge99", "--vcd",
                      dir + "/x.vcd", "--quiet"});
  expect_refused(r, {"--trace-switches", "edge99", "edge0"});
  EXPECT_FALSE(exists(dir + "/x.vcd"));
}

TEST(Errors, ADefaultThatDoesNotFitThePlatformIsBadInput) {
  auto r = run_kairo({"run", "tofu-small", "--workload", "pingpong", "--set", "ranks.map=[0]"});
  expect_refused(r, {"--param dst", "default"});
}

// ---- 9. Reproducible outputs: no wall-clock date in the waveform.
TEST(Errors, TheSameRunWritesTheSameFstFile) {
  const auto dir = test::temp_dir();
  std::string files[2];
  for (int i = 0; i < 2; ++i) {
    files[i] = dir + "/w" + std::to_string(i) + ".fst";
    auto r = run_kairo({"run", "tofu-small", "--workload", "pingpong", "--trace-nodes", "0,1", "--fst",
                        files[i], "--quiet", "--json", dir + "/r.json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    if (i == 0) ::sleep(1);  // a date in seconds would differ
  }
  const std::string a = test::read_file(files[0]), b = test::read_file(files[1]);
  EXPECT_GT(a.size(), 200u);
  EXPECT_TRUE(a == b) << "the two FST files differ";
}

}  // namespace
}  // namespace kairo
