// libFuzzer target: the input is a platform's YAML text, given to the
// platform parser (platforms::parse_platform) as `kairo run FILE.yaml` would.
// Lines "#set key=value" (YAML comments, so the parser ignores them) are also
// passed as --set overrides, so the fuzzer reaches that path too.
//
// Bad input must end in the parser's documented errors: ConfigError (and
// std::invalid_argument, which the CLI also reports as bad input, exit 2).
// Anything else -- a crash, a sanitizer report, another exception type
// (std::out_of_range, std::bad_alloc, a YAML::Exception leaking out, ...) --
// escapes this function and libFuzzer reports it as a finding.
// Built by -DKAIRO_FUZZ=ON (clang); run by tools/fuzz.sh.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "platforms/platform.h"

// libsystemc refers to sc_main; libFuzzer has its own main().
extern "C" int sc_main(int, char**) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> sets;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("#set ", 0) == 0) sets.push_back(line.substr(5));
  try {
    (void)kairo::platforms::parse_platform(text, "fuzz.yaml", sets);
  } catch (const kairo::platforms::ConfigError&) {
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
