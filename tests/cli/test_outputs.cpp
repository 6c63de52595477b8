// Outputs written whole or not at all (docs/reliability.md, "Outputs"):
// every output goes to its part file and is renamed into place when whole,
// under an advisory lock; SIGINT and SIGTERM stop a run, remove the part
// files, keep what already existed and exit 130 or 143 saying what was and
// was not written.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>

#include <cstdlib>
#include <filesystem>

#include "sim/output_file.h"
#include "tests/test_support.h"

namespace kairo {
namespace {

namespace fs = std::filesystem;
using test::run_kairo;

std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// A traffic run far longer than the test waits (about a minute of
// simulation), with an existing JSON of an earlier run and three outputs
// that are written while it runs or after it.
TEST(Outputs, AnInterruptedRunLeavesNoPartialFileAndTheEarlierOneAsItWas) {
  for (const int sig : {SIGINT, SIGTERM}) {
    const std::string dir = test::temp_dir();
    test::write_file(dir, "r.json", "an earlier run's result\n");
    test::RunLimits limits;
    limits.seconds = 120;
    limits.signal = sig;
    limits.signal_after_ms = 1500;
    const auto r = run_kairo(
        {"traffic", "mesh-16x16", "--rate", "0.3", "--warmup-cycles", "1000", "--measure-cycles", "100000000",
         "--quiet", "--json", dir + "/r.json", "--counters", dir + "/c.kcl", "--vcd", dir + "/w.vcd"},
        limits);
    const char* name = sig == SIGINT ? "SIGINT" : "SIGTERM";
    EXPECT_EQ(r.exit_code, 128 + sig) << name << ": " << r.err;
    EXPECT_NE(r.err.find(std::string("kairo: interrupted by ") + name), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("not written: --json " + dir + "/r.json"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--counters " + dir + "/c.kcl"), std::string::npos) << r.err;
    EXPECT_EQ(test::read_file(dir + "/r.json"), "an earlier run's result\n");
    EXPECT_EQ(files_in(dir), std::vector<std::string>{"r.json"}) << name;
  }
}

// Two writers of one output: the second is refused, naming the lock, and
// the first one's file arrives whole.
TEST(Outputs, AnOutputAnotherProcessIsWritingIsRefused) {
  const std::string dir = test::temp_dir();
  const std::string path = dir + "/r.json";
  sim::OutputFile first("--json", path);
  first.write("{\"first\": true}\n");
  const auto r = run_kairo({"traffic", "mesh-8x8", "--rate", "0.1", "--quiet", "--json", path});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--json: cannot write '" + path + "': another process is writing it"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(path)) << "nothing under the final name before the first writer closes";
  first.close();
  EXPECT_EQ(test::read_file(path), "{\"first\": true}\n");
  EXPECT_EQ(files_in(dir), std::vector<std::string>{"r.json"});
}

// A write that fails part-way (a file size limit, as a full disk would)
// throws naming the option and the path, removes its part file and leaves
// the existing output as it was; a new output is not created at all.
TEST(Outputs, AFailedWriteKeepsTheExistingFile) {
  const std::string dir = test::temp_dir();
  const std::string old_path = test::write_file(dir, "big.csv", "the earlier table\n");
  for (const std::string& path : {old_path, dir + "/new.csv"}) {
    std::string error;
    try {
      const test::FileSizeLimit full(100000);
      sim::OutputFile f("--csv", path);
      const std::string line(1000, 'x');
      for (int i = 0; i < 1000; ++i) f.write(line);
      f.close();
    } catch (const sim::OutputError& e) {
      error = e.what();
    }
    EXPECT_NE(error.find("--csv: cannot write '" + path + "'"), std::string::npos) << error;
    EXPECT_NE(error.find("removed"), std::string::npos) << error;
  }
  EXPECT_EQ(test::read_file(old_path), "the earlier table\n");
  EXPECT_EQ(files_in(dir), std::vector<std::string>{"big.csv"});
}

// --fst needs a temporary directory: one that is missing is found before
// the run, not after it.
TEST(Outputs, FstWithoutATemporaryDirectoryIsRefusedBeforeTheRun) {
  const std::string dir = test::temp_dir();
  ::setenv("TMPDIR", "/nonexistent-kairo-tmp", 1);
  const auto r = run_kairo({"traffic", "mesh-8x8", "--rate", "0.1", "--quiet", "--json", dir + "/r.json",
                            "--fst", dir + "/w.fst"});
  ::unsetenv("TMPDIR");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(
      r.err.find("--fst: cannot write '" + dir + "/w.fst': no temporary file in /nonexistent-kairo-tmp"),
      std::string::npos)
      << r.err;
  EXPECT_TRUE(files_in(dir).empty());
}

// A symbolic link to an output is followed: the file it names is replaced,
// the link stays.
TEST(Outputs, ALinkToAnOutputIsFollowed) {
  const std::string dir = test::temp_dir();
  test::write_file(dir, "real.json", "old\n");
  fs::create_symlink(dir + "/real.json", dir + "/link.json");
  sim::write_output_file("--json", dir + "/link.json", "new\n");
  EXPECT_TRUE(fs::is_symlink(dir + "/link.json"));
  EXPECT_EQ(test::read_file(dir + "/real.json"), "new\n");
}

}  // namespace
}  // namespace kairo
