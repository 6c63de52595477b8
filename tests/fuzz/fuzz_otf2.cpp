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
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <typeinfo>

#include "sw/replay/plan.h"
#include "sw/replay/trace.h"

// libsystemc, which kairo_core brings in for the collectives' table, refers
// to sc_main; libFuzzer has its own main().
extern "C" int sc_main(int, char**) { return 0; }

namespace {
std::filesystem::path scratch;
const char* const kFiles[] = {"traces/0.evt", "traces.def", "traces/0.def", "traces.otf2"};
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
  try {
    const kairo::replay::Trace t = kairo::replay::read_otf2((scratch / "traces.otf2").string());
    (void)kairo::replay::make_plan(t, {});
  } catch (const kairo::replay::TraceError&) {
  } catch (const std::invalid_argument& e) {
    if (typeid(e) != typeid(std::invalid_argument)) throw;
  }
  std::ofstream(file, std::ios::binary | std::ios::trunc).write(keep.data(), std::streamsize(keep.size()));
  return 0;
}
