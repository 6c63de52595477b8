// libFuzzer target: the input is a counter log (`kairo run --counters`),
// read back by platforms::read_counter_log as `kairo view` does. The reader
// takes a path and picks the format from the content (the .kcl magic, else
// CSV), so each input is written to one temporary file first; the seeds
// (tools/fuzz.sh makes them with kairo) hold both formats.
//
// Bad input must end in the reader's documented error: exactly
// std::runtime_error ("counter log FILE: what is wrong"). Anything else -- a
// crash, a sanitizer report, another exception type (std::out_of_range,
// std::invalid_argument from std::stoull, std::bad_alloc, std::length_error,
// nlohmann::json's exceptions, ...) -- escapes this function and libFuzzer
// reports it as a finding.
// Built by -DKAIRO_FUZZ=ON (clang); run by tools/fuzz.sh.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <typeinfo>

#include "platforms/counter_log.h"

// libsystemc refers to sc_main; libFuzzer has its own main().
extern "C" int sc_main(int, char**) { return 0; }

namespace {
std::string temp_path;
void remove_temp() { std::remove(temp_path.c_str()); }
}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* dir = std::getenv("TMPDIR");
  std::string templ = std::string(dir && *dir ? dir : "/tmp") + "/kairo-fuzz-counter-log-XXXXXX";
  const int fd = mkstemp(templ.data());
  if (fd < 0) {
    std::perror("fuzz_counter_log: mkstemp");
    std::abort();
  }
  close(fd);
  temp_path = templ;
  std::atexit(remove_temp);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::FILE* f = std::fopen(temp_path.c_str(), "wb");
  if (!f || std::fwrite(data, 1, size, f) != size || std::fclose(f) != 0) {
    std::perror("fuzz_counter_log: writing the input");
    std::abort();  // the harness's own failure, not a finding in kairo
  }
  try {
    (void)kairo::platforms::read_counter_log(temp_path);
  } catch (const std::runtime_error& e) {
    if (typeid(e) != typeid(std::runtime_error)) throw;  // a subclass is not the documented error
  }
  return 0;
}
