// libFuzzer target: the OTF2 archives `kairo run --workload trace` reads
// (sw/replay). A template archive (examples/traces/small-8, 8 ranks) is copied
// to a scratch directory once; each input replaces one of its files, chosen by
// its first byte: 0 rank 0's events (traces/0.evt), 1 the global definitions
// (traces.def), 2 rank 0's local definitions (traces/0.def), 3 the anchor
// (traces.otf2). The archive is then read and planned, as the workload does.
//
// Bad input must end in the documented error: replay::TraceError naming the
// archive (or std::invalid_argument from the plan); anything else -- a crash,
// a sanitizer report, another exception type, a hang -- escapes and libFuzzer
// reports it as a finding.
// Built by -DKAIRO_FUZZ=ON (clang); run by tools/fuzz.sh.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <typeinfo>
#include <vector>

#include "sw/replay/plan.h"
#include "sw/replay/trace.h"

// libsystemc, which kairo_core brings in for the collectives' table, refers
// to sc_main; libFuzzer has its own main().
extern "C" int sc_main(int, char**) { return 0; }

namespace {
std::filesystem::path scratch;
const char* const kFiles[] = {"traces/0.evt", "traces.def", "traces/0.def", "traces.otf2"};

// The descriptors this process has open on the scratch archive's files, and
// how many of them are on its anchor.
std::vector<int> archive_descriptors(int* on_anchor) {
  namespace fs = std::filesystem;
  std::vector<int> fds;
  std::error_code ec;
  const std::string prefix = scratch.string() + "/";
  for (const fs::directory_entry& e : fs::directory_iterator("/proc/self/fd", ec)) {
    const fs::path target = fs::read_symlink(e.path(), ec);
    if (ec || target.string().rfind(prefix, 0) != 0) continue;
    fds.push_back(std::stoi(e.path().filename().string()));
    *on_anchor += target.filename() == "traces.otf2";
  }
  return fds;
}
}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  namespace fs = std::filesystem;
  char name[] = "/tmp/kairo-fuzz-otf2.XXXXXX";
  if (!mkdtemp(name)) std::abort();
  scratch = fs::path(name) / "archive";
  fs::copy(fs::path(KAIRO_SOURCE_DIR) / "examples/traces/small-8", scratch, fs::copy_options::recursive);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::filesystem::path file = scratch / kFiles[data[0] % 4];
  const std::string keep = [&] {
    std::ifstream in(file, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }();
  std::ofstream(file, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data) + 1, std::streamsize(size - 1));
  bool refused = false;
  try {
    const kairo::replay::Trace t = kairo::replay::read_otf2((scratch / "traces.otf2").string());
    (void)kairo::replay::make_plan(t, {});
  } catch (const kairo::replay::TraceError&) {
    refused = true;
  } catch (const std::invalid_argument& e) {
    if (typeid(e) != typeid(std::invalid_argument)) throw;
  }
  // Whatever kairo opened is closed on every path. libotf2 (Debian's 3.0.2)
  // leaves the anchor open when it refuses it: OTF2_Reader_Open fails and
  // returns no handle, or OTF2_Reader_Close cannot close a handle whose
  // anchor named an unknown file substrate. Those descriptors are closed
  // here, or the fuzzer's process runs out of them after some 40,000 inputs.
  // Any other descriptor left open on the archive is a finding.
  int on_anchor = 0;
  if (const std::vector<int> left = archive_descriptors(&on_anchor); !left.empty()) {
    if (!refused || on_anchor != int(left.size())) {
      std::fprintf(stderr, "fuzz_otf2: %zu descriptor(s) left open on the archive\n", left.size());
      std::abort();
    }
    for (int fd : left) ::close(fd);
  }
  std::ofstream(file, std::ios::binary | std::ios::trunc).write(keep.data(), std::streamsize(keep.size()));
  return 0;
}
